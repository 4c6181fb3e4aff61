// calcRecipe and recipeInfo on the sample world: per-building numbers, fuel, modules placed and
// rejected, beacons, auto-fill, an assumed TURD branch and buildings for a target rate.
import assert from 'node:assert/strict';
import { calcRecipe } from '../../../../../src/core/planning/queries/calcRecipe';
import { recipeInfo } from '../../../../../src/core/planning/queries/recipeInfo';
import { QueryError } from '../../../../../src/core/planning/queries/errors';
import { privateSampleWorld, sampleWorld, type World } from './world';

const NOW_BASIC = { research_mode: 'now' as const, available_science_packs: ['basic-research-pack'] };
const EARLY = ['automation-basics', 'electronics'];
const close = (a: number, b: number, eps = 1e-3) => assert.ok(Math.abs(a - b) <= eps * Math.max(1, Math.abs(b)), `${a} ≉ ${b}`);

describe('calcRecipe', () => {
  let w: World;
  before(async () => {
    w = await sampleWorld();
  });

  it('computes one building on the default machine and the buildings for a target rate', () => {
    const r = calcRecipe(w.ctx(NOW_BASIC, EARLY), { recipe: 'gear', targetRate: 3 });
    assert.equal(r.machine.name, 'press');
    assert.equal(r.machine.rule, 'fastest-buildable');
    assert.match(r.machine.text, /fastest buildable/);
    assert.equal(r.perBuilding.craftsPerSec, 1.2);
    assert.deepEqual(r.perBuilding.outputs, [{ good: 'gear', perSec: 1.2 }]);
    assert.deepEqual(r.perBuilding.inputs, [{ good: 'ferrite-plate', perSec: 2.4 }]);
    assert.equal(r.perBuilding.powerKW, 90);
    assert.equal(r.perBuilding.drainKW, 3);
    assert.equal(r.perBuilding.energy, 'electric');
    assert.equal(r.perBuilding.pollutionPerMin, 4);
    assert.deepEqual(r.target, { good: 'gear', rate: 3, perBuilding: 1.2, buildingsNeeded: 2.5, buildingsCeil: 3, totalPowerKW: 232.5 });
    assert.equal(r.effects.speedMult, 1);
  });

  it('adds the fuel of a burner to the inputs (and its burnt result to the outputs)', () => {
    const r = calcRecipe(w.ctx(NOW_BASIC), { recipe: 'azurite-plate' });
    assert.equal(r.machine.name, 'kiln');
    close(r.perBuilding.craftsPerSec, 1 / 3.2);
    assert.equal(r.perBuilding.fuel!.fuel, 'charcoal');
    close(r.perBuilding.fuel!.perSec, 112_500 / 2.2e6);
    assert.ok(r.perBuilding.inputs.some((i) => i.good === 'charcoal'));
    const l = calcRecipe(w.ctx(NOW_BASIC), { recipe: 'azurite-plate', fuel: 'lignite' });
    assert.deepEqual(l.perBuilding.outputs.map((o) => o.good), ['azurite-plate', 'ash']);
    assert.throws(() => calcRecipe(w.ctx(NOW_BASIC), { recipe: 'azurite-plate', fuel: 'gear' }), /cannot burn gear/);
  });

  it('draws fluid fuel in MJ for a fluid burner', () => {
    const r = calcRecipe(w.ctx({ research_mode: 'future' }), { recipe: 'azurite-plate', machine: 'naphtha-furnace' });
    assert.equal(r.machine.rule, 'user');
    assert.equal(r.machine.warning, undefined); // Future: every machine is buildable
    close(r.perBuilding.craftsPerSec, 2 / 3.2);
    assert.deepEqual(r.perBuilding.inputs.at(-1), { good: 'pyops-fluid-fuel', perSec: 0.18 });
  });

  it('places modules up to the slots, rejects the rest with reasons, and applies beacons, TURD and research', () => {
    const r = calcRecipe(w.ctx({ research_mode: 'future' }, [], { 'press-upgrade': 'tempered-press' }), {
      recipe: 'gear-tempered',
      modules: [{ name: 'productivity-module-s1', count: 9 }, { name: 'speed-module-s1', count: 1 }],
      beacons: [{ beacon: 'beacon-tower', count: 2, modules: [{ name: 'speed-module-s1', count: 2 }] }],
      targetRate: 10,
    });
    assert.equal(r.machine.name, 'press-mk2');
    assert.deepEqual(r.modulesPlaced, [{ name: 'productivity-module-s1', count: 4 }]);
    assert.deepEqual(r.rejectedModules!.map((x) => x.name), ['productivity-module-s1', 'speed-module-s1']);
    assert.deepEqual(r.turd.modulesApplied, ['tempered-press-module']);
    // speed: 4 × −10 % + TURD 20 % + 2 beacons × 2 × 25 % × 1.2 × 0.75 = 70 %
    assert.equal(r.effects.speedPct, 70);
    assert.equal(r.effects.researchProductivityPct, 10);
    assert.equal(r.effects.productivityPct, 30);
    assert.equal(r.effects.consumptionPct, 354);
    close(r.perBuilding.craftsPerSec, (1.1 * 1.7) / 0.8);
    close(r.perBuilding.outputs[0].perSec, ((1.1 * 1.7) / 0.8) * 2 * 1.3);
    assert.equal(r.perBuilding.beaconKW, 800);
    close(r.target!.buildingsNeeded, 10 / (((1.1 * 1.7) / 0.8) * 2 * 1.3));
    assert.equal(r.target!.buildingsCeil, 2);
  });

  it('fills modules with the auto-fill suggestion when asked and no modules are given', () => {
    const r = calcRecipe(w.ctx({ research_mode: 'future' }), { recipe: 'refine-brine', fill: true, targetRate: 10 });
    assert.equal(r.fill!.strategy, 'productivity');
    assert.equal(r.fill!.applied, true);
    assert.deepEqual(r.modulesPlaced, [{ name: 'productivity-module-s1', count: 3 }]);
    // Sized for speed-module-s1 (+25 %); the stronger speed-module-s2 is excluded here.
    const sized = calcRecipe(w.ctx({ research_mode: 'future', exclusions: ['speed-module-s2'] }), { recipe: 'press', fill: true, targetRate: 2.75 });
    assert.equal(sized.machine.name, 'press-mk2');
    assert.deepEqual(sized.modulesPlaced, [{ name: 'speed-module-s1', count: 1 }, { name: 'efficiency-module-s1', count: 3 }]);
    const given = calcRecipe(w.ctx({ research_mode: 'future' }), { recipe: 'refine-brine', fill: true, modules: [{ name: 'speed-module-s1', count: 1 }] });
    assert.equal(given.fill!.applied, false);
    assert.deepEqual(given.modulesPlaced, [{ name: 'speed-module-s1', count: 1 }]);
  });

  it('assumes a TURD branch in place of its master’s selection', () => {
    const r = calcRecipe(w.ctx({ research_mode: 'future' }, [], { 'press-upgrade': 'lean-press' }), { recipe: 'gear', machine: 'press', turd: 'tempered-press' });
    assert.deepEqual(r.turd, { assumedBranch: 'tempered-press', modulesApplied: ['tempered-press-module'] });
    assert.equal(r.effects.speedPct, 20);
    assert.throws(() => calcRecipe(w.ctx(), { recipe: 'gear', turd: 'tempered' }), /no TURD branch named 'tempered'.*call turdChoices/);
  });

  it('flags productivity at the recipe cap and counts mining with the drill speed', async () => {
    const m = calcRecipe(w.ctx({ research_mode: 'future' }), { recipe: 'mine-azurite-ore' });
    assert.equal(m.machine.name, 'digger');
    assert.equal(m.perBuilding.craftsPerSec, 0.5);
    assert.equal(m.effects.researchProductivityPct, 10);
    assert.equal(m.effects.productivityCapped, undefined);
    const pw = await privateSampleWorld();
    pw.g.recipes.get('circuit')!.maxProductivity = 0.1;
    const capped = calcRecipe(pw.ctx({ research_mode: 'future' }), { recipe: 'circuit', modules: [{ name: 'productivity-module-s1', count: 4 }] });
    assert.equal(capped.effects.productivityPct, 10);
    assert.equal(capped.effects.productivityCapped, true);
  });

  it('explains a machine that cannot run the recipe, unknown modules and products', () => {
    assert.throws(() => calcRecipe(w.ctx(), { recipe: 'gear', machine: 'kiln' }), (e: Error) => e instanceof QueryError && /cannot run recipe gear; machines for gear: press, press-mk2/.test(e.message));
    assert.throws(() => calcRecipe(w.ctx(), { recipe: 'gear', modules: [{ name: 'speed-module', count: 1 }] }), /did you mean speed-module-s1/);
    assert.throws(() => calcRecipe(w.ctx(), { recipe: 'gear', targetRate: 1, targetGood: 'wire' }), /does not make wire/);
    assert.throws(() => calcRecipe(w.ctx(), { recipe: 'burn-lignite' }), /no machine can run/);
  });
});

