// Blocks solved on imported FactorioLab data sets, against numbers worked out by hand from the
// data.json entries (quoted in each case) and the game's rules — not from the planner's code:
// buildings = crafts/s × time / (speed × (1 + Σ speed)), a product under productivity =
// catalyst + (amount − catalyst) × (1 + Σ productivity), electric power per building = usage ×
// (1 + Σ consumption) + drain, pollution/min = emissions × consumption multiplier × pollution multiplier.
import assert from 'node:assert/strict';
import { findTool } from '../../../../../src/core/assistant/tools/registry';
import { runTool } from '../../../../../src/core/assistant/tools/run';
import { Availability } from '../../../../../src/core/planning/availability';
import { suggestModules } from '../../../../../src/core/planning/moduleFill';
import { writeSettings } from '../../../../../src/core/planning/settings';
import { parseBlockDoc } from '../../../../../src/core/planning/block/document';
import { solveBlock } from '../../../../../src/core/planning/solver/solve';
import type { SolveResult } from '../../../../../src/core/planning/solver/result';
import { requireSharedData } from '../../../../helpers/paths';
import { loadWorld, near, type World } from '../../planning/solver/helpers';

const flow = (list: Array<{ good: string; rate: number }>, good: string) => list.find((f) => f.good === good)?.rate ?? 0;
const rowOf = (r: SolveResult, recipe: string) => {
  const x = r.rows.find((y) => y.recipe === recipe);
  assert.ok(x, `no row ${recipe}`);
  return x;
};

/** A world whose horizon is Future, so every machine and module counts as buildable. */
async function futureWorld(ctx: Mocha.Context, set: string): Promise<World> {
  const w = await loadWorld(requireSharedData(ctx, set));
  writeSettings(w.project, { research_mode: 'future' });
  const state = { ...w.state, settings: { ...w.state.settings, research_mode: 'future' as const } };
  const availability = new Availability(w.g, state);
  return { ...w, state, availability, solve: (doc, opts) => solveBlock(w.g, availability, parseBlockDoc(doc), opts) };
}

