// chainStatus and byproductSinks on the sample world: closure of a recipe set, open inputs with
// import/build suggestions, byproducts, loops that terminate; where a byproduct can go.
import assert from 'node:assert/strict';
import { chainStatus } from '../../../../../src/core/planning/queries/chainStatus';
import { byproductSinks } from '../../../../../src/core/planning/queries/byproductSinks';
import { requireSharedData } from '../../../../helpers/paths';
import { buildDraft, specFromSubmit, submitBlockInput } from '../../../../../src/core/planning/proposals/draft';
import { loadWorld, sampleWorld, type World } from './world';

const NOW_BASIC = { research_mode: 'now' as const, available_science_packs: ['basic-research-pack'] };

describe('chainStatus', () => {
  let w: World;
  before(async () => {
    w = await sampleWorld();
  });

  // The kiln (the only smelter under NOW_BASIC) draws 90 kW at 80 % effectivity: 112.5 kW; a 3.2 s
  // smelt at speed 1 burns 360 kJ = 0.1636 charcoal (2.2 MJ), the preferred fuel it accepts.
  const CHARCOAL_PER_SMELT = (90e3 / 0.8) * 3.2 / 2.2e6;

  it('scales the set per craft of the top recipe and lists what it still needs, fuel included', async () => {
    const r = await chainStatus(w.ctx(NOW_BASIC), { recipes: ['circuit', 'wire', 'ferrite-plate'], target: 'circuit' });
    assert.equal(r.topRecipe, 'circuit');
    // circuit: 3 wire + 1 ferrite-plate; wire: 1 azurite-plate → 2 wire.
    assert.deepEqual(r.crafts, { circuit: 1, wire: 1.5, 'ferrite-plate': 1 });
    assert.equal(r.closed, false);
    assert.deepEqual(r.openInputs.map((o) => [o.good, o.amountPerCraft, o.action]), [
      ['azurite-plate', 1.5, 'build'],
      ['charcoal', Number(CHARCOAL_PER_SMELT.toPrecision(4)), 'build'],
    ]);
    assert.equal(r.openInputs[0].suggestion, 'build: add azurite-plate');
    assert.equal(r.openInputs[0].topRecipe, 'azurite-plate');
    assert.equal(r.openInputs[1].suggestion, 'build: add crush-lignite');
    assert.deepEqual(r.imports.map((o) => [o.good, o.amountPerCraft, o.action]), [['ferrite-ore', 1, 'import']]);
    assert.match(r.imports[0].suggestion, /raw resource/);
    assert.deepEqual(r.fuel, [{ recipe: 'ferrite-plate', machine: 'kiln', fuel: 'charcoal', amountPerCraft: Number(CHARCOAL_PER_SMELT.toPrecision(4)) }]);
  });

  it('is closed only when nothing is open: a fuel recipe in the set runs for the fuel burned, never a byproduct', async () => {
    const r = await chainStatus(w.ctx(NOW_BASIC), { recipes: ['circuit', 'wire', 'ferrite-plate', 'azurite-plate', 'crush-lignite'], target: 'circuit' });
    assert.equal(r.closed, true);
    assert.deepEqual(r.openInputs, []);
    // 1 + 1.5 smelts burn 2.5 × 0.1636 charcoal; crush-lignite gives 2 charcoal on average (1–3) from 2 lignite.
    const charcoal = 2.5 * CHARCOAL_PER_SMELT;
    assert.equal(r.crafts['crush-lignite'], Number((charcoal / 2).toPrecision(4)));
    assert.deepEqual(r.imports.map((o) => [o.good, o.amountPerCraft]), [['azurite-ore', 1.5], ['ferrite-ore', 1], ['lignite', Number(charcoal.toPrecision(4))]]);
    assert.deepEqual(r.byproducts, []);
    assert.equal(r.unused, undefined);
    const open = await chainStatus(w.ctx(NOW_BASIC), { recipes: ['circuit', 'wire', 'ferrite-plate', 'azurite-plate'], target: 'circuit' });
    assert.equal(open.closed, false, 'the kilns still need charcoal');
    assert.deepEqual(open.openInputs.map((o) => o.good), ['charcoal']);
  });

  it('imports a shared input on purpose and says when a producer is locked', async () => {
    const frame = await chainStatus(w.ctx(NOW_BASIC), { recipes: ['frame'], target: 'frame' });
    const gear = frame.imports.find((o) => o.good === 'gear')!;
    assert.equal(gear.additive, true);
    assert.equal(gear.action, 'import');
    assert.equal(frame.closed, true);
    const dense = await chainStatus(w.ctx(NOW_BASIC), { recipes: ['speed-module-s1'], target: 'speed-module-s1' });
    const d = dense.openInputs.find((o) => o.good === 'dense-circuit')!;
    assert.equal(d.action, 'build');
    assert.equal(d.locked, true);
    assert.match(d.suggestion, /no producer is selectable/);
  });

  it('answers a byproduct loop as submitBlock solves it: short, then imported, then balanced where it closes', async () => {
    // refine-brine: 100 brine + 2 azurite-ore → 40 solvent + 30 tailings + 20 naphtha; reclaim-tailings:
    // 50 tailings → 40 brine + 1 sludge-cake @50 %. submitBlock marks brine and tailings made inside;
    // 30 tailings give back only 24 of the 100 brine, so that block cannot be solved: brine is short.
    const ctx = w.ctx({ research_mode: 'future' });
    const recipes = ['refine-brine', 'reclaim-tailings'];
    const short = await chainStatus(ctx, { recipes, target: 'solvent' });
    assert.equal(short.closed, false);
    assert.deepEqual(short.openInputs.map((o) => [o.good, o.action]), [['brine', 'build']]);
    assert.match(short.openInputs[0].suggestion, /the set makes it \(reclaim-tailings\) but not enough.*subBlocksNeeded/);
    // Left to another block, brine is imported; buying it all is free to the solver, so the reclaim
    // idles — and says why, with the edit that runs it on the leftover tailings.
    const bought = await chainStatus(ctx, { recipes, target: 'solvent', subBlocksNeeded: ['brine'] });
    assert.equal(bought.closed, true);
    assert.deepEqual(bought.crafts, { 'refine-brine': 1 });
    assert.deepEqual(bought.idle?.map((i) => [i.recipe, i.code]), [['reclaim-tailings', 'idle-imported']]);
    assert.match(bought.idle![0].message, /30\/s of Tailings \[tailings\], which it uses, is left over\. Balance Tailings \[tailings\] inside/);
    // Balanced inside, all 30 tailings are reclaimed: 0.6 crafts giving back 24 brine, 76 still bought.
    const r = await chainStatus(ctx, { recipes, target: 'solvent', subBlocksNeeded: ['brine'], drains: ['tailings'] });
    assert.equal(r.topRecipe, 'refine-brine');
    assert.deepEqual(r.crafts, { 'refine-brine': 1, 'reclaim-tailings': 0.6 });
    assert.equal(r.closed, true);
    assert.deepEqual(r.imports.map((o) => [o.good, o.amountPerCraft]), [['brine', 76], ['azurite-ore', 2]]);
    assert.deepEqual(r.byproducts.map((b) => [b.good, b.amountPerCraft]), [['naphtha', 20], ['sludge-cake', 0.3]]);
    assert.equal(r.idle, undefined);
  });

  it('runs a multi-output recipe for the product the chain needs, whatever its main product', async () => {
    // resin needs 20 naphtha, a side product of refine-brine (main product solvent).
    const r = await chainStatus(w.ctx({ research_mode: 'future' }), { recipes: ['resin', 'refine-brine'], target: 'fresh-resin' });
    assert.deepEqual(r.crafts, { resin: 1, 'refine-brine': 1 });
    assert.equal(r.unused, undefined);
    assert.ok(!r.openInputs.some((o) => o.good === 'naphtha'));
    assert.deepEqual(r.byproducts.map((b) => [b.good, b.amountPerCraft]), [['solvent', 40], ['tailings', 30]]);
    assert.deepEqual(r.openInputs.map((o) => o.good), ['steam']);
    assert.equal(r.closed, false);
  });

  it('reports names that are not recipes and a set that does not make the target', async () => {
    const r = await chainStatus(w.ctx(), { recipes: ['circuit', 'circut-lean'], target: 'circuit' });
    assert.equal(r.invalid[0].recipe, 'circut-lean');
    assert.match(r.invalid[0].error, /did you mean circuit-lean/);
    const none = await chainStatus(w.ctx(), { recipes: ['wire'], target: 'gear' });
    assert.equal(none.topRecipe, null);
    assert.equal(none.closed, false);
    assert.match(none.note!, /no recipe of the set makes gear/);
    assert.deepEqual((await chainStatus(w.ctx(), { recipes: ['wire', 'gear'], target: 'gear' })).unused, ['wire']);
  });
});

