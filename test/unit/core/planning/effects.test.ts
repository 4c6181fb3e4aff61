// Effects on the sample world: slot truncation and rejections, clamps, beacon distribution and
// profile, the productivity cap, research productivity without modules, uncapped mining research,
// TURD modules and product amounts under productivity.
import assert from 'node:assert/strict';
import { appliedEffects, computeEffects, moduleMisfit, productAmount, turdModuleApplies } from '../../../../src/core/planning/effects';
import type { Machine, Module } from '../../../../src/core/planning/gameIndex';
import { privateSampleWorld, sampleWorld, type World } from './queries/world';

const close = (a: number, b: number, msg?: string) => assert.ok(Math.abs(a - b) < 1e-9, `${msg ?? ''} ${a} ≉ ${b}`);

describe('effects', () => {
  let w: World;
  before(async () => {
    w = await sampleWorld();
  });
  const R = (n: string) => w.g.recipes.get(n)!;
  const M = (n: string) => w.g.machines.get(n)!;
  const fx = (recipe: string, machine: string, extra: Partial<Parameters<typeof computeEffects>[1]> = {}) => computeEffects(w.g, { recipe: R(recipe), machine: M(machine), ...extra });

  it('truncates machine modules to the slots and says why the rest was rejected', () => {
    const e = fx('circuit', 'press', { modules: [{ name: 'speed-module-s1', count: 3 }] });
    assert.deepEqual(e.modulesPlaced, [{ name: 'speed-module-s1', count: 2 }]);
    assert.deepEqual(e.rejected, [{ name: 'speed-module-s1', reason: 'only 2 module slots', asked: 3, used: 2 }]);
    close(e.sum.speed, 0.5);
    close(e.speedMult, 1.5);
    close(e.consMult, 1.8);
  });

  it('rejects productivity modules on recipes without productivity, and effects a machine disallows', () => {
    assert.equal(moduleMisfit(w.g.modules.get('productivity-module-s1')!, M('press'), R('press')), 'this recipe does not allow productivity');
    assert.equal(moduleMisfit(w.g.modules.get('speed-module-s1')!, M('void-pit'), R('tailings-void')), 'this machine does not allow the speed effect');
    assert.match(moduleMisfit(w.g.modules.get('tempered-press-module')!, M('press'), R('gear'))!, /hidden module/);
    const e = fx('press', 'press-mk2', { modules: [{ name: 'productivity-module-s1', count: 2 }, { name: 'nope', count: 1 }] });
    assert.deepEqual(e.modulesPlaced, []);
    assert.deepEqual(e.rejected.map((r) => r.name), ['productivity-module-s1', 'nope']);
  });

  it('clamps speed, consumption and pollution multipliers at 20 %', () => {
    const e = fx('circuit', 'press-mk2', { modules: [{ name: 'efficiency-module-s1', count: 4 }] });
    close(e.sum.consumption, -1.4);
    close(e.consMult, 0.2);
  });

  it('shows the effects as applied: the −80 % floor, and which effects it cut', () => {
    // 4 × efficiency-module-s1 at −35 % consumption each sum to −140 %; the game applies −80 %.
    const e = fx('circuit', 'press-mk2', { modules: [{ name: 'efficiency-module-s1', count: 4 }] });
    const shown = appliedEffects(e.sum);
    close(shown.consumption, -0.8);
    assert.deepEqual(shown.capped, ['consumption']);
    close(shown.speed, e.sum.speed);
    const one = appliedEffects(fx('circuit', 'press-mk2', { modules: [{ name: 'efficiency-module-s1', count: 1 }] }).sum);
    close(one.consumption, -0.35);
    assert.deepEqual(one.capped, []);
  });

  it('clamps speed and pollution too (a made-up slowing module)', async () => {
    const pw = await privateSampleWorld();
    pw.g.modules.set('slow-module', { name: 'slow-module', display: 'Slow', category: 'speed', tier: 1, hidden: false, effects: { speed: -0.5, productivity: 0, consumption: 0, pollution: -0.9, quality: 0 }, limitation: null });
    const e = computeEffects(pw.g, { recipe: pw.g.recipes.get('circuit')!, machine: pw.g.machines.get('press-mk2')!, modules: [{ name: 'slow-module', count: 4 }] });
    close(e.sum.speed, -2);
    close(e.speedMult, 0.2);
    close(e.pollutionMult, 0.2);
  });

  it('multiplies beacon modules by distribution effectivity, the profile entry for the count, and the count', () => {
    const one = fx('circuit', 'press-mk2', { beacons: [{ beacon: 'beacon-tower', count: 1, modules: [{ name: 'speed-module-s1', count: 2 }] }] });
    close(one.sum.speed, 0.5 * 1.2 * 1 * 1);
    const two = fx('circuit', 'press-mk2', { beacons: [{ beacon: 'beacon-tower', count: 2, modules: [{ name: 'speed-module-s1', count: 2 }] }] });
    close(two.sum.speed, 0.5 * 1.2 * 0.75 * 2);
    // Past the end of the profile its last entry applies.
    const eight = fx('circuit', 'press-mk2', { beacons: [{ beacon: 'beacon-tower', count: 8, modules: [{ name: 'speed-module-s1', count: 2 }] }] });
    close(eight.sum.speed, 0.5 * 1.2 * 0.4 * 8);
  });

  it('drops beacon modules beyond the beacon slots and says so, and rejects effects it does not transmit', () => {
    // beacon-tower: 2 slots, effectivity 1.2; speed-module-s1 +25 %: the 2 that fit give 2 × 0.25 × 1.2.
    const e = fx('circuit', 'press-mk2', { beacons: [{ beacon: 'beacon-tower', count: 1, modules: [{ name: 'speed-module-s1', count: 5 }, { name: 'productivity-module-s1', count: 1 }] }] });
    close(e.sum.speed, 0.5 * 1.2);
    assert.deepEqual(e.rejected, [
      { name: 'speed-module-s1', reason: 'Beacon tower has only 2 module slots', asked: 5, used: 2 },
      { name: 'productivity-module-s1', reason: 'Beacon tower does not transmit the productivity effect' },
    ]);
    // What was applied, as the result shows it.
    assert.deepEqual(e.beaconsPlaced, [{ beacon: 'beacon-tower', count: 1, modules: [{ name: 'speed-module-s1', count: 2 }] }]);
  });

  it('takes a module whose disallowed effect is only a penalty, and drops that penalty (Factorio 2.0)', () => {
    // speed-module-s2: +40 % speed, +60 % consumption, −10 % quality; neither beacon-tower nor
    // press-mk2 allows quality, so the module fits both and its quality penalty is not applied.
    const s2 = w.g.modules.get('speed-module-s2')!;
    assert.equal(moduleMisfit(s2, M('press-mk2'), R('circuit')), undefined);
    const e = fx('circuit', 'press-mk2', {
      modules: [{ name: 'speed-module-s2', count: 1 }],
      beacons: [{ beacon: 'beacon-tower', count: 1, modules: [{ name: 'speed-module-s2', count: 2 }] }],
    });
    assert.deepEqual(e.rejected, []);
    assert.deepEqual(e.modulesPlaced, [{ name: 'speed-module-s2', count: 1 }]);
    close(e.sum.speed, 0.4 + 0.4 * 2 * 1.2);
    close(e.sum.consumption, 0.6 + 0.6 * 2 * 1.2);
    close(e.sum.quality, 0);
    close(e.beaconPowerW, 400_000);
    // A disallowed bonus still keeps a module out: the beacon does not transmit productivity.
    assert.match(fx('circuit', 'press-mk2', { beacons: [{ beacon: 'beacon-tower', count: 1, modules: [{ name: 'productivity-module-s1', count: 1 }] }] }).rejected[0].reason, /does not transmit the productivity effect/);
  });

  it('drops a penalty at the beacon even when the machine would accept it', async () => {
    const pw = await privateSampleWorld();
    const machine = { ...pw.g.machines.get('press-mk2')!, allowedEffects: ['speed', 'productivity', 'consumption', 'pollution', 'quality'] };
    const e = computeEffects(pw.g, {
      recipe: pw.g.recipes.get('circuit')!, machine,
      modules: [{ name: 'speed-module-s2', count: 1 }],
      beacons: [{ beacon: 'beacon-tower', count: 1, modules: [{ name: 'speed-module-s2', count: 2 }] }],
    });
    close(e.sum.quality, -0.1); // the machine's own module only; beacon-tower passes no quality
  });

  it('picks the profile entry by all beacons of the prototype (same_type), whatever modules they hold', () => {
    // 2 beacon-towers with speed modules + 2 with efficiency modules: 4 towers → profile[3] = 0.5 for both.
    const e = fx('circuit', 'press-mk2', {
      beacons: [
        { beacon: 'beacon-tower', count: 2, modules: [{ name: 'speed-module-s1', count: 2 }] },
        { beacon: 'beacon-tower', count: 2, modules: [{ name: 'efficiency-module-s1', count: 2 }] },
      ],
    });
    close(e.sum.speed, 0.25 * 2 * 1.2 * 0.5 * 2);
    close(e.sum.consumption, 0.4 * 2 * 1.2 * 0.5 * 2 + -0.35 * 2 * 1.2 * 0.5 * 2);
    close(e.beaconPowerW, 4 * 400_000);
  });

  it('counts every beacon for a beacon_counter "total" beacon, only its own type for "same_type"', () => {
    // relay-beacon (total, profile [1, 0.8, 0.6, 0.5], 0.8 effectivity) ×1 next to 2 beacon-towers:
    // the relay sees 3 beacons → 0.6; the towers see their own 2 → 0.75.
    const e = fx('circuit', 'press-mk2', {
      beacons: [
        { beacon: 'relay-beacon', count: 1, modules: [{ name: 'speed-module-s1', count: 1 }] },
        { beacon: 'beacon-tower', count: 2, modules: [{ name: 'speed-module-s1', count: 2 }] },
      ],
    });
    close(e.sum.speed, 0.25 * 1 * 0.8 * 0.6 * 1 + 0.25 * 2 * 1.2 * 0.75 * 2);
    close(e.beaconPowerW, 200_000 + 2 * 400_000);
    assert.equal(w.g.beacons.get('relay-beacon')!.counter, 'total');
    assert.equal(w.g.beacons.get('beacon-tower')!.counter, 'same_type');
  });

  it('splits beacon power over sharing machines but never the effect', () => {
    const shared = fx('circuit', 'press-mk2', { beacons: [{ beacon: 'beacon-tower', count: 2, shared: 4, modules: [{ name: 'speed-module-s1', count: 2 }] }] });
    close(shared.beaconPowerW, (400_000 * 2) / 4);
    close(shared.sum.speed, 0.5 * 1.2 * 0.75 * 2);
  });

  it('caps productivity at the recipe maximum (+300 % by default)', () => {
    const e = fx('circuit', 'press-mk2', { modules: [{ name: 'productivity-module-s1', count: 4 }], researchProductivity: 5 });
    close(e.sum.productivity, 3);
    close(e.prodMult, 4);
  });

  it('adds research productivity even where modules cannot add productivity', () => {
    const e = fx('press', 'press-mk2', { researchProductivity: 0.1 });
    close(e.sum.productivity, 0.1);
  });

  it('adds mining productivity research after the cap, uncapped', () => {
    const e = fx('mine-azurite-ore', 'digger', { modules: [{ name: 'productivity-module-s1', count: 2 }], researchProductivity: 5 });
    close(e.sum.productivity, 0.1 + 5);
    close(e.prodMult, 6.1);
  });

  it('applies an active TURD module to machines taking its category, without using a slot', () => {
    const e = fx('gear', 'press', { modules: [{ name: 'speed-module-s1', count: 2 }], turdModules: ['tempered-press-module'] });
    assert.deepEqual(e.turdModulesApplied, ['tempered-press-module']);
    close(e.sum.speed, 0.5 + 0.2);
    const refinery = fx('refine-brine', 'refinery-unit', { turdModules: ['tempered-press-module'] });
    assert.deepEqual(refinery.turdModulesApplied, []);
  });

  it('applies a tiered TURD module only to the machine of the same tier', () => {
    const m: Module = { name: 'x-module-mk02', display: 'x', category: 'press', tier: 2, hidden: true, effects: { speed: 0.1, productivity: 0, consumption: 0, pollution: 0, quality: 0 }, limitation: null };
    const mk2: Machine = { ...M('press'), name: 'press-mk02' };
    const mk3: Machine = { ...M('press'), name: 'press-mk03' };
    assert.equal(turdModuleApplies(m, mk2), true);
    assert.equal(turdModuleApplies(m, mk3), false);
  });

  it('scales only the part of a product not ignored by productivity, then applies probability', () => {
    close(productAmount({ amount: 10, probability: 1, ignoredByProductivity: 4 }, 1.5), 4 + 6 * 1.5);
    close(productAmount({ amount: 2, probability: 0.5, ignoredByProductivity: 5 }, 2), 2 * 0.5);
    close(productAmount({ amount: 2, probability: 0.25, ignoredByProductivity: 0 }, 1.2), 2 * 1.2 * 0.25);
  });
});
