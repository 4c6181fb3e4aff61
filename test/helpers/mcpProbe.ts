// A raw MCP request with chosen headers (fetch cannot override Host), for the token, Host and
// Origin checks of the embedded MCP server (returns the HTTP status), and a raw JSON-RPC call for
// requests no well-behaved client would send (returns the parsed answer).
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

/** POST one JSON-RPC message to the MCP endpoint as it is, and return the parsed answer. */
export function rawMcpRpc(port: number, headers: Record<string, string>, message: unknown, path = '/mcp'): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(message));
  });
}
