// The planner against an independent reference (./calc.ts, computed from the raw dump records) on
// real vanilla 2.0 and Py data: calcRecipe (the tool's query) and the block solver (what `pyops
// solve` runs) must agree with it on crafts/s, building counts, electric power (drain and beacons
// included) and pollution. Skipped with a reason when ../shared/data is absent.
import assert from 'node:assert/strict';
import { parseBlockDoc } from '../../../../../src/core/planning/block/document';
import type { PlanningSettings } from '../../../../../src/core/planning/settings';
import { calcRecipe } from '../../../../../src/core/planning/queries/calcRecipe';
import { solveBlock } from '../../../../../src/core/planning/solver/solve';
import { requireSharedData } from '../../../../helpers/paths';
import { loadWorld, type World } from '../queries/world';
import { readRawDump, reference, type RawDump, type RefInput, type RefResult } from './calc';

/** calcRecipe rounds to 4 significant digits. */
function near(actual: number | undefined, expected: number, what: string, rel = 5e-4): void {
  assert.ok(actual !== undefined && Math.abs(actual - expected) <= rel * Math.max(1e-9, Math.abs(expected)) + 1e-12, `${what}: expected ≈ ${expected}, got ${actual}`);
}

interface Case extends RefInput {
  label: string;
  settings?: Partial<PlanningSettings>;
  /** Checks of the reference itself: the rule the case is about, stated as the game's numbers. */
  expect?: (r: RefResult) => void;
}

async function agree(w: World, raw: RawDump, c: Case): Promise<RefResult> {
  const ref = reference(raw, c);
  c.expect?.(ref);
  const ctx = w.ctx(c.settings ?? {});
  const q = calcRecipe(ctx, { recipe: c.recipe, machine: c.machine, modules: c.modules, beacons: c.beacons, targetRate: c.rate, targetGood: c.good, ...(c.fuel ? { fuel: c.fuel } : {}) });
  assert.deepEqual((q.rejectedModules ?? []).map((x) => x.name), ref.refused, `${c.label}: refused modules`);
  near(q.effects.speedMult, ref.speedMult, `${c.label}: speed multiplier`);
  near(q.effects.prodMult, ref.prodMult, `${c.label}: productivity multiplier`);
  near(q.effects.consMult, ref.consMult, `${c.label}: consumption multiplier`);
  near(q.effects.pollutionMult, ref.pollutionMult, `${c.label}: pollution multiplier`);
  near(q.perBuilding.craftsPerSec, ref.craftsPerSec, `${c.label}: crafts/s`);
  near(q.perBuilding.outputs.find((o) => o.good === c.good)?.perSec, ref.outputPerSec, `${c.label}: ${c.good}/s per building`);
  near(q.perBuilding.powerKW, ref.usageW / 1000, `${c.label}: usage kW`);
  assert.equal(q.perBuilding.drainKW, ref.drainW ? Number((ref.drainW / 1000).toPrecision(4)) : undefined, `${c.label}: drain kW`);
  assert.equal(q.perBuilding.beaconKW, ref.beaconW ? Number((ref.beaconW / 1000).toPrecision(4)) : undefined, `${c.label}: beacon kW`);
  near(q.target!.buildingsNeeded, ref.buildings, `${c.label}: buildings`);
  // calcRecipe's total is every kind of energy the buildings draw (fuel too); the reference's electric only.
  near(q.target!.totalPowerKW, (ref.electric ? ref.totalPowerW : ref.buildings * (ref.usageW + ref.beaconW)) / 1000, `${c.label}: total kW`);
  if (ref.fuelPerSec !== undefined) near(q.perBuilding.inputs.find((i) => i.good === c.fuel)?.perSec, ref.fuelPerSec, `${c.label}: ${c.fuel}/s per building`);
  for (const d of ref.dropped) {
    const used = q.beacons.filter((b) => b.beacon === d.beacon).flatMap((b) => b.modules).find((m) => m.name === d.module)?.count ?? 0;
    assert.equal(used, d.used, `${c.label}: ${d.module} used in ${d.beacon}`);
  }
  near(q.perBuilding.pollutionPerMin * ref.buildings, ref.pollutionPerMin, `${c.label}: pollution/min`);

  const doc = parseBlockDoc({ goals: [{ good: c.good, rate: c.rate }], recipes: [{ recipe: c.recipe, machine: c.machine, modules: c.modules, beacons: c.beacons, ...(c.fuel ? { fuel: c.fuel } : {}) }] });
  const s = await solveBlock(ctx.g, ctx.availability, doc);
  assert.equal(s.status, 'optimal', `${c.label}: ${s.message}`);
  const row = s.rows.find((r) => r.recipe === c.recipe)!;
  near(row.buildings, ref.buildings, `${c.label}: solved buildings`, 1e-6);
  near(row.craftsPerSecond, ref.buildings * ref.craftsPerSec, `${c.label}: solved crafts/s`, 1e-6);
  near(row.powerW, ref.totalPowerW, `${c.label}: solved power W`, 1e-6);
  near(row.pollutionPerMinute, ref.pollutionPerMin, `${c.label}: solved pollution/min`, 1e-6);
  if (ref.fuelPerSec !== undefined) near(row.fuelPerSecond, ref.fuelPerSec * ref.buildings, `${c.label}: solved ${c.fuel}/s`, 1e-6);
  for (const [good, perCraft] of Object.entries(ref.perCraft)) {
    const made = (row.flows ?? []).filter((f) => f.good === good && f.rate > 0 && !f.fuel).reduce((a, f) => a + f.rate, 0);
    near(made / row.craftsPerSecond, perCraft, `${c.label}: solved ${good} per craft`, 1e-9);
  }
  for (const d of ref.dropped) {
    const used = row.beacons.filter((b) => b.beacon === d.beacon).flatMap((b) => b.modules).find((m) => m.name === d.module)?.count ?? 0;
    assert.equal(used, d.used, `${c.label}: solved ${d.module} used in ${d.beacon}`);
    assert.ok(s.warnings.some((w) => w.includes(`${d.used} of ${d.asked} ${d.module} used`)), `${c.label}: the drop is reported\n${s.warnings.join('\n')}`);
  }
  return ref;
}

