// The relay client run by `pyops relay` beside the game: it listens on the bridge's UDP port
// (where the mod sends), forwards every datagram over a WebSocket to the relay server in the
// extension host, and sends what comes back to the game's UDP port. It reconnects on its own; while
// the WebSocket is down, datagrams from the game are dropped (the mod's next ping retries anyway).
import dgram from 'node:dgram';
import { WebSocket } from 'ws';
import { BRIDGE_HOST, DEFAULT_BRIDGE_PORT } from '../protocol';
import { bindErrorMessage, UNREACHABLE_CODES } from '../transport';
import { encodeFrame, parseFrame, RELAY_VERSION, serverFrame } from './frames';

export interface RelayClientOptions {
  /** ws://host:port/ of the relay server (a token may ride in ?token=). */
  url: string;
  token?: string;
  /** UDP port to listen on for the mod (the mod's "app port" setting). */
  port?: number;
  /** Reconnect delays grow from this to 10 s. */
  retryMs?: number;
}

export type RelayClientEvent =
  | { type: 'listening'; port: number }
  | { type: 'connected'; url: string }
  | { type: 'disconnected'; reason: string; retryInMs?: number }
  | { type: 'rejected'; reason: string }
  | { type: 'game'; port: number };

export interface RelayStats {
  fromGame: number;
  toGame: number;
  dropped: number;
  connected: boolean;
}

export class RelayClient {
  private socket: dgram.Socket | undefined;
  private ws: WebSocket | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;
  private delay: number;
  private lastGamePort: number | undefined;
  private readonly listeners = new Set<(e: RelayClientEvent) => void>();
  readonly stats: RelayStats = { fromGame: 0, toGame: 0, dropped: 0, connected: false };

  constructor(private readonly opts: RelayClientOptions) {
    this.delay = opts.retryMs ?? 500;
  }

  on(l: (e: RelayClientEvent) => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  private emit(e: RelayClientEvent): void {
    for (const l of this.listeners) l(e);
  }

  get udpPort(): number | undefined {
    const a = this.socket?.address();
    return a ? a.port : undefined;
  }

  /** Bind the UDP port and connect. Rejects only when the UDP port cannot be bound. */
  async start(): Promise<void> {
    this.stopped = false;
    const port = this.opts.port ?? DEFAULT_BRIDGE_PORT;
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', (err: NodeJS.ErrnoException) => reject(new Error(bindErrorMessage(port, err, '--port option'))));
      socket.bind(port, BRIDGE_HOST, () => resolve());
    });
    socket.removeAllListeners('error');
    socket.on('error', () => {
      // per-datagram errors are handled at send time
    });
    socket.on('message', (msg, rinfo) => this.fromGame(msg, rinfo.port));
    this.socket = socket;
    this.emit({ type: 'listening', port: socket.address().port });
    this.connect();
  }

  private fromGame(msg: Buffer, port: number): void {
    this.stats.fromGame++;
    if (port !== this.lastGamePort) {
      this.lastGamePort = port;
      this.emit({ type: 'game', port });
    }
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      this.stats.dropped++;
      return;
    }
    ws.send(encodeFrame({ type: 'datagram', port, data: msg.toString('base64') }));
  }

  private connect(): void {
    if (this.stopped) return;
    const headers: Record<string, string> = {};
    if (this.opts.token) headers.authorization = `Bearer ${this.opts.token}`;
    const ws = new WebSocket(this.opts.url, { headers, handshakeTimeout: 5_000 });
    this.ws = ws;
    let fatal = false;
    ws.on('unexpected-response', (_req, res) => {
      // 401/403 will not get better by retrying.
      fatal = res.statusCode === 401 || res.statusCode === 403;
      const reason = res.statusCode === 401 ? 'the relay token was refused; copy the command again from "PyOps: Show Relay Command Line"' : `the server answered HTTP ${res.statusCode}`;
      if (fatal) this.emit({ type: 'rejected', reason });
      ws.terminate();
    });
    ws.on('open', () => {
      this.delay = this.opts.retryMs ?? 500;
      ws.send(encodeFrame({ type: 'hello', version: RELAY_VERSION, bridgePort: this.udpPort }));
    });
    ws.on('message', (raw) => {
      const f = parseFrame(serverFrame, raw);
      if (!f) return;
      if (f.type === 'welcome') {
        this.stats.connected = true;
        this.emit({ type: 'connected', url: this.opts.url });
      } else if (f.type === 'datagram') {
        this.toGame(f.port, Buffer.from(f.data, 'base64'));
      }
    });
    ws.on('error', () => {
      // 'close' follows and schedules the retry
    });
    ws.on('close', () => {
      const was = this.stats.connected;
      this.stats.connected = false;
      if (this.ws === ws) this.ws = undefined;
      if (this.stopped) return;
      if (fatal) {
        this.stopped = true;
        return;
      }
      const retryInMs = this.delay;
      this.delay = Math.min(10_000, this.delay * 2);
      this.emit({ type: 'disconnected', reason: was ? 'the connection to PyOps closed' : `could not reach ${this.opts.url}`, retryInMs });
      this.retry = setTimeout(() => this.connect(), retryInMs);
    });
  }

  private toGame(port: number, bytes: Buffer): void {
    const socket = this.socket;
    if (!socket) return;
    socket.send(bytes, port, BRIDGE_HOST, (err: NodeJS.ErrnoException | null) => {
      if (!err) {
        this.stats.toGame++;
        return;
      }
      if (err.code && UNREACHABLE_CODES.has(err.code) && this.ws?.readyState === WebSocket.OPEN) this.ws.send(encodeFrame({ type: 'unreachable', port }));
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.ws?.terminate();
    this.ws = undefined;
    const s = this.socket;
    this.socket = undefined;
    if (s) await new Promise<void>((r) => s.close(() => r()));
  }
}
