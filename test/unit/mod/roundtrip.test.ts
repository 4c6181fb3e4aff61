// The real companion mod, running in fengari on the fake Factorio runtime, linked to a real bridge
// over real UDP on 127.0.0.1: heartbeat, snapshots, every inspection command, the block panel,
// task capture, eval (refused by default, refused in multiplayer, allowed when enabled), reload
// with and without its token, chunking both ways, and a game started without --enable-lua-udp.
import assert from 'node:assert/strict';
import { Bridge, type BridgeEvent } from '../../../src/core/bridge/bridge';
import { createGameLink, type GameLink } from '../../../src/core/bridge/gameLink';
import { PROTOCOL_VERSION } from '../../../src/core/bridge/protocol';
import type { StateKind } from '../../../src/core/bridge/snapshots';
import { listTasks } from '../../../src/core/work/tasks';
import { mcpTools } from '../../../src/core/assistant/tools/registry';
import { runTool } from '../../../src/core/assistant/tools/run';
import { createVM, type ModVM } from '../../mod/harness';
import { makeProject, PAIRING } from '../core/bridge/helpers';

const WORLD = `
  C.default_world()
  C.install_turd({ ["press-upgrade"] = "lean-press" })
`;

interface Rig {
  vm: ModVM;
  bridge: Bridge;
  link: GameLink;
  events: BridgeEvent[];
  changed: StateKind[][];
  /** Let the mod and the bridge exchange datagrams until `cond` holds. */
  until(cond: () => boolean, what?: string, timeoutMs?: number): Promise<void>;
  /** Run a GameLink call while the game keeps ticking. */
  call<T>(p: Promise<T>): Promise<T>;
  close(): Promise<void>;
}