const prod3 = (n: number) => [{ name: 'productivity-module-3', count: n }];
const speed3 = (n: number) => [{ name: 'speed-module-3', count: n }];
const eff3 = (n: number) => [{ name: 'efficiency-module-3', count: n }];

describe('planner vs. the independent reference: vanilla 2.0', function () {
  let w: World;
  let raw: RawDump;
  before(async function () {
    const dir = requireSharedData(this, 'vanilla-2.0-data-raw');
    raw = readRawDump(dir);
    w = await loadWorld(dir);
  });

  const cases: Case[] = [
    {
      label: 'electronic circuits, assembling machine 3 with 4 productivity module 3',
      recipe: 'electronic-circuit', machine: 'assembling-machine-3', modules: prod3(4), good: 'electronic-circuit', rate: 10,
      expect: (r) => {
        // 1.25 × (1 − 0.6) / 0.5 s = 1 craft/s; × 1.4 = 1.4/s; 375 kW × 4.2 + 12.5 kW drain.
        near(r.craftsPerSec, 1, 'ref crafts/s', 1e-12);
        near(r.outputPerSec, 1.4, 'ref output', 1e-12);
        near(r.usageW + r.drainW, 375_000 * 4.2 + 12_500, 'ref W per building', 1e-12);
      },
    },
    {
      label: 'electronic circuits with 8 vanilla beacons of 2 speed module 3 (quality penalty dropped)',
      recipe: 'electronic-circuit', machine: 'assembling-machine-3', modules: prod3(4),
      beacons: [{ beacon: 'beacon', count: 8, modules: speed3(2) }], good: 'electronic-circuit', rate: 10,
      expect: (r) => {
        // Nothing refused: the beacon has no quality effect, so speed-module-3's −25 % quality is dropped.
        assert.deepEqual(r.refused, []);
        // 8 beacons → profile[7] = 0.3535: speed −0.6 + 8 × 2 × 0.5 × 1.5 × 0.3535 = 3.642.
        near(r.effects.speed, -0.6 + 8 * 2 * 0.5 * 1.5 * 0.3535, 'ref speed', 1e-12);
        near(r.beaconW, 8 * 480_000, 'ref beacon W', 1e-12);
      },
    },
    {
      label: 'two beacons of speed and two of efficiency modules: one prototype, profile for 4',
      recipe: 'electronic-circuit', machine: 'assembling-machine-3', modules: prod3(4),
      beacons: [
        { beacon: 'beacon', count: 2, modules: speed3(2) },
        { beacon: 'beacon', count: 2, modules: eff3(2) },
      ],
      good: 'electronic-circuit', rate: 10,
      expect: (r) => assert.deepEqual(r.profiles, [0.5, 0.5]),
    },
    {
      label: 'two beacons of two and two of one efficiency module: profile for 4, not 2 (no penalty involved)',
      recipe: 'electronic-circuit', machine: 'assembling-machine-3', modules: prod3(4),
      beacons: [
        { beacon: 'beacon', count: 2, modules: eff3(2) },
        { beacon: 'beacon', count: 2, modules: eff3(1) },
      ],
      good: 'electronic-circuit', rate: 10,
      expect: (r) => near(r.effects.consumption, 3.2 - 0.5 * 1.5 * 0.5 * (2 * 2 + 1 * 2), 'ref consumption', 1e-12),
    },
    {
      label: 'speed modules in an oil refinery (no quality allowed) and its beacons',
      recipe: 'advanced-oil-processing', machine: 'oil-refinery', modules: speed3(3),
      beacons: [{ beacon: 'beacon', count: 4, modules: speed3(2) }], good: 'petroleum-gas', rate: 100,
      expect: (r) => {
        assert.deepEqual(r.refused, []);
        assert.equal(r.effects.quality, 0);
        near(r.effects.speed, 1.5 + 4 * 2 * 0.5 * 1.5 * 0.5, 'ref speed', 1e-12);
      },
    },
    {
      label: 'speed modules in the rocket silo (no quality allowed)',
      recipe: 'rocket-part', machine: 'rocket-silo', modules: speed3(4), good: 'rocket-part', rate: 0.5,
      expect: (r) => assert.deepEqual(r.refused, []),
    },
    {
      label: 'an electric mining drill draws its usage only (no drain)',
      recipe: 'mine-iron-ore', machine: 'electric-mining-drill', good: 'iron-ore', rate: 15,
      expect: (r) => {
        assert.equal(r.drainW, 0);
        near(r.usageW, 90_000, 'ref usage', 1e-12);
        near(r.outputPerSec, 0.5, 'ref ore/s', 1e-12);
      },
    },
    {
      label: 'coal liquefaction with 3 productivity module 3: productivity leaves the 25 heavy oil it takes back out',
      recipe: 'coal-liquefaction', machine: 'oil-refinery', modules: prod3(3), good: 'light-oil', rate: 10,
      expect: (r) => {
        // Dump: 10 coal + 25 heavy oil + 50 steam → 90 heavy oil (ignored_by_stats 25, ignored_by_productivity
        // 25) + 20 light oil + 10 petroleum gas in 5 s. +30 % productivity acts on 90 − 25 = 65 only:
        // 25 + 65 × 1.3 = 109.5 per craft, 84.5 net of the 25 it takes (92 if productivity touched all 90).
        near(r.prodMult, 1.3, 'ref productivity', 1e-12);
        near(r.perCraft['heavy-oil'] - 25, 84.5, 'ref heavy oil net per craft', 1e-12);
        // Speed 1 × (1 − 3 × 0.15) / 5 s = 0.11 crafts/s.
        near(r.craftsPerSec, 0.11, 'ref crafts/s', 1e-12);
      },
    },
    {
      label: 'four speed module 3 offered to a vanilla beacon of two slots: two are used, the rest reported',
      recipe: 'electronic-circuit', machine: 'assembling-machine-3', modules: prod3(4),
      beacons: [{ beacon: 'beacon', count: 1, modules: speed3(4) }], good: 'electronic-circuit', rate: 10,
      expect: (r) => {
        assert.deepEqual(r.dropped, [{ beacon: 'beacon', module: 'speed-module-3', asked: 4, used: 2 }]);
        // Two modules: −0.6 + 2 × 0.5 × 1.5 × profile[0] (1) = +0.9.
        near(r.effects.speed, -0.6 + 2 * 0.5 * 1.5, 'ref speed', 1e-12);
      },
    },
    {
      label: 'circuits at the +300 % productivity cap (4 productivity modules over synced research)',
      settings: { synced_recipe_productivity: { 'electronic-circuit': 2.8 } },
      recipe: 'electronic-circuit', machine: 'assembling-machine-3', modules: prod3(4), researchProductivity: 2.8, good: 'electronic-circuit', rate: 10,
      expect: (r) => near(r.prodMult, 4, 'ref clamped productivity', 1e-12),
    },
  ];
  for (const c of cases) it(c.label, async () => void (await agree(w, raw, c)));

  it('flags the productivity cap where the reference clamps', () => {
    const q = calcRecipe(w.ctx({ synced_recipe_productivity: { 'electronic-circuit': 2.8 } }), { recipe: 'electronic-circuit', machine: 'assembling-machine-3', modules: prod3(4) });
    assert.equal(q.effects.productivityCapped, true);
    assert.equal(q.effects.productivityPct, 300);
  });
});

