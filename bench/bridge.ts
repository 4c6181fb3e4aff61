// Game-link speed on loopback: how many ping-sized datagrams the bridge handles per second (each
// answered with a pong, as in play), and the median round trip of a correlated command against
// the fake game peer. Targets: ≥ 10,000 datagrams/s, ≤ 5 ms round trip.
import dgram from 'node:dgram';
import { Bridge } from '../src/core/bridge/bridge';
import { PROTOCOL_VERSION } from '../src/core/bridge/protocol';
import { newPairingCode } from '../src/core/bridge/pairing';
import { FakeGame } from '../test/fixtures/fake-game/peer';
import { median } from './stats';

const PINGS = 50_000;
/** Datagrams in flight at once; a UDP socket buffer only holds a few hundred small ones. */
const WINDOW = 128;
const ROUND_TRIPS = 300;

export async function benchBridge(): Promise<{ datagramsPerSecond: number; roundTripMs: number }> {
  const pairing = newPairingCode();
  // Measures how fast the bridge handles datagrams, so the per-source reply budget (which caps a
  // single flooding source by design) is lifted; the budget itself is pinned by trust.test.ts.
  const bridge = new Bridge({ port: 0, pairing, replyBudget: { burst: Infinity, perSecond: Infinity } });
  const { port } = await bridge.start();
  try {
    // --- throughput: a game-side socket firing pings, at most WINDOW unanswered at a time
    const sock = dgram.createSocket('udp4');
    await new Promise<void>((r) => sock.bind(0, '127.0.0.1', () => r()));
    const ping = Buffer.from(JSON.stringify({ protocol_version: PROTOCOL_VERSION, type: 'bridge.ping', request_id: '120-1-bridge.ping', tick: 120, player: 1, mod_version: '0.1.0', payload: { player_name: 'bench', force: 'player', multiplayer: false } }));
    let pongs = 0;
    let sent = 0;
    let finish: () => void = () => {};
    const done = new Promise<void>((r) => (finish = r));
    const pump = () => {
      while (sent < PINGS && sent - pongs < WINDOW) {
        sent++;
        sock.send(ping, port, '127.0.0.1');
      }
    };
    sock.on('message', () => {
      pongs++;
      if (pongs >= PINGS) finish();
      else pump();
    });
    // a lost datagram would stall the window: top it up if nothing moves
    const stall = setInterval(() => {
      if (sent - pongs >= WINDOW) sent = pongs;
      pump();
    }, 50);
    const t0 = performance.now();
    pump();
    await done;
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(stall);
    await new Promise<void>((r) => sock.close(() => r()));
    const handled = bridge.status().counters.handled;

    // --- correlated round trip against the fake game
    // Paired, so it takes over from the (unpaired) ping socket at once and receives commands.
    const game = await FakeGame.start({ appPort: port, pairing, answer: () => ({ ok: true, player: 'bench', force: 'player', surface: 'nauvis', x: 0, y: 0, tick: 1 }) });
    await game.ping();
    const times: number[] = [];
    for (let i = 0; i < ROUND_TRIPS; i++) {
      const t = performance.now();
      const r = await bridge.request('cmd.game_context');
      if (!r.ok) throw new Error(`round trip failed: ${r.error}`);
      times.push(performance.now() - t);
    }
    await game.close();
    return {
      datagramsPerSecond: Math.round(handled / seconds),
      roundTripMs: Number(median(times).toFixed(3)),
    };
  } finally {
    await bridge.stop();
  }
}

// `npx tsx bench/bridge.ts` prints the figures on its own.
if (process.argv[1] && /bench[\\/]bridge\.ts$/.test(process.argv[1])) {
  benchBridge().then((r) => console.log(JSON.stringify(r)));
}