describe('solves on FactorioLab data sets (hand-computed)', function () {
  this.timeout(180_000);

  it('vanilla 2.0: green circuits in assembling machines 2', async function () {
    const w = await futureWorld(this, 'factoriolab-vanilla-2.0');
    // electronic-circuit: 0.5 s, 1 iron-plate + 3 copper-cable → 1; copper-cable: 0.5 s, 1 copper-plate → 2;
    // assembling-machine-2: speed 0.75, 150 kW, drain 5 kW, pollution 3/min.
    const r = await w.solve({
      goals: [{ good: 'electronic-circuit', rate: 1 }],
      recipes: [{ recipe: 'electronic-circuit', machine: 'assembling-machine-2' }, { recipe: 'copper-cable', machine: 'assembling-machine-2' }],
      made: ['copper-cable'],
    });
    assert.equal(r.status, 'optimal');
    near(rowOf(r, 'electronic-circuit').buildings, (1 * 0.5) / 0.75, 1e-9, 'circuit assemblers');
    near(rowOf(r, 'copper-cable').buildings, (1.5 * 0.5) / 0.75, 1e-9, 'cable assemblers');
    near(flow(r.imports, 'iron-plate'), 1, 1e-9, 'iron plates');
    near(flow(r.imports, 'copper-plate'), 1.5, 1e-9, 'copper plates');
    const buildings = 2 / 3 + 1;
    near(r.powerW, buildings * (150_000 + 5000), 1e-9, 'power');
    near(r.pollutionPerMinute, buildings * 3, 1e-9, 'pollution');
  });

  it('Space Age: casting iron in a foundry with its built-in +50 % productivity', async function () {
    const w = await futureWorld(this, 'factoriolab-space-age-2.0');
    // casting-iron: 3.2 s, 20 molten-iron → 2 iron-plate; foundry: speed 4, baseEffect productivity 0.5,
    // 2500 kW, drain 83.333 kW. 10 plates/s at 2 × 1.5 = 3 per craft → 10/3 crafts/s.
    const r = await w.solve({ goals: [{ good: 'iron-plate', rate: 10 }], recipes: [{ recipe: 'casting-iron', machine: 'foundry' }] });
    assert.equal(r.status, 'optimal');
    const crafts = 10 / 3;
    near(rowOf(r, 'casting-iron').craftsPerSecond, crafts, 1e-9, 'crafts/s');
    near(rowOf(r, 'casting-iron').buildings, (crafts * 3.2) / 4, 1e-9, 'foundries');
    near(flow(r.imports, 'molten-iron'), 20 * crafts, 1e-9, 'molten iron');
    near(r.powerW, ((crafts * 3.2) / 4) * (2_500_000 + 83_333.333333), 1e-6, 'power');
  });

  it('vanilla 2.0: kovarex with productivity modules leaves its catalysts unmultiplied', async function () {
    const w = await futureWorld(this, 'factoriolab-vanilla-2.0');
    // kovarex-enrichment-process: 60 s, 40 U-235 + 5 U-238 → 41 U-235 (catalyst 40) + 2 U-238 (catalyst 2);
    // centrifuge: speed 1, 2 slots, 350 kW, drain 11.667 kW; productivity-module-3: +10 % productivity,
    // −15 % speed, +80 % consumption. Two of them: ×1.2 productivity, ×0.7 speed, ×2.6 consumption.
    // Per craft: U-235 40 + 1 × 1.2 = 41.2 (net +1.2), U-238 2 + 0 × 1.2 = 2 (net −3).
    const r = await w.solve({
      goals: [{ good: 'uranium-235', rate: 0.6 }],
      recipes: [{ recipe: 'kovarex-enrichment-process', machine: 'centrifuge', modules: [{ name: 'productivity-module-3', count: 2 }] }],
    });
    assert.equal(r.status, 'optimal');
    const row = rowOf(r, 'kovarex-enrichment-process');
    near(row.craftsPerSecond, 0.6 / 1.2, 1e-9, 'crafts/s');
    near(row.buildings, (0.5 * 60) / 0.7, 1e-9, 'centrifuges');
    near(flow(r.imports, 'uranium-238'), 0.5 * 3, 1e-9, 'U-238 imported');
    near(r.powerW, ((0.5 * 60) / 0.7) * (350_000 * 2.6 + 11_666.666667), 1e-6, 'power');
  });

  describe('a Py moss farm (pysalf)', () => {
    // "Moss 1": 100 s, 100 dirty-water-light + 100 carbon-dioxide → 8 moss; moss-farm-mk01: speed 0.0625,
    // 15 slots, 100 kW, drain 3.333 kW, pollution −35/min; moss-mk04 (module): +400 % speed, +100 % pollution.
    // 0.8 moss/s = 0.1 crafts/s.
    const doc = (modules?: Array<{ name: string; count: number }>) => ({
      goals: [{ good: 'moss', rate: 0.8 }],
      recipes: [{ recipe: 'Moss 1', machine: 'moss-farm-mk01', ...(modules ? { modules } : {}) }],
    });

    it('with its moss modules runs at 61 times its bare speed', async function () {
      const w = await futureWorld(this, 'factoriolab-pysalf');
      const r = await w.solve(doc([{ name: 'moss-mk04', count: 15 }]));
      assert.equal(r.status, 'optimal');
      const speed = 0.0625 * (1 + 15 * 4);
      const farms = (0.1 * 100) / speed;
      near(rowOf(r, 'Moss 1').buildings, farms, 1e-9, 'farms');
      near(flow(r.imports, 'carbon-dioxide'), 10, 1e-9, 'CO2');
      near(r.powerW, farms * (100_000 + 3333.333333), 1e-6, 'power');
      near(r.pollutionPerMinute, farms * -35 * (1 + 15), 1e-9, 'pollution');
      assert.ok(!r.warnings.some((x) => /bare speed/.test(x)), r.warnings.join('\n'));
    });

    it('without them runs at its bare 0.0625 and says so', async function () {
      const w = await futureWorld(this, 'factoriolab-pysalf');
      const r = await w.solve(doc());
      assert.equal(r.status, 'optimal');
      near(rowOf(r, 'Moss 1').buildings, (0.1 * 100) / 0.0625, 1e-9, 'farms');
      assert.ok(r.warnings.some((x) => /Moss farm MK 01 holds none of its farm modules \(Moss MK 04, Moss MK 03, Moss MK 02, …\), so it runs at its bare speed 0\.0625; put them in its 15 module slots/.test(x)), r.warnings.join('\n'));
    });

    it('gets its fastest farm module in every slot from the default fill', async function () {
      const w = await futureWorld(this, 'factoriolab-pysalf');
      const fill = suggestModules(w.g, w.availability, { recipe: w.g.recipes.get('Moss 1')!, machine: w.g.machines.get('moss-farm-mk01')!, craftsPerSec: 0.1 });
      assert.equal(fill.strategy, 'farm');
      assert.deepEqual(fill.modules, [{ name: 'moss-mk04', count: 15 }]);
    });

    it('is drafted with them, like any other module', async function () {
      const w = await futureWorld(this, 'factoriolab-pysalf');
      const o = await runTool(findTool('submitBlock')!, { target: 'moss', rate: 0.8, recipes: ['Moss 1'] }, { project: w.project, caller: 'agent' });
      assert.ok(o.ok, JSON.stringify(o));
      const text = JSON.stringify(o.result);
      assert.match(text, /moss-mk04/);
      assert.doesNotMatch(text, /bare speed/);
    });
  });
});
