// How a row's machine was chosen, told the same way by solves, drafts and calcRecipe, and one
// availability verdict for recipeInfo, recipeOptions and calcRecipe: a recipe whose machines cannot
// be built under the horizon is locked, and a machine used anyway carries a warning naming it and
// the technology that unlocks it (sample world technologies: fluid-handling unlocks refinery-unit,
// well-pump and refine-brine and costs basic-research-pack; advanced-pressing unlocks press-mk2).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Availability } from '../../../../src/core/planning/availability';
import { Project } from '../../../../src/core/db/project';
import { importGameData } from '../../../../src/core/gamedata/import';
import { planningContext } from '../../../../src/core/planning/context';
import { writeSettings, type PlanningSettings } from '../../../../src/core/planning/settings';
import { buildDraft, specFromSubmit, submitBlockInput } from '../../../../src/core/planning/proposals/draft';
import { solveBlock } from '../../../../src/core/planning/solver/solve';
import { parseBlockDoc } from '../../../../src/core/planning/block/document';
import { calcRecipe } from '../../../../src/core/planning/queries/calcRecipe';
import { recipeInfo } from '../../../../src/core/planning/queries/recipeInfo';
import { recipeOptions } from '../../../../src/core/planning/queries/recipeOptions';
import { SAMPLE_DUMP, requireSharedData, tempDir } from '../../../helpers/paths';
import { loadWorld, sampleWorld, type World } from './queries/world';

const NONE = { research_mode: 'now' as const, available_science_packs: [] };
const BASIC = { research_mode: 'now' as const, available_science_packs: ['basic-research-pack'] };

