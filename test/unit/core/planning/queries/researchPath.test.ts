// researchPath on the sample world: prerequisite order, pruning of researched technologies, costs
// (count, count_formula, triggers), truncation keeping the nearest steps, TURD gates, resolution of
// recipes and goods, and the real researched set in every horizon.
import assert from 'node:assert/strict';
import { researchPath, techCost } from '../../../../../src/core/planning/queries/researchPath';
import { evalCountFormula } from '../../../../../src/core/planning/queries/formula';
import { QueryError } from '../../../../../src/core/planning/queries/errors';
import { loadWorld, sampleWorld, type World } from './world';
import { requireSharedData } from '../../../../helpers/paths';

describe('researchPath', () => {
  let w: World;
  before(async () => {
    w = await sampleWorld();
  });
  const path = (target: string, limit?: number, ...ctx: Parameters<World['ctx']>) => {
    const r = researchPath(w.ctx(...ctx), { target, limit });
    assert.equal(r.status, 'path', JSON.stringify(r));
    return r as Extract<typeof r, { status: 'path' }>;
  };

  it('lists the unresearched route in prerequisite order with unit × pack costs', () => {
    const r = path('beacons');
    assert.deepEqual(r.steps.map((s) => s.tech), ['automation-basics', 'electronics', 'fluid-handling', 'advanced-research', 'advanced-pressing', 'modules-1', 'beacons']);
    assert.deepEqual(r.steps[1].cost, { units: 30, packs: { 'basic-research-pack': 30 }, time: 300 });
    assert.equal(r.steps[0].cost.trigger, 'craft-item ferrite-plate ×20');
    assert.equal(r.totalCost.techs, 7);
    assert.deepEqual(r.totalCost.packs, { 'basic-research-pack': 445, 'advanced-research-pack': 325 });
    assert.equal(r.totalCost.triggers, 1);
    assert.deepEqual(r.missingPacks, ['advanced-research-pack', 'basic-research-pack']);
  });

  it('leaves out what is researched, in every horizon', () => {
    for (const mode of ['now', 'target', 'future'] as const) {
      const r = path('beacons', 40, { research_mode: mode, horizon_target: 'gear', available_science_packs: ['basic-research-pack'] }, ['automation-basics', 'electronics', 'fluid-handling']);
      assert.deepEqual(r.steps.map((s) => s.tech), ['advanced-research', 'advanced-pressing', 'modules-1', 'beacons'], mode);
      assert.deepEqual(r.missingPacks, ['advanced-research-pack']);
    }
  });

  it('keeps the steps nearest the target when truncated, and totals the whole path', () => {
    const r = path('beacons', 5);
    assert.deepEqual(r.steps.map((s) => s.tech), ['fluid-handling', 'advanced-research', 'advanced-pressing', 'modules-1', 'beacons']);
    assert.equal(r.stepsOmitted, 2);
    assert.equal(r.totalCost.techs, 7);
    assert.equal(r.totalCost.packs['basic-research-pack'], 445);
  });

  it('evaluates count_formula at the technology level', () => {
    assert.equal(techCost(w.g.technologies.get('gear-productivity-1')!).units, 100);
    assert.equal(evalCountFormula('100*L', 3), 300);
    assert.equal(evalCountFormula('(6500) + 2^L*1000', 2), 10500);
    assert.equal(evalCountFormula('2^3^2', 1), 512);
    assert.equal(evalCountFormula('-(L-4)*10+1.5e1', 2), 35);
    assert.equal(evalCountFormula('L +', 1), null);
    assert.equal(evalCountFormula('process.exit()', 1), null);
  });

  it('resolves a recipe or a good to the cheapest unlocking technology', () => {
    const viaRecipe = path('dense-circuit');
    assert.equal(viaRecipe.targetTech, 'advanced-pressing');
    assert.equal(viaRecipe.via, 'dense-circuit');
    // 'resin' names a recipe (making fresh resin) and a good: the recipe wins.
    assert.equal(path('resin').via, 'resin');
    const viaGood = path('naphtha');
    assert.equal(viaGood.targetTech, 'fluid-handling');
    assert.equal(viaGood.via, 'refine-brine');
    // catalyst comes from sift-sludge (electronics) or the salvage-press branch: the cheaper route wins.
    const c = path('catalyst');
    assert.equal(c.targetTech, 'electronics');
    assert.equal(c.via, 'sift-sludge');
    assert.deepEqual(c.alternateRoutes!.map((a) => a.tech), ['salvage-press']);
  });

  it('reports TURD gates instead of research steps for branch technologies', () => {
    const r = path('gear-tempered');
    assert.equal(r.targetTech, 'tempered-press');
    assert.deepEqual(r.turdGatesNeeded, [{ subTech: 'tempered-press', master: 'press-upgrade', state: 'pickable' }]);
    assert.ok(!r.steps.some((s) => s.tech.startsWith('turd-select') || s.tech === 'tempered-press'));
    assert.equal(r.steps.at(-1)!.tech, 'press-upgrade');
    const blocked = path('gear-tempered', 40, {}, [], { 'press-upgrade': 'lean-press' });
    assert.equal(blocked.turdGatesNeeded![0].state, 'blocked');
    assert.match(blocked.note!, /another branch selected/);
    const done = path('gear-tempered', 40, {}, ['automation-basics', 'electronics', 'fluid-handling', 'advanced-research', 'advanced-pressing', 'press-upgrade']);
    assert.deepEqual(done.steps, []);
    assert.match(done.note!, /only a TURD choice is left/);
  });

  it('says when nothing is left to research or no technology unlocks the target', () => {
    assert.equal(researchPath(w.ctx(), { target: 'ferrite-plate' }).status, 'alreadyUnlocked');
    assert.equal(researchPath(w.ctx({}, ['automation-basics', 'electronics']), { target: 'circuit' }).status, 'alreadyUnlocked');
    const none = researchPath(w.ctx(), { target: 'tailings-void' });
    assert.equal(none.status, 'alreadyUnlocked');
    assert.equal(researchPath(w.ctx(), { target: 'catalyst' }).status, 'path');
    assert.equal(researchPath(w.ctx(), { target: 'pyops-heat' }).status, 'no-tech');
    assert.throws(() => researchPath(w.ctx(), { target: 'beacon' }), (e: Error) => e instanceof QueryError && /did you mean/.test(e.message));
  });
});

describe('researchPath on a FactorioLab data set (no unit counts)', function () {
  this.timeout(120_000);
  let w: World;
  before(async function () {
    w = await loadWorld(requireSharedData(this, 'factoriolab-vanilla-2.0'));
  });

  it('gives the cost of one research unit and says so', () => {
    // data.json: the "automation" pseudo-recipe takes 1 automation-science-pack per unit, 10 s per unit.
    const r = researchPath(w.ctx(), { target: 'automation' });
    assert.equal(r.status, 'path');
    if (r.status !== 'path') return;
    const step = r.steps.find((s) => s.tech === 'automation')!;
    assert.deepEqual(step.cost, { units: null, packs: { 'automation-science-pack': 1 }, time: 10, perUnit: true });
    assert.match(r.note ?? '', /no research unit counts \(a FactorioLab data set\)/);
  });
});
