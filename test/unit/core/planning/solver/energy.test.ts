// Energy, beacons, pollution and spoilage in a solved block: electricity is reported, never sized by
// the block's own draw; solid fuel and its burnt result are LP goods; fluid fuel is a pooled MJ
// good; filtered and temperature-fed fluid burners draw their fluid; heat machines draw local heat.
import assert from 'node:assert/strict';
import type { Machine, Recipe } from '../../../../../src/core/planning/gameIndex';
import { reactorMultiplier } from '../../../../../src/core/planning/solver/rows';
import type { World } from './helpers';
import { assertBalanced, freshWorld, loadWorld, near, rate, row } from './helpers';

describe('block solver: energy', () => {
  let w: World;
  let custom: World;
  before(async () => {
    w = await loadWorld();
    // A world of its own with machines the sample lacks: a filtered fluid burner, a steam-heated
    // furnace, a heat-powered furnace and a reactor.
    custom = await freshWorld();
    const g = custom.g;
    const base = g.machines.get('naphtha-furnace')!;
    const add = (m: Partial<Machine> & { name: string }) => {
      const machine: Machine = { ...base, ...m, display: m.name, item: null, categories: m.categories ?? [`test:${m.name}`] };
      g.machines.set(machine.name, machine);
      for (const c of machine.categories) g.machinesByCategory.set(c, [...(g.machinesByCategory.get(c) ?? []), machine.name]);
    };
    add({ name: 'filtered-furnace', fluidFuelFilter: 'naphtha', categories: ['smelting'] });
    add({ name: 'steam-furnace', burnsFluid: false, fluidFuelFilter: 'steam', fluidFuelPerSec: 2, categories: ['smelting'] });
    add({ name: 'heat-kiln', energySource: 'heat', energyUsageW: 100_000, burnsFluid: false, speed: 1, categories: ['smelting'] });
    add({ name: 'test-reactor', kind: 'reactor', energySource: null, energyUsageW: 10e6, neighbourBonus: 1, speed: 1, pollutionPerMin: 0 });
    const reactor: Recipe = {
      ...g.recipes.get('boil-steam-165')!, name: 'generate-heat-test-reactor', display: 'Generate heat (test)', kind: 'generating',
      category: 'test:test-reactor', categories: ['test:test-reactor'], ingredients: [],
      products: [{ kind: 'fluid', name: 'pyops-heat', amount: 10, probability: 1, temperature: null, ignoredByProductivity: 0 }],
    };
    g.recipes.set(reactor.name, reactor);
  });

  const gears = { goals: [{ good: 'gear', rate: 3 }], recipes: [{ recipe: 'gear', machine: 'press' }] };

  it('reports electricity (with drain) and imports the block’s own draw instead of sizing generators for it', async () => {
    const r = await w.solve({ ...gears, recipes: [...gears.recipes, { recipe: 'generate-steam-turbine-unit-165' }, { recipe: 'boil-steam-165' }], made: ['steam'] });
    assertBalanced(r);
    near(r.powerW, 2.5 * (90_000 + 3_000));
    near(r.drainW, 2.5 * 3_000);
    assert.equal(row(r, 'generate-steam-turbine-unit-165').craftsPerSecond, 0);
    assert.equal(r.imports[0].good, 'pyops-electricity'); // electricity first
    near(rate(r.imports, 'pyops-electricity'), 0.2325);
    // An electricity goal sizes the generators for the goal only; the draw is still an import.
    const goal = await w.solve({
      goals: [...gears.goals, { good: 'pyops-electricity', rate: 2.25 }],
      recipes: [...gears.recipes, { recipe: 'generate-steam-turbine-unit-165' }, { recipe: 'boil-steam-165' }],
      made: ['steam'],
    });
    assertBalanced(goal);
    near(row(goal, 'generate-steam-turbine-unit-165').craftsPerSecond, 2);
    near(rate(goal.goals, 'pyops-electricity'), 2.25);
    near(rate(goal.imports, 'pyops-electricity'), 0.2325);
  });

  it('imports bought burner fuel and sizes the block’s own supply when it is made in the block', async () => {
    const doc = { goals: [{ good: 'ferrite-plate', rate: 1 }], recipes: [{ recipe: 'ferrite-plate', machine: 'kiln', fuel: 'lignite' }] };
    const perSec = (3.2 * 112_500) / 3.5e6; // 3.2 kilns at 90 kW ÷ 80 %, lignite 3.5 MJ
    const bought = await w.solve(doc);
    assertBalanced(bought);
    assert.deepEqual(bought.fuel.map((f) => f.fuel), ['lignite']);
    near(bought.fuel[0].rate, perSec);
    near(rate(bought.imports, 'lignite'), perSec);
    near(rate(bought.byproducts, 'ash'), perSec);
    near(row(bought, 'ferrite-plate').fuelPerSecond!, perSec);
    const own = await w.solve({ ...doc, recipes: [...doc.recipes, { recipe: 'mine-lignite', machine: 'digger' }], made: ['lignite'] });
    assertBalanced(own);
    near(row(own, 'mine-lignite').craftsPerSecond, perSec); // the mine feeds the kilns
    assert.equal(rate(own.imports, 'lignite'), 0);
    assert.deepEqual(own.fuel, []);
    near(rate(own.byproducts, 'ash'), perSec);
  });

  it('pools fluid fuel as MJ, met by burn-fluid rows or imported', async () => {
    const doc = { goals: [{ good: 'ferrite-plate', rate: 1 }], recipes: [{ recipe: 'ferrite-plate', machine: 'naphtha-furnace' }] };
    const mj = 1.6 * 0.18; // 1.6 furnaces at 180 kW
    const bought = await w.solve(doc);
    assertBalanced(bought);
    near(rate(bought.imports, 'pyops-fluid-fuel'), mj);
    assert.deepEqual(bought.fuel.map((f) => [f.fuel, Number(f.rate.toFixed(9))]), [['pyops-fluid-fuel', mj]]);
    const burnt = await w.solve({ ...doc, recipes: [...doc.recipes, { recipe: 'burn-fluid-naphtha' }], made: ['pyops-fluid-fuel'] });
    assertBalanced(burnt);
    near(row(burnt, 'burn-fluid-naphtha').craftsPerSecond, mj / 1.5);
    assert.equal(row(burnt, 'burn-fluid-naphtha').buildings, 0);
    near(rate(burnt.imports, 'naphtha'), mj / 1.5);
    assert.equal(rate(burnt.imports, 'pyops-fluid-fuel'), 0);
  });

  it('pins a filtered fluid burner to its fluid and feeds a temperature-fed burner its fluid', async () => {
    const filtered = await custom.solve({ goals: [{ good: 'ferrite-plate', rate: 1 }], recipes: [{ recipe: 'ferrite-plate', machine: 'filtered-furnace' }] });
    assertBalanced(filtered);
    near(rate(filtered.imports, 'naphtha'), (1.6 * 180_000) / 1.5e6);
    assert.equal(rate(filtered.imports, 'pyops-fluid-fuel'), 0);
    const fed = await custom.solve({
      goals: [{ good: 'ferrite-plate', rate: 1 }],
      recipes: [{ recipe: 'ferrite-plate', machine: 'steam-furnace' }, { recipe: 'boil-steam-165' }],
      made: ['steam'],
    });
    assertBalanced(fed);
    near(row(fed, 'boil-steam-165').craftsPerSecond * (80 / 3), 1.6 * 2); // 2 steam/s per furnace
  });

  it('draws heat from the block’s own heat rows, with the reactor layout bonus', async () => {
    const doc = (layout?: { x: number; y: number }) => ({
      goals: [{ good: 'ferrite-plate', rate: 1 }],
      recipes: [{ recipe: 'ferrite-plate', machine: 'heat-kiln' }, { recipe: 'generate-heat-test-reactor', ...(layout ? { reactorLayout: layout } : {}) }],
    });
    const single = await custom.solve(doc());
    assertBalanced(single);
    near(single.heatW, 3.2 * 100_000);
    near(row(single, 'generate-heat-test-reactor').craftsPerSecond, 0.32 / 10); // heat is local: no import
    assert.equal(rate(single.imports, 'pyops-heat'), 0);
    const square = await custom.solve(doc({ x: 2, y: 2 }));
    near(row(square, 'generate-heat-test-reactor').craftsPerSecond, 0.32 / 30); // 1 + 1·(4 − 1 − 1) = 3×
    assert.equal(reactorMultiplier(1, { x: 1, y: 1 }), 1);
    assert.equal(reactorMultiplier(1, { x: 2, y: 1 }), 2);
    near(reactorMultiplier(0.5, { x: 3, y: 3 }), 1 + 0.5 * (4 - 4 / 3));
  });

  it('counts beacon power once, splits it by sharing, and reports pollution per minute', async () => {
    const r = await w.solve({
      goals: [{ good: 'gear', rate: 4.56 }],
      recipes: [{ recipe: 'gear', machine: 'press', beacons: [{ beacon: 'beacon-tower', modules: [{ name: 'speed-module-s1', count: 2 }], count: 2, shared: 2 }] }],
    });
    assertBalanced(r);
    const g = row(r, 'gear');
    // speed 0.25·2 modules·1.2 effectivity·0.75 (profile at 2)·2 beacons = 0.9; consumption 1.44.
    near(g.effects.speed, 0.9);
    near(g.effects.consumption, 1.44);
    near(g.buildings, 2); // 4.56/s ÷ (0.6 · 1.9 / 0.5)
    near(g.powerW, 2 * (90_000 * 2.44 + 3_000 + (400_000 * 2) / 2));
    near(r.powerW, g.powerW);
    assert.equal(g.beaconBuildings, 2);
    near(r.pollutionPerMinute, 4 * 2 * 2.44);
  });

  it('adds incidental spoilage as a byproduct, outside the LP', async () => {
    const doc = { goals: [{ good: 'resin', rate: 1 }], recipes: [{ recipe: 'cure-resin', machine: 'kiln' }] };
    const plain = await w.solve(doc);
    const spoiling = await w.solve({ ...doc, spoilRates: { 'fresh-resin': 0.2 } });
    assertBalanced(spoiling);
    near(row(spoiling, 'cure-resin').craftsPerSecond, row(plain, 'cure-resin').craftsPerSecond);
    near(rate(spoiling.exports, 'resin'), 0.2); // on top of the goal's 1/s
    near(rate(spoiling.goals, 'resin'), 1);
    const elsewhere = await w.solve({ ...gears, spoilRates: { 'fresh-resin': 0.2 } });
    assertBalanced(elsewhere);
    near(rate(elsewhere.byproducts, 'resin'), 0.2);
    const warn = await w.solve({ ...doc, spoilRates: { gear: 1 } });
    assert.ok(warn.warnings.some((x) => /does not spoil/.test(x)));
  });

  it('reports a spoil-<item> row’s buffer', async () => {
    const r = await w.solve({ goals: [{ good: 'resin', rate: 0.5 }], recipes: [{ recipe: 'spoil-fresh-resin' }] });
    assertBalanced(r);
    near(row(r, 'spoil-fresh-resin').buffer!, 0.5 * 300);
    assert.equal(row(r, 'spoil-fresh-resin').buildings, 0);
  });
});
