// Golden blocks on real data (skipped with a reason when ../shared/data is absent): hand-checkable
// vanilla 2.0 chains and Py (py-hightech 2.0) chains with byproducts, fluids and temperatures.
import assert from 'node:assert/strict';
import { buildChain } from '../../../../../bench/solve';
import type { World } from './helpers';
import { assertBalanced, loadWorld, near, rate, row } from './helpers';
import { requireSharedData } from '../../../../helpers/paths';

describe('block solver: vanilla 2.0 golden blocks', function () {
  let w: World;
  before(async function () {
    w = await loadWorld(requireSharedData(this, 'vanilla-2.0-data-raw'));
  });

  it('makes red science from plates', async () => {
    const r = await w.solve({
      goals: [{ good: 'automation-science-pack', rate: 1 }],
      recipes: [{ recipe: 'automation-science-pack', machine: 'assembling-machine-1' }, { recipe: 'iron-gear-wheel', machine: 'assembling-machine-1' }],
      made: ['iron-gear-wheel'],
    });
    assertBalanced(r);
    near(row(r, 'automation-science-pack').buildings, 10); // 5 s at speed 0.5
    near(row(r, 'iron-gear-wheel').buildings, 1); // 0.5 s at speed 0.5
    near(rate(r.imports, 'iron-plate'), 2);
    near(rate(r.imports, 'copper-plate'), 1);
    near(r.powerW, 11 * (75_000 + 2_500));
  });

  it('cracks advanced oil processing down to petroleum gas at 20 : 5 : 17', async () => {
    const r = await w.solve({
      goals: [{ good: 'petroleum-gas', rate: 10 }],
      recipes: [{ recipe: 'advanced-oil-processing', machine: 'oil-refinery' }, { recipe: 'heavy-oil-cracking' }, { recipe: 'light-oil-cracking' }],
      drains: ['heavy-oil', 'light-oil'],
    });
    assertBalanced(r);
    // One run: 25 heavy → 18.75 light; 63.75 light → 42.5 gas; 97.5 gas per run of 5 s.
    const runs = 10 / 97.5;
    near(row(r, 'advanced-oil-processing').buildings, runs * 5);
    near(row(r, 'heavy-oil-cracking').buildings, ((runs * 25) / 40) * 2);
    near(row(r, 'light-oil-cracking').buildings, ((runs * 63.75) / 30) * 2);
    const scale = 20 / row(r, 'advanced-oil-processing').buildings;
    near(row(r, 'heavy-oil-cracking').buildings * scale, 5);
    near(row(r, 'light-oil-cracking').buildings * scale, 17);
    near(rate(r.imports, 'crude-oil'), runs * 100);
    assert.equal(rate(r.exports, 'heavy-oil') + rate(r.exports, 'light-oil'), 0);
  });

  it('sizes steam power at 1.8 MW per boiler and 0.9 MW per engine', async () => {
    const r = await w.solve({
      goals: [{ good: 'pyops-electricity', rate: 18 }],
      recipes: [{ recipe: 'boil-steam-165' }, { recipe: 'generate-steam-engine-165' }, { recipe: 'pump-offshore-pump' }],
      made: ['steam', 'water'],
    });
    assertBalanced(r);
    near(row(r, 'boil-steam-165').buildings, 10);
    near(row(r, 'generate-steam-engine-165').buildings, 20);
    near(row(r, 'pump-offshore-pump').buildings, 600 / 1200);
    near(r.fuel.find((f) => f.fuel === 'coal')!.rate, 4.5); // 18 MW of 4 MJ coal
    near(r.pollutionPerMinute, 10 * 30);
  });

  it('runs nuclear power on local heat with the 2×2 neighbour bonus', async () => {
    const r = await w.solve({
      goals: [{ good: 'pyops-electricity', rate: 480 }],
      recipes: [{ recipe: 'generate-heat-nuclear-reactor', reactorLayout: { x: 2, y: 2 } }, { recipe: 'boil-steam-500' }, { recipe: 'generate-steam-turbine-500' }, { recipe: 'pump-offshore-pump' }],
      made: ['steam', 'water'],
    });
    assertBalanced(r);
    near(row(r, 'generate-heat-nuclear-reactor').buildings, 4); // 40 MW × 3
    near(row(r, 'boil-steam-500').buildings, 48); // 10 MW exchangers
    near(row(r, 'generate-steam-turbine-500').buildings, 480 / 5.82);
    near(r.heatW, 480e6);
    near(r.fuel.find((f) => f.fuel === 'uranium-fuel-cell')!.rate, (4 * 40e6) / 8e9); // the bonus is free heat
    near(rate(r.byproducts, 'depleted-uranium-fuel-cell'), 0.02);
    assert.equal(rate(r.imports, 'pyops-heat'), 0);
  });

  it('explains a reactor pin too small for its electricity goal', async () => {
    const r = await w.solve({
      goals: [{ good: 'pyops-electricity', rate: 480 }],
      recipes: [{ recipe: 'generate-heat-nuclear-reactor' }, { recipe: 'boil-steam-500' }, { recipe: 'generate-steam-turbine-500' }, { recipe: 'pump-offshore-pump' }],
      made: ['steam', 'water'],
      pins: [{ kind: 'count', recipe: 'generate-heat-nuclear-reactor', buildings: 1 }],
    });
    assert.equal(r.status, 'infeasible');
    const card = r.diagnosis![0];
    const pin = card.members.find((m) => m.kind === 'pin-count')!;
    near(pin.shortBy, 11);
    assert.ok(card.members.some((m) => m.kind === 'goal' && m.ref === 'pyops-electricity'));
    assert.ok(card.fixes.includes('Raise the pin on Generate heat (Nuclear reactor) to 12 buildings, or remove it'), card.fixes.join('\n'));
  });
});

