import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import { Bridge, type BridgeCounters, type BridgeEvent } from '../../../../src/core/bridge/bridge';
import { PROTOCOL_VERSION } from '../../../../src/core/bridge/protocol';
import type { StateKind } from '../../../../src/core/bridge/snapshots';
import { listTasks } from '../../../../src/core/work/tasks';
import { FakeGame } from '../../../fixtures/fake-game/peer';
import { eventually, makeProject, PAIRING } from './helpers';

const sum = (c: BridgeCounters) => ['malformed', 'unknown', 'rejected', 'ignored', 'late', 'partial', 'duplicate', 'handled', 'failed', 'refused'].reduce((n, k) => n + c[k as keyof BridgeCounters], 0);

describe('bridge over UDP', function () {
  this.timeout(10_000);
  let ctx: Awaited<ReturnType<typeof makeProject>>;
  let bridge: Bridge;
  let game: FakeGame;
  let events: BridgeEvent[];
  let changed: StateKind[][];

  before(async () => {
    ctx = await makeProject({ gameData: true });
  });
  after(() => ctx.dispose());

  beforeEach(async () => {
    events = [];
    changed = [];
    bridge = new Bridge({ port: 0, project: () => ctx.project, onStateChanged: (k) => changed.push(k), pairing: PAIRING });
    bridge.on((e) => events.push(e));
    const st = await bridge.start();
    assert.equal(st.state, 'listening');
    game = await FakeGame.start({ appPort: st.port, playerName: 'alice', modVersion: '0.1.0', pairing: PAIRING });
  });
  afterEach(async () => {
    await game.close();
    await bridge.stop();
  });

  it('answers a ping with a pong and shows the game as linked', async () => {
    const pong = await game.ping();
    assert.equal((pong.payload as { protocol_version: number }).protocol_version, PROTOCOL_VERSION);
    const s = bridge.status();
    assert.equal(s.linked, true);
    assert.equal(s.player, 'alice');
    assert.equal(s.modVersion, '0.1.0');
    assert.equal(s.modProtocolVersion, PROTOCOL_VERSION);
    assert.equal(s.appProtocolVersion, PROTOCOL_VERSION);
    assert.equal(s.protocolMismatch, false);
    assert.equal(s.peer?.route.port, game.port);
    assert.ok(s.lastSeen && Date.now() - s.lastSeen < 5000);
    assert.equal(s.counters.in, 1);
    assert.equal(s.counters.out, 1);
    assert.ok(events.some((e) => e.type === 'linked'));
  });

  it('starts idempotently, also when asked twice at once', async () => {
    const port = bridge.status().port;
    const [a, b] = await Promise.all([bridge.start(), bridge.start()]);
    assert.equal(a.port, port);
    assert.equal(b.port, port);
    await game.ping();
  });

  it('ignores malformed and unknown datagrams silently and counts them', async () => {
    await game.sendRaw('not json');
    await game.sendRaw('{"type":"bridge.ping"}');
    await game.sendRaw(Buffer.from([0xff, 0x00, 0x7b]));
    await game.send('mystery.type', {});
    await game.ping();
    const c = bridge.status().counters;
    assert.equal(c.malformed, 3);
    assert.equal(c.unknown, 1);
    assert.equal(c.handled, 1);
    assert.equal(c.in, 5);
    assert.equal(sum(c), c.in);
    assert.deepEqual(game.received.map((e) => e.type), ['bridge.pong']);
  });

  it('rejects an invalid payload without writing, and tells the mod why', async () => {
    await game.send('state.built', { machines: [{ machine: 'press', count: 'many' }] });
    const err = await game.waitFor('error');
    assert.match((err.payload as { message: string }).message, /rejected state\.built/);
    assert.equal(bridge.status().counters.rejected, 1);
    assert.equal(ctx.project.query('SELECT * FROM built_machines').length, 0);
  });

  it('stores snapshots and calls the re-solve hook only when the stored state changed', async () => {
    const research = { force: 'player', researched: ['electronics', 'automation-basics'], mining_productivity_bonus: 0, recipe_productivity_bonuses: {} };
    await game.send('state.research', research);
    await eventually(() => bridge.status().counters.handled === 1, 2000, 'research handled');
    assert.deepEqual(changed, [['research']]);
    await game.send('state.research', { ...research, researched: ['automation-basics', 'electronics'] });
    await eventually(() => bridge.status().counters.handled === 2);
    assert.deepEqual(changed, [['research']], 'an identical snapshot does not re-solve');
    assert.ok(events.some((e) => e.type === 'snapshot' && e.kind === 'research' && !e.changed));
    assert.deepEqual(ctx.project.query<{ name: string }>('SELECT name FROM researched_techs ORDER BY name').map((r) => r.name), ['automation-basics', 'electronics']);
  });

  it('reassembles a chunked snapshot from the game', async () => {
    const machines = Array.from({ length: 600 }, (_, i) => ({ machine: `machine-${i % 40}`, recipe: `recipe-with-a-long-name-${i}`, count: 1 + (i % 7) }));
    // The game pings first (as the mod does on every load): only the linked paired game reassembles.
    await game.ping();
    await game.send('state.built', { force: 'player', machines });
    await eventually(() => bridge.status().counters.handled === 2, 2000, 'built handled');
    const c = bridge.status().counters;
    assert.ok(c.partial > 2, `several parts (${c.partial})`);
    assert.equal(sum(c), c.in);
    assert.equal(ctx.project.query('SELECT * FROM built_machines').length, 600);
  });

  it('chunks a big command to the game below the mod\'s receive limit', async () => {
    game.answer = (env) => ({ ok: true, panel: 'block', block: (env.payload as { name: string }).name });
    await game.ping();
    const recipes = Array.from({ length: 40 }, (_, i) => ({ recipe: `recipe-${i}`, recipeDisplay: `Recipe number ${i} with a long display name`, machine: 'press', count: i + 1 }));
    const r = await bridge.request('cmd.show_block', { name: 'Big block', recipes, inputs: [], outputs: [] });
    assert.deepEqual(r, { ok: true, payload: { ok: true, panel: 'block', block: 'Big block' } });
    const frames = game.datagrams.filter((d) => d.subarray(0, 5).toString() === 'PYC1 ');
    assert.ok(frames.length >= 2);
    for (const d of game.datagrams) assert.ok(d.length <= 3500, `${d.length} bytes`);
  });

  it("refuses at once a command larger than the mod reassembles, instead of timing out", async () => {
    await game.ping();
    const before = game.datagrams.length;
    const recipes = Array.from({ length: 3000 }, (_, i) => ({ recipe: `recipe-${i}`, recipeDisplay: `Recipe number ${i} with a long display name`, machine: 'press', count: 1 }));
    const r = await bridge.request('cmd.show_block', { name: 'Huge block', recipes, inputs: [], outputs: [] });
    assert.ok(!r.ok && r.code === 'invalid-input' && /too large for the game/.test(r.error), JSON.stringify(r));
    assert.equal(game.datagrams.length, before, 'nothing was sent');
    assert.equal(bridge.status().pendingRequests, 0);
  });

  it('fails a command at once when no game is connected', async () => {
    const t0 = Date.now();
    const r = await bridge.request('cmd.game_context');
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.code === 'no-peer' && /No game is connected/.test(r.error));
    assert.ok(Date.now() - t0 < 2000, 'answered at once, not after the 4 s command timeout');
  });

  it('times out a command the game never answers and discards the late reply', async () => {
    await game.ping();
    const r = await bridge.request('cmd.game_context', {}, { timeoutMs: 150 });
    assert.ok(!r.ok && r.code === 'timeout' && /did not answer cmd\.game_context within 0\.15 s/.test(r.error));
    const sentId = game.received.find((e) => e.type === 'cmd.game_context')!.request_id!;
    await game.send('bridge.result', { request_id: sentId, payload: { ok: true } });
    await game.send('bridge.result', { request_id: 'never-asked', payload: {} });
    await eventually(() => bridge.status().counters.late === 2, 2000, 'late replies counted');
    assert.equal(bridge.status().pendingRequests, 0);
  });

  it('resolves a command with the game\'s result', async () => {
    game.answer = (env) => (env.type === 'cmd.game_context' ? { ok: true, player: 'alice', tick: 5 } : undefined);
    await game.ping();
    const r = await bridge.request('cmd.game_context');
    assert.deepEqual(r, { ok: true, payload: { ok: true, player: 'alice', tick: 5 } });
  });

  it('flags a protocol mismatch, still answers pings, and does not apply its snapshots', async () => {
    const old = await FakeGame.start({ appPort: bridge.status().port, protocolVersion: PROTOCOL_VERSION + 7, pairing: PAIRING });
    try {
      await old.ping();
      assert.equal(bridge.status().protocolMismatch, true);
      assert.equal(bridge.status().modProtocolVersion, PROTOCOL_VERSION + 7);
      await old.send('state.research', { researched: ['electronics'] });
      await eventually(() => bridge.status().counters.ignored === 1);
      assert.ok(events.some((e) => e.type === 'notice' && /speaks protocol/.test(e.message)));
    } finally {
      await old.close();
    }
  });

  it('captures a task from the game and lists tasks back', async () => {
    await game.send('task.capture', { title: 'Fix the coke line\nit starves', body: 'needs more coal', surface: 'nauvis', x: 10.4, y: -3.6, entity: 'press' });
    const captured = await game.waitFor('task.captured');
    const p = captured.payload as { ok: boolean; id: string; title: string };
    assert.equal(p.ok, true);
    assert.equal(p.title, 'Fix the coke line');
    const task = listTasks(ctx.project).find((t) => t.id === p.id);
    assert.ok(task);
    await game.send('task.list', {});
    const list = await game.waitFor('task.list');
    const tasks = (list.payload as { tasks: Array<{ id: string; links: Array<{ kind: string; name: string }> }> }).tasks;
    const mine = tasks.find((t) => t.id === p.id)!;
    assert.deepEqual(mine.links.map((l) => `${l.kind}:${l.name}`), ['location:nauvis|10|-4', 'entity:press']);
    assert.ok(events.some((e) => e.type === 'task'));
  });

  it('forgets the peer when the game\'s port becomes unreachable and keeps listening', async () => {
    await bridge.stop();
    let failSends = false;
    const make = () => {
      const s = dgram.createSocket('udp4');
      const send = s.send.bind(s) as (...a: unknown[]) => void;
      (s as unknown as { send: unknown }).send = (...args: unknown[]) => {
        const cb = args[args.length - 1] as (e: Error | null) => void;
        if (failSends) return void setImmediate(() => cb(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })));
        send(...args);
      };
      return s;
    };
    bridge = new Bridge({ port: 0, project: () => ctx.project, createSocket: make, pairing: PAIRING });
    bridge.on((e) => events.push(e));
    game.appPort = (await bridge.start()).port;
    await game.ping();
    assert.equal(bridge.status().linked, true);
    failSends = true;
    await game.send('bridge.ping', {});
    await eventually(() => !bridge.status().peer, 2000, 'peer forgotten');
    assert.ok(events.some((e) => e.type === 'lost' && /unreachable \(ECONNREFUSED\)/.test(e.reason)));
    assert.equal(bridge.status().state, 'listening');
    failSends = false;
    await game.ping();
    assert.equal(bridge.status().linked, true);
  });

  it('reports a port in use with what to do, and binds on retry once it is free', async () => {
    await bridge.stop();
    const blocker = dgram.createSocket('udp4');
    await new Promise<void>((r) => blocker.bind(0, '127.0.0.1', () => r()));
    const port = blocker.address().port;
    bridge = new Bridge({ port });
    const st = await bridge.start();
    assert.equal(st.state, 'error');
    assert.match(st.error!, new RegExp(`UDP port ${port} .* already in use.*pyops\\.bridge\\.port`));
    const r = await bridge.request('cmd.game_context');
    assert.ok(!r.ok && /not running/.test(r.error));
    await new Promise<void>((r2) => blocker.close(() => r2()));
    const again = await bridge.start();
    assert.equal(again.state, 'listening');
    assert.equal(again.port, port);
    assert.equal(again.error, undefined);
  });

  it('reports the game lost after the link window without datagrams', async () => {
    let t = Date.now();
    await bridge.stop();
    bridge = new Bridge({ port: 0, now: () => t });
    bridge.on((e) => events.push(e));
    game.appPort = (await bridge.start()).port;
    await game.ping();
    assert.equal(bridge.status().linked, true);
    t += 5_900;
    bridge.checkLink();
    assert.equal(bridge.status().linked, true);
    t += 200;
    bridge.checkLink();
    assert.equal(bridge.status().linked, false);
    assert.ok(events.some((e) => e.type === 'lost' && /no datagram/.test(e.reason)));
    assert.ok(bridge.status().peer, 'the peer is remembered; commands still go to it');
  });
});
