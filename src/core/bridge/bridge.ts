// The bridge: one UDP endpoint (plus any WebSocket relays) in front of the message handlers. It
// reassembles chunked datagrams, decodes envelopes, keeps one peer (the game) while it is alive
// and refuses other sources meanwhile, answers pings, routes messages, sends commands and waits
// for their results, and keeps the counters and status the UI shows. Any local process can send
// to our port, so trust comes from the pairing code (pairing.ts): only a peer presenting it may
// write game state, capture tasks, read the task list, settle commands or receive them, learn
// the project's name, or hold reassembly slots for chunked messages; any other peer is linked
// read-only and gets nothing but what pairing needs (the pong saying it is not paired, and why a
// request was refused). Replies go out under a per-source budget, so a flood of requests cannot
// be turned into a larger flood of answers. Every datagram ends in exactly one counter, so the
// counters always add up to `in`.
import type { Project } from '../db/project';
import { HANDLERS, pingPayload, type HandlerDeps, type Outcome } from './handlers';
import { DEFAULT_REASSEMBLY, isChunkFrame, Reassembler, splitMessage, type ReassemblyLimits } from './chunking';
import {
  APP_TO_MOD_MAX_DATAGRAM,
  MOD_MAX_MESSAGE,
  BRIDGE_HOST,
  DEFAULT_BRIDGE_PORT,
  MAX_INBOUND_DATAGRAM,
  PROTOCOL_VERSION,
  decodeModMessage,
  encodeAppMessage,
  type AppMessageType,
  type CommandType,
  type ModEnvelope,
} from './protocol';
import { PendingRequests, READ_TIMEOUT_MS, SLOW_TIMEOUT_MS, type CommandOutcome } from './requests';
import { pairingMatches } from './pairing';
import type { ApplyResult } from './state';
import type { StateKind } from './snapshots';
import { UdpTransport, UNREACHABLE_CODES, type SocketFactory } from './transport';

/** A peer is "linked" while its last datagram is younger than this. */
export const LINK_WINDOW_MS = 6_000;

export type PeerRoute = { via: 'udp'; address: string; port: number } | { via: 'relay'; relayId: string; address: string; port: number };

export interface PeerInfo {
  route: PeerRoute;
  player?: number;
  playerName?: string;
  force?: string;
  modVersion?: string;
  protocolVersion: number;
  /** The peer presented this app's pairing code (from this route, while linked): it may receive commands. */
  paired: boolean;
  multiplayer?: boolean;
  gameVersion?: string;
  tick?: number;
  firstSeen: number;
  lastSeen: number;
}

export interface BridgeCounters {
  /** Datagrams received (UDP and relayed). */
  in: number;
  /** Datagrams sent. */
  out: number;
  /** Not a chunk frame or envelope we could read. */
  malformed: number;
  /** Well-formed but of a type the app does not know (no reply). */
  unknown: number;
  /** Known type with a payload that failed validation. */
  rejected: number;
  /** Valid but not applied (no project, read-only, protocol mismatch, a TURD push matching nothing). */
  ignored: number;
  /** A result nobody waits for (late or unknown request id). */
  late: number;
  /** Chunk parts waiting for the rest of their message. */
  partial: number;
  /** Chunk parts seen before. */
  duplicate: number;
  /** Handled without problems. */
  handled: number;
  /** Valid but the app failed handling it (database error …). */
  failed: number;
  /**
   * Refused: from another source while the peer is linked, a write, result or task-list request
   * from an unpaired peer, or a chunk part from a source that is not the linked paired game.
   */
  refused: number;
  sendErrors: number;
  /** Reply datagrams not sent because their source exceeded its reply budget (outbound, not part of `in`). */
  limited: number;
  /** Incomplete chunked messages discarded after the reassembly timeout. */
  expired: number;
}

export type BridgeState = 'stopped' | 'starting' | 'listening' | 'error';

