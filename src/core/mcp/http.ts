// MCP over Streamable HTTP for the extension host: loopback only, a random port, a random bearer
// token, and Host/Origin checks (DNS-rebinding protection), so a web page or another machine cannot
// reach the project. Stateless: a fresh server and transport per request. Besides the full tool list
// at /mcp, named views at /mcp/<view> serve a narrower list (VS Code's own definition offers only the
// tools its language-model tools do not, so agent mode never sees one tool twice).
import http from 'node:http';
import crypto from 'node:crypto';
import type { AnyTool, ToolContext } from '../assistant/tools/types';
import { buildMcpServer, type McpCallListener, type McpServerInfo } from './server';

export interface HttpMcpOptions {
  tools: () => readonly AnyTool[];
  /** Narrower tool lists served at /mcp/<view> (view names are URL-safe words). */
  views?: Record<string, () => readonly AnyTool[]>;
  context: () => ToolContext | Promise<ToolContext>;
  info: McpServerInfo;
  onCall?: McpCallListener;
  /** 0 = a random free port. */
  port?: number;
  token?: string;
}

export interface HttpMcpHandle {
  url: string;
  port: number;
  token: string;
  /** Header the client must send. */
  headers: Record<string, string>;
  /** The URL of a view from the options. */
  viewUrl(view: string): string;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const MAX_BODY = 4 * 1024 * 1024;

function reject(res: http.ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

export async function startHttpMcp(opts: HttpMcpOptions): Promise<HttpMcpHandle> {
  // Loaded with the server, not with the extension: the transport's HTTP layer reads Node's fetch
  // classes as it loads, and loading those (undici) cost every window ~17 ms before activate() in
  // Node 20, for a server most windows never start.
  const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const token = opts.token ?? crypto.randomBytes(24).toString('base64url');
  let port = opts.port ?? 0;
  const allowedHosts = () => [`127.0.0.1:${port}`, `localhost:${port}`];
  const allowedOrigins = () => [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
  const expected = Buffer.from(`Bearer ${token}`);

  const server = http.createServer((req, res) => {
    void (async () => {
      if (!LOOPBACK.has(req.socket.remoteAddress ?? '')) return reject(res, 403, 'PyOps MCP accepts loopback connections only.');
      if (!allowedHosts().includes(req.headers.host ?? '')) return reject(res, 403, 'Forbidden Host header.');
      const origin = req.headers.origin;
      if (origin && !allowedOrigins().includes(origin)) return reject(res, 403, 'Forbidden Origin.');
      const auth = Buffer.from(req.headers.authorization ?? '');
      if (auth.length !== expected.length || !crypto.timingSafeEqual(auth, expected)) return reject(res, 401, 'Missing or wrong bearer token.');
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST' }).end();
        return;
      }
      const tools = toolsAt(req.url ?? '', opts);
      if (!tools) return reject(res, 404, `No MCP endpoint at ${req.url}; use /mcp.`);
      let body: unknown;
      try {
        body = await readJson(req);
      } catch (err) {
        return reject(res, 400, (err as Error).message);
      }
      const mcp = buildMcpServer(tools, opts.context, opts.info, opts.onCall);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
        enableDnsRebindingProtection: true,
        allowedHosts: allowedHosts(),
        allowedOrigins: allowedOrigins(),
      });
      res.on('close', () => {
        void transport.close();
        void mcp.close();
      });
      await mcp.connect(transport);
      await transport.handleRequest(req, res, body);
    })().catch((err) => {
      if (!res.headersSent) reject(res, 500, (err as Error).message);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject_) => {
    server.once('error', reject_);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as { port: number }).port;
  const url = `http://127.0.0.1:${port}/mcp`;
  return {
    url,
    viewUrl: (view) => {
      if (!opts.views || !Object.hasOwn(opts.views, view)) throw new Error(`no MCP view "${view}"`);
      return `${url}/${view}`;
    },
    port,
    token,
    headers: { Authorization: `Bearer ${token}` },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function toolsAt(url: string, opts: HttpMcpOptions): readonly AnyTool[] | undefined {
  const path = url.split('?')[0].replace(/\/+$/, '');
  if (path === '/mcp') return opts.tools();
  const m = /^\/mcp\/([^/]+)$/.exec(path);
  const name = m ? m[1] : undefined;
  return name && opts.views && Object.hasOwn(opts.views, name) ? opts.views[name]() : undefined;
}

function readJson(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('Request body too large.'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null'));
      } catch {
        reject(new Error('The request body is not JSON.'));
      }
    });
    req.on('error', reject);
  });
}
