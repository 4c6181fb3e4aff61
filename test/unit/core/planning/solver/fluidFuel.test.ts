// Fluid fuel per row: a fluid-burning machine may name the fluid it burns (`fuel`), which it then
// draws at energy ÷ fuel value (2.0: burns_fluid with scale_fluid_usage, any temperature), as an
// LP flow; without a name it draws the pooled MJ fuel; a fluid without a fuel value cannot be named.
// Sample: naphtha-furnace 180kW, speed 2, effectivity 1; naphtha 1.5MJ; ferrite-plate 3.2 s.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Machine } from '../../../../../src/core/planning/gameIndex';
import { Project } from '../../../../../src/core/db/project';
import { importGameData } from '../../../../../src/core/gamedata/import';
import { planningContext } from '../../../../../src/core/planning/context';
import { buildDraft, specFromSubmit, submitBlockInput } from '../../../../../src/core/planning/proposals/draft';
import { calcRecipe } from '../../../../../src/core/planning/queries/calcRecipe';
import { checkFluidFuel } from '../../../../../src/core/planning/energy';
import { SAMPLE_DUMP, requireSharedData, tempDir } from '../../../../helpers/paths';
import type { World } from './helpers';
import { assertBalanced, freshWorld, loadWorld, near, rate, row } from './helpers';
import { sampleWorld } from '../queries/world';

