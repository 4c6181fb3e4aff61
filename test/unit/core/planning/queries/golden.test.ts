// Golden checks of the planning queries on real data from ../shared/data (skipped with a reason when
// absent): hand-checkable vanilla 2.0 chains (science, oil with cracking, steam power) and the Py
// HighTech subset (localized search, a deep graph cut at shared seams, exact-temperature fluids).
import assert from 'node:assert/strict';
import { Availability } from '../../../../../src/core/planning/availability';
import * as Q from '../../../../../src/core/planning/queries/index';
import { costTable } from '../../../../../src/core/planning/queries/cost';
import { requireSharedData } from '../../../../helpers/paths';
import { loadWorld, type World } from './world';

const FUTURE = { research_mode: 'future' as const };

describe('planning queries on vanilla 2.0 (golden)', function () {
  let w: World;
  before(async function () {
    const dir = requireSharedData(this, 'vanilla-2.0-data-raw');
    w = await loadWorld(dir);
  });

  it('finds goods by internal and localized name', () => {
    assert.deepEqual(Q.searchGoods(w.ctx(), { query: 'iron plate' }).matches[0], { name: 'iron-plate', display: 'Iron plate', kind: 'item', match: 'exact' });
    assert.equal(Q.searchGoods(w.ctx(), { query: 'Petroleum' }).matches[0].name, 'petroleum-gas');
  });

  it('offers the oil processing and cracking recipes for petroleum gas, without barrels', () => {
    const r = Q.recipeOptions(w.ctx(FUTURE), { good: 'petroleum-gas', limit: 25 });
    assert.deepEqual(r.candidates.map((c) => c.recipe).sort(), ['advanced-oil-processing', 'basic-oil-processing', 'coal-liquefaction', 'light-oil-cracking']);
    assert.equal(r.candidates[0].recipe, 'advanced-oil-processing');
    const a = Q.calcRecipe(w.ctx(FUTURE), { recipe: 'advanced-oil-processing' });
    assert.equal(a.machine.name, 'oil-refinery');
    assert.deepEqual(a.perBuilding.outputs, [{ good: 'heavy-oil', perSec: 5 }, { good: 'light-oil', perSec: 9 }, { good: 'petroleum-gas', perSec: 11 }]);
    assert.equal(a.perBuilding.powerKW, 420);
    const sinks = Q.byproductSinks(w.ctx(FUTURE), { good: 'heavy-oil' });
    assert.deepEqual(sinks.consumedBy.map((c) => c.recipe).sort(), ['coal-liquefaction', 'heavy-oil-cracking', 'lubricant', 'solid-fuel-from-heavy-oil']);
  });

  it('computes circuits, smelting with coal and steam power by hand-checkable numbers', () => {
    const c = Q.calcRecipe(w.ctx(FUTURE), { recipe: 'electronic-circuit', targetRate: 10 });
    assert.equal(c.machine.name, 'assembling-machine-3');
    assert.equal(c.perBuilding.craftsPerSec, 2.5);
    assert.equal(c.target!.buildingsNeeded, 4);
    const s = Q.calcRecipe(w.ctx({ research_mode: 'now' }), { recipe: 'iron-plate', targetRate: 10 });
    assert.equal(s.machine.name, 'stone-furnace');
    assert.equal(s.perBuilding.fuel!.fuel, 'coal');
    assert.equal(s.perBuilding.fuel!.perSec, 0.0225);
    assert.equal(s.target!.buildingsNeeded, 32);
    const boil = Q.calcRecipe(w.ctx(FUTURE), { recipe: 'boil-steam-165' });
    assert.deepEqual(boil.perBuilding.outputs, [{ good: 'steam', perSec: 60, temperature: 165 }]);
    assert.equal(boil.perBuilding.fuel!.perSec, 0.45);
    const engine = Q.calcRecipe(w.ctx(FUTURE), { recipe: 'generate-steam-engine-165' });
    assert.deepEqual(engine.perBuilding.outputs, [{ good: 'pyops-electricity', perSec: 0.9 }]);
    assert.deepEqual(engine.perBuilding.inputs, [{ good: 'steam', perSec: 30 }]);
  });

  it('closes the red science chain on ore imports', async () => {
    const r = await Q.chainStatus(w.ctx(FUTURE), { recipes: ['automation-science-pack', 'iron-gear-wheel', 'iron-plate', 'copper-plate'], target: 'automation-science-pack' });
    assert.equal(r.closed, true);
    assert.deepEqual(r.crafts, { 'automation-science-pack': 1, 'iron-gear-wheel': 1, 'iron-plate': 2, 'copper-plate': 1 });
    assert.deepEqual(r.openInputs, []);
    // Plates smelt in the steel furnace (Future's fastest; a burner: 90 kW, speed 2): a 3.2 s smelt
    // burns 90 kW × 1.6 s = 144 kJ of coal (4 MJ); 3 smelts per pack.
    assert.deepEqual(r.imports.map((o) => [o.good, o.amountPerCraft]), [['iron-ore', 2], ['copper-ore', 1], ['coal', Number(((3 * 90e3 * 1.6) / 4e6).toPrecision(4))]]);
  });

  it('walks the research tree to utility science, nearest steps kept', () => {
    const r = Q.researchPath(w.ctx(), { target: 'utility-science-pack', limit: 5 });
    assert.equal(r.status, 'path');
    if (r.status !== 'path') return;
    assert.equal(r.steps.length, 5);
    assert.equal(r.steps.at(-1)!.tech, 'utility-science-pack');
    assert.equal(r.stepsOmitted! + r.steps.length, r.totalCost.techs);
    assert.ok(r.totalCost.packs['chemical-science-pack'] > 0);
  });

  it('cuts the plastic neighbourhood at raw goods and never lists barrel recipes', () => {
    const r = Q.recipeGraph(w.ctx(FUTURE), { target: 'plastic-bar', maxChars: 40_000 });
    assert.equal(r.truncated, false);
    for (const raw of ['coal', 'water', 'crude-oil']) assert.equal(r.goods[raw].seam, 'raw', raw);
    const recipes = Object.values(r.goods).flatMap((n) => n.candidates ?? []).map((c) => c.recipe);
    assert.ok(recipes.includes('advanced-oil-processing'));
    assert.ok(!recipes.some((x) => x.includes('barrel')));
  });

  it('sizes belts and inserters from the vanilla prototypes and research bonuses', () => {
    const r = Q.logisticsFor(w.ctx(FUTURE), { good: 'iron-plate', rate: 30 });
    assert.deepEqual(r.belts.map((b) => [b.name, b.itemsPerSec]), [['transport-belt', 15], ['fast-transport-belt', 30], ['express-transport-belt', 45]]);
    const fast = r.inserters.find((i) => i.name === 'fast-inserter')!;
    assert.equal(fast.swingTicks, 13);
    assert.equal(fast.handStack, 3);
    assert.equal(r.inserters.find((i) => i.name === 'bulk-inserter')!.handStack, 12);
    const now = Q.logisticsFor(w.ctx({ research_mode: 'now' }), { good: 'iron-plate', rate: 30 });
    assert.equal(now.inserters.find((i) => i.name === 'inserter')?.handStack, 1);
  });
});

