// The UDP socket of the bridge: bind 127.0.0.1:<port>, hand every datagram to the dispatcher,
// send datagrams back. Start is idempotent; a failed bind leaves the transport in an error state
// with a message saying what to do, and the next start() tries again. Knows nothing about the
// protocol.
import dgram from 'node:dgram';
import { BRIDGE_HOST } from './protocol';

export type SocketFactory = () => dgram.Socket;

export type BindResult = { ok: true; port: number } | { ok: false; code: string; error: string };

/** Send errors that mean "nobody is listening there any more" (ICMP port unreachable and kin). */
export const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

/** `portHint` names where the user sets the port (the relay CLI has an option, not a setting). */
export function bindErrorMessage(port: number, err: NodeJS.ErrnoException, portHint = 'pyops.bridge.port setting'): string {
  switch (err.code) {
    case 'EADDRINUSE':
      return `UDP port ${port} on ${BRIDGE_HOST} is already in use, probably by another VS Code window with PyOps or a running \`pyops bridge\`. Close that one and retry, or pick another port in the ${portHint} and set the same port in the mod's "PyOps Link: app port" setting.`;
    case 'EACCES':
    case 'EPERM':
      return `Not allowed to listen on UDP port ${port} (${err.code}). Pick a port above 1024 in the ${portHint} (and the same port in the mod's settings), then retry.`;
    case 'EADDRNOTAVAIL':
      return `${BRIDGE_HOST} is not available on this machine (${err.code}); the game link needs a loopback interface.`;
    default:
      return `Could not listen on UDP ${BRIDGE_HOST}:${port}: ${err.message}. Retry, or pick another port in the ${portHint}.`;
  }
}

export interface TransportHandlers {
  onMessage(bytes: Buffer, from: { address: string; port: number }): void;
  /** Errors after a successful bind (the socket keeps listening). */
  onSocketError(err: NodeJS.ErrnoException): void;
}

export class UdpTransport {
  private socket: dgram.Socket | undefined;
  private starting: Promise<BindResult> | undefined;
  private boundPort: number | undefined;

  constructor(
    private readonly handlers: TransportHandlers,
    private readonly createSocket: SocketFactory = () => dgram.createSocket({ type: 'udp4', reuseAddr: false }),
    /** Where the user changes the port, for bind errors (see bindErrorMessage). */
    private readonly portHint?: string,
  ) {}

  get listening(): boolean {
    return this.socket !== undefined && this.boundPort !== undefined;
  }

  get port(): number | undefined {
    return this.boundPort;
  }

  /** Bind (or keep the existing binding when it is already on `port`). Never throws. */
  start(port: number): Promise<BindResult> {
    if (this.listening && this.boundPort === port) return Promise.resolve({ ok: true, port });
    if (this.starting) return this.starting.then((r) => (r.ok && r.port === port ? r : this.start(port)));
    this.starting = (async () => {
      if (this.socket) await this.stop();
      const socket = this.createSocket();
      const result = await new Promise<BindResult>((resolve) => {
        const onError = (err: NodeJS.ErrnoException) => {
          socket.removeListener('listening', onListening);
          try {
            socket.close();
          } catch {
            // already closed by the failed bind
          }
          resolve({ ok: false, code: err.code ?? 'EUNKNOWN', error: bindErrorMessage(port, err, this.portHint) });
        };
        const onListening = () => {
          socket.removeListener('error', onError);
          resolve({ ok: true, port: socket.address().port });
        };
        socket.once('error', onError);
        socket.once('listening', onListening);
        try {
          socket.bind(port, BRIDGE_HOST);
        } catch (err) {
          onError(err as NodeJS.ErrnoException);
        }
      });
      if (result.ok) {
        socket.on('message', (msg, rinfo) => this.handlers.onMessage(msg, { address: rinfo.address, port: rinfo.port }));
        socket.on('error', (err) => this.handlers.onSocketError(err));
        this.socket = socket;
        this.boundPort = result.port;
      }
      return result;
    })().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /** Send one datagram; resolves with the error (if any) instead of throwing. */
  send(bytes: Buffer, port: number, address: string): Promise<NodeJS.ErrnoException | undefined> {
    const socket = this.socket;
    if (!socket) return Promise.resolve(Object.assign(new Error('the bridge is not listening'), { code: 'ENOTCONN' }));
    return new Promise((resolve) => {
      try {
        socket.send(bytes, port, address, (err) => resolve(err ?? undefined));
      } catch (err) {
        resolve(err as NodeJS.ErrnoException);
      }
    });
  }

  async stop(): Promise<void> {
    const s = this.socket;
    this.socket = undefined;
    this.boundPort = undefined;
    if (!s) return;
    s.removeAllListeners('message');
    await new Promise<void>((resolve) => {
      try {
        s.close(() => resolve());
      } catch {
        resolve();
      }
    });
  }
}
