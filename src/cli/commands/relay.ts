// `pyops relay --to <ws-url> [--token <t>] [--port <p>]`: runs beside the game when VS Code (and
// with it the bridge) runs on another machine. Receives the mod's datagrams on the bridge port and
// carries them over a WebSocket to the extension host; replies come back the same way.
import { RelayClient, DEFAULT_BRIDGE_PORT } from '../../core/bridge';
import { parse, UsageError } from '../args';
import type { CliIO } from '../io';
import { parsePort, stopSignal, waitForAbort, type LongRunningOptions } from './bridge';


export async function relayCommand(argv: string[], io: CliIO, opts: LongRunningOptions = {}): Promise<number> {
  const a = parse(argv, { to: { type: 'string' }, token: { type: 'string' }, port: { type: 'string' } }, { min: 0, max: 0, names: '' });
  if (!a.values.to) throw new UsageError('missing --to <ws-url> (copy it from "PyOps: Show Relay Command Line" in VS Code)');
  let url: URL;
  try {
    url = new URL(a.values.to);
  } catch {
    throw new UsageError(`--to must be a ws:// or wss:// URL, not "${a.values.to}"`);
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') throw new UsageError(`--to must be a ws:// or wss:// URL, not "${a.values.to}"`);
  const token = a.values.token ?? url.searchParams.get('token') ?? undefined;
  const port = parsePort(a.values.port, DEFAULT_BRIDGE_PORT, { allowZero: true });
  const stop = stopSignal(opts.signal);
  const client = new RelayClient({ url: url.toString(), token, port });
  let rejected: string | undefined;
  const done = new AbortController();
  client.on((e) => {
    switch (e.type) {
      case 'listening':
        io.out(`Relay listening on UDP 127.0.0.1:${e.port} for the game (set the mod's "PyOps Link: app port" to ${e.port}); connecting to ${url.origin}${url.pathname}…`);
        break;
      case 'connected':
        io.out('Connected to PyOps; datagrams are relayed. Ctrl+C stops.');
        break;
      case 'disconnected':
        io.out(`Not connected: ${e.reason}; retrying in ${Math.round((e.retryInMs ?? 0) / 100) / 10} s.`);
        break;
      case 'rejected':
        rejected = e.reason;
        done.abort();
        break;
      case 'game':
        io.out(`Game seen on UDP port ${e.port}.`);
        break;
    }
  });
  try {
    await client.start();
    await Promise.race([waitForAbort(stop.signal), waitForAbort(done.signal)]);
    if (rejected) {
      io.err(`pyops: relay refused: ${rejected}`);
      return 1;
    }
    io.out(`Stopped. Relayed ${client.stats.fromGame} datagrams from the game and ${client.stats.toGame} to it (${client.stats.dropped} dropped while disconnected).`);
    return 0;
  } finally {
    stop.dispose();
    await client.stop();
  }
}