export interface BridgeStatus {
  state: BridgeState;
  host: string;
  port: number;
  /** What went wrong (bind failure), phrased as what to do next. */
  error?: string;
  counters: BridgeCounters;
  peer?: PeerInfo;
  linked: boolean;
  /** Epoch ms of the last valid datagram from the peer. */
  lastSeen?: number;
  player?: string;
  modVersion?: string;
  appProtocolVersion: number;
  modProtocolVersion?: number;
  protocolMismatch: boolean;
  /** The linked peer presented the pairing code; false means the link is read-only. */
  paired: boolean;
  /** The last source refused while another peer was linked (shown so a forged peer is noticed). */
  lastRefused?: { source: string; at: number; reason: string };
  relays: number;
  lastSnapshots: Partial<Record<StateKind, { at: number; count: number; changed: boolean; ignored?: string }>>;
  pendingRequests: number;
}

export type BridgeEvent =
  | { type: 'listening'; port: number }
  | { type: 'error'; message: string; code: string }
  | { type: 'stopped' }
  | { type: 'linked'; peer: PeerInfo }
  | { type: 'lost'; reason: string }
  | { type: 'snapshot'; kind: StateKind; count: number; changed: boolean; ignored?: string; notes: string[] }
  | { type: 'task'; id: string; title: string }
  | { type: 'notice'; message: string }
  | { type: 'refused'; source: string; reason: string }
  | { type: 'relay'; connected: number };

export interface BridgeOptions {
  port?: number;
  /** The project snapshots and tasks go into (looked up per message, so it can change). */
  project?: () => Project | undefined;
  /** Called after a snapshot changed the canonical stored state (callers re-solve from it). */
  onStateChanged?: (kinds: StateKind[]) => void;
  createSocket?: SocketFactory;
  reassembly?: Partial<ReassemblyLimits>;
  now?: () => number;
  /** For the pong: which app answers. */
  appName?: string;
  /**
   * The pairing code a peer must present to write game state and receive commands. Without one,
   * every peer is read-only.
   */
  pairing?: string | (() => string | undefined);
  /** Reply budget per source: `burst` datagrams at once, refilled at `perSecond`. */
  replyBudget?: { burst: number; perSecond: number };
  /** Where the user changes the port, named in bind errors (default: the VS Code setting). */
  portHint?: string;
}

export interface RequestOptions {
  timeoutMs?: number;
}

/** A WebSocket relay connection as the bridge sees it (relay/server.ts implements it). */
export interface RelayLink {
  readonly id: string;
  /** Deliver a datagram to 127.0.0.1:port on the relay's machine. */
  send(port: number, bytes: Buffer): boolean;
}

const SLOW_COMMANDS = new Set<CommandType>(['cmd.eval', 'cmd.dev.reload_mods', 'request.sync']);
const NOTICE_REPEAT_MS = 60_000;
/** A refused source is reported at most this often (a forged peer may send thousands of datagrams). */
const REFUSAL_REPORT_MS = 10_000;

/** Messages that change the project, read its tasks or settle a command: only a paired peer may send them. */
const PAIRED_ONLY = new Set(['state.research', 'state.turd', 'state.built', 'state.stats', 'task.capture', 'task.list', 'bridge.result']);

/** What an unpaired peer was refused, in the words of `unpairedMessage`. */
function refusedAction(type: string): string {
  if (type === 'task.capture') return 'PyOps did not save the task';
  if (type === 'task.list') return "PyOps did not send the project's tasks";
  if (type === 'bridge.result') return 'PyOps did not accept the result';
  return `PyOps did not save the game's ${type.slice('state.'.length)} state`;
}

/**
 * Enough for what the mod legitimately asks (a pong every 2 s, a task list of up to ~15 datagrams
 * on a click) and no more: 1,000 requests draw at most `burst` + `perSecond`·seconds replies.
 */
export const DEFAULT_REPLY_BUDGET = { burst: 40, perSecond: 20 };

export function unpairedMessage(what: string): string {
  return `${what}: the game is linked read-only because it did not present this PyOps's pairing code. Install the companion mod from PyOps again (it writes the code into the mod), or paste the code shown by "PyOps: Show Game Link Status" (or \`pyops bridge\`) into the mod's "PyOps Link: pairing code" setting (Settings > Mod settings > Per player).`;
}

/** `expired` is the reassembler's count, read at status() time, so the bridge never keeps one. */
type OwnCounters = Omit<BridgeCounters, 'expired'>;

function emptyCounters(): OwnCounters {
  return { in: 0, out: 0, malformed: 0, unknown: 0, rejected: 0, ignored: 0, late: 0, partial: 0, duplicate: 0, handled: 0, failed: 0, refused: 0, sendErrors: 0, limited: 0 };
}

