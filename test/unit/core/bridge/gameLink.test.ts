import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';
import { Bridge } from '../../../../src/core/bridge/bridge';
import { createGameLink, type GameLink } from '../../../../src/core/bridge/gameLink';
import { parseCrop, parseScale, editImage } from '../../../../src/core/bridge/screenshot';
import type { AppEnvelope } from '../../../../src/core/bridge/protocol';
import { FakeGame } from '../../../fixtures/fake-game/peer';
import { tempDir } from '../../../helpers/paths';
import { PAIRING } from './helpers';

const entity = (i: number) => ({ name: 'assembling-machine-2', type: 'assembling-machine', x: i, y: 0, recipe: 'gear', status: 'working' });

describe('GameLink (live tools over the bridge)', function () {
  this.timeout(10_000);
  let bridge: Bridge;
  let game: FakeGame;
  let link: GameLink;
  let outDir: string;
  let answers: Record<string, (env: AppEnvelope) => unknown>;

  beforeEach(async () => {
    outDir = tempDir('pyops-shots-');
    bridge = new Bridge({ port: 0, pairing: PAIRING });
    const { port } = await bridge.start();
    answers = {};
    game = await FakeGame.start({ appPort: port, answer: (env) => answers[env.type]?.(env), pairing: PAIRING });
    link = createGameLink(bridge, { scriptOutputDir: () => outDir, screenshotWaitMs: 2000 });
  });
  afterEach(async () => {
    await game.close();
    await bridge.stop();
    fs.rmSync(outDir, { recursive: true, force: true });
  });

  it('answers every call with {ok:false} and what to do when no game is connected', async () => {
    for (const r of [await link.gameContext(), await link.inspectArea({ x: 0, y: 0 }), await link.production(['iron-plate']), await link.eval('1'), await link.hideBlock(), await link.requestSync()]) {
      assert.equal(r.ok, false);
      assert.ok(!r.ok && r.code === 'no-peer' && /--enable-lua-udp/.test(r.error));
    }
  });

  it('validates arguments before sending anything', async () => {
    await game.ping();
    const before = game.received.length;
    const bad = [
      await link.inspectArea({ x: 0, y: 0, radius: 65 }),
      await link.inspectArea({ x: Number.NaN, y: 0 }),
      await link.findEntities({ name: '', limit: 5 }),
      await link.findEntities({ name: 'x', limit: 51 }),
      await link.production([]),
      await link.production(Array.from({ length: 21 }, (_, i) => `g${i}`)),
      await link.eval(''),
      await link.eval(`-- ${'é'.repeat(10_000)}`), // 10,003 characters but 20,003 bytes: the mod counts bytes
      await link.reloadMods('yes'),
      await link.showBlock({ name: 'b', recipes: [{ recipe: 'r', machine: 'm', count: -1 }] } as never),
      await link.screenshot({ crop: '10x10' }),
    ];
    for (const r of bad) assert.ok(!r.ok && r.code === 'invalid-input', JSON.stringify(r));
    assert.equal(game.received.length, before, 'nothing was sent');
  });

  it('returns the game context and applies the defaults of inspect and find', async () => {
    answers['cmd.game_context'] = () => ({ ok: true, player: 'alice', force: 'player', surface: 'nauvis', x: 1.5, y: -2, tick: 600, selected: entity(1) });
    answers['cmd.inspect_area'] = (env) => ({ ok: true, surface: 'nauvis', center: { x: 0, y: 0 }, radius: (env.payload as { radius: number }).radius, count: 100, truncated: false, entities: Array.from({ length: 100 }, (_, i) => entity(i)) });
    answers['cmd.find_entities'] = (env) => ({ ok: true, name: 'assembling-machine-2', surface: 'nauvis', count: 3, sample: Array.from({ length: 30 }, (_, i) => ({ x: i, y: 0 })), limit: (env.payload as { limit: number }).limit });
    await game.ping();
    const ctx = await link.gameContext();
    assert.ok(ctx.ok);
    assert.equal(ctx.selected?.recipe, 'gear');
    const area = await link.inspectArea({ x: 0, y: 0 });
    assert.ok(area.ok);
    assert.equal(area.radius, 16);
    assert.equal(area.entities.length, 60, 'capped at 60 entities');
    assert.equal(area.truncated, true);
    const found = await link.findEntities({ name: 'assembling-machine-2' });
    assert.ok(found.ok);
    assert.equal(found.sample.length, 20, 'sample capped at the default limit');
    assert.equal(found.truncated, true);
    const sent = game.received.find((e) => e.type === 'cmd.find_entities')!;
    assert.deepEqual(sent.payload, { name: 'assembling-machine-2', limit: 20 });
  });

  it('turns a refusal by the mod into an error the model can act on', async () => {
    answers['cmd.eval'] = () => ({ ok: false, error: 'Lua eval is off for alice. Turn on "Allow app-driven Lua eval"…' });
    await game.ping();
    const r = await link.eval('game.tick');
    assert.ok(!r.ok && r.code === 'refused' && /The game refused cmd\.eval: Lua eval is off/.test(r.error));
  });

  it('reports an answer it cannot understand as a bad reply', async () => {
    answers['cmd.production'] = () => ({ ok: true, stats: 'lots' });
    await game.ping();
    const r = await link.production(['iron-plate']);
    assert.ok(!r.ok && r.code === 'bad-reply' && /outdated/.test(r.error));
  });

  it('bounds eval output and passes the reload token through', async () => {
    answers['cmd.eval'] = () => ({ ok: true, result: 'x'.repeat(9000), truncated: false });
    answers['cmd.dev.reload_mods'] = (env) => ((env.payload as { confirm: string }).confirm === 'reload_mods' ? { ok: true, scheduled_tick: 61 } : { ok: false, error: 'no token' });
    await game.ping();
    const r = await link.eval('string.rep("x", 9000)');
    assert.ok(r.ok);
    assert.equal(r.result.length, 8000);
    assert.equal(r.truncated, true);
    assert.deepEqual(await link.reloadMods('reload_mods'), { ok: true, scheduled_tick: 61 });
  });

  it('sends a validated block summary and hides it', async () => {
    answers['cmd.show_block'] = (env) => ({ ok: true, panel: 'block', block: (env.payload as { name: string }).name });
    answers['cmd.hide_block'] = () => ({ ok: true });
    await game.ping();
    const r = await link.showBlock({ name: 'Gears', powerW: 1.5e6, recipes: [{ recipe: 'gear', machine: 'press', count: 3 }], inputs: [{ name: 'plate', rate: 2 }], outputs: [] });
    assert.deepEqual(r, { ok: true, panel: 'block', block: 'Gears' });
    const sent = game.received.find((e) => e.type === 'cmd.show_block')!.payload as { recipes: Array<{ modules: unknown[] }>; inputs: Array<{ kind: string }> };
    assert.deepEqual(sent.recipes[0].modules, [], 'defaults filled in');
    assert.equal(sent.inputs[0].kind, 'item');
    assert.deepEqual(await link.hideBlock(), { ok: true });
  });

  it('takes a screenshot through eval, waits for the file, then crops and scales it', async () => {
    answers['cmd.eval'] = (env) => {
      const code = (env.payload as { code: string }).code;
      const rel = /path = "([^"]+)"/.exec(code)![1];
      // the game writes the file a few ticks later, in two goes
      setTimeout(() => {
        const png = new PNG({ width: 200, height: 100 });
        for (let i = 0; i < png.data.length; i += 4) png.data[i] = (i / 4) % 200 < 100 ? 255 : 0, png.data[i + 3] = 255;
        const file = path.join(outDir, ...rel.split('/'));
        fs.mkdirSync(path.dirname(file), { recursive: true });
        const bytes = PNG.sync.write(png);
        fs.writeFileSync(file, bytes.subarray(0, 10));
        setTimeout(() => fs.writeFileSync(file, bytes), 50);
      }, 50);
      return { ok: true, result: '{path = "…"}' };
    };
    await game.ping();
    const r = await link.screenshot({ crop: '100x50+50+25', scale: '50%' });
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual([r.width, r.height], [50, 25]);
    assert.deepEqual(r.crop, { width: 100, height: 50, x: 50, y: 25 });
    assert.ok(fs.existsSync(r.path) && r.path.endsWith('-edited.png'));
    const plain = await link.screenshot();
    assert.ok(plain.ok);
    assert.deepEqual([plain.width, plain.height], [200, 100]);
    assert.equal(plain.path, plain.original);
  });

  it('explains that screenshots need eval when the mod refuses it', async () => {
    answers['cmd.eval'] = () => ({ ok: false, error: 'Lua eval is off for alice.' });
    await game.ping();
    const r = await link.screenshot();
    assert.ok(!r.ok && /Screenshots run through eval/.test(r.error));
  });
});