describe('fluid fuel per row', () => {
  let w: World;
  before(async () => {
    w = await loadWorld();
  });
  const furnaces = 1 / (2 / 3.2); // 1 plate/s at 0.625 crafts/s per furnace = 1.6 furnaces
  const doc = (fuel?: string) => ({ goals: [{ good: 'ferrite-plate', rate: 1 }], recipes: [{ recipe: 'ferrite-plate', machine: 'naphtha-furnace', ...(fuel ? { fuel } : {}) }] });

  it('burns a named fluid by its fuel value, as an LP flow', async () => {
    const r = await w.solve(doc('naphtha'));
    assertBalanced(r);
    const perSec = (furnaces * 180e3) / 1.5e6;
    near(rate(r.imports, 'naphtha'), perSec);
    assert.equal(rate(r.imports, 'pyops-fluid-fuel'), 0);
    assert.equal(row(r, 'ferrite-plate').fuel, 'naphtha');
    near(row(r, 'ferrite-plate').fuelPerSecond!, perSec);
    assert.deepEqual(r.fuel.map((f) => f.fuel), ['naphtha']);
    assert.ok(!r.warnings.some((x) => /fuel value|cannot burn|draws at most/.test(x)), r.warnings.join('\n')); // (only the horizon's not-buildable note)
    // Made in the block: refine-brine (20 naphtha per craft) is sized for the furnaces.
    const made = await w.solve({ ...doc('naphtha'), recipes: [...doc('naphtha').recipes, { recipe: 'refine-brine' }], made: ['naphtha'] });
    assertBalanced(made);
    near(row(made, 'refine-brine').craftsPerSecond, perSec / 20);
    assert.equal(rate(made.imports, 'naphtha'), 0);
  });

  it('keeps the pooled MJ fuel when none is named, and ignores a fluid without fuel value with a clear warning', async () => {
    const pooled = await w.solve(doc());
    near(rate(pooled.imports, 'pyops-fluid-fuel'), (furnaces * 180e3) / 1e6);
    const water = await w.solve(doc('fresh-water'));
    assertBalanced(water);
    near(rate(water.imports, 'pyops-fluid-fuel'), (furnaces * 180e3) / 1e6);
    assert.ok(water.warnings.some((x) => /fresh-water has no fuel value; name a fluid with a fuel value \(e\.g\. naphtha\)/.test(x)), water.warnings.join('\n'));
  });

  it('caps a weak fuel at fluid_usage_per_tick: the furnace slows down, more are counted, and it says so', async () => {
    const custom = await freshWorld();
    const base = custom.g.machines.get('naphtha-furnace')!;
    const capped: Machine = { ...base, fluidFuelPerSec: 0.06 }; // 1 unit/tick × 60 would be 60; a tiny cap to trip it
    custom.g.machines.set('naphtha-furnace', capped);
    const r = await custom.solve(doc('naphtha'));
    // One furnace needs 180e3 / 1.5e6 = 0.12/s but draws at most 0.06/s: 50 % speed, twice the furnaces,
    // each burning 0.06/s.
    assert.ok(r.warnings.some((x) => /would need 0\.12\/s of naphtha but burns at most 0\.06\/s, so it runs at 50% speed/.test(x)), r.warnings.join('\n'));
    assertBalanced(r);
    near(row(r, 'ferrite-plate').buildings, 2 * furnaces);
    near(rate(r.imports, 'naphtha'), 2 * furnaces * 0.06);
  });

  it('calcRecipe and drafts apply the same rule', async () => {
    const q = await sampleWorld();
    const ctx = q.ctx({ research_mode: 'future' });
    const c = calcRecipe(ctx, { recipe: 'ferrite-plate', machine: 'naphtha-furnace', fuel: 'naphtha' });
    assert.deepEqual(c.perBuilding.inputs.at(-1), { good: 'naphtha', perSec: 0.12 });
    assert.throws(() => calcRecipe(ctx, { recipe: 'ferrite-plate', machine: 'naphtha-furnace', fuel: 'fresh-water' }), /fresh-water has no fuel value/);
    assert.throws(() => calcRecipe(ctx, { recipe: 'ferrite-plate', machine: 'naphtha-furnace', fuel: 'gear' }), /gear is not a fluid/);
    const kiln = q.g.machines.get('kiln')!;
    assert.match((checkFluidFuel(q.g, kiln, 'naphtha') as { error: string }).error, /does not burn fluid fuel/);
    const dir = tempDir();
    const p = await Project.create(path.join(dir, 'f.pyops'));
    try {
      await importGameData(p, SAMPLE_DUMP);
      const draft = (fuel: string) => buildDraft(planningContext(p), specFromSubmit(planningContext(p), submitBlockInput.parse({ target: 'ferrite-plate', rate: 1, recipes: [{ recipe: 'ferrite-plate', machine: 'naphtha-furnace', fuel }] })));
      const bad = await draft('fresh-water');
      assert.equal(bad.ok, false);
      assert.ok(bad.invalid.some((x) => /ferrite-plate: .*fresh-water has no fuel value/.test(x)), bad.invalid.join('\n'));
      const good = await draft('naphtha');
      assert.deepEqual(good.invalid, []);
      assert.equal(good.rows[0].fuel, 'naphtha');
    } finally {
      p.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('Py (py-hightech 2.0)', function () {
    let py: World;
    before(async function () {
      this.timeout(120_000);
      py = await loadWorld(requireSharedData(this, 'py-hightech-2.0-data-raw'));
    });

    it('a glassworks burning methane draws energy ÷ 0.8 MJ; water cannot be named', async () => {
      // glassworks-mk01: 10MW, speed 1, effectivity 1, burns_fluid, no filter; fiberglass 8 s; methane 0.8MJ.
      const d = { goals: [{ good: 'fiberglass', rate: 0.125 }], recipes: [{ recipe: 'fiberglass', machine: 'glassworks-mk01', fuel: 'methane' }] };
      const r = await py.solve(d);
      assertBalanced(r);
      near(row(r, 'fiberglass').buildings, 1);
      near(rate(r.imports, 'methane'), 10e6 / 0.8e6);
      assert.equal(rate(r.imports, 'pyops-fluid-fuel'), 0);
      const water = await py.solve({ ...d, recipes: [{ ...d.recipes[0], fuel: 'water' }] });
      near(rate(water.imports, 'pyops-fluid-fuel'), 10);
      assert.ok(water.warnings.some((x) => /water has no fuel value/.test(x)));
    });
  });

  describe('vanilla 2.0', function () {
    let va: World;
    before(async function () {
      this.timeout(120_000);
      va = await loadWorld(requireSharedData(this, 'vanilla-2.0-data-raw'));
    });

    it('a solid-fuel burner cannot be given a fluid: it keeps a solid fuel, with a warning', async () => {
      // stone-furnace: burner (chemical); petroleum-gas is a fluid.
      assert.match((checkFluidFuel(va.g, va.g.machines.get('stone-furnace')!, 'petroleum-gas') as { error: string }).error, /does not burn fluid fuel/);
      const r = await va.solve({ goals: [{ good: 'iron-plate', rate: 1 }], recipes: [{ recipe: 'iron-plate', machine: 'stone-furnace', fuel: 'petroleum-gas' }] });
      assertBalanced(r);
      assert.ok(r.warnings.some((x) => /cannot burn petroleum-gas; using coal/.test(x)), r.warnings.join('\n'));
      near(rate(r.imports, 'coal'), 3.2 * (90e3 / 4e6));
    });
  });
});
