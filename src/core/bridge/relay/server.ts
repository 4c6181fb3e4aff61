// The relay server: a WebSocket endpoint on 127.0.0.1 that `pyops relay` connects to when the game
// runs on another machine than the extension host (VS Code Remote forwards TCP, not UDP). Each
// connection carries the mod's datagrams into the same bridge dispatcher and the bridge's replies
// back out. A random token guards it; browser origins are refused so a web page cannot use it.
import crypto from 'node:crypto';
import http from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Bridge } from '../bridge';
import { BRIDGE_HOST } from '../protocol';
import { clientFrame, encodeFrame, MAX_FRAME_BYTES, parseFrame, RELAY_VERSION } from './frames';

export interface RelayServerOptions {
  bridge: Bridge;
  /** Random when omitted. */
  token?: string;
  /** 0 = any free port. */
  port?: number;
}

export interface RelayServerInfo {
  port: number;
  token: string;
  /** ws://127.0.0.1:<port>/ */
  url: string;
}

export function newRelayToken(): string {
  return crypto.randomBytes(18).toString('base64url');
}

function tokenMatches(expected: string, got: string | undefined): boolean {
  if (!got) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(got);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** The token from `Authorization: Bearer …` or the `token` query parameter. */
export function requestToken(req: http.IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice(7).trim();
  try {
    return new URL(req.url ?? '/', 'http://x').searchParams.get('token') ?? undefined;
  } catch {
    return undefined;
  }
}

export class RelayServer {
  readonly token: string;
  private server: http.Server | undefined;
  private wss: WebSocketServer | undefined;
  private readonly sockets = new Set<WebSocket>();
  private seq = 0;
  /** Relay ids stay unique across server restarts (a late close must not detach a newer relay). */
  private readonly idPrefix = `r${crypto.randomBytes(3).toString('hex')}-`;

  constructor(private readonly opts: RelayServerOptions) {
    this.token = opts.token ?? newRelayToken();
  }

  get running(): boolean {
    return !!this.server?.listening;
  }

  get connections(): number {
    return this.sockets.size;
  }

  info(): RelayServerInfo | undefined {
    const a = this.server?.address();
    if (!a || typeof a === 'string') return undefined;
    return { port: a.port, token: this.token, url: `ws://${BRIDGE_HOST}:${a.port}/` };
  }

  async start(): Promise<RelayServerInfo> {
    if (this.running) return this.info()!;
    const server = http.createServer((_req, res) => {
      res.writeHead(426, { 'content-type': 'text/plain' }).end('PyOps relay: connect with `pyops relay --to ws://…`.\n');
    });
    const wss = new WebSocketServer({
      server,
      maxPayload: MAX_FRAME_BYTES,
      verifyClient: (info, cb) => {
        if (info.req.headers.origin) return cb(false, 403, 'browser origins are not accepted');
        if (!tokenMatches(this.token, requestToken(info.req))) return cb(false, 401, 'wrong or missing relay token');
        cb(true);
      },
    });
    wss.on('connection', (ws) => this.accept(ws));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.opts.port ?? 0, BRIDGE_HOST, () => {
        server.removeListener('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.wss = wss;
    return this.info()!;
  }

  private accept(ws: WebSocket): void {
    const id = `${this.idPrefix}${++this.seq}`;
    this.sockets.add(ws);
    const handle = this.opts.bridge.attachRelay({
      id,
      send: (port, bytes) => {
        if (ws.readyState !== ws.OPEN) return false;
        ws.send(encodeFrame({ type: 'datagram', port, data: bytes.toString('base64') }));
        return true;
      },
    });
    ws.send(encodeFrame({ type: 'welcome', version: RELAY_VERSION }));
    ws.on('message', (raw) => {
      const f = parseFrame(clientFrame, raw);
      if (!f) return;
      if (f.type === 'datagram') handle.receive(f.port, Buffer.from(f.data, 'base64'));
      else if (f.type === 'unreachable') handle.unreachable(f.port);
    });
    const done = () => {
      this.sockets.delete(ws);
      handle.detach();
    };
    ws.on('close', done);
    ws.on('error', done);
  }

  async stop(): Promise<void> {
    for (const ws of this.sockets) ws.terminate();
    this.sockets.clear();
    const wss = this.wss;
    const server = this.server;
    this.wss = undefined;
    this.server = undefined;
    await new Promise<void>((r) => (wss ? wss.close(() => r()) : r()));
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  }
}
