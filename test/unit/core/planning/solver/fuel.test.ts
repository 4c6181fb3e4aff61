// Burner fuel and its burnt result are LP flows whether the block makes the fuel or buys it: the
// burnt result counts toward goals, made goods and drains, and adding an idle recipe that could make
// the fuel changes nothing. Expected values come from the dump records: rate per building =
// energy_usage / effectivity / fuel_value, one burnt result per fuel item burnt.
import assert from 'node:assert/strict';
import type { World } from './helpers';
import { assertBalanced, loadWorld, near, rate, row } from './helpers';
import { requireSharedData } from '../../../../helpers/paths';

describe('block solver: burner fuel and burnt results in the LP', () => {
  describe('sample world', () => {
    let w: World;
    before(async () => {
      w = await loadWorld();
    });
    // kiln: 90kW, effectivity 0.8, speed 1; lignite 3.5MJ → ash; ferrite-plate 3.2 s.
    const ashPerKiln = 90_000 / 0.8 / 3.5e6;
    const kiln = { recipe: 'ferrite-plate', machine: 'kiln', fuel: 'lignite' };

    it('meets an ash goal from the burnt result of bought lignite', async () => {
      const r = await w.solve({ goals: [{ good: 'ash', rate: 1 }], recipes: [kiln] });
      assertBalanced(r);
      assert.deepEqual(r.unmade, []);
      near(row(r, 'ferrite-plate').buildings, 1 / ashPerKiln);
      near(row(r, 'ferrite-plate').craftsPerSecond, 1 / ashPerKiln / 3.2);
      near(rate(r.goals, 'ash'), 1);
      near(rate(r.imports, 'lignite'), 1); // one lignite burnt per ash
      assert.equal(rate(r.byproducts, 'ash'), 0);
      assert.deepEqual(r.fuel.map((f) => f.fuel), ['lignite']);
      near(r.fuel[0].rate, 1);
    });

    it('gives the same answer when an idle recipe that makes the fuel is added', async () => {
      const bought = await w.solve({ goals: [{ good: 'ash', rate: 1 }], recipes: [kiln] });
      const withMine = await w.solve({ goals: [{ good: 'ash', rate: 1 }], recipes: [kiln, { recipe: 'mine-lignite', machine: 'digger' }] });
      assertBalanced(withMine);
      near(row(withMine, 'ferrite-plate').craftsPerSecond, row(bought, 'ferrite-plate').craftsPerSecond);
      assert.equal(row(withMine, 'mine-lignite').craftsPerSecond, 0);
      near(rate(withMine.imports, 'lignite'), 1);
      // Made in the block: the mine feeds the kilns and the fuel is no longer bought.
      const made = await w.solve({ goals: [{ good: 'ash', rate: 1 }], recipes: [kiln, { recipe: 'mine-lignite', machine: 'digger' }], made: ['lignite'] });
      assertBalanced(made);
      near(row(made, 'ferrite-plate').craftsPerSecond, row(bought, 'ferrite-plate').craftsPerSecond);
      near(row(made, 'mine-lignite').craftsPerSecond, 1);
      assert.equal(rate(made.imports, 'lignite'), 0);
      assert.deepEqual(made.fuel, []);
    });

    it('counts the burnt result toward a made good and a drain', async () => {
      // salvage-ash: 5 ash → 1 azurite-ore in 2 s. Ash made in the block: the kilns burn 5 lignite/s.
      const r = await w.solve({ goals: [{ good: 'azurite-ore', rate: 1 }], recipes: [{ recipe: 'salvage-ash' }, kiln], made: ['ash'] });
      assertBalanced(r);
      near(row(r, 'ferrite-plate').buildings, 5 / ashPerKiln);
      assert.equal(rate(r.imports, 'ash'), 0);
      near(rate(r.imports, 'lignite'), 5);
      // Drained: every ash the kilns make (1 per lignite) is consumed by salvage-ash.
      const d = await w.solve({ goals: [{ good: 'ferrite-plate', rate: 1 }], recipes: [kiln, { recipe: 'salvage-ash' }], drains: ['ash'] });
      assertBalanced(d);
      const ash = 3.2 * ashPerKiln; // 3.2 kilns for 1 plate/s
      near(row(d, 'salvage-ash').craftsPerSecond, ash / 5);
      assert.equal(rate(d.byproducts, 'ash'), 0);
      near(rate(d.byproducts, 'azurite-ore'), ash / 5);
    });
  });

  describe('Py (py-hightech 2.0)', function () {
    let w: World;
    before(async function () {
      this.timeout(120_000);
      w = await loadWorld(requireSharedData(this, 'py-hightech-2.0-data-raw'));
    });

    it('an incinerator burning coal counts its ash toward a 1/s ash goal, with or without an idle coal recipe', async () => {
      // py-burner: speed 5, 180kW, effectivity 1; coal 4MJ → ash. 20-u-powder-pyvoid: 1.5 s, 0.2 ash.
      // Ash per craft = 0.2 + (180e3 / 4e6 coal/s per building) × (1.5 / 5 s per craft) = 0.2135.
      const perCraft = 0.2 + (180e3 / 4e6) * (1.5 / 5);
      const doc = { goals: [{ good: 'ash', rate: 1 }], recipes: [{ recipe: '20-u-powder-pyvoid', machine: 'py-burner', fuel: 'coal' }] };
      const bought = await w.solve(doc);
      assertBalanced(bought);
      near(row(bought, '20-u-powder-pyvoid').craftsPerSecond, 1 / perCraft);
      near(1 / perCraft, 4.684, 1e-3);
      near(rate(bought.imports, 'coal'), ((180e3 / 4e6) * (1.5 / 5)) / perCraft);
      const idle = await w.solve({ ...doc, recipes: [...doc.recipes, { recipe: 'wood-to-coal' }] });
      assertBalanced(idle);
      near(row(idle, '20-u-powder-pyvoid').craftsPerSecond, 1 / perCraft);
      assert.equal(row(idle, 'wood-to-coal').craftsPerSecond, 0);
    });
  });

  describe('vanilla 2.0', function () {
    let w: World;
    before(async function () {
      w = await loadWorld(requireSharedData(this, 'vanilla-2.0-data-raw'));
    });

    it('a stone furnace imports its coal (no burnt result), the same with an idle coal mine', async () => {
      // stone-furnace: 90kW, effectivity 1, speed 1; coal 4MJ, no burnt_result; iron-plate 3.2 s.
      const doc = { goals: [{ good: 'iron-plate', rate: 1 }], recipes: [{ recipe: 'iron-plate', machine: 'stone-furnace', fuel: 'coal' }] };
      const coal = 3.2 * (90e3 / 4e6);
      const bought = await w.solve(doc);
      assertBalanced(bought);
      near(rate(bought.imports, 'coal'), coal);
      assert.deepEqual(bought.byproducts, []);
      const idle = await w.solve({ ...doc, recipes: [...doc.recipes, { recipe: 'mine-coal', machine: 'electric-mining-drill' }] });
      assertBalanced(idle);
      near(rate(idle.imports, 'coal'), coal);
      near(row(idle, 'iron-plate').craftsPerSecond, 1);
    });
  });
});