const routeKey = (r: PeerRoute) => (r.via === 'udp' ? `udp:${r.address}:${r.port}` : `relay:${r.relayId}:${r.port}`);
const describeRoute = (r: PeerRoute) => (r.via === 'udp' ? `${r.address}:${r.port}` : `${r.address}:${r.port} via relay`);

export class Bridge {
  private readonly transport: UdpTransport;
  private readonly reassembler: Reassembler;
  private readonly pending = new PendingRequests();
  private readonly listeners = new Set<(e: BridgeEvent) => void>();
  private readonly relays = new Map<string, RelayLink>();
  private readonly recentNotices = new Map<string, number>();
  private readonly counters = emptyCounters();
  private readonly lastSnapshots: BridgeStatus['lastSnapshots'] = {};
  private readonly now: () => number;
  private state: BridgeState = 'stopped';
  private error: string | undefined;
  private port: number;
  private peer: PeerInfo | undefined;
  private wasLinked = false;
  private watchdog: NodeJS.Timeout | undefined;
  private messageSeq = 0;
  private readonly seqPrefix = Math.random().toString(36).slice(2, 6);
  private readonly budgets = new Map<string, { tokens: number; at: number }>();
  private readonly refusalReports = new Map<string, number>();
  private lastRefused: BridgeStatus['lastRefused'];

  constructor(private readonly opts: BridgeOptions = {}) {
    this.port = opts.port ?? DEFAULT_BRIDGE_PORT;
    this.now = opts.now ?? Date.now;
    this.reassembler = new Reassembler({ ...DEFAULT_REASSEMBLY, ...opts.reassembly }, this.now);
    this.transport = new UdpTransport(
      {
        onMessage: (bytes, from) => this.receive(bytes, { via: 'udp', address: from.address, port: from.port }),
        onSocketError: (err) => {
          // Windows reports ICMP port-unreachable as a receive error on the socket.
          if (err.code && UNREACHABLE_CODES.has(err.code) && this.peer?.route.via === 'udp') this.forgetPeer(`the game's UDP port is unreachable (${err.code})`);
          else this.noticeOnce(`UDP socket error: ${err.message}`);
        },
      },
      opts.createSocket,
      opts.portHint,
    );
  }

  // --- lifecycle ------------------------------------------------------------------------------

  /** Listen (idempotent). A bind failure is reported in the returned status, never thrown. */
  async start(): Promise<BridgeStatus> {
    if (this.state === 'listening' && this.transport.listening && this.transport.port === this.port) return this.status();
    this.state = 'starting';
    const r = await this.transport.start(this.port);
    if (r.ok) {
      this.state = 'listening';
      this.error = undefined;
      this.port = r.port;
      this.startWatchdog();
      this.emit({ type: 'listening', port: r.port });
    } else {
      this.state = 'error';
      this.error = r.error;
      this.emit({ type: 'error', message: r.error, code: r.code });
    }
    return this.status();
  }

  /** Change the port; rebinds when listening. */
  async setPort(port: number): Promise<BridgeStatus> {
    if (port === this.port && this.state === 'listening') return this.status();
    this.port = port;
    if (this.state === 'listening' || this.state === 'error') {
      await this.transport.stop();
      this.state = 'stopped';
      return this.start();
    }
    return this.status();
  }

  async stop(): Promise<void> {
    this.pending.failAll({ ok: false, code: 'stopped', error: 'The PyOps game link was stopped before the game answered; start it again and retry.' });
    await this.transport.stop();
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = undefined;
    this.reassembler.clear();
    const wasRunning = this.state !== 'stopped';
    this.state = 'stopped';
    this.peer = undefined;
    this.wasLinked = false;
    if (wasRunning) this.emit({ type: 'stopped' });
  }

