// recipeGraph on the sample world: breadth-first neighbourhood, seams (raw, block, depth), candidates
// limited to the horizon with the locked ones summed up, dead ends, the node and size budgets with
// their frontier, and determinism. On Py data: the default-settings result stays small.
import assert from 'node:assert/strict';
import { recipeGraph } from '../../../../../src/core/planning/queries/recipeGraph';
import { recipeOptions } from '../../../../../src/core/planning/queries/recipeOptions';
import { QueryError } from '../../../../../src/core/planning/queries/errors';
import { findTool } from '../../../../../src/core/assistant/tools/registry';
import { runTool } from '../../../../../src/core/assistant/tools/run';
import { requireSharedData } from '../../../../helpers/paths';
import { loadWorld, sampleWorld, type World } from './world';

const NOW_BASIC = { research_mode: 'now' as const, available_science_packs: ['basic-research-pack'] };

describe('recipeGraph', () => {
  let w: World;
  before(async () => {
    w = await sampleWorld();
  });

  it('walks breadth first from the target, each good once, and stops at raw goods', () => {
    const r = recipeGraph(w.ctx(NOW_BASIC), { target: 'advanced-research-pack' });
    assert.equal(r.target, 'advanced-research-pack');
    assert.equal(r.truncated, false);
    assert.deepEqual(r.unexpanded, []);
    assert.equal(r.next, undefined);
    assert.equal(r.goodCount, Object.keys(r.goods).length);
    const depths = Object.values(r.goods).map((n) => n.depth);
    assert.deepEqual(depths, [...depths].sort((a, b) => a - b));
    assert.equal(r.goods['advanced-research-pack'].depth, 0);
    assert.equal(r.goods['circuit'].depth, 1);
    assert.deepEqual(r.goods['azurite-ore'].seam, 'raw');
    assert.equal(r.goods['azurite-ore'].leaf, true);
    assert.equal(r.goods['azurite-ore'].candidates, undefined);
    assert.match(r.legend, /seam/);
  });

  it('says of a virtual burning recipe that no building runs it and a burner row gives its burnt result', () => {
    const r = recipeGraph(w.ctx({ research_mode: 'future' }), { target: 'ash' });
    const burn = r.goods['ash'].candidates?.find((c) => c.recipe === 'burn-lignite');
    assert.ok(burn, JSON.stringify(r.goods['ash']));
    assert.match(burn.machine!, /^none — virtual burning; a burner row/);
    assert.ok(Object.values(r.goods).every((n) => (n.candidates ?? []).every((c) => c.recipe.startsWith('burn-') || c.machine === undefined)), 'a recipe a building runs names no machine in the graph');
    const opt = recipeOptions(w.ctx({ research_mode: 'future' }), { good: 'ash' }).candidates.find((c) => c.recipe === 'burn-lignite');
    assert.equal(opt?.machine, burn.machine);
  });

  it('leaves a candidate\'s defaults out: state when buildable, prod unless allowed; nodes carry no additive flag', () => {
    const r = recipeGraph(w.ctx({ research_mode: 'future' }), { target: 'brine' });
    const cs = Object.values(r.goods).flatMap((n) => n.candidates ?? []);
    const rec = (name: string) => w.g.recipes.get(name)!;
    // Under Future nothing is unlocked in the save: every listed candidate is buildable, so none says so.
    assert.ok(cs.length > 2 && cs.every((c) => !('state' in c)), JSON.stringify(cs.map((c) => c.state)));
    assert.ok(cs.some((c) => !rec(c.recipe).allowProductivity) && cs.some((c) => rec(c.recipe).allowProductivity), 'both kinds are listed');
    for (const c of cs) assert.equal('prod' in c, rec(c.recipe).allowProductivity, c.recipe);
    assert.ok(Object.values(r.goods).every((n) => !('additive' in n) && typeof n.consumers === 'number'));
  });

  it('lists only the candidates selectable under the horizon, with cost and in/out, and sums up the locked ones', () => {
    const r = recipeGraph(w.ctx(NOW_BASIC, ['automation-basics', 'electronics']), { target: 'circuit' });
    const c = r.goods['circuit'].candidates!;
    // circuit-lean needs the lean-press TURD branch of press-upgrade, whose research needs advanced-research-pack.
    assert.deepEqual(c.map((x) => x.recipe), ['circuit']);
    assert.equal(c[0].state, 'unlocked');
    assert.equal(c[0].needs, undefined);
    assert.equal(c[0].in, '3 wire + 1 ferrite-plate');
    assert.equal(typeof c[0].cost, 'number');
    // Cheapest unlock of circuit-lean: lean-press's unresearched closure, the branch gate itself free:
    // fluid-handling 40 + advanced-research 50 + advanced-pressing 75×2 + press-upgrade 120×2 = 480 packs.
    assert.equal(r.goods['circuit'].locked, '1 locked; cheapest unlock lean-press (480 packs) → circuit-lean');
    assert.equal(r.horizon, 'Now');
    assert.equal(r.goods['circuit'].display, 'Circuit');
  });

  it('expands only selectable candidates: a locked route never drags its inputs in', () => {
    // Under Future everything is researchable, but a TURD branch must still be chosen (circuit-lean is locked)
    // while the lean-press choice also supersedes circuit itself.
    const lean = recipeGraph(w.ctx({ research_mode: 'future' }, [], { 'press-upgrade': 'lean-press' }), { target: 'arm' });
    assert.deepEqual(lean.goods['circuit'].candidates!.map((x) => x.recipe), ['circuit-lean']);
    assert.match(lean.goods['circuit'].locked!, /^1 superseded \(superseded by circuit-lean/);
    const free = recipeGraph(w.ctx({ research_mode: 'future' }), { target: 'circuit', candidatesPerGood: 1 });
    assert.equal(free.goods['circuit'].candidates!.length, 1);
    assert.equal(free.goods['circuit'].moreCandidates, undefined, 'circuit-lean is locked, not a further candidate');
    assert.match(free.goods['circuit'].locked!, /^1 locked; .*→ circuit-lean/);
    assert.ok(free.goods['wire']);
  });

  it('flags dead ends: no selectable producer (root) and selectable producers whose inputs cannot be made', () => {
    // Now with only basic packs and lean-press chosen: circuit is superseded, circuit-lean needs
    // press-upgrade research (advanced packs) — nothing can make circuit; arm's only recipe needs it.
    const r = recipeGraph(w.ctx(NOW_BASIC, [], { 'press-upgrade': 'lean-press' }), { target: 'arm' });
    const circuit = r.goods['circuit'];
    assert.equal(circuit.deadEnd, true);
    assert.equal(circuit.seam, 'dead-end');
    assert.equal(circuit.leaf, true);
    assert.equal(circuit.candidates, undefined);
    assert.match(circuit.locked!, /^1 locked; cheapest unlock lean-press \(\d+ packs\) → circuit-lean; 1 superseded/);
    const arm = r.goods['arm'];
    assert.equal(arm.deadEnd, true);
    assert.deepEqual(arm.blockedBy, ['circuit']);
    assert.deepEqual(arm.candidates!.map((c) => c.recipe), ['arm']);
    assert.deepEqual(r.deadEnds, ['arm', 'circuit']);
    assert.match(r.note!, /arm cannot be made under the horizon \(Now\): its selectable recipes need circuit/);
    assert.equal(r.goods['gear'].deadEnd, undefined);
  });

  it('names the locked recipes of a dead-end target and why', () => {
    // Nothing researched, no packs: circuit needs electronics (30 basic packs).
    const r = recipeGraph(w.ctx({ research_mode: 'now', available_science_packs: [] }), { target: 'circuit' });
    const n = r.goods['circuit'];
    assert.equal(n.deadEnd, true);
    // Nearest in research first: circuit's electronics (30 packs) before circuit-lean's lean press.
    assert.deepEqual(n.candidates!.map((c) => [c.recipe, c.state]), [['circuit', 'needs-research'], ['circuit-lean', 'needs-research']]);
    // What to do next: research electronics with basic packs, and unlock the press (automation-basics is free).
    assert.deepEqual(n.candidates![0].needs, { research: ['electronics'], packs: ['basic-research-pack'], machine: { name: 'press', research: 'automation-basics' } });
    assert.equal(n.locked, '2 locked; cheapest unlock electronics (30 packs) → circuit');
    assert.equal(r.goodCount, 1, 'a dead end is not expanded');
  });

  it('lists a TURD recipe Up to target as a turd-pick with the branch to pick', () => {
    const r = recipeGraph(w.ctx({ research_mode: 'target', horizon_target: 'circuit-lean' }), { target: 'circuit' });
    const lean = r.goods['circuit'].candidates!.find((c) => c.recipe === 'circuit-lean')!;
    assert.equal(lean.state, 'turd-pick');
    assert.deepEqual(lean.needs?.turd, { master: 'press-upgrade', branch: 'lean-press' });
  });

  it('cuts at the depth limit', () => {
    const r = recipeGraph(w.ctx(NOW_BASIC), { target: 'advanced-research-pack', depth: 1 });
    assert.ok(r.goods['advanced-research-pack'].candidates);
    assert.equal(r.goods['circuit'].seam, 'depth');
    assert.equal(r.goods['filter'].seam, 'depth');
    assert.equal(r.goods['wire'], undefined);
  });

  it('cuts at goods an existing block makes, except the target', () => {
    const blocks = new Map([['frame', 'Frame block'], ['advanced-research-pack', 'Science']]);
    const r = recipeGraph(w.ctx(NOW_BASIC), { target: 'advanced-research-pack' }, { blockGoods: blocks });
    assert.equal(r.goods['frame'].seam, 'block');
    assert.equal(r.goods['frame'].fromBlock, 'Frame block');
    assert.ok(r.goods['advanced-research-pack'].candidates);
    assert.ok(!r.goods['frame'].candidates);
    const s = recipeGraph(w.ctx(NOW_BASIC), { target: 'advanced-research-pack' }, { blockGoods: new Set(['filter']) });
    assert.equal(s.goods['filter'].seam, 'block');
  });

  it('stops at the node budget and returns the frontier', () => {
    const r = recipeGraph(w.ctx({ research_mode: 'future' }), { target: 'speed-module-s1', nodeBudget: 10 });
    assert.equal(r.goodCount, 10);
    assert.equal(Object.keys(r.goods).length, 10);
    assert.equal(r.truncated, true);
    assert.match(r.next!, /recipeOptionsBatch/);
    assert.ok(r.unexpanded.length > 0);
    for (const u of r.unexpanded) assert.equal(r.goods[u], undefined);
  });

  it('stops before the size budget and says what to call next', () => {
    const full = recipeGraph(w.ctx({ research_mode: 'future' }), { target: 'beacon-tower', maxChars: 40_000 });
    assert.equal(full.truncated, false);
    const fullSize = JSON.stringify(full).length;
    const cut = recipeGraph(w.ctx({ research_mode: 'future' }), { target: 'beacon-tower', maxChars: 2_000 });
    assert.ok(fullSize > 2_000, `the full graph (${fullSize}) must exceed the budget for this test`);
    assert.ok(JSON.stringify(cut).length <= 2_000, `${JSON.stringify(cut).length}`);
    assert.equal(cut.truncated, true);
    assert.match(cut.next!, /unexpanded/);
    assert.ok(cut.goodCount >= 1 && cut.goodCount < full.goodCount);
    // The frontier is exactly the goods the full walk describes next, in breadth-first order.
    const order = Object.keys(full.goods);
    assert.deepEqual(Object.keys(cut.goods), order.slice(0, cut.goodCount));
    assert.ok(cut.unexpanded.length > 0);
    for (const u of cut.unexpanded) assert.ok(!cut.goods[u] && full.goods[u], u);
  });

  it('starts from further goods (`also`) in the same walk: each good once, every start good expanded', () => {
    const ctx = w.ctx({ research_mode: 'future' });
    const big = { maxChars: 40_000, nodeBudget: 150 };
    const alone = ['beacon-tower', 'filter', 'frame'].map((t) => recipeGraph(ctx, { target: t, ...big }));
    const r = recipeGraph(ctx, { target: 'beacon-tower', also: ['filter', 'frame', 'filter', 'beacon-tower'], ...big });
    // Repeats and the target itself are dropped from `also`.
    assert.deepEqual(r.also, ['filter', 'frame']);
    assert.equal(r.truncated, false);
    // The goods are those of the three graphs together, each described once.
    const union = new Set(alone.flatMap((a) => Object.keys(a.goods)));
    assert.deepEqual(new Set(Object.keys(r.goods)), union);
    assert.equal(r.goodCount, union.size);
    for (const t of ['beacon-tower', 'filter', 'frame']) {
      assert.equal(r.goods[t].depth, 0, t);
      assert.ok(r.goods[t].candidates?.length, `${t} is expanded`);
    }
    // A start good an existing block makes is expanded all the same, like the target.
    const withBlock = recipeGraph(ctx, { target: 'beacon-tower', also: ['filter'] }, { blockGoods: new Map([['filter', 'Filters']]) });
    assert.ok(withBlock.goods['filter'].candidates && !withBlock.goods['filter'].leaf);
    // One call reads less than the three graphs.
    assert.ok(JSON.stringify(r).length < alone.reduce((n, a) => n + JSON.stringify(a).length, 0));
  });

  it('grows its default budgets with each further start good', () => {
    const ctx = w.ctx({ research_mode: 'future' });
    const one = recipeGraph(ctx, { target: 'beacon-tower', maxChars: 2_000 });
    assert.equal(one.truncated, true);
    const two = recipeGraph(ctx, { target: 'beacon-tower', also: ['filter'], maxChars: 2_000 });
    assert.ok(JSON.stringify(two).length <= 2_000, 'an explicit budget holds with `also`');
    assert.throws(() => recipeGraph(ctx, { target: 'beacon-tower', also: ['no-such-good'] }), QueryError);
  });

  it('reports spoilage on the way and the target of a raw good with its mining candidate', () => {
    const r = recipeGraph(w.ctx({ research_mode: 'future' }), { target: 'filter' });
    assert.deepEqual(r.goods['fresh-resin'].spoils, { into: 'resin', seconds: 300, mustBeLocal: false });
    const ore = recipeGraph(w.ctx(), { target: 'azurite-ore' });
    assert.ok(ore.goods['azurite-ore'].candidates!.some((c) => c.recipe === 'mine-azurite-ore'));
  });

  it('is deterministic', () => {
    const a = JSON.stringify(recipeGraph(w.ctx({ research_mode: 'future' }), { target: 'beacon-tower' }));
    const b = JSON.stringify(recipeGraph(w.ctx({ research_mode: 'future' }), { target: 'beacon-tower' }));
    assert.equal(a, b);
  });

  it('asks for searchGoods on an unknown target', () => {
    assert.throws(() => recipeGraph(w.ctx(), { target: 'advanced research pack x' }), QueryError);
  });
});

describe('recipeGraph on Py HighTech', function () {
  let w: World;
  before(async function () {
    w = await loadWorld(requireSharedData(this, 'py-hightech-2.0-data-raw'));
  });

  it('stays small at default settings on the fresh-import horizon, as the model receives it', async () => {
    const tool = findTool('recipeGraph')!;
    for (const target of ['coal-gas', 'tar', 'syngas']) {
      const out = await runTool(tool, { target }, { project: w.project, caller: 'agent' });
      assert.ok(out.ok, `${target}: ${out.ok ? '' : out.error}`);
      const chars = JSON.stringify(out).length;
      assert.ok(chars <= 12_000, `${target}: ${chars} characters`);
    }
  });

  it('gives a graph with further start goods 4,000 more characters and 30 more goods for each', () => {
    const ctx = w.ctx({ research_mode: 'future' });
    const one = recipeGraph(ctx, { target: 'processing-unit' });
    const three = recipeGraph(ctx, { target: 'processing-unit', also: ['low-density-structure', 'titanium-plate'] });
    assert.ok(one.truncated && three.truncated, 'both fill their budget');
    const [a, b] = [JSON.stringify(one).length, JSON.stringify(three).length];
    assert.ok(a <= 8_000 && a > 6_000, `one start good: ${a}`);
    assert.ok(b <= 16_000 && b > 8_000, `three start goods: ${b}`);
    assert.ok(one.goodCount <= 55 && three.goodCount <= 115 && three.goodCount > one.goodCount);
  });

  it('flags wood as a dead end under Now with nothing researched, down to log and its cheapest unlock', () => {
    const r = recipeGraph(w.ctx(), { target: 'coal-gas' });
    assert.equal(r.horizon, 'Now');
    const recipes = r.goods['coal-gas'].candidates!.map((c) => c.recipe);
    assert.ok(recipes.includes('coal-gas-from-wood'));
    // tar-gasification and heavyoil-to-coal-gas need research with packs nobody has yet.
    assert.ok(!recipes.includes('tar-gasification') && !recipes.includes('heavyoil-to-coal-gas'));
    assert.match(r.goods['coal-gas'].locked!, /^2 locked; cheapest unlock /);
    assert.equal(r.goods['wood'].deadEnd, true);
    assert.deepEqual(r.goods['wood'].blockedBy, ['log']);
    // log1…log8 and log7-2 are unlocked by wood-processing: 20 units × 1 automation-science-pack, its
    // prerequisites (automation-science-pack, steam-power) are trigger technologies without packs.
    assert.equal(r.goods['log'].seam, 'dead-end');
    assert.equal(r.goods['log'].locked, '9 locked; cheapest unlock wood-processing (20 packs) → log1');
    assert.ok(r.deadEnds!.includes('wood') && r.deadEnds!.includes('log'));
  });

  it("names a machine's technology when only the machine is missing", () => {
    // automation-science-pack is unlocked by a trigger technology, but every machine of its category needs
    // research; assembling-machine-1 comes with automation: 20 units × 1 automation-science-pack.
    const r = recipeGraph(w.ctx(), { target: 'automation-science-pack' });
    const n = r.goods['automation-science-pack'];
    assert.equal(n.deadEnd, true);
    assert.match(n.locked!, /cheapest unlock automation \(20 packs\) → automation-science-pack \(its machine assembling-machine-1\)/);
    assert.match(r.note!, /cannot be made under the horizon \(Now\)/);
  });

  it('follows a filled barrel a recipe asks for to the recipe filling it: never a raw seam', () => {
    // bonemeal takes muddy-sludge-barrel; the recipe muddy-sludge-barrel fills one (50 muddy-sludge + 1
    // barrel), so the barrel is made, not mined — under Future its filling is the candidate, expanded.
    const r = recipeGraph(w.ctx({ research_mode: 'future' }), { target: 'bonemeal', maxChars: 40_000 });
    const barrel = r.goods['muddy-sludge-barrel'];
    assert.notEqual(barrel.seam, 'raw');
    assert.deepEqual(barrel.candidates!.map((c) => c.recipe), ['muddy-sludge-barrel']);
    assert.ok(r.goods['muddy-sludge'], 'the fluid it is filled with is expanded');
    // Emptying it is still no source of the fluid.
    assert.ok(!(r.goods['muddy-sludge'].candidates ?? []).some((c) => c.recipe === 'empty-muddy-sludge-barrel'));
    // Up to the technology that unlocks logistic-science-pack the filling is locked: a dead end, not raw.
    const t = recipeGraph(w.ctx({ research_mode: 'target', horizon_target: 'logistic-science-pack', horizon_target_scope: 'research' }), { target: 'bonemeal' });
    assert.equal(t.goods['muddy-sludge-barrel'].seam, 'dead-end');
    assert.match(t.goods['muddy-sludge-barrel'].locked!, /→ muddy-sludge-barrel/);
  });

  it('keeps every Future result within the default size budget', () => {
    for (const target of ['advanced-circuit', 'coal-gas', 'syngas', 'titanium-plate']) {
      const r = recipeGraph(w.ctx({ research_mode: 'future' }), { target });
      assert.ok(JSON.stringify(r).length <= 8_000, target);
    }
  });
});