describe('recipeInfo', () => {
  let w: World;
  before(async () => {
    w = await sampleWorld();
  });

  it('describes machines with availability, power and fitting modules, and the default rule', () => {
    const r = recipeInfo(w.ctx(NOW_BASIC, EARLY), { recipe: 'circuit' });
    assert.equal(r.craftingTime, 1);
    assert.deepEqual(r.machines.map((m) => [m.name, m.state]), [['press-mk2', 'needs-research'], ['press', 'unlocked']]);
    assert.deepEqual(r.machines[0].needs, { research: ['advanced-pressing'], packs: ['advanced-research-pack'] });
    assert.equal(r.state, 'unlocked');
    assert.equal(r.machines[1].kW, 90);
    // speed-module-s2 fits although press-mk2 allows no quality: only its penalty is quality.
    assert.deepEqual(r.machines[1].fittingModules, ['speed-module-s1', 'productivity-module-s1', 'efficiency-module-s1', 'speed-module-s2']);
    assert.equal(r.defaultMachine.name, 'press');
    assert.equal(r.prod.allowed, true);
    assert.equal(r.prod.maxPct, 300);
    assert.deepEqual(r.unlocks, [{ tech: 'electronics', display: 'Electronics', science: ['basic-research-pack'] }]);
    assert.deepEqual(r.turd.replacedBy, [{ master: 'press-upgrade', branch: 'lean-press', recipe: 'circuit-lean', selected: false }]);
    assert.equal(r.fuel, null);
  });

  it('lists fuels of a burner default machine, spoiling products and TURD relations', () => {
    const k = recipeInfo(w.ctx(NOW_BASIC), { recipe: 'ferrite-plate' });
    assert.deepEqual(k.fuel, [{ fuel: 'charcoal', ash: null, mj: 2.2 }, { fuel: 'lignite', ash: 'ash', mj: 3.5 }]);
    const resin = recipeInfo(w.ctx(), { recipe: 'resin' });
    assert.deepEqual(resin.spoils, [{ good: 'fresh-resin', into: 'resin', seconds: 300, mustBeLocal: false }]);
    const t = recipeInfo(w.ctx({ research_mode: 'future' }), { recipe: 'gear-tempered' });
    assert.deepEqual(t.turd.grantedBy, { master: 'press-upgrade', branch: 'tempered-press', state: 'pickable' });
    assert.deepEqual(t.turd.replaces, [{ branch: 'tempered-press', recipe: 'gear' }]);
    assert.deepEqual(t.unlocks[0].turd, { master: 'press-upgrade', branch: 'tempered-press' });
    assert.deepEqual(t.unlocks[0].science, ['basic-research-pack', 'advanced-research-pack']);
  });
});
