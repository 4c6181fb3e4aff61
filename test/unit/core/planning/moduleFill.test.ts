// Module auto-fill on the sample world: the unlocked, fitting pool per horizon; productivity
// everywhere it is allowed; speed modules only where they save a whole building (1 % hysteresis),
// efficiency in the other slots; idle and mining rows. On the FactorioLab Py set: farms get their
// own modules, and say when they run bare.
import assert from 'node:assert/strict';
import { Availability } from '../../../../src/core/planning/availability';
import { bareFarmWarning, farmModules, isFarmModule, modulePool, suggestModules } from '../../../../src/core/planning/moduleFill';
import { loadWorld, sampleWorld, type World } from './queries/world';
import { requireSharedData } from '../../../helpers/paths';

const ALL_RESEARCH = ['automation-basics', 'electronics', 'fluid-handling', 'advanced-research', 'advanced-pressing', 'modules-1', 'beacons'];

describe('module auto-fill', () => {
  let w: World;
  before(async () => {
    w = await sampleWorld();
  });
  const R = (n: string) => w.g.recipes.get(n)!;
  const M = (n: string) => w.g.machines.get(n)!;
  // The sizing cases below are worked out for speed-module-s1 (+25 %); speed-module-s2 is excluded
  // there and has its own case.
  const future = () => new Availability(w.g, w.state({ research_mode: 'future', exclusions: ['speed-module-s2'] }));
  // press (recipe) on press-mk2: craft time 1 s, speed 1.1, 4 slots, no productivity allowed.
  const pressRow = (buildings: number) => ({ recipe: R('press'), machine: M('press-mk2'), craftsPerSec: (buildings * 1.1) / 1 });

  it('draws the pool from unlocked, fitting, visible modules under the horizon', () => {
    const now = new Availability(w.g, w.state({ research_mode: 'now', available_science_packs: ['basic-research-pack'] }));
    assert.deepEqual(modulePool(w.g, now, R('circuit'), M('press-mk2')), []);
    const researched = new Availability(w.g, w.state({ research_mode: 'now' }, ALL_RESEARCH));
    assert.deepEqual(modulePool(w.g, researched, R('circuit'), M('press-mk2')).map((m) => m.name).sort(), ['efficiency-module-s1', 'productivity-module-s1', 'speed-module-s1']);
    assert.deepEqual(modulePool(w.g, researched, R('press'), M('press-mk2')).map((m) => m.name).sort(), ['efficiency-module-s1', 'speed-module-s1']);
    const target = new Availability(w.g, w.state({ research_mode: 'target', horizon_target: 'speed-module-s1' }));
    assert.deepEqual(modulePool(w.g, target, R('circuit'), M('press-mk2')).length, 3);
    const excluded = new Availability(w.g, w.state({ research_mode: 'future', exclusions: ['speed-module-s1'] }));
    assert.ok(!modulePool(w.g, excluded, R('circuit'), M('press-mk2')).some((m) => m.name === 'speed-module-s1'));
  });

  it('puts the best productivity module in every slot where productivity is allowed', () => {
    const s = suggestModules(w.g, future(), { recipe: R('circuit'), machine: M('press-mk2'), craftsPerSec: 3 });
    assert.equal(s.strategy, 'productivity');
    assert.deepEqual(s.modules, [{ name: 'productivity-module-s1', count: 4 }]);
  });

  it('uses the fewest speed modules that reach the all-speed building count, efficiency elsewhere', () => {
    // 2.5 buildings bare; all four speed modules give 2.5/2 = 1.25 → floor 2; one module gives 2.0.
    const s = suggestModules(w.g, future(), pressRow(2.5));
    assert.equal(s.strategy, 'speed+efficiency');
    assert.deepEqual(s.modules, [{ name: 'speed-module-s1', count: 1 }, { name: 'efficiency-module-s1', count: 3 }]);
    assert.equal(s.buildingsWithout, 2.5);
    assert.equal(s.buildingsWith, 2);
  });

  it('accepts a building count within 1 % of the floor (hysteresis)', () => {
    // 2.52 bare: one speed module gives 2.016 buildings, within 1 % of the floor of 2.
    const s = suggestModules(w.g, future(), pressRow(2.52));
    assert.deepEqual(s.modules, [{ name: 'speed-module-s1', count: 1 }, { name: 'efficiency-module-s1', count: 3 }]);
    // 2.6 bare: one gives 2.08 (over 2.02), two give 2.6/1.5 = 1.733 → two speed modules.
    const t = suggestModules(w.g, future(), pressRow(2.6));
    assert.deepEqual(t.modules, [{ name: 'speed-module-s1', count: 2 }, { name: 'efficiency-module-s1', count: 2 }]);
  });

  it('fills with a speed module whose quality penalty the machine does not allow (the penalty is dropped)', () => {
    // press-mk2 allows no quality effect; speed-module-s2 (+40 % speed, −10 % quality) still fits.
    // 2.5 bare: all four give 2.5/2.6 = 0.96 → floor 1; k = 2 gives 2.5/1.8 = 1.39, k = 3 gives 2.5/2.2 = 1.136, k = 4 → 0.96.
    const all = new Availability(w.g, w.state({ research_mode: 'future' }));
    assert.ok(modulePool(w.g, all, R('press'), M('press-mk2')).some((m) => m.name === 'speed-module-s2'));
    const s = suggestModules(w.g, all, pressRow(2.5));
    assert.deepEqual(s.modules, [{ name: 'speed-module-s2', count: 4 }]);
    assert.equal(s.buildingsWith, 0.9615);
  });

  it('fills only efficiency when speed cannot save a building', () => {
    // 0.9 bare: all speed gives 0.45 → floor 1 → no speed module needed.
    const s = suggestModules(w.g, future(), pressRow(0.9));
    assert.equal(s.strategy, 'efficiency');
    assert.deepEqual(s.modules, [{ name: 'efficiency-module-s1', count: 4 }]);
  });

  it('keeps beacons in the base speed of the row', () => {
    // beacons add +0.9 speed (bs = 1.9): 2.5 bare-machine buildings become 2.5/1.9 = 1.316 → floor of all-speed 0.86 → 1.
    const beacons = [{ beacon: 'beacon-tower', count: 2, modules: [{ name: 'speed-module-s1', count: 2 }] }];
    const s = suggestModules(w.g, future(), { ...pressRow(2.5), beacons });
    assert.deepEqual(s.modules, [{ name: 'speed-module-s1', count: 3 }, { name: 'efficiency-module-s1', count: 1 }]);
  });

  it('fills an idle row with efficiency only', () => {
    const s = suggestModules(w.g, future(), { recipe: R('press'), machine: M('press-mk2') });
    assert.equal(s.strategy, 'efficiency');
    assert.deepEqual(s.modules, [{ name: 'efficiency-module-s1', count: 4 }]);
  });

  it('falls back to all efficiency without a speed module, and to nothing without modules', () => {
    const noSpeed = new Availability(w.g, w.state({ research_mode: 'future', exclusions: ['speed-module-s1', 'speed-module-s2'] }));
    assert.deepEqual(suggestModules(w.g, noSpeed, pressRow(2.5)).modules, [{ name: 'efficiency-module-s1', count: 4 }]);
    const none = new Availability(w.g, w.state({ research_mode: 'now' }));
    const s = suggestModules(w.g, none, pressRow(2.5));
    assert.equal(s.strategy, 'none');
    assert.deepEqual(s.modules, []);
  });

  it('leaves mining rows alone unless autofill_miners is on', () => {
    const row = { recipe: R('mine-azurite-ore'), machine: M('digger'), craftsPerSec: 1 };
    const off = suggestModules(w.g, future(), row);
    assert.equal(off.strategy, 'none');
    // No tool, command or VS Code setting changes autofill_miners, so the note points at the row instead.
    assert.doesNotMatch(off.reason, /autofill_miners|setting/);
    const on = new Availability(w.g, w.state({ research_mode: 'future', autofill_miners: true }));
    assert.deepEqual(suggestModules(w.g, on, row).modules, [{ name: 'productivity-module-s1', count: 2 }]);
  });

  it('suggests nothing for machines without slots', () => {
    assert.equal(suggestModules(w.g, future(), { recipe: R('azurite-plate'), machine: M('kiln'), craftsPerSec: 1 }).strategy, 'none');
  });
});

