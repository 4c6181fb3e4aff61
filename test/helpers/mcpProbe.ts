// A raw MCP request with chosen headers (fetch cannot override Host), for the token, Host and
// Origin checks of the embedded MCP server. Returns the HTTP status.
import http from 'node:http';

export function rawMcpPost(port: number, headers: Record<string, string>, path = '/mcp'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }));
  });
}
