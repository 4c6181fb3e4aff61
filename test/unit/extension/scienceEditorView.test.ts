// What the science block editor shows, built from a real solve on the sample world. Expected numbers by
// hand from the dump (see test/unit/core/planning/science/scienceEdit.test.ts): advanced-pressing with
// its prerequisites is 195 basic and 75 advanced packs and 3150 lab-seconds; lab-unit researches at
// speed 1 and takes both packs; speed-module-s1 is +25 % speed.
import assert from 'node:assert/strict';
import { planningContext } from '../../../src/core/planning/context';
import { createBlock, getBlock, type BlockSolver } from '../../../src/core/planning/factory/blocks';
import { solveBlock } from '../../../src/core/planning/solver/solve';
import { scienceEditorView } from '../../../src/extension/scienceEditor/viewModel';
import { useSampleProject } from '../../helpers/sampleProject';

const near = (a: number | undefined, b: number, tol = 1e-9) => assert.ok(a !== undefined && Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} ≠ ${b}`);

describe('science block editor: the view', function () {
  this.timeout(60_000);

  describe('under Future', () => {
    const sample = useSampleProject({ each: true, horizon: 'future' });
    const solve: BlockSolver = (doc) => solveBlock(planningContext(sample.project).g, planningContext(sample.project).availability, doc);

    it('shows the research, the derived packs, the lab with the modules and beacons that fit it, and the result', async () => {
      const p = sample.project;
      const id = await createBlock(p, solve, { name: 'Science', doc: { science: { modules: [{ name: 'speed-module-s1', count: 2 }], research: { tech: 'advanced-pressing', minutes: 30 } } } });
      const b = getBlock(p, id);
      const ctx = planningContext(p);
      const v = scienceEditorView(ctx, b, await solve(b.doc), { undoLabel: 'Create block "Science"' });
      assert.equal(v.mode, 'research');
      assert.deepEqual(v.research, { tech: 'advanced-pressing', display: 'Advanced pressing', minutes: 30, prerequisites: true, researched: false });
      const basic = v.packs.find((x) => x.pack === 'basic-research-pack')!;
      near(basic.rate, 195 / 1800);
      near(basic.labSeconds!, 3150 / 195);
      assert.deepEqual(v.packOptions, [], 'both packs a lab takes are in use');
      assert.equal(v.lab.pinned, null);
      assert.equal(v.lab.current, 'lab-unit');
      assert.deepEqual(v.lab.options.map((o) => [o.name, o.refuses]), [['lab-unit', []]]);
      assert.equal(v.moduleSlots, 2);
      // Labs take productivity (the research pseudo recipe allows it); beacon towers transmit none.
      assert.ok(v.moduleOptions.includes('productivity-module-s1') && v.moduleOptions.includes('speed-module-s1'), v.moduleOptions.join(', '));
      assert.deepEqual(v.beaconOptions.sort(), ['beacon-tower', 'relay-beacon']);
      assert.ok(!v.beaconCatalog['beacon-tower'].modules.includes('productivity-module-s1'));
      assert.deepEqual(v.modules, [{ name: 'speed-module-s1', display: 'Speed module S1', count: 2 }]);
      const r = v.result!;
      near(r.labSpeed, 1.5);
      near(r.labs, 3150 / 1800 / 1.5);
      assert.equal(r.wholeLabs, Math.ceil(3150 / 1800 / 1.5));
      near(r.packs.find((x) => x.pack === 'advanced-research-pack')!.perSecond, 75 / 1800);
      assert.deepEqual(r.research!.techs.map((t) => t.tech), ['electronics', 'fluid-handling', 'advanced-research', 'advanced-pressing']);
      assert.deepEqual(r.research!.techs.at(-1)!.packs, [{ pack: 'basic-research-pack', display: 'Basic research pack', amount: 75 }, { pack: 'advanced-research-pack', display: 'Advanced research pack', amount: 75 }]);
      assert.equal(r.research!.totalUnits, 195);
      assert.match(r.research!.skipped.find((s) => s.tech === 'automation-basics')!.reason, /trigger/);
      assert.ok(!r.warnings.some((w) => w.includes('[automation-basics]')), 'a skipped technology is said once, in the skipped list');
      assert.equal(v.state, 'solved');
      assert.equal(v.undoLabel, 'Create block "Science"');
    });

    it('shows hand-set packs with their lab time (the typical one when none is set) and the packs still to add', async () => {
      const p = sample.project;
      const b = getBlock(p, await createBlock(p, solve, { name: 'Packs', enabled: false, doc: { science: { packs: [{ pack: 'basic-research-pack', rate: 0.5 }] } } }));
      const ctx = planningContext(p);
      const v = scienceEditorView(ctx, b, await solve(b.doc));
      assert.equal(v.mode, 'packs');
      assert.equal(v.research, null);
      // No lab time stored: the median of unit time ÷ amount over the ten technologies using the pack
      // (10, 15, 15, 20 and six of 30 s) is 30 s.
      near(v.packs[0].labSeconds!, 30);
      near(v.result!.labs, 0.5 * 30);
      assert.deepEqual(v.packOptions, [{ pack: 'advanced-research-pack', display: 'Advanced research pack' }]);
      assert.equal(v.state, 'disabled');
    });
  });

  describe('an empty science block', () => {
    const sample = useSampleProject({ horizon: 'now' });
    it('offers every pack and sizes no labs', async () => {
      const p = sample.project;
      const solve: BlockSolver = (doc) => solveBlock(planningContext(p).g, planningContext(p).availability, doc);
      const b = getBlock(p, await createBlock(p, solve, { name: 'Science', doc: { science: {} } }));
      const v = scienceEditorView(planningContext(p), b, await solve(b.doc));
      assert.equal(v.mode, 'packs');
      assert.deepEqual(v.packs, []);
      assert.deepEqual([v.result!.labs, v.result!.wholeLabs, v.result!.packs], [0, 0, []]);
      assert.deepEqual(v.packOptions.map((x) => x.pack), ['advanced-research-pack', 'basic-research-pack']);
      // Every lab takes "no packs": the fastest is picked, so its modules can be set already.
      assert.equal(v.lab.current, 'lab-unit');
      assert.equal(v.moduleSlots, 2);
      // Laboratory is buildable under Now here: the trigger technology that unlocks it needs no research.
      assert.deepEqual(v.lab.options.map((o) => [o.name, o.state, o.needs]), [['lab-unit', 'buildable', undefined]]);
    });
  });
});