describe('chainStatus on Py HighTech', function () {
  let w: World;
  before(async function () {
    w = await loadWorld(requireSharedData(this, 'py-hightech-2.0-data-raw'));
  });

  it('burns coal in the stone furnace and makes it with a multi-output recipe of the set, not as a byproduct', async () => {
    // Fresh-import horizon (Now): iron-plate smelts 8 iron-ore in 10 s in a stone-furnace (200 kW,
    // effectivity 1): 2 MJ = 0.5 coal (4 MJ, burnt into ash) per craft. distilled-raw-coal turns 10
    // raw-coal into 60 coal-gas + 30 tar + 3 coal + 1 iron-oxide @20 %: 0.5/3 crafts cover the fuel.
    const r = await chainStatus(w.ctx(), { recipes: ['iron-plate', 'distilled-raw-coal'], target: 'iron-plate' });
    assert.deepEqual(r.fuel, [{ recipe: 'iron-plate', machine: 'stone-furnace', fuel: 'coal', amountPerCraft: 0.5, burntResult: 'ash' }]);
    const x = 0.5 / 3;
    assert.deepEqual(r.crafts, { 'iron-plate': 1, 'distilled-raw-coal': Number(x.toPrecision(4)) });
    assert.equal(r.closed, true);
    assert.deepEqual(r.imports.map((o) => [o.good, o.amountPerCraft]), [['iron-ore', 8], ['raw-coal', Number((10 * x).toPrecision(4))]]);
    assert.deepEqual(r.byproducts.map((b) => [b.good, b.amountPerCraft]), [
      ['ash', 0.5],
      ['coal-gas', Number((60 * x).toPrecision(4))],
      ['iron-oxide', Number((0.2 * x).toPrecision(4))],
      ['tar', Number((30 * x).toPrecision(4))],
    ]);
    assert.equal(r.unused, undefined);
  });
});