describe('companion mod over real UDP (fengari)', function () {
  this.timeout(15_000);
  let ctx: Awaited<ReturnType<typeof makeProject>>;
  let rig: Rig;

  before(async () => {
    ctx = await makeProject({ gameData: true });
  });
  after(() => ctx.dispose());

  async function start(opts: { player?: string; setup?: string; link?: boolean; pairing?: string } = {}): Promise<Rig> {
    const events: BridgeEvent[] = [];
    const changed: StateKind[][] = [];
    const bridge = new Bridge({ port: 0, project: () => ctx.project, onStateChanged: (k) => changed.push(k), pairing: PAIRING });
    bridge.on((e) => events.push(e));
    const { port } = await bridge.start();
    const vm = createVM({ setup: `${WORLD}\nC.add_player({ name = "alice", x = 3.25, y = -1.5, port = ${port}, pairing = "${opts.pairing ?? PAIRING}" ${opts.player ?? ''} })\n${opts.setup ?? ''}` });
    await vm.attachUdp();
    const link = createGameLink(bridge);
    let ticking = true;
    const r: Rig = {
      vm,
      bridge,
      link,
      events,
      changed,
      until: (cond, what = 'condition', timeoutMs = 4000) =>
        vm.runUntil(cond, { timeoutMs }).catch(() => {
          throw new Error(`timed out waiting for ${what}`);
        }),
      async call<T>(p: Promise<T>): Promise<T> {
        let settled = false;
        const out = p.finally(() => (settled = true));
        while (!settled && ticking) {
          vm.advance(5);
          await new Promise((res) => setTimeout(res, 1));
        }
        return out;
      },
      async close() {
        ticking = false;
        await vm.close();
        await bridge.stop();
      },
    };
    if (opts.link !== false) await r.until(() => r.vm.run<boolean>('return storage.pyops.players[1] ~= nil and storage.pyops.players[1].last_pong ~= nil'), 'first pong');
    return r;
  }

  beforeEach(() => {
    ctx.project.write((db) => {
      for (const t of ['researched_techs', 'turd_selections', 'built_machines', 'production_stats', 'live_sync', 'tasks', 'task_links', 'task_steps']) db.run(`DELETE FROM main.${t}`);
    });
  });
  afterEach(async () => {
    await rig?.close();
  });

  it('pings every 2 s, pushes full snapshots on the first beat, and shows as linked on both sides', async () => {
    rig = await start();
    const s = rig.bridge.status();
    assert.equal(s.linked, true);
    assert.equal(s.player, 'alice');
    assert.equal(s.modVersion, '0.1.0');
    assert.equal(s.modProtocolVersion, PROTOCOL_VERSION);
    assert.equal(s.protocolMismatch, false);
    const types = rig.vm.sent.map((d) => JSON.parse(d.data.toString()).type);
    assert.deepEqual(types.slice(0, 5), ['bridge.ping', 'state.research', 'state.turd', 'state.built', 'state.stats']);
    for (const d of rig.vm.sent) assert.equal(d.forPlayer, 1, 'sent for the local player, never 0');
    const pings = () => rig.vm.sent.filter((d) => JSON.parse(d.data.toString()).type === 'bridge.ping').length;
    const before = pings();
    rig.vm.advance(240);
    assert.equal(pings(), before + 2);
    assert.equal(rig.vm.run('return storage.pyops.players[1].app_protocol'), PROTOCOL_VERSION);
  });

  it('stores research, TURD, built machines and stats from the game and re-solves on change only', async () => {
    rig = await start();
    await rig.until(() => rig.bridge.status().lastSnapshots.stats !== undefined, 'stats snapshot');
    const p = ctx.project;
    assert.deepEqual(p.query<{ name: string }>('SELECT name FROM researched_techs ORDER BY name').map((r) => r.name), ['automation', 'logistics']);
    const settings = new Map(p.query<{ key: string; value: string }>('SELECT key, value FROM planning_settings').map((r) => [r.key, JSON.parse(r.value)]));
    assert.equal(settings.get('synced_mining_productivity'), 0.2);
    assert.deepEqual(settings.get('synced_recipe_productivity'), { 'iron-gear-wheel': 0.1 });
    assert.deepEqual(p.query('SELECT master, branch, source FROM turd_selections'), [{ master: 'press-upgrade', branch: 'lean-press', source: 'synced' }]);
    assert.deepEqual(p.query('SELECT machine, recipe, count FROM built_machines ORDER BY machine, recipe'), [
      { machine: 'assembling-machine-2', recipe: '', count: 1 },
      { machine: 'assembling-machine-2', recipe: 'iron-gear-wheel', count: 3 },
      { machine: 'electric-mining-drill', recipe: 'mine-iron-ore', count: 1 },
      { machine: 'stone-furnace', recipe: 'iron-plate', count: 1 },
    ]);
    assert.deepEqual(p.query('SELECT name, kind, produced, consumed FROM production_stats ORDER BY kind, name'), [
      { name: 'water', kind: 'fluid', produced: 20, consumed: 20 },
      { name: 'iron-gear-wheel', kind: 'item', produced: 0.5, consumed: 0 },
      { name: 'iron-plate', kind: 'item', produced: 2.5, consumed: 1 },
    ]);
    const firstChanges = rig.changed.length;
    assert.ok(firstChanges >= 4);
    // the pong after the first beat links the player and pushes everything again: nothing changed
    await rig.until(() => rig.bridge.status().counters.handled >= 12, 'second full push');
    assert.equal(rig.changed.length, firstChanges);
  });

  it('pushes research after it finishes and built machines once building pauses', async () => {
    rig = await start();
    rig.vm.run('C.forces.player.technologies["advanced-material-processing"].researched = true; C.raise("on_research_finished", { research = C.forces.player.technologies["advanced-material-processing"] }); return nil');
    await rig.until(() => ctx.project.query('SELECT * FROM researched_techs').length === 3, 'research pushed');
    const builtSends = () => rig.vm.sent.filter((d) => JSON.parse(d.data.toString()).type === 'state.built').length;
    const before = builtSends();
    rig.vm.run(`
      for i = 1, 5 do
        local e = C.add_entity({ name = "assembling-machine-2", type = "assembling-machine", x = 40 + i, y = 0, surface = C.surfaces.nauvis, force = C.forces.player, recipe = "copper-cable" })
        C.raise("on_built_entity", { entity = e, player_index = 1 })
        C.advance(20)
      end
      return nil`);
    assert.equal(builtSends(), before, 'not while the player keeps building');
    await rig.until(() => ctx.project.query("SELECT * FROM built_machines WHERE recipe = 'copper-cable'").length === 1, 'built pushed');
    assert.equal(builtSends(), before + 1, 'one debounced snapshot');
  });

  it('answers the game context, area inspection, entity search and production reads', async () => {
    rig = await start();
    rig.vm.run('local p = C.players[1]; p.selected = C.entities[2]; C.raise("on_selected_entity_changed", { player_index = 1 }); p.selected = nil; return nil');
    const ctxr = await rig.call(rig.link.gameContext());
    assert.ok(ctxr.ok, JSON.stringify(ctxr));
    assert.deepEqual({ player: ctxr.player, force: ctxr.force, surface: ctxr.surface, x: ctxr.x, y: ctxr.y }, { player: 'alice', force: 'player', surface: 'nauvis', x: 3.25, y: -1.5 });
    assert.deepEqual(ctxr.selected, { name: 'assembling-machine-2', type: 'assembling-machine', x: 4, y: 0, recipe: 'iron-gear-wheel', status: 'working' }, 'the last hovered entity');

    const area = await rig.call(rig.link.inspectArea({ x: 0, y: 0, radius: 6 }));
    assert.ok(area.ok, JSON.stringify(area));
    assert.equal(area.radius, 6);
    assert.ok(!area.entities.some((e) => e.type === 'character'), 'no characters');
    assert.deepEqual(area.entities.map((e) => e.name).sort(), ['assembling-machine-2', 'iron-chest', 'stone-furnace']);
    assert.equal(area.count, 3);
    assert.equal(area.truncated, false);
    // Names the game does not know are the caller's to fix: invalid-input, through every host.
    const other = await rig.call(rig.link.inspectArea({ x: 0, y: 0, surface: 'nowhere' }));
    assert.ok(!other.ok && other.code === 'invalid-input' && /no surface named "nowhere"/.test(other.error), JSON.stringify(other));
    const tool = (name: string) => mcpTools(false).find((t) => t.name === name)!;
    const viaTools = await Promise.all([
      rig.call(runTool(tool('gameInspectArea'), { x: 0, y: 0, surface: 'nowhere' }, { project: ctx.project, caller: 'mcp', game: rig.link })),
      rig.call(runTool(tool('gameFindEntities'), { name: 'assembling-machine-2', surface: 'nowhere' }, { project: ctx.project, caller: 'mcp', game: rig.link })),
      rig.call(runTool(tool('gameFindEntities'), { name: 'warp-drive' }, { project: ctx.project, caller: 'mcp', game: rig.link })),
    ]);
    assert.deepEqual(viaTools.map((o) => (o.ok ? 'ok' : o.code)), ['invalid-input', 'invalid-input', 'invalid-input'], JSON.stringify(viaTools));

    // Another force's machine of the same prototype is not the player's.
    rig.vm.run('C.add_entity({ name = "assembling-machine-2", type = "assembling-machine", x = 40, y = 40, surface = C.surfaces.nauvis, force = C.forces.enemy }); return nil');
    const found = await rig.call(rig.link.findEntities({ name: 'assembling-machine-2', limit: 2 }));
    assert.ok(found.ok, JSON.stringify(found));
    assert.equal(found.count, 4);
    assert.equal(found.sample.length, 2);
    assert.equal(found.truncated, true);
    const all = await rig.call(rig.link.findEntities({ name: 'assembling-machine-2', limit: 10 }));
    assert.ok(all.ok && all.count === 4 && all.sample.length === 4 && !all.truncated, JSON.stringify(all));
    assert.ok(!all.sample.some((s) => s.x === 40), "the enemy's machine is not sampled");
    const missing = await rig.call(rig.link.findEntities({ name: 'warp-drive' }));
    assert.ok(!missing.ok && missing.code === 'invalid-input' && /no entity prototype named "warp-drive"/.test(missing.error));

    const prod = await rig.call(rig.link.production(['iron-plate', 'water', 'unobtainium']));
    assert.ok(prod.ok, JSON.stringify(prod));
    assert.deepEqual(prod.stats, [
      { name: 'iron-plate', kind: 'item', produced: 2.5, consumed: 1 },
      { name: 'water', kind: 'fluid', produced: 20, consumed: 20 },
      { name: 'unobtainium', produced: 0, consumed: 0 },
    ]);
  });

  it('draws the block summary the app sends (chunked) and hides it', async () => {
    rig = await start();
    const recipes = Array.from({ length: 30 }, (_, i) => ({ recipe: `recipe-${i}`, recipeDisplay: `Recipe ${i} — ünïcødé display`, machine: 'press', machineDisplay: 'Press', count: i + 1, modules: ['speed-module'] }));
    const out0 = rig.bridge.status().counters.out;
    const shown = await rig.call(rig.link.showBlock({ name: 'Gear block', powerW: 2.5e6, recipes, inputs: [{ name: 'iron-plate', rate: 10, display: 'Iron plate' }], outputs: [{ name: 'iron-gear-wheel', rate: 5 }] }));
    assert.deepEqual(shown, { ok: true, panel: 'block', block: 'Gear block' });
    assert.ok(rig.bridge.status().counters.out - out0 >= 2, 'the command went out in chunks');
    assert.equal(rig.vm.run('return next(storage.pyops.chunks) == nil'), true, 'and the mod put it back together');
    const text = rig.vm.run<string>('return C.gui_text(1)');
    assert.match(text, /Gear block/);
    assert.match(text, /Power 2\.50 MW/);
    assert.match(text, /Recipe 29 — ünïcødé display/);
    assert.match(text, /Iron plate/);
    assert.equal(rig.vm.run('return C.players[1].opened ~= nil'), false, 'the app does not steal the player\'s focus');
    assert.deepEqual(await rig.call(rig.link.hideBlock()), { ok: true });
    assert.equal(rig.vm.run('return C.element(1, "pyops_link_frame") ~= nil'), false);
  });

  it('pushes everything on request.sync', async () => {
    rig = await start();
    const r = await rig.call(rig.link.requestSync());
    assert.deepEqual(r, { ok: true, sent: ['research', 'turd', 'built', 'stats'] });
  });

  it('refuses eval by default', async () => {
    rig = await start();
    const r = await rig.call(rig.link.eval('game.tick'));
    assert.ok(!r.ok && r.code === 'refused' && /Lua eval is off for alice/.test(r.error), JSON.stringify(r));
  });

  it('refuses eval in multiplayer even when enabled', async () => {
    rig = await start({ player: ', allow_eval = true' });
    rig.vm.run('C.multiplayer = true; return nil');
    const r = await rig.call(rig.link.eval('game.tick'));
    assert.ok(!r.ok && /only runs in single-player/.test(r.error), JSON.stringify(r));
  });

  it('runs eval when enabled, in a restricted environment, with bounded output', async () => {
    rig = await start({ player: ', allow_eval = true' });
    assert.deepEqual(await rig.call(rig.link.eval('1 + 1')), { ok: true, result: '2', truncated: false });
    assert.deepEqual(await rig.call(rig.link.eval('player.name')), { ok: true, result: '"alice"', truncated: false });
    const obj = await rig.call(rig.link.eval('return player.surface, {a = 1, list = {1, 2}}'));
    assert.ok(obj.ok && obj.result === '{<LuaSurface nauvis>, {a = 1, list = {1, 2}}}', JSON.stringify(obj));
    const env = await rig.call(rig.link.eval('return storage == nil and script == nil and require == nil and load == nil and setmetatable == nil'));
    assert.deepEqual(env, { ok: true, result: 'true', truncated: false }, 'no mod internals, no loaders');
    const escape = await rig.call(rig.link.eval('string.rep = nil; return 1'));
    assert.ok(escape.ok);
    assert.equal(rig.vm.run('return type(string.rep)'), 'function', 'eval cannot rewrite the mod\'s libraries');
    const big = await rig.call(rig.link.eval('local t = {} for i = 1, 100 do t[i] = string.rep("x", 200) end return t'));
    assert.ok(big.ok && big.truncated && big.result.length <= 8000, JSON.stringify(big).slice(0, 200));
    const deep = await rig.call(rig.link.eval('return {{{{{{1}}}}}}'));
    assert.ok(deep.ok && deep.result.includes('{…}'));
    const runtime = await rig.call(rig.link.eval('error("boom")'));
    assert.ok(!runtime.ok && runtime.code === 'refused' && /runtime error: .*boom/.test(runtime.error));
    const compile = await rig.call(rig.link.eval('local = 1'));
    assert.ok(!compile.ok && compile.code === 'invalid-input' && /compile error/.test(compile.error), 'Lua that does not compile is the caller\'s to fix');
  });

  it('reloads mods only with the confirm token, then resyncs', async () => {
    rig = await start();
    const without = await rig.call(rig.bridge.request('cmd.dev.reload_mods', { confirm: 'please' }));
    assert.ok(without.ok && (without.payload as { ok: boolean }).ok === false);
    assert.match((without.payload as { error: string }).error, /needs confirm = "reload_mods"/);
    assert.equal((without.payload as { code?: string }).code, 'invalid-input');
    assert.equal(rig.vm.run('return C.reloads'), 0);
    const research = () => rig.vm.sent.filter((d) => JSON.parse(d.data.toString()).type === 'state.research').length;
    const before = research();
    const r = await rig.call(rig.link.reloadMods('reload_mods'));
    assert.ok(r.ok, JSON.stringify(r));
    await rig.until(() => rig.vm.run<number>('return C.reloads') === 1, 'reload');
    assert.ok(r.scheduled_tick <= rig.vm.run<number>('return C.tick'));
    await rig.until(() => research() > before, 'resync after the reload');
  });

  it('captures a task from the in-game dialog and lists the project\'s tasks', async () => {
    rig = await start();
    rig.vm.run('C.raise("pyops-link-capture-task", { player_index = 1 }); return nil');
    assert.equal(rig.vm.run('return C.element(1, "pyops_link_capture") ~= nil'), true);
    rig.vm.run('C.element(1, "pyops_link_capture_title").text = "Add more gear presses"; C.element(1, "pyops_link_capture_body").text = "Gears run short"; C.click(1, "pyops_link_capture_send"); return nil');
    await rig.until(() => rig.vm.run<number>('return #C.printed') > 0, 'task.captured');
    const tasks = listTasks(ctx.project);
    assert.equal(tasks.length, 1);
    assert.equal(tasks[0].title, 'Add more gear presses');
    assert.deepEqual(ctx.project.query('SELECT kind, name FROM task_links'), [{ kind: 'location', name: 'nauvis|3|-1' }]);
    assert.match(JSON.stringify(rig.vm.run('return C.printed[1].message')), /task-saved.*Add more gear presses/);
    rig.vm.run('C.click(1, "pyops_link_button"); C.click(1, "pyops_link_tab_tasks"); return nil');
    await rig.until(() => /\[open\] Add more gear presses/.test(rig.vm.run<string>('return C.gui_text(1)')), 'task list drawn');
  });

  it('chunks a big built snapshot from the game and the bridge puts it back together', async () => {
    rig = await start({
      setup: `for i = 1, 400 do C.add_entity({ name = "assembling-machine-3", type = "assembling-machine", x = 100 + i, y = 50, surface = C.surfaces.nauvis, force = C.forces.player, recipe = "a-fairly-long-recipe-name-number-" .. i }) end`,
    });
    await rig.until(() => ctx.project.query("SELECT * FROM built_machines WHERE machine = 'assembling-machine-3'").length === 400, 'big snapshot');
    const frames = rig.vm.sent.filter((d) => d.data.subarray(0, 5).toString() === 'PYC1 ');
    assert.ok(frames.length >= 3);
    for (const d of rig.vm.sent) assert.ok(d.data.length <= 8000, `${d.data.length} bytes`);
  });

  it('accepts empty tables written as [] (Factorio does not say how it writes them)', async () => {
    rig = await start({ setup: 'C.empty_as = "[]"; for _, t in pairs(C.forces.player.technologies) do t.researched = false end; C.forces.player.recipes = {}' });
    await rig.until(() => rig.bridge.status().lastSnapshots.research !== undefined, 'research snapshot');
    assert.equal(rig.bridge.status().counters.rejected, 0);
    assert.equal(ctx.project.query('SELECT * FROM researched_techs').length, 0);
  });

  it('without the pairing code, links read-only: nothing is saved, and the panel says how to pair', async () => {
    rig = await start({ pairing: '' });
    await rig.until(() => rig.bridge.status().counters.refused >= 4, 'the first full push refused');
    const s = rig.bridge.status();
    assert.equal(s.linked, true);
    assert.equal(s.paired, false);
    assert.equal(ctx.project.query('SELECT * FROM researched_techs').length, 0);
    assert.equal(ctx.project.query('SELECT * FROM built_machines').length, 0);
    assert.equal(rig.vm.run('return storage.pyops.players[1].app_paired'), false);
    rig.vm.run('C.click(1, "pyops_link_button"); return nil');
    assert.match(rig.vm.run<string>('return C.gui_text(1)'), /status-unpaired/);
    // The Tasks tab asks for the task list: the app refuses it and says how to pair.
    rig.vm.run('C.click(1, "pyops_link_tab_tasks"); return nil');
    await rig.until(() => /pairing code/.test(rig.vm.run<string>('return storage.pyops.players[1].notice or ""')), 'the refusal shown');
    assert.equal(rig.vm.run('return storage.pyops.players[1].app_project'), null, 'the project is not named to an unpaired game');
    const r = await rig.call(rig.link.gameContext());
    assert.equal(!r.ok && r.code, 'unpaired');
  });

  it('presents a pairing code padded with spaces as the code (settings are typed by hand)', async () => {
    rig = await start({ pairing: `  ${PAIRING} ` });
    assert.equal(rig.bridge.status().paired, true);
  });

  it('acts on no command from an app speaking another protocol version', async () => {
    rig = await start();
    const port = rig.bridge.status().port;
    const sent = rig.vm.sent.length;
    rig.vm.run(`C.deliver(1, '{"protocol_version":${PROTOCOL_VERSION + 1},"type":"cmd.game_context","request_id":"r1","payload":{}}', ${port}); return nil`);
    rig.vm.advance(30);
    const replies = rig.vm.sent.slice(sent).map((d) => JSON.parse(d.data.toString()).type);
    assert.ok(!replies.includes('bridge.result'), replies.join(','));
    assert.ok(rig.vm.run<string[]>('return C.logs').some((l) => /ignored cmd\.game_context from an app speaking protocol/.test(l)));
  });

  it('ignores datagrams that do not come from the app\'s port', async () => {
    rig = await start();
    const handled = rig.vm.run<number>('return #C.printed');
    rig.vm.run(`C.deliver(1, '{"protocol_version":1,"type":"task.captured","payload":{"ok":true,"title":"spoofed"}}', 1); C.players[1].connected = true; return nil`);
    rig.vm.advance(30);
    assert.equal(rig.vm.run<number>('return #C.printed'), handled);
  });

  it('stays quiet and says how to fix it when the game runs without --enable-lua-udp', async () => {
    rig = await start({ setup: 'C.udp_enabled = false', link: false });
    rig.vm.advance(700);
    assert.equal(rig.vm.sent.length, 0);
    const logs = rig.vm.run<string[]>('return C.logs');
    assert.equal(logs.filter((l) => /--enable-lua-udp/.test(l)).length, 1, 'one hint in the log, then silence');
    rig.vm.run('C.click(1, "pyops_link_button"); return nil');
    const text = rig.vm.run<string>('return C.gui_text(1)');
    assert.match(text, /status-unlinked/);
    assert.match(text, /hint-udp/);
    assert.match(text, /status-udp-off/);
    assert.equal(rig.bridge.status().counters.in, 0);
  });
});