describe('module auto-fill on vanilla 2.0', function () {
  let w: World;
  before(async function () {
    w = await loadWorld(requireSharedData(this, 'vanilla-2.0-data-raw'));
  });

  it('offers speed modules (−quality) to machines that allow no quality, like the game', () => {
    const a = new Availability(w.g, w.state({ research_mode: 'future' }));
    for (const [recipe, machine] of [['advanced-oil-processing', 'oil-refinery'], ['rocket-part', 'rocket-silo']]) {
      const pool = modulePool(w.g, a, w.g.recipes.get(recipe)!, w.g.machines.get(machine)!).map((m) => m.name);
      assert.ok(pool.includes('speed-module-3'), `${machine}: ${pool.join(', ')}`);
    }
  });
});

describe('module auto-fill for Py farms (FactorioLab pysalf)', function () {
  this.timeout(120_000);
  let w: World;
  before(async function () {
    w = await loadWorld(requireSharedData(this, 'factoriolab-pysalf'));
  });
  const R = (n: string) => w.g.recipes.get(n)!;
  const M = (n: string) => w.g.machines.get(n)!;
  const moss = () => ({ recipe: R('Moss 1'), machine: M('moss-farm-mk01'), craftsPerSec: 0.1 });

  it("knows a farm by its own family of speed modules, not by the game's speed modules", () => {
    // data.json: moss +1/+2/+3/+4 speed (limitation "moss"); speed-module-3 +1 speed (limitation "speed-module").
    assert.ok(isFarmModule(w.g.modules.get('moss-mk04')!));
    assert.ok(!isFarmModule(w.g.modules.get('speed-module-3')!));
    // TURD module effects without speed (hd-moss-module: +150 % consumption) are not farm modules.
    assert.ok(!isFarmModule(w.g.modules.get('hd-moss-module')!));
    assert.deepEqual(farmModules(w.g, R('Moss 1'), M('moss-farm-mk01')).map((m) => [m.name, m.effects.speed]), [['moss-mk04', 4], ['moss-mk03', 3], ['moss-mk02', 2], ['moss', 1]]);
    assert.deepEqual(farmModules(w.g, R('automation-science-pack'), M('assembling-machine-2')), []);
  });

  it('fills every slot with the fastest unlocked farm module', () => {
    // Researched moss-mk01 unlocks "Moss 1", whose product is the moss module; moss-mk02 is not researched.
    const now = new Availability(w.g, w.state({ research_mode: 'now' }, ['moss-mk01']));
    const s = suggestModules(w.g, now, moss());
    assert.equal(s.strategy, 'farm');
    assert.deepEqual(s.modules, [{ name: 'moss', count: 15 }]);
    assert.match(s.reason, /Moss farm MK 01 takes its speed from farm modules: every slot gets Moss/);
  });

  it('says a farm runs at its bare speed when none of its modules is unlocked', () => {
    const none = new Availability(w.g, w.state({ research_mode: 'now' }));
    const s = suggestModules(w.g, none, moss());
    assert.notEqual(s.strategy, 'farm');
    assert.deepEqual(s.modules, []);
    assert.match(s.reason, /none of the farm modules of Moss farm MK 01 \(Moss MK 04, Moss MK 03, Moss MK 02, …\) is unlocked, so it runs at its bare speed 0\.0625/);
  });

  it('warns on a farm row without farm modules, and only there', () => {
    assert.match(bareFarmWarning(w.g, R('Moss 1'), M('moss-farm-mk01'), [])!, /^Moss: Moss farm MK 01 holds none of its farm modules/);
    assert.equal(bareFarmWarning(w.g, R('Moss 1'), M('moss-farm-mk01'), [{ name: 'moss', count: 1 }]), undefined);
    assert.equal(bareFarmWarning(w.g, R('automation-science-pack'), M('assembling-machine-2'), []), undefined);
  });

  it('tells a farm whose modules are all locked that they are, instead of to place them', () => {
    // Nothing researched: no moss module can be made yet; with moss-mk01 researched "Moss 1" makes one.
    const none = new Availability(w.g, w.state({ research_mode: 'now' }));
    assert.match(bareFarmWarning(w.g, R('Moss 1'), M('moss-farm-mk01'), [], none)!, /bare speed 0\.0625; none of them is unlocked under the now horizon yet\.$/);
    const some = new Availability(w.g, w.state({ research_mode: 'now' }, ['moss-mk01']));
    assert.match(bareFarmWarning(w.g, R('Moss 1'), M('moss-farm-mk01'), [], some)!, /bare speed 0\.0625; put them in its 15 module slots\.$/);
  });
});