describe('chainStatus agrees with submitBlock on Py HighTech', function () {
  let w: World;
  before(async function () {
    this.timeout(120_000);
    w = await loadWorld(requireSharedData(this, 'py-hightech-2.0-data-raw'));
  });
  const target = (s = {}) => w.ctx({ research_mode: 'target', horizon_target: 'logistic-science-pack', horizon_target_scope: 'research', ...s });
  const draft = (ctx: ReturnType<typeof target>, input: object) => buildDraft(ctx, specFromSubmit(ctx, submitBlockInput.parse(input)));

  it('closes the alien sample chain where one good feeds two branches at different depths, as its block solves', async () => {
    // Issue 19: soil feeds rich-clay and (through ralesia) bio-sample01; chainStatus used to call
    // bio-sample01 short with soil in the set, while submitPlan solved the same set.
    const recipes = ['alien-sample01', 'bio-sample01', 'ground-sample01', 'ralesia-seeds', 'ralesia', 'bonemeal-salt', 'soil', 'rich-clay', 'hydrogen'];
    const ctx = target();
    for (const set of [recipes, recipes.filter((r) => r !== 'soil')]) {
      const r = await chainStatus(ctx, { recipes: set, target: 'alien-sample01' });
      assert.equal(r.closed, true, JSON.stringify(r.openInputs));
      assert.deepEqual(r.openInputs, []);
      const d = await draft(ctx, { target: 'alien-sample01', rate: 0.1, recipes: set });
      assert.equal(d.ok, true);
      assert.deepEqual(d.unmade, []);
      // Every recipe the chain runs, the block runs; the one it leaves idle, the block leaves idle too.
      assert.deepEqual(Object.keys(r.crafts).sort(), d.rows.filter((x) => x.craftsPerSecond > 1e-9).map((x) => x.recipe).sort());
    }
  });

  it('burns the same fuel as the draft: a fuel the set makes, unless a favourite fuel is set', async () => {
    // iron-plate smelts in a stone furnace (a burner); log-wood makes wood, which it accepts.
    const recipes = ['iron-plate', 'log-wood', 'log1'];
    for (const [ctx, fuel] of [[target(), 'wood'], [target({ favorite_fuel: 'coal' }), 'coal']] as const) {
      const r = await chainStatus(ctx, { recipes, target: 'iron-plate' });
      const d = await draft(ctx, { target: 'iron-plate', rate: 1, recipes });
      assert.deepEqual(r.fuel?.map((f) => [f.recipe, f.fuel]), [['iron-plate', fuel]]);
      assert.equal(d.rows.find((x) => x.recipe === 'iron-plate')!.fuel, fuel);
    }
    // Burning its own wood, the set makes wood inside (covered like an ingredient), so log-wood runs.
    const own = await chainStatus(target(), { recipes, target: 'iron-plate' });
    assert.ok(own.crafts['log-wood'] > 0);
    assert.ok(!own.imports.some((o) => o.good === 'wood'));
  });
});

describe('byproductSinks', () => {
  let w: World;
  before(async () => {
    w = await sampleWorld();
  });

  it('lists consumers with availability, void options and a note', () => {
    const r = byproductSinks(w.ctx(NOW_BASIC), { good: 'tailings' });
    assert.deepEqual(r.consumedBy.map((c) => [c.recipe, c.state]), [
      ['reclaim-tailings', 'buildable'],
      ['reclaim-tailings-salvage', 'needs-research'],
    ]);
    assert.deepEqual(r.voidOptions.map((v) => [v.recipe, v.hidden, v.out]), [['tailings-void', true, 'nothing']]);
    assert.equal(r.spoils, null);
    assert.match(r.note, /1 selectable recipe use.*void it with tailings-void/);
    assert.deepEqual(r.importingBlocks, []);
  });

  it('mentions spoilage and fuel use, and bounds the consumer list', () => {
    const resin = byproductSinks(w.ctx({ research_mode: 'future' }), { good: 'fresh-resin' });
    assert.deepEqual(resin.spoils, { into: 'resin', seconds: 300, mustBeLocal: false });
    assert.match(resin.note, /spoils into resin after 300 s/);
    const lig = byproductSinks(w.ctx(), { good: 'lignite' });
    assert.match(lig.note, /fuel \(burn-lignite\)/);
    const gear = byproductSinks(w.ctx({ research_mode: 'future' }), { good: 'gear', limit: 2 }, { importingBlocks: ['Frames'] });
    assert.equal(gear.consumedBy.length, 2);
    assert.equal(gear.truncated, true);
    assert.deepEqual(gear.importingBlocks, ['Frames']);
  });
});