describe('planning queries on Py HighTech (golden)', function () {
  let w: World;
  before(async function () {
    const dir = requireSharedData(this, 'py-hightech-2.0-data-raw');
    w = await loadWorld(dir);
  });

  it('finds goods by their Py display names', () => {
    assert.equal(Q.searchGoods(w.ctx(), { query: 'Complex circuit board' }).matches[0].name, 'advanced-circuit');
    assert.equal(Q.searchGoods(w.ctx(), { query: 'moly' }).matches[0].match, 'prefix');
  });

  it('finds goods from words in any order, plural or partly matching, hidden goods last', () => {
    const first = (query: string) => Q.searchGoods(w.ctx(), { query }).matches[0];
    assert.equal(first('plate iron').name, 'iron-plate');
    assert.equal(first('science automation').name, 'automation-science-pack');
    assert.equal(first('science packs automation').name, 'automation-science-pack');
    assert.ok(Q.searchGoods(w.ctx(), { query: 'red science' }).matches.length > 0);
    // 'science' is also the exact name of a hidden Py placeholder item; a visible science good comes first.
    assert.equal(w.g.goods.get('science')!.hidden, true);
    assert.notEqual(first('science').name, 'science');
    // tank-cannon (hidden) is a prefix match of 'tank', the py-tank-* storage tanks only word matches.
    const tank = Q.searchGoods(w.ctx(), { query: 'tank', limit: 40 }).matches.map((m) => m.name);
    assert.ok(tank.indexOf('py-tank-3000') < tank.indexOf('tank-cannon'), tank.join(','));
  });

  it('never defaults to a hidden machine that no item places (the -legacy variants)', () => {
    const a = new Availability(w.g, w.state({ research_mode: 'now', available_science_packs: ['automation-science-pack', 'py-science-pack-1', 'logistic-science-pack'] }));
    const bad = [...w.g.recipes.values()].filter((r) => {
      const m = a.defaultMachine(r).machine;
      return m && m.hidden && !m.item && w.g.machinesFor(r).some((x) => !x.hidden);
    });
    assert.deepEqual(bad.map((r) => r.name), []);
  });

  it('explores a deep chain at default bounds, cut at shared goods and the size budget, with its frontier', () => {
    const r = Q.recipeGraph(w.ctx(FUTURE), { target: 'advanced-circuit' });
    assert.equal(r.truncated, true);
    assert.ok(r.unexpanded.length > 0);
    for (const g of ['electronic-circuit', 'copper-plate', 'plastic-bar']) assert.equal(r.goods[g].seam, 'shared', g);
    assert.ok(Object.values(r.goods).every((n) => !n.candidates || n.candidates.length <= 6));
    assert.ok(JSON.stringify(r).length <= 8_000);
    // Under the fresh-import horizon (Now, nothing researched) nothing makes it: one dead-end node.
    const now = Q.recipeGraph(w.ctx(), { target: 'advanced-circuit' });
    assert.equal(now.goodCount, 1);
    assert.equal(now.goods['advanced-circuit'].deadEnd, true);
  });

  it('writes exact-temperature fluid inputs and prices almost every good', () => {
    const c = Q.recipeOptions(w.ctx(FUTURE), { good: 'water', limit: 25 });
    assert.ok(c.candidates.length > 0);
    const ex = Q.recipeInfo(w.ctx(), { recipe: 'steam-exchange1' });
    assert.equal(ex.in, '1000 critical-steam(1000°) + 250 water');
    const priced = costTable(w.g).goods.size;
    assert.ok(priced / w.g.goods.size > 0.9, `${priced} of ${w.g.goods.size}`);
  });

  it('reports that this mod set has no TURD upgrades', () => {
    assert.match(Q.turdChoices(w.ctx(), { good: 'iron-plate' }).note!, /no TURD upgrades/);
    assert.deepEqual(Q.availableTurds(w.ctx(), { recipes: ['iron-plate'] }).opportunities, []);
  });

  it('finds a research route with real costs', () => {
    const r = Q.researchPath(w.ctx(), { target: 'processing-unit', limit: 10 });
    assert.equal(r.status, 'path');
    if (r.status === 'path') {
      assert.ok(r.steps.length <= 10);
      assert.ok(r.totalCost.units > 0);
    }
  });
});