describe('block solver: Py golden blocks', function () {
  let w: World;
  before(async function () {
    w = await loadWorld(requireSharedData(this, 'py-hightech-2.0-data-raw'));
  });

  it('solves a deep utility-science chain with fluids and byproducts, linking every made good', async () => {
    const doc = buildChain(w.g, 'utility-science-pack', { size: 60 });
    assert.equal(doc.recipes!.length, 60);
    const r = await w.solve(doc);
    assertBalanced(r);
    near(rate(r.goals, 'utility-science-pack'), 1);
    near(row(r, 'utility-science-pack').craftsPerSecond, 0.2); // 5 packs per craft
    const made = new Set(doc.made);
    assert.deepEqual(r.imports.filter((f) => made.has(f.good)).map((f) => f.good), [], 'a made good was bought');
    assert.ok(r.byproducts.length > 0, 'Py coproducts leave as byproducts');
    assert.ok([...r.imports, ...r.exports].some((f) => f.kind === 'fluid'), 'fluids flow');
    assert.ok(r.fuel.some((f) => f.fuel === 'pyops-fluid-fuel'), 'fluid-fuel burners');
    for (const b of r.byproducts) assert.ok(r.rows.some((x) => x.craftsPerSecond > 0 && w.g.recipes.get(x.recipe)!.products.some((p) => p.name === b.good)) || b.good === 'ash', `${b.good} has no producer`);
  });

  it('keeps steam temperatures apart: 150° engines never run on 250° boiler steam', async () => {
    const r = await w.solve({
      goals: [{ good: 'pyops-electricity', rate: 37.0125 }],
      recipes: [{ recipe: 'boil-steam-250' }, { recipe: 'generate-steam-engine-250' }, { recipe: 'generate-steam-engine-150' }],
      made: ['steam'],
      pins: [{ kind: 'count', recipe: 'generate-steam-engine-150', buildings: 2 }],
    });
    assertBalanced(r);
    const steam = r.imports.find((f) => f.good === 'steam')!;
    assert.deepEqual([steam.rate, steam.minTemperature, steam.maxTemperature], [30, 150, 150]);
    near(row(r, 'generate-steam-engine-250').craftsPerSecond, (37.0125 - 2 * 2.12625) / 3.70125);
    near(row(r, 'boil-steam-250').buildings, (row(r, 'generate-steam-engine-250').craftsPerSecond * 15) / 2.026342451874367 / 3.70125);
  });
});
