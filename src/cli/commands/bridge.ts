// `pyops bridge --project <file> [--port <p>]`: the game link without VS Code. Binds the UDP
// bridge for one project and prints what happens (listening, game linked or lost, snapshots,
// captured tasks) until Ctrl+C. It prints the pairing code: a game presenting it may write game
// state and receive commands; any other is linked read-only (pairing.ts).
import { Project } from '../../core/db/project';
import { Bridge, DEFAULT_BRIDGE_PORT, PROTOCOL_VERSION, gameUdpPortFor, type BridgeEvent } from '../../core/bridge';
import { pairingCodeFor } from '../../core/bridge/pairing';
import { parse, UsageError } from '../args';
import type { CliIO } from '../io';


export interface LongRunningOptions {
  /** Stops the command (tests); without it, Ctrl+C / SIGTERM do. */
  signal?: AbortSignal;
  /** Where the pairing code lives (PYOPS_CONFIG_DIR); default the process environment. */
  env?: NodeJS.ProcessEnv;
}

export { pairingCodeFor };

export function parsePort(text: string | undefined, fallback: number, { allowZero = false, flag = '--port' } = {}): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 65_535 || (n === 0 && !allowZero)) throw new UsageError(`${flag} must be a port number (1–65535), not "${text}"`);
  return n;
}

/** A signal that fires on Ctrl+C / SIGTERM (or the caller's), and a cleanup for the handlers. */
export function stopSignal(given?: AbortSignal): { signal: AbortSignal; dispose(): void } {
  if (given) return { signal: given, dispose: () => {} };
  const ac = new AbortController();
  const stop = () => ac.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    signal: ac.signal,
    dispose: () => {
      process.removeListener('SIGINT', stop);
      process.removeListener('SIGTERM', stop);
    },
  };
}

export function waitForAbort(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

function describe(e: BridgeEvent): string | undefined {
  switch (e.type) {
    case 'listening':
      return undefined; // printed with the project name by the command
    case 'error':
      return undefined; // a failed start is the command's one-line reason on stderr
    case 'linked': {
      const p = e.peer;
      const who = p.playerName ?? (p.player !== undefined ? `player ${p.player}` : 'a player');
      const mismatch = p.protocolVersion !== PROTOCOL_VERSION ? ` — PROTOCOL MISMATCH (app ${PROTOCOL_VERSION}): update the mod` : '';
      const unpaired = p.paired ? '' : ' — NOT PAIRED, read-only: set the pairing code above in the mod\'s "PyOps Link: pairing code" setting';
      return `Game linked: ${who} from ${p.route.address}:${p.route.port}${p.route.via === 'relay' ? ' (via relay)' : ''}, mod ${p.modVersion ?? '?'}, protocol ${p.protocolVersion}${mismatch}${unpaired}`;
    }
    case 'lost':
      return `Game lost: ${e.reason}`;
    case 'snapshot':
      if (e.ignored) return `Snapshot ${e.kind} ignored: ${e.ignored}`;
      return `Snapshot ${e.kind}: ${e.count} ${e.changed ? 'rows, changed' : 'rows, unchanged'}${e.notes.length ? ` (${e.notes.slice(0, 3).join('; ')}${e.notes.length > 3 ? '; …' : ''})` : ''}`;
    case 'task':
      return `Task captured: "${e.title}" (${e.id})`;
    case 'notice':
      return e.message;
    case 'refused':
      return `Refused ${e.source}: ${e.reason}`;
    case 'relay':
    case 'stopped':
      return undefined;
  }
}

export async function bridgeCommand(argv: string[], io: CliIO, opts: LongRunningOptions = {}): Promise<number> {
  const a = parse(argv, { project: { type: 'string' }, port: { type: 'string' } }, { min: 0, max: 0, names: '' });
  if (!a.values.project) throw new UsageError('missing --project <file>');
  const port = parsePort(a.values.port, DEFAULT_BRIDGE_PORT, { allowZero: true });
  const project = await Project.open(a.values.project, { app: 'pyops bridge' });
  const stop = stopSignal(opts.signal);
  const pairing = await pairingCodeFor(opts.env);
  const bridge = new Bridge({ port, project: () => project, appName: 'pyops bridge', portHint: '--port option', pairing });
  const unsubscribe = bridge.on((e) => {
    const line = describe(e);
    if (line) io.out(line);
  });
  try {
    if (project.readOnly) io.err(`pyops: warning: ${project.readOnlyReason}`);
    const status = await bridge.start();
    if (status.state !== 'listening') {
      io.err(`pyops: ${status.error}`);
      return 1;
    }
    io.out(`PyOps bridge listening on ${status.host}:${status.port} for "${project.name}" (protocol ${PROTOCOL_VERSION}). Start Factorio with --enable-lua-udp ${gameUdpPortFor(status.port)} and the PyOps Link mod; Ctrl+C stops.`);
    io.out(`Pairing code: ${pairing} (installing the mod from PyOps writes it into the mod; otherwise paste it into the mod's "PyOps Link: pairing code" setting). Without it the game is linked read-only.`);
    await waitForAbort(stop.signal);
    const c = bridge.status().counters;
    io.out(`Stopped. Datagrams in ${c.in}, out ${c.out}, malformed ${c.malformed}, unknown ${c.unknown}, rejected ${c.rejected}, refused ${c.refused}, replies limited ${c.limited}.`);
    return 0;
  } finally {
    unsubscribe();
    stop.dispose();
    await bridge.stop();
    project.close();
  }
}