describe('machine choice and the recipe verdict', () => {
  let w: World;
  before(async () => {
    w = await sampleWorld();
  });

  describe('solves', () => {
    const solve = (settings: Partial<PlanningSettings>, recipes: Array<{ recipe: string; machine?: string }>) =>
      solveBlock(w.g, new Availability(w.g, w.state(settings)), parseBlockDoc({ goals: [{ good: 'solvent', rate: 1 }], recipes }));

    it('labels a default machine that cannot be built as none-buildable and warns with the unlocking technology', async () => {
      const r = await solve(NONE, [{ recipe: 'refine-brine' }]);
      const row = r.rows[0];
      assert.equal(row.machine, 'refinery-unit');
      assert.deepEqual(row.machineChoice, { rule: 'none-buildable', explanation: row.machineRule, buildable: false, needs: 'fluid-handling' });
      assert.match(row.machineRule, /not buildable yet — needs Fluid handling \[fluid-handling\]$/); // the text a review card shows
      assert.ok(r.warnings.some((x) => /Refinery \[refinery-unit\] is not buildable under the now horizon: it is unlocked by Fluid handling \[fluid-handling\]/.test(x)), r.warnings.join('\n'));
    });

    it('labels a named machine as the user\'s, warning only when it cannot be built', async () => {
      const named = await solve(NONE, [{ recipe: 'refine-brine', machine: 'refinery-unit' }]);
      assert.equal(named.rows[0].machineChoice.rule, 'user');
      assert.equal(named.rows[0].machineChoice.buildable, false);
      assert.ok(named.warnings.some((x) => /Refinery \[refinery-unit\] is not buildable/.test(x)));
      const ok = await solve(BASIC, [{ recipe: 'refine-brine', machine: 'refinery-unit' }]);
      assert.deepEqual(ok.rows[0].machineChoice, { rule: 'user', explanation: 'named for this row', buildable: true });
      assert.deepEqual(ok.warnings, []);
      const dflt = await solve(BASIC, [{ recipe: 'refine-brine' }]);
      assert.equal(dflt.rows[0].machineChoice.rule, 'fastest-buildable');
      assert.deepEqual(dflt.warnings, []);
    });
  });

  describe('modules and beacons', () => {
    // modules-1 (speed-module-s1) and beacons (beacon-tower) each cost basic and advanced research packs.
    const gears = (settings: Partial<PlanningSettings>) =>
      solveBlock(w.g, new Availability(w.g, w.state(settings)), parseBlockDoc({
        goals: [{ good: 'gear', rate: 1 }],
        recipes: [{ recipe: 'gear', machine: 'press', modules: [{ name: 'speed-module-s1', count: 1 }], beacons: [{ beacon: 'beacon-tower', count: 1, modules: [{ name: 'speed-module-s1', count: 1 }] }] }],
      }));

    it('warns once per row about modules and beacons the horizon cannot build, naming what unlocks each', async () => {
      const r = await gears(BASIC);
      const said = r.warnings.filter((x) => /not buildable under the now horizon/.test(x));
      assert.equal(said.length, 1, r.warnings.join('\n'));
      assert.match(said[0], /^Gear: /);
      assert.match(said[0], /\[speed-module-s1\] \(it is unlocked by .+ \[modules-1\], which needs advanced-research-pack\)/);
      assert.match(said[0], /\[beacon-tower\] \(it is unlocked by .+ \[beacons\], which needs advanced-research-pack\)/);
      assert.match(said[0], / are not buildable/);
    });

    it('says nothing once the packs that research them are produced', async () => {
      const r = await gears({ research_mode: 'now', available_science_packs: ['basic-research-pack', 'advanced-research-pack'] });
      assert.deepEqual(r.warnings.filter((x) => /not buildable/.test(x)), []);
    });
  });

  describe('drafts', () => {
    let dir: string;
    let p: Project;
    beforeEach(async () => {
      dir = tempDir();
      p = await Project.create(path.join(dir, 'd.pyops'));
      await importGameData(p, SAMPLE_DUMP);
    });
    afterEach(() => {
      p.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const draft = (input: unknown) => buildDraft(planningContext(p), specFromSubmit(planningContext(p), submitBlockInput.parse(input)));

    it('keep the first solve\'s account of a machine they pinned (not "user"), with the warning', async () => {
      writeSettings(p, NONE);
      const d = await draft({ target: 'solvent', rate: 1, recipes: ['refine-brine'] });
      const row = d.rows[0];
      assert.equal(d.doc.recipes[0].machine, 'refinery-unit', 'the draft pins the machine it sized');
      assert.equal(row.machineChoice.rule, 'none-buildable');
      assert.equal(row.machineChoice.needs, 'fluid-handling');
      assert.ok(d.warnings.some((x) => /Refinery \[refinery-unit\] is not buildable under the now horizon/.test(x)), d.warnings.join('\n'));
      writeSettings(p, BASIC);
      const b = await draft({ target: 'gear', rate: 1, recipes: ['gear'] });
      assert.equal(b.rows[0].machine, 'press');
      assert.equal(b.rows[0].machineChoice.rule, 'fastest-buildable');
      assert.deepEqual(b.warnings, []);
      const u = await draft({ target: 'gear', rate: 1, recipes: [{ recipe: 'gear', machine: 'press-mk2' }] });
      assert.equal(u.rows[0].machineChoice.rule, 'user');
      assert.equal(u.rows[0].machineChoice.needs, 'advanced-pressing');
      assert.ok(u.warnings.some((x) => /Press MK2 \[press-mk2\] is not buildable/.test(x)));
    });
  });

  describe('queries agree', () => {
    it('recipeInfo, recipeOptions and calcRecipe give one verdict on a recipe whose machine is not buildable', () => {
      // mine-brine-spring is enabled, but its only machine (well-pump) is unlocked by fluid-handling.
      const ctx = w.ctx(NONE);
      const info = recipeInfo(ctx, { recipe: 'mine-brine-spring' });
      // Enabled, so no research of its own: the machine and its technology are what it needs.
      const needs = { machine: { name: 'well-pump', research: 'fluid-handling', packs: ['basic-research-pack'] } };
      assert.equal(info.state, 'no-machine');
      assert.deepEqual(info.needs, needs);
      assert.equal(info.defaultMachine.rule, 'none-buildable');
      assert.deepEqual([info.defaultMachine.state, info.defaultMachine.needs], ['needs-research', { research: ['fluid-handling'], packs: ['basic-research-pack'] }]);
      const opt = recipeOptions(ctx, { good: 'brine' }).candidates.find((c) => c.recipe === 'mine-brine-spring')!;
      assert.deepEqual([opt.state, opt.needs], ['no-machine', needs]);
      const calc = calcRecipe(ctx, { recipe: 'mine-brine-spring' });
      assert.deepEqual([calc.recipeState, calc.recipeNeeds], ['no-machine', needs]);
      assert.equal(calc.machine.state, 'needs-research');
      assert.equal(calc.machine.rule, 'none-buildable');
      assert.match(calc.machine.warning!, /Well pump \[well-pump\] is not buildable under the now horizon/);
      // With basic packs all three say buildable (fluid-handling is researchable, not researched).
      const ok = w.ctx(BASIC);
      assert.equal(recipeInfo(ok, { recipe: 'mine-brine-spring' }).state, 'buildable');
      assert.equal(recipeOptions(ok, { good: 'brine' }).candidates.find((c) => c.recipe === 'mine-brine-spring')!.state, 'buildable');
      assert.equal(calcRecipe(ok, { recipe: 'mine-brine-spring' }).recipeState, 'buildable');
      assert.equal(calcRecipe(ok, { recipe: 'mine-brine-spring' }).machine.warning, undefined);
    });
  });

  describe('Py (py-hightech 2.0)', function () {
    let py: World;
    before(async function () {
      this.timeout(120_000);
      py = await loadWorld(requireSharedData(this, 'py-hightech-2.0-data-raw'));
    });

    it('automation-science-pack under Now without packs: no-machine, on a machine marked not buildable with its technology', () => {
      // Its own technology (automation-science-pack) costs no packs, so research is not the blocker;
      // every assembling machine's recipe is unlocked by a technology costing automation-science-pack
      // (assembling-machine-1: automation, assembling-machine-3: automation-3), which the player does not produce.
      const ctx = py.ctx(NONE);
      const info = recipeInfo(ctx, { recipe: 'automation-science-pack' });
      assert.equal(info.state, 'no-machine');
      assert.deepEqual(info.needs, {
        research: ['automation-science-pack'],
        machine: { name: 'assembling-machine-1', research: 'automation', packs: ['automation-science-pack'] },
      });
      // The drafted machine is the one nearest in research — the same one the verdict names — not the
      // fastest of the tree (assembling-machine-3 behind automation-3, which also needs logistic,
      // chemical and production science).
      assert.equal(info.defaultMachine.rule, 'none-buildable');
      assert.equal(info.defaultMachine.name, 'assembling-machine-1');
      assert.equal(info.defaultMachine.state, 'needs-research');
      assert.deepEqual(info.defaultMachine.needs!.research, ['automation']);
      assert.ok(info.defaultMachine.needs!.packs!.includes('automation-science-pack'));
      // Producing red science makes assembling-machine-1 (technology automation) buildable.
      const red = py.ctx({ research_mode: 'now', available_science_packs: ['automation-science-pack'] });
      const d = red.availability.defaultMachine('automation-science-pack');
      assert.deepEqual([d.machine!.name, d.rule, d.warning], ['assembling-machine-1', 'fastest-buildable', undefined]);
      assert.equal(red.availability.recipe('automation-science-pack').buildableNow, true);
      assert.deepEqual(recipeInfo(red, { recipe: 'automation-science-pack' }).state, 'buildable');
    });
  });

  describe('vanilla 2.0', function () {
    let va: World;
    before(async function () {
      this.timeout(120_000);
      va = await loadWorld(requireSharedData(this, 'vanilla-2.0-data-raw'));
    });

    it('iron-gear-wheel without packs: locked everywhere, drafted machine flagged with its technology', async () => {
      // The assemblers' recipes are unlocked by automation / automation-2 / automation-3, all costing
      // automation-science-pack; automation alone costs nothing else (automation-2 adds logistic
      // science), so the drafted machine is assembling-machine-1, the one the verdict names.
      const ctx = va.ctx(NONE);
      const info = recipeInfo(ctx, { recipe: 'iron-gear-wheel' });
      const needs = { machine: { name: 'assembling-machine-1', research: 'automation', packs: ['automation-science-pack'] } };
      assert.deepEqual([info.state, info.needs], ['no-machine', needs]);
      assert.deepEqual([info.defaultMachine.name, info.defaultMachine.rule, info.defaultMachine.needs?.research], ['assembling-machine-1', 'none-buildable', ['automation']]);
      const opt = recipeOptions(ctx, { good: 'iron-gear-wheel' }).candidates.find((c) => c.recipe === 'iron-gear-wheel')!;
      assert.deepEqual([opt.state, opt.needs], ['no-machine', needs]);
      const calc = calcRecipe(ctx, { recipe: 'iron-gear-wheel' });
      assert.equal(calc.recipeState, 'no-machine');
      assert.match(calc.machine.warning!, /\[assembling-machine-1\] is not buildable under the now horizon: it is unlocked by .* \[automation\]/);
      const solved = await solveBlock(va.g, ctx.availability, parseBlockDoc({ goals: [{ good: 'iron-gear-wheel', rate: 1 }], recipes: [{ recipe: 'iron-gear-wheel' }] }));
      assert.deepEqual(solved.rows[0].machineChoice, { rule: 'none-buildable', explanation: solved.rows[0].machineRule, buildable: false, needs: 'automation' });
      // Red science produced: assembling-machine-1 (automation) is the fastest buildable.
      const red = va.ctx({ research_mode: 'now', available_science_packs: ['automation-science-pack'] });
      assert.deepEqual([red.availability.defaultMachine('iron-gear-wheel').machine!.name, red.availability.defaultMachine('iron-gear-wheel').rule], ['assembling-machine-1', 'fastest-buildable']);
      assert.equal(recipeInfo(red, { recipe: 'iron-gear-wheel' }).state, 'buildable');
    });
  });
});
