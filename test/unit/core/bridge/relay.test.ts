import assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { Bridge, type BridgeEvent } from '../../../../src/core/bridge/bridge';
import { RelayClient, type RelayClientEvent } from '../../../../src/core/bridge/relay/client';
import { RelayServer } from '../../../../src/core/bridge/relay/server';
import { FakeGame } from '../../../fixtures/fake-game/peer';
import { eventually, makeProject, PAIRING } from './helpers';

describe('game-link relay over WebSocket', function () {
  this.timeout(10_000);
  let ctx: Awaited<ReturnType<typeof makeProject>>;
  let bridge: Bridge;
  let server: RelayServer;
  let client: RelayClient;
  let game: FakeGame;
  let clientEvents: RelayClientEvent[];
  let bridgeEvents: BridgeEvent[];

  before(async () => {
    ctx = await makeProject();
  });
  after(() => ctx.dispose());

  beforeEach(async () => {
    bridge = new Bridge({ port: 0, project: () => ctx.project, pairing: PAIRING });
    bridgeEvents = [];
    bridge.on((e) => bridgeEvents.push(e));
    await bridge.start();
    server = new RelayServer({ bridge });
    const info = await server.start();
    client = new RelayClient({ url: info.url, token: info.token, port: 0, retryMs: 50 });
    clientEvents = [];
    client.on((e) => clientEvents.push(e));
    await client.start();
    await eventually(() => client.stats.connected, 3000, 'relay connected');
    game = await FakeGame.start({ appPort: client.udpPort!, playerName: 'remote-alice', pairing: PAIRING });
  });
  afterEach(async () => {
    await game.close();
    await client.stop();
    await server.stop();
    await bridge.stop();
  });

  it('carries a ping from the game through the relay to the bridge and the pong back', async () => {
    const pong = await game.ping();
    assert.equal(pong.type, 'bridge.pong');
    const s = bridge.status();
    assert.equal(s.linked, true);
    assert.equal(s.peer?.route.via, 'relay');
    assert.equal(s.peer?.route.port, game.port);
    assert.equal(s.player, 'remote-alice');
    assert.equal(s.relays, 1);
    assert.ok(clientEvents.some((e) => e.type === 'game' && e.port === game.port));
  });

  it('runs correlated commands and chunked messages through the relay', async () => {
    game.answer = (env) => ({ ok: true, echo: env.type, size: JSON.stringify(env.payload).length });
    await game.ping();
    const big = { name: 'Big', recipes: Array.from({ length: 50 }, (_, i) => ({ recipe: `r-${i}`, recipeDisplay: 'x'.repeat(80), machine: 'press', count: 1 })) };
    const r = await bridge.request('cmd.show_block', big);
    assert.ok(r.ok);
    assert.equal((r.payload as { echo: string }).echo, 'cmd.show_block');
    assert.equal((r.payload as { size: number }).size, JSON.stringify(big).length);
    await game.send('state.built', { machines: Array.from({ length: 500 }, (_, i) => ({ machine: `m-${i}`, recipe: `recipe-${i}-with-padding`, count: 1 })) });
    await eventually(() => ctx.project.query('SELECT * FROM built_machines').length === 500, 3000, 'chunked snapshot stored');
  });

  it('forgets the peer when the relay disconnects and links again once it reconnects', async () => {
    await game.ping();
    const port = server.info()!.port;
    const token = server.token;
    const connects = () => clientEvents.filter((e) => e.type === 'connected').length;
    const before = connects();
    await server.stop();
    await eventually(() => !bridge.status().peer, 3000, 'peer forgotten');
    assert.ok(bridgeEvents.some((e) => e.type === 'lost' && /relay/.test(e.reason)));
    server = new RelayServer({ bridge, token, port });
    await server.start();
    await eventually(() => connects() > before, 5000, 'relay reconnected');
    await game.ping();
    assert.equal(bridge.status().linked, true);
  });

  it('refuses a wrong token and a browser origin', async () => {
    const bad = new RelayClient({ url: server.info()!.url, token: 'wrong', port: 0, retryMs: 50 });
    const seen: RelayClientEvent[] = [];
    bad.on((e) => seen.push(e));
    await bad.start();
    await eventually(() => seen.some((e) => e.type === 'rejected'), 3000, 'rejection');
    await bad.stop();
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${server.info()!.url}?token=${server.token}`, { headers: { origin: 'https://evil.example' } });
      ws.on('unexpected-response', (_q, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
      ws.on('error', () => {});
    });
    assert.equal(status, 403);
    // the token may also ride in the URL
    const ok = await new Promise<boolean>((resolve) => {
      const ws = new WebSocket(`${server.info()!.url}?token=${server.token}`);
      ws.on('open', () => (ws.close(), resolve(true)));
      ws.on('error', () => resolve(false));
    });
    assert.equal(ok, true);
  });

  it('drops datagrams while the WebSocket is down instead of queueing them', async () => {
    await server.stop();
    await eventually(() => !client.stats.connected, 3000);
    await game.send('bridge.ping', {});
    await eventually(() => client.stats.dropped >= 1, 2000, 'dropped');
  });
});