describe('planner vs. the independent reference: Py (HighTech subset)', function () {
  let w: World;
  let raw: RawDump;
  before(async function () {
    this.timeout(120_000);
    const dir = requireSharedData(this, 'py-hightech-2.0-data-raw');
    raw = readRawDump(dir);
    w = await loadWorld(dir);
  });

  const cases: Case[] = [
    {
      label: 'gears in an automated factory MK04: productivity modules clamp speed at 20 %, Py beacons of two loadouts',
      recipe: 'iron-gear-wheel', machine: 'automated-factory-mk04', modules: prod3(4),
      beacons: [
        { beacon: 'beacon-AM2-FM3', count: 2, modules: speed3(2) },
        { beacon: 'beacon-AM2-FM3', count: 2, modules: eff3(2) },
      ],
      good: 'iron-gear-wheel', rate: 20,
      expect: (r) => {
        // Py productivity module 3: −75 % speed each; the beacons add 2 × 2 × 1 × 1.2 = +4.8.
        near(r.effects.speed, -3 + 4.8, 'ref speed', 1e-9);
        near(r.drainW, 8e6 / 30, 'ref default drain of a crafting machine', 1e-12);
      },
    },
    {
      label: 'Py speed and efficiency modules in two loadouts of the profiled beacon: profile for 4',
      recipe: 'iron-gear-wheel', machine: 'automated-factory-mk04',
      beacons: [
        { beacon: 'beacon', count: 2, modules: speed3(2) },
        { beacon: 'beacon', count: 2, modules: eff3(2) },
      ],
      good: 'iron-gear-wheel', rate: 20,
      expect: (r) => assert.deepEqual(r.profiles, [0.5, 0.5]),
    },
    {
      label: 'duralumin in a smelter MK02 on hydrogen with 2 speed modules: the fuel flow cap slows it to 40 %',
      recipe: 'duralumin-1', machine: 'smelter-mk02', modules: [{ name: 'speed-module', count: 2 }], fuel: 'hydrogen', good: 'duralumin', rate: 1,
      expect: (r) => {
        // smelter-mk02: 20 MW, speed 2, burns fluid with scale_fluid_usage, fluid_usage_per_tick 20.
        // speed-module: +40 % speed, +100 % consumption, ×2 → 60 MW = 3000 hydrogen (20 kJ)/s, but at
        // most 20 × 60 = 1200/s: 0.4 of its speed. duralumin-1 is 4 s for 1: 2 × 1.8 × 0.4 / 4 = 0.36/s,
        // so 1/s takes 2.778 smelters (1.111 if the cap were ignored).
        near(r.fuelFactor, 0.4, 'ref fuel factor', 1e-12);
        near(r.fuelPerSec!, 1200, 'ref hydrogen/s', 1e-12);
        near(r.buildings, 1 / 0.36, 'ref smelters', 1e-12);
      },
    },
    {
      label: 'a Py electric drill without drain (borax mine MK02) with speed modules',
      recipe: 'mine-borax', machine: 'borax-mine-mk02', modules: [{ name: 'speed-module-2', count: 2 }], good: 'raw-borax', rate: 5,
      expect: (r) => {
        assert.equal(r.drainW, 0);
        near(r.usageW, 840_000 * (1 + 2 * 1.5), 'ref usage', 1e-12);
      },
    },
  ];
  for (const c of cases) it(c.label, async () => void (await agree(w, raw, c)));
});