  on(listener: (e: BridgeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  status(): BridgeStatus {
    const peer = this.peer;
    const linked = this.isLinked();
    return {
      state: this.state,
      host: BRIDGE_HOST,
      port: this.port,
      ...(this.error ? { error: this.error } : {}),
      counters: { ...this.counters, expired: this.reassembler.expired },
      ...(peer ? { peer: { ...peer, route: { ...peer.route } }, lastSeen: peer.lastSeen } : {}),
      linked,
      ...(peer?.playerName || peer?.player !== undefined ? { player: peer.playerName ?? `player ${peer.player}` } : {}),
      ...(peer?.modVersion ? { modVersion: peer.modVersion } : {}),
      appProtocolVersion: PROTOCOL_VERSION,
      ...(peer ? { modProtocolVersion: peer.protocolVersion } : {}),
      protocolMismatch: !!peer && peer.protocolVersion !== PROTOCOL_VERSION,
      paired: !!peer?.paired,
      ...(this.lastRefused ? { lastRefused: { ...this.lastRefused } } : {}),
      relays: this.relays.size,
      lastSnapshots: { ...this.lastSnapshots },
      pendingRequests: this.pending.size,
    };
  }

  isLinked(): boolean {
    return !!this.peer && this.now() - this.peer.lastSeen < LINK_WINDOW_MS;
  }

  // --- inbound --------------------------------------------------------------------------------

  /** Handle one datagram from `route` (the UDP socket and relays both come through here). */
  receive(bytes: Buffer, route: PeerRoute): Outcome | 'malformed' | 'unknown' | 'partial' | 'duplicate' | 'refused' {
    this.counters.in++;
    const outcome = this.process(bytes, route);
    this.counters[outcome]++;
    return outcome;
  }

  private process(bytes: Buffer, route: PeerRoute): Outcome | 'malformed' | 'unknown' | 'partial' | 'duplicate' | 'refused' {
    if (bytes.length > MAX_INBOUND_DATAGRAM) return 'malformed';
    let message = bytes;
    if (isChunkFrame(bytes)) {
      // Before a slot is taken: only the linked paired game reassembles (a part carries no code,
      // so a source proves itself with a whole message first — the game's ping always comes first).
      if (!this.mayReassemble(route)) {
        const peer = this.peer && this.isLinked() ? this.peer : undefined;
        return this.refuse(route, peer && routeKey(peer.route) !== routeKey(route) ? this.otherPeerReason(route, peer) : `chunked messages are taken only from the paired game, and ${describeRoute(route)} has not presented this PyOps's pairing code`);
      }
      const c = this.reassembler.accept(bytes, routeKey(route));
      if (c.kind === 'partial') return 'partial';
      if (c.kind === 'duplicate') return 'duplicate';
      if (c.kind === 'invalid') return 'malformed';
      message = c.message;
    }
    const d = decodeModMessage(message);
    if (!d.ok) return 'malformed';
    const env = d.envelope;
    const paired = pairingMatches(env.pairing, this.pairingCode());
    if (!this.admit(route, paired)) return 'refused';
    this.notePeer(env, route, paired);
    if (env.type === 'bridge.ping') return this.onPing(env, route, paired);
    const handler = (HANDLERS as Record<string, (e: ModEnvelope, deps: HandlerDeps) => Outcome>)[env.type];
    if (!handler) return 'unknown';
    // Payload shapes belong to a protocol version: a mismatched mod is shown (pings), never applied.
    if (env.protocol_version !== PROTOCOL_VERSION) {
      this.noticeOnce(`Ignored ${env.type}: the mod speaks protocol ${env.protocol_version}, PyOps speaks ${PROTOCOL_VERSION}. Update the companion mod (PyOps: Install Companion Mod) and restart the game.`);
      return 'ignored';
    }
    if (!paired && PAIRED_ONLY.has(env.type)) {
      const why = unpairedMessage(refusedAction(env.type));
      // The mod waits for an answer to these: it gets the reason and how to pair, nothing more.
      if (env.type === 'task.capture') this.replyTo(route, encodeAppMessage('task.captured', { ok: false, error: why }, env.request_id));
      if (env.type === 'task.list') this.replyTo(route, encodeAppMessage('error', { message: why, type: env.type }, env.request_id));
      this.noticeOnce(why);
      return 'refused';
    }
    try {
      return handler(env, this.depsFor(route));
    } catch (err) {
      this.noticeOnce(`PyOps failed handling ${env.type}: ${(err as Error).message}`);
      return 'failed';
    }
  }

  /** The pong: what the mod needs to link (and to say it is not paired); the project's name only for a ping with the code. */
  private onPing(env: ModEnvelope, route: PeerRoute, paired: boolean): Outcome {
    const project = paired ? this.opts.project?.() : undefined;
    this.replyTo(route, encodeAppMessage('bridge.pong', { protocol_version: PROTOCOL_VERSION, app: this.opts.appName ?? 'PyOps', project: project && !project.isClosed ? project.name : null, paired }, env.request_id));
    return 'handled';
  }

  /** Only the linked game that presented the pairing code may hold reassembly slots. */
  private mayReassemble(route: PeerRoute): boolean {
    const peer = this.peer;
    return !!peer && peer.paired && this.isLinked() && routeKey(peer.route) === routeKey(route);
  }

  private pairingCode(): string | undefined {
    const p = this.opts.pairing;
    return typeof p === 'function' ? p() : p;
  }

  /**
   * Whether a message from `route` may be handled at all. The linked peer is kept while it is
   * alive; another source is refused meanwhile — unless it is paired and the peer is not (a
   * forged read-only peer must not lock the real game out).
   */
  private admit(route: PeerRoute, paired: boolean): boolean {
    const peer = this.peer;
    if (!peer || routeKey(peer.route) === routeKey(route) || !this.isLinked()) return true;
    if (paired && !peer.paired) {
      this.noticeOnce(`The paired game at ${describeRoute(route)} replaced an unpaired peer at ${describeRoute(peer.route)}.`);
      return true;
    }
    this.refuse(route, this.otherPeerReason(route, peer));
    return false;
  }

  private otherPeerReason(route: PeerRoute, peer: PeerInfo): string {
    return `another game is linked (${describeRoute(peer.route)}${peer.paired ? ', paired' : ''}); datagrams from ${describeRoute(route)} are refused while it is alive`;
  }

  /** Record a refused datagram (the caller counts it): shown in the status, reported at most every 10 s per source. */
  private refuse(route: PeerRoute, reason: string): 'refused' {
    const source = describeRoute(route);
    const t = this.now();
    this.lastRefused = { source, at: t, reason };
    const last = this.refusalReports.get(source);
    if (last === undefined || t - last >= REFUSAL_REPORT_MS) {
      if (this.refusalReports.size > 1000) this.refusalReports.clear();
      this.refusalReports.set(source, t);
      this.emit({ type: 'refused', source, reason });
    }
    return 'refused';
  }

  /**
   * Send a reply to whoever asked, within that source's budget (a token bucket in datagrams). A
   * reply over budget is dropped whole and counted as `limited`.
   */
  private replyTo(route: PeerRoute, text: string): boolean {
    const datagrams = this.chunk(text);
    const { burst, perSecond } = this.opts.replyBudget ?? DEFAULT_REPLY_BUDGET;
    const key = routeKey(route);
    const t = this.now();
    let b = this.budgets.get(key);
    if (!b) {
      if (this.budgets.size > 1000) this.budgets.clear();
      b = { tokens: burst, at: t };
      this.budgets.set(key, b);
    }
    b.tokens = Math.min(burst, b.tokens + ((t - b.at) / 1000) * perSecond);
    b.at = t;
    if (b.tokens < datagrams.length) {
      this.counters.limited += datagrams.length;
      return false;
    }
    b.tokens -= datagrams.length;
    return this.sendDatagrams(route, datagrams);
  }

  private notePeer(env: ModEnvelope, route: PeerRoute, paired: boolean): void {
    const t = this.now();
    const same = this.peer && routeKey(this.peer.route) === routeKey(route);
    if (!same) {
      this.peer = { route, protocolVersion: env.protocol_version, paired, firstSeen: t, lastSeen: t };
    }
    const peer = this.peer!;
    peer.lastSeen = t;
    peer.protocolVersion = env.protocol_version;
    // Sticky for the route: a source that proved it holds the code stays the game's socket. Each
    // message is still judged on its own code before it may write.
    peer.paired ||= paired;
    if (env.player !== undefined) peer.player = env.player;
    if (env.mod_version) peer.modVersion = env.mod_version;
    if (env.tick !== undefined) peer.tick = env.tick;
    if (env.type === 'bridge.ping') {
      const p = pingPayload.parse(env.payload ?? {});
      if (p.player_name) peer.playerName = p.player_name;
      if (p.force) peer.force = p.force;
      if (p.multiplayer !== undefined) peer.multiplayer = p.multiplayer;
      if (p.game_version) peer.gameVersion = p.game_version;
    }
    if (!same || !this.wasLinked) {
      this.wasLinked = true;
      this.emit({ type: 'linked', peer: { ...peer } });
    }
  }

  /** Drop the peer (its port went away); the next datagram from the game registers it again. */
  forgetPeer(reason: string): void {
    if (!this.peer) return;
    this.peer = undefined;
    if (this.wasLinked) {
      this.wasLinked = false;
      this.emit({ type: 'lost', reason });
    }
  }

  private startWatchdog(): void {
    if (this.watchdog) return;
    this.watchdog = setInterval(() => this.checkLink(), 1_000);
    this.watchdog.unref?.();
  }

  /** Expire stale chunk parts and report a link that went quiet (runs every second). */
  checkLink(): void {
    this.reassembler.sweep();
    if (this.wasLinked && !this.isLinked()) {
      this.wasLinked = false;
      this.emit({ type: 'lost', reason: `no datagram from the game for ${LINK_WINDOW_MS / 1000} s (closed, paused, saving, or in a menu)` });
    }
  }

  private depsFor(route: PeerRoute): HandlerDeps {
    return {
      project: () => {
        const p = this.opts.project?.();
        return p && !p.isClosed ? p : undefined;
      },
      reply: (type, payload, requestId) => void this.replyTo(route, encodeAppMessage(type, payload, requestId)),
      settle: (id, payload) => this.pending.settle(id, { ok: true, payload }),
      snapshotApplied: (r) => this.onSnapshot(r),
      taskCaptured: (id, title) => this.emit({ type: 'task', id, title }),
      notice: (m) => this.noticeOnce(m),
    };
  }

  private onSnapshot(r: ApplyResult): void {
    this.lastSnapshots[r.kind] = { at: this.now(), count: r.count, changed: r.changed, ...(r.ignored ? { ignored: r.ignored } : {}) };
    this.emit({ type: 'snapshot', kind: r.kind, count: r.count, changed: r.changed, notes: r.notes, ...(r.ignored ? { ignored: r.ignored } : {}) });
    if (r.ignored) this.noticeOnce(`Ignored the game's ${r.kind} snapshot: ${r.ignored}.`);
    if (r.changed && this.opts.onStateChanged) {
      try {
        this.opts.onStateChanged([r.kind]);
      } catch (err) {
        this.noticeOnce(`Re-solving after the ${r.kind} snapshot failed: ${(err as Error).message}`);
      }
    }
  }

  // --- outbound -------------------------------------------------------------------------------

  /** A message as the datagrams that carry it, chunked when it is too big for the mod. */
  private chunk(text: string): Buffer[] {
    return splitMessage(text, APP_TO_MOD_MAX_DATAGRAM, `a${this.seqPrefix}${(++this.messageSeq).toString(36)}`);
  }

  /** Send a message to wherever `route` leads. */
  private sendTo(route: PeerRoute, text: string): boolean {
    return this.sendDatagrams(route, this.chunk(text));
  }

  private sendDatagrams(route: PeerRoute, datagrams: Buffer[]): boolean {
    if (route.via === 'relay') {
      const relay = this.relays.get(route.relayId);
      if (!relay) {
        this.counters.sendErrors++;
        if (this.peer && routeKey(this.peer.route) === routeKey(route)) this.forgetPeer('the relay that carried the game link disconnected');
        return false;
      }
      for (const d of datagrams) {
        if (relay.send(route.port, d)) this.counters.out++;
        else this.counters.sendErrors++;
      }
      return true;
    }
    for (const d of datagrams) {
      this.counters.out++;
      void this.transport.send(d, route.port, route.address).then((err) => {
        if (!err) return;
        this.counters.sendErrors++;
        if (err.code && UNREACHABLE_CODES.has(err.code) && this.peer && routeKey(this.peer.route) === routeKey(route)) {
          this.forgetPeer(`the game's UDP port ${route.port} is unreachable (${err.code})`);
        }
      });
    }
    return true;
  }

  /** Fire-and-forget message to the current (paired) peer (e.g. `cmd.hide_block` without waiting). */
  notify(type: AppMessageType, payload?: unknown): boolean {
    if (!this.peer?.paired) return false;
    return this.sendTo(this.peer.route, encodeAppMessage(type, payload));
  }

  /**
   * Send a correlated command and wait for its `bridge.result`. Never rejects: no peer, timeout and
   * send failures come back as `{ok:false, code, error}` with a message saying what to do.
   */
  request(type: CommandType, payload?: unknown, opts: RequestOptions = {}): Promise<CommandOutcome> {
    const peer = this.peer;
    if (!peer) {
      return Promise.resolve({
        ok: false,
        code: 'no-peer',
        error:
          this.state === 'listening' || this.relays.size > 0
            ? `No game is connected. Start Factorio with --enable-lua-udp <port> (a port other than ${this.port}) and the PyOps Link mod enabled, load a save and unpause; the game pings PyOps on ${BRIDGE_HOST}:${this.port} every 2 s.`
            : `The PyOps game link is not running${this.error ? ` (${this.error})` : ''}. Start it (PyOps: Show Game Link Status → Retry), then connect the game.`,
      });
    }
    // Commands reach only a game that proved it is the user's: a forged peer gets no cmd.eval.
    if (!peer.paired) return Promise.resolve({ ok: false, code: 'unpaired', error: unpairedMessage(`PyOps did not send ${type} to the game`) });
    const timeoutMs = opts.timeoutMs ?? (SLOW_COMMANDS.has(type) ? SLOW_TIMEOUT_MS : READ_TIMEOUT_MS);
    const { id, done } = this.pending.create(type, timeoutMs, () => ({
      ok: false,
      code: 'timeout',
      error: `The game did not answer ${type} within ${timeoutMs / 1000} s. It may be paused, saving or in a menu (the mod only polls while the game runs), or the mod is outdated; unpause and retry.`,
    }));
    const text = encodeAppMessage(type, payload ?? {}, id);
    const datagrams = this.chunk(text);
    if (Buffer.byteLength(text, 'utf8') > MOD_MAX_MESSAGE.bytes || datagrams.length > MOD_MAX_MESSAGE.parts) {
      // The mod would drop it unread, and the wait would end in a misleading timeout.
      this.pending.settle(id, { ok: false, code: 'invalid-input', error: `The ${type} message is too large for the game (over ${MOD_MAX_MESSAGE.bytes / 1024} KB or ${MOD_MAX_MESSAGE.parts} datagrams); send less at once, e.g. a smaller block.` });
    } else if (!this.sendDatagrams(peer.route, datagrams)) {
      this.pending.settle(id, { ok: false, code: 'send-failed', error: 'The message could not be sent to the game (its relay went away); reconnect and retry.' });
    }
    return done;
  }

  // --- relays ---------------------------------------------------------------------------------

  /** Register a relay connection; datagrams it carries are fed to `receive`. */
  attachRelay(link: RelayLink): { receive(port: number, bytes: Buffer): void; unreachable(port: number): void; detach(): void } {
    this.relays.set(link.id, link);
    this.emit({ type: 'relay', connected: this.relays.size });
    return {
      receive: (port, bytes) => this.receive(bytes, { via: 'relay', relayId: link.id, address: BRIDGE_HOST, port }),
      unreachable: (port) => {
        const r = this.peer?.route;
        if (r && r.via === 'relay' && r.relayId === link.id && r.port === port) this.forgetPeer(`the game's UDP port ${port} is unreachable on the relay's machine`);
      },
      detach: () => {
        if (this.relays.get(link.id) !== link) return;
        this.relays.delete(link.id);
        const r = this.peer?.route;
        if (r && r.via === 'relay' && r.relayId === link.id) this.forgetPeer('the relay carrying the game link disconnected');
        this.emit({ type: 'relay', connected: this.relays.size });
      },
    };
  }

  // --- events ---------------------------------------------------------------------------------

  private emit(e: BridgeEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch {
        // a listener's failure must not break datagram handling
      }
    }
  }

  /** The same notice at most once a minute (a game pushing to a read-only project every 10 s …). */
  private noticeOnce(message: string): void {
    const t = this.now();
    const last = this.recentNotices.get(message);
    if (last !== undefined && t - last < NOTICE_REPEAT_MS) return;
    this.recentNotices.set(message, t);
    if (this.recentNotices.size > 200) this.recentNotices.clear();
    this.emit({ type: 'notice', message });
  }
}
