// The game link under attack, over real UDP on 127.0.0.1: a forged peer while the real game is
// linked, an unpaired peer (no code or a wrong one) before it, a mismatched protocol on
// task.capture, and a flood of requests. Nothing a forged or unpaired peer sends may change the
// project or settle a command, no command may reach it, and replies stay within a budget.
import assert from 'node:assert/strict';
import { Bridge, DEFAULT_REPLY_BUDGET, type BridgeEvent } from '../../../../src/core/bridge/bridge';
import { createGameLink } from '../../../../src/core/bridge/gameLink';
import { PROTOCOL_VERSION } from '../../../../src/core/bridge/protocol';
import { newPairingCode, pairingMatches, PAIRING_RE, pairingLua } from '../../../../src/core/bridge/pairing';
import { spawn } from 'node:child_process';
import { listTasks, createTask } from '../../../../src/core/work/tasks';
import { splitMessage } from '../../../../src/core/bridge/chunking';
import { MOD_TO_APP_MAX_DATAGRAM } from '../../../../src/core/bridge/protocol';
import { FakeGame } from '../../../fixtures/fake-game/peer';
import { eventually, fingerprint, makeProject, PAIRING } from './helpers';

const RESEARCH = { force: 'player', researched: ['electronics'], mining_productivity_bonus: 0.5, recipe_productivity_bonuses: {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('game link trust', function () {
  this.timeout(20_000);
  let ctx: Awaited<ReturnType<typeof makeProject>>;
  let bridge: Bridge;
  let events: BridgeEvent[];
  const games: FakeGame[] = [];

  async function game(opts: { pairing?: string; protocolVersion?: number; playerName?: string } = {}): Promise<FakeGame> {
    const g = await FakeGame.start({ appPort: bridge.status().port, playerName: opts.playerName ?? 'engineer', ...opts });
    games.push(g);
    return g;
  }

  beforeEach(async () => {
    ctx = await makeProject({ gameData: true });
    events = [];
    bridge = new Bridge({ port: 0, project: () => ctx.project, pairing: PAIRING });
    bridge.on((e) => events.push(e));
    assert.equal((await bridge.start()).state, 'listening');
  });
  afterEach(async () => {
    for (const g of games.splice(0)) await g.close();
    await bridge.stop();
    ctx.dispose();
  });

  it('keeps the paired game while it is alive and refuses a forged peer, reporting it', async () => {
    const real = await game({ pairing: PAIRING, playerName: 'alice' });
    real.answer = (e) => (e.type === 'cmd.game_context' ? { player: 'alice', force: 'player', surface: 'nauvis', x: 0, y: 0, tick: 1 } : undefined);
    await real.ping();
    const before = fingerprint(ctx.project);

    // The forger knows the protocol but not the code; it tries every kind of write and a forged result.
    const forged = await game({ playerName: 'mallory' });
    const attempts: Array<[string, unknown]> = [
      ['bridge.ping', { player_name: 'mallory' }],
      ['state.research', RESEARCH],
      ['state.built', { machines: [{ machine: 'press', recipe: 'gear', count: 99 }] }],
      ['task.capture', { title: 'forged task' }],
      ['task.list', {}],
      ['bridge.result', { request_id: 'any', payload: { ok: true, result: 'forged' } }],
    ];
    for (const [type, payload] of attempts) await forged.send(type, payload);
    // Also with a guessed code: a wrong code is no code.
    await forged.send('state.research', RESEARCH, { pairing: newPairingCode() });
    await eventually(() => bridge.status().counters.refused === attempts.length + 1, 3000, 'every forged datagram refused');

    const s = bridge.status();
    assert.equal(s.peer?.route.port, real.port, 'the real game stays the peer');
    assert.equal(s.player, 'alice');
    assert.equal(s.paired, true);
    assert.equal(s.lastRefused?.source, `127.0.0.1:${forged.port}`);
    assert.match(s.lastRefused!.reason, /another game is linked/);
    assert.equal(events.filter((e) => e.type === 'refused').length, 1, 'reported once, not once per datagram');
    await sleep(100);
    assert.deepEqual(forged.received, [], 'the forger gets no answer at all');
    assert.equal(fingerprint(ctx.project), before, 'nothing the forger sent was written');

    // Commands still go to (and are answered by) the real game.
    const link = createGameLink(bridge);
    const r = await link.gameContext();
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(forged.received.length, 0);
  });

  it('links an unpaired peer read-only: nothing written, no commands sent, the reason shown', async () => {
    const before = fingerprint(ctx.project);
    const unpaired = await game({ playerName: 'mallory' });
    const pong = await unpaired.ping();
    assert.equal((pong.payload as { paired: boolean }).paired, false, 'the pong tells the mod it is not paired');
    const s = bridge.status();
    assert.equal(s.linked, true);
    assert.equal(s.paired, false);

    await unpaired.send('state.research', RESEARCH);
    await unpaired.send('state.stats', { items: [{ name: 'gear', kind: 'item', produced: 1, consumed: 0 }] });
    await unpaired.send('task.capture', { title: 'unpaired task' });
    const captured = await unpaired.waitFor('task.captured');
    assert.equal((captured.payload as { ok: boolean }).ok, false);
    assert.match((captured.payload as { error: string }).error, /pairing code/);
    await eventually(() => bridge.status().counters.refused === 3, 3000, 'three writes refused');
    assert.equal(fingerprint(ctx.project), before);
    assert.equal(listTasks(ctx.project).length, 0);
    assert.ok(events.some((e) => e.type === 'notice' && /linked read-only/.test(e.message)));

    // No command reaches it: eval and the rest fail at once, saying how to pair.
    const link = createGameLink(bridge);
    for (const r of [await link.eval('return 1'), await link.gameContext(), await link.hideBlock()]) {
      assert.equal(r.ok, false);
      assert.equal(!r.ok && r.code, 'unpaired');
      assert.match(!r.ok ? r.error : '', /pairing code/);
    }
    assert.equal(bridge.notify('cmd.hide_block', {}), false);
    await sleep(100);
    assert.deepEqual(unpaired.received.map((e) => e.type).filter((t) => t.startsWith('cmd.')), [], 'no command was sent to it');

    // A result it invents settles nothing.
    await unpaired.send('bridge.result', { request_id: 'x', payload: { ok: true } });
    await eventually(() => bridge.status().counters.refused === 4, 3000, 'result refused');
  });

  it('lets the paired game replace an unpaired peer at once', async () => {
    const unpaired = await game({ playerName: 'mallory' });
    await unpaired.ping();
    const real = await game({ pairing: PAIRING, playerName: 'alice' });
    const pong = await real.ping();
    assert.equal((pong.payload as { paired: boolean }).paired, true);
    assert.equal(bridge.status().peer?.route.port, real.port);
    await real.send('state.research', RESEARCH);
    await eventually(() => bridge.status().counters.handled === 3, 3000, 'research applied');
    assert.deepEqual(ctx.project.query('SELECT name FROM researched_techs'), [{ name: 'electronics' }]);
    // …and from then on the unpaired one is refused.
    await unpaired.send('bridge.ping', {});
    await eventually(() => bridge.status().counters.refused === 1, 3000, 'old peer refused');
  });

  it('checks the protocol version on every message, task.capture included', async () => {
    const old = await game({ pairing: PAIRING, protocolVersion: PROTOCOL_VERSION + 1 });
    await old.ping();
    assert.equal(bridge.status().protocolMismatch, true);
    await old.send('task.capture', { title: 'from a newer mod' });
    await old.send('task.list', {});
    await eventually(() => bridge.status().counters.ignored === 2, 3000, 'both ignored');
    assert.equal(listTasks(ctx.project).length, 0);
    assert.ok(events.some((e) => e.type === 'notice' && /protocol/.test(e.message)));
  });

  it('limits replies per source: 1,000 requests draw at most the budget', async () => {
    const flood = await game({ playerName: 'flood' });
    const t0 = Date.now();
    // In batches the socket buffer holds, so the kernel drops none of the requests.
    for (let sent = 0; sent < 1000; ) {
      for (let i = 0; i < 100; i++, sent++) await flood.send('task.list', {});
      await eventually(() => bridge.status().counters.in === sent, 3000, `${sent} requests received`);
    }
    const seconds = (Date.now() - t0) / 1000;
    await sleep(200);
    const allowed = DEFAULT_REPLY_BUDGET.burst + DEFAULT_REPLY_BUDGET.perSecond * (seconds + 0.2);
    assert.ok(flood.datagrams.length <= allowed, `${flood.datagrams.length} reply datagrams for 1,000 requests in ${seconds.toFixed(2)} s (budget ${allowed.toFixed(0)})`);
    assert.ok(flood.datagrams.length >= DEFAULT_REPLY_BUDGET.burst, 'the burst is answered');
    assert.ok(bridge.status().counters.limited > 0);
    // Another source has its own budget: the paired game replaces the flooder and is answered at once.
    const real = await game({ pairing: PAIRING });
    assert.equal((await real.ping()).type, 'bridge.pong');
  });

  it("gives an unpaired peer nothing but what pairing needs: no task list, no project name", async () => {
    const secretish = ['Expand the copper smelting', 'Ore patch under the lake', 'Place 24 furnaces'];
    createTask(ctx.project, { title: secretish[0], body: secretish[1], steps: [secretish[2]], links: [{ kind: 'item', name: 'gear' }] });
    const unpaired = await game({ playerName: 'mallory' });
    const pong = await unpaired.ping();
    assert.deepEqual(pong.payload, { protocol_version: PROTOCOL_VERSION, app: 'PyOps', project: null, paired: false }, 'the pong names no project');
    await unpaired.send('task.list', {}, { requestId: 'list-1' });
    const answer = await unpaired.waitFor((e) => e.request_id === 'list-1');
    assert.equal(answer.type, 'error', 'a refusal, not a task list');
    assert.match((answer.payload as { message: string }).message, /pairing code/);
    await eventually(() => bridge.status().counters.refused === 1, 3000, 'the request refused and counted');
    await sleep(100);
    const seen = JSON.stringify(unpaired.received);
    for (const text of [...secretish, '"gear"']) assert.ok(!seen.includes(text), `the unpaired peer learned ${text}`);
    assert.ok(!unpaired.received.some((e) => e.type === 'task.list'));

    // The paired game does get both (so the refusal above is about pairing, not a broken list).
    const real = await game({ pairing: PAIRING, playerName: 'alice' });
    assert.equal(((await real.ping()).payload as { project: string }).project, ctx.project.name);
    await real.send('task.list', {}, { requestId: 'list-2' });
    const list = await real.waitFor((e) => e.request_id === 'list-2');
    assert.equal(list.type, 'task.list');
    assert.equal((list.payload as { tasks: Array<{ title: string }> }).tasks[0].title, secretish[0]);
  });

  it('keeps the paired game\'s chunked snapshots whole under a flood of chunk parts with fresh ids (3 of 3)', () => {
    // In-process, so the order is exact: each snapshot's parts but the last, 30,000 parts of
    // never-finished messages from another local source, then the last part.
    const b = new Bridge({ project: () => ctx.project, pairing: PAIRING });
    const gameRoute = { via: 'udp' as const, address: '127.0.0.1', port: 40_001 };
    const flooder = { via: 'udp' as const, address: '127.0.0.1', port: 40_002 };
    const env = (type: string, payload: unknown, pairing?: string) => JSON.stringify({ protocol_version: PROTOCOL_VERSION, type, tick: 1, player: 1, ...(pairing ? { pairing } : {}), payload });
    assert.equal(b.receive(Buffer.from(env('bridge.ping', { player_name: 'alice' }, PAIRING)), gameRoute), 'handled');
    let flood = 0;
    const snapshots = [0, 1, 2].map((round) => ({ force: 'player', machines: Array.from({ length: 300 }, (_, i) => ({ machine: `machine-${round}-${i % 30}`, recipe: `recipe-with-a-long-name-${round}-${i}`, count: 1 + (i % 5) })) }));
    for (const [round, snap] of snapshots.entries()) {
      const frames = splitMessage(env('state.built', snap, PAIRING), MOD_TO_APP_MAX_DATAGRAM, `game${round}`);
      assert.ok(frames.length >= 3, `snapshot ${round} is chunked (${frames.length} parts)`);
      for (const f of frames.slice(0, -1)) assert.equal(b.receive(f, gameRoute), 'partial');
      for (let i = 0; i < 10_000; i++, flood++) assert.equal(b.receive(Buffer.from(`PYC1 f${flood} 1 2\nxx`), flooder), 'refused');
      assert.equal(b.receive(frames[frames.length - 1], gameRoute), 'handled', `snapshot ${round} applied`);
      assert.equal(ctx.project.query('SELECT * FROM built_machines').length, 300);
      assert.deepEqual(ctx.project.query<{ machine: string }>('SELECT DISTINCT machine FROM built_machines ORDER BY machine LIMIT 1'), [{ machine: `machine-${round}-0` }]);
    }
    const s = b.status();
    assert.equal(s.counters.refused, 30_000, 'every flood part refused, and counted');
    assert.equal(s.counters.expired, 0, 'none of the game\'s partial messages was pushed out');
    assert.equal(s.lastRefused?.source, '127.0.0.1:40002');
    assert.match(s.lastRefused!.reason, /another game is linked/);
    // With no game linked, a source that never presented the code holds no slot either.
    const fresh = new Bridge({ project: () => ctx.project, pairing: PAIRING });
    assert.equal(fresh.receive(Buffer.from('PYC1 x 1 2\nxx'), flooder), 'refused');
    assert.match(fresh.status().lastRefused!.reason, /has not presented this PyOps's pairing code/);
  });

  it('applies 3 of 3 chunked snapshots while another local process floods ~30k chunk parts per second over UDP', async function () {
    this.timeout(60_000);
    const real = await game({ pairing: PAIRING, playerName: 'alice' });
    await real.ping();
    const port = bridge.status().port;
    // The flooder is its own process, as a hostile local program would be.
    const floodScript = `
      const dgram = require('node:dgram');
      const [port, count, rate, prefix] = process.argv.slice(1).map((v, i) => (i < 3 ? Number(v) : v));
      const s = dgram.createSocket('udp4');
      let sent = 0;
      const t0 = process.hrtime.bigint();
      const tick = () => {
        const due = Math.min(count, Math.ceil((Number(process.hrtime.bigint() - t0) / 1e9) * rate) + 50);
        for (; sent < due; sent++) s.send(Buffer.from('PYC1 ' + prefix + sent + ' 1 2\\n' + 'x'.repeat(40)), port, '127.0.0.1');
        if (sent < count) setImmediate(tick);
        else s.close(() => process.stdout.write(JSON.stringify({ sent, seconds: Number(process.hrtime.bigint() - t0) / 1e9 })));
      };
      s.bind(0, '127.0.0.1', tick);`;
    const floodOnce = (count: number, prefix: string) =>
      new Promise<{ sent: number; seconds: number }>((resolve, reject) => {
        const child = spawn(process.execPath, ['-e', floodScript, String(port), String(count), '30000', prefix]);
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.on('error', reject);
        child.on('close', () => resolve(JSON.parse(out)));
      });
    const before = bridge.status().counters;
    const rates: number[] = [];
    for (const round of [0, 1, 2]) {
      const snap = { force: 'player', machines: Array.from({ length: 300 }, (_, i) => ({ machine: `m-${round}-${i % 30}`, recipe: `recipe-with-a-long-name-${round}-${i}`, count: 1 })) };
      const frames = splitMessage(real.envelope('state.built', snap), MOD_TO_APP_MAX_DATAGRAM, `snap${round}`);
      const inBefore = bridge.status().counters.in;
      for (const f of frames.slice(0, -1)) await real.sendRaw(f);
      await eventually(() => bridge.status().counters.in === inBefore + frames.length - 1, 3000, 'the first parts arrived');
      const f = await floodOnce(10_000, `r${round}-`);
      rates.push(f.sent / f.seconds);
      // Whatever the kernel delivered of the flood is handled before the last part goes out.
      let last = -1;
      await eventually(() => {
        const n = bridge.status().counters.in;
        const settled = n === last;
        last = n;
        return settled;
      }, 5000, 'the flood drained');
      await real.sendRaw(frames[frames.length - 1]);
      await eventually(() => bridge.status().lastSnapshots.built?.count === 300 && ctx.project.query<{ machine: string }>("SELECT machine FROM built_machines WHERE machine = ?", [`m-${round}-0`]).length > 0, 3000, `snapshot ${round} applied`);
    }
    const c = bridge.status().counters;
    // Everything that came in was the game's parts (partial, then handled) or the flood.
    const floodIn = c.in - before.in - (c.handled - before.handled) - (c.partial - before.partial);
    assert.equal(c.refused - before.refused, floodIn, 'every flood part that arrived was refused and counted');
    assert.ok(floodIn > 1000, `the flood reached the bridge (${floodIn} parts)`);
    assert.equal(c.expired, 0);
    console.log(`      (flood: ${rates.map((r) => `${Math.round(r / 1000)}k`).join(', ')} parts/s sent; ${floodIn} of 30,000 arrived and were refused)`);
  });

  it('generates readable codes and compares them exactly', () => {
    const a = newPairingCode();
    assert.match(a, PAIRING_RE);
    assert.notEqual(a, newPairingCode());
    assert.ok(pairingMatches(a, a));
    assert.ok(!pairingMatches(a.slice(0, -1), a));
    assert.ok(!pairingMatches(undefined, a));
    assert.ok(!pairingMatches(a, undefined), 'no code configured: nobody is paired');
    assert.match(pairingLua(a), new RegExp(`return "${a}"`));
    assert.throws(() => pairingLua('x" os.exit() "'), /not a PyOps pairing code/);
  });
});