describe('screenshot geometry', () => {
  it('parses crop and scale arguments', () => {
    assert.deepEqual(parseCrop('800x600+100+50'), { width: 800, height: 600, x: 100, y: 50 });
    assert.equal(parseCrop('0x10+0+0'), undefined);
    assert.equal(parseCrop('800x600'), undefined);
    assert.equal(parseScale('50%', 1000), 0.5);
    assert.equal(parseScale('500', 1000), 0.5);
    assert.equal(parseScale('500px', 1000), 0.5);
    assert.equal(parseScale('900%', 1000), undefined);
    assert.equal(parseScale('half', 1000), undefined);
  });

  it('clamps a crop to the image and box-filters when shrinking', () => {
    const png = new PNG({ width: 4, height: 2 });
    png.data.fill(0);
    for (let x = 0; x < 2; x++) for (let y = 0; y < 2; y++) png.data[(y * 4 + x) * 4] = 200;
    const cropped = editImage(png, { width: 10, height: 10, x: 2, y: 0 });
    assert.deepEqual([cropped.png.width, cropped.png.height], [2, 2]);
    const half = editImage(png, undefined, 0.5);
    assert.deepEqual([half.png.width, half.png.height], [2, 1]);
    assert.equal(half.png.data[0], 200);
    assert.equal(half.png.data[4], 0);
  });
});
