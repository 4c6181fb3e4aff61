// Science block edits on the sample world, with every expected number worked out by hand from its
// dump records (not from the planner):
//   electronics        30 units × 1 basic pack,                 10 s/unit
//   fluid-handling     40 units × 1 basic pack,                 15 s/unit
//   advanced-research  50 units × 1 basic pack,                 15 s/unit
//   advanced-pressing  75 units × (1 basic + 1 advanced pack),  20 s/unit
//   (automation-basics is completed by a trigger), so advanced-pressing with its prerequisites takes
//   195 basic, 75 advanced packs and 3150 lab-seconds at research speed 1.
//   lab-unit: researching_speed 1, 60 kW electric, no drain, 2 module slots;
//   productivity-module-s1: +5 % productivity, −10 % speed, +50 % consumption.
import assert from 'node:assert/strict';
import { planningContext } from '../../../../../src/core/planning/context';
import { createBlock, getBlock, type BlockSolver } from '../../../../../src/core/planning/factory/blocks';
import { solveBlock } from '../../../../../src/core/planning/solver/solve';
import { applyScienceEdit, editScience } from '../../../../../src/core/planning/science/scienceEdit';
import { parseBlockDoc } from '../../../../../src/core/planning/block/document';
import { useSampleProject } from '../../../../helpers/sampleProject';

const near = (a: number | undefined, b: number, tol = 1e-9) => assert.ok(a !== undefined && Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} ≠ ${b}`);

describe('science block edits (sample world, by hand)', function () {
  this.timeout(60_000);
  const sample = useSampleProject({ each: true, horizon: 'future' });
  const solve: BlockSolver = (doc) => solveBlock(planningContext(sample.project).g, planningContext(sample.project).availability, doc);
  const science = (s: unknown) => parseBlockDoc({ science: s }).science!;

  it('derives the packs and labs from a technology with productivity modules in the labs', async () => {
    const p = sample.project;
    const id = await createBlock(p, solve, { name: 'Science', doc: { science: {} } });
    const pc = planningContext(p);
    let b = getBlock(p, id);
    const derived = await editScience(p, solve, id, { kind: 'derive', tech: 'advanced-pressing', minutes: 10 }, b.updatedAt, pc);
    assert.equal(derived.label, 'Research Advanced pressing in 10 min in "Science"');
    b = getBlock(p, id);
    const moduled = await editScience(p, solve, id, { kind: 'modules', modules: [{ name: 'productivity-module-s1', count: 2 }] }, b.updatedAt, pc);
    assert.equal(p.undoable()?.label, 'Set lab modules to 2 × Productivity module S1 in "Science"');
    const s = moduled.result!.science!;
    near(s.productivity, 0.1);
    near(s.labSpeed, 0.8);
    near(s.packs.find((x) => x.pack === 'basic-research-pack')!.rate, 195 / 1.1 / 600);
    near(s.packs.find((x) => x.pack === 'advanced-research-pack')!.rate, 75 / 1.1 / 600);
    near(s.labs, 3150 / 1.1 / 600 / 0.8);
    // 60 kW × (1 + 2 × 0.5) per lab.
    near(moduled.result!.powerW, 120_000 * (3150 / 1.1 / 600 / 0.8));
    assert.deepEqual(s.research!.techs.map((t) => t.tech), ['electronics', 'fluid-handling', 'advanced-research', 'advanced-pressing']);
    assert.ok(s.research!.skipped.some((x) => x.tech === 'automation-basics' && /trigger/.test(x.reason)));
    // Undo puts the modules back as they were.
    p.undo();
    assert.deepEqual(getBlock(p, id).doc.science!.modules, []);
  });

  it('switches to hand-set packs when a rate is edited, each pack keeping its lab time', async () => {
    const pc = planningContext(sample.project);
    const derived = science({ modules: [{ name: 'productivity-module-s1', count: 2 }], research: { tech: 'advanced-pressing', minutes: 10 } });
    const { science: next, label } = applyScienceEdit(pc.g, pc.availability, derived, { kind: 'pack-rate', pack: 'basic-research-pack', rate: 0.5 });
    assert.equal(label, 'Set Basic research pack to 0.5/s');
    assert.equal(next.research, undefined);
    const basic = next.packs.find((x) => x.pack === 'basic-research-pack')!;
    const adv = next.packs.find((x) => x.pack === 'advanced-research-pack')!;
    near(basic.rate, 0.5);
    near(basic.labSeconds, 3150 / 195);
    near(adv.rate, 75 / 1.1 / 600);
    near(adv.labSeconds, 3150 / 75);
    // The labs follow the pack that needs the most lab time (packs are given, so productivity no longer divides them).
    const r = await solveBlock(pc.g, pc.availability, parseBlockDoc({ science: next }));
    near(r.science!.labSecondsPerSecond, 0.5 * (3150 / 195));
    near(r.science!.labs, (0.5 * (3150 / 195)) / 0.8);
    assert.ok(r.warnings.some((w) => /Advanced research pack would run out first/.test(w)), r.warnings.join(' | '));
  });

  it('adds and removes packs, and refuses what is not a pack, a lab or a fit', () => {
    const pc = planningContext(sample.project);
    const s0 = science({ packs: [{ pack: 'basic-research-pack', rate: 0.2, labSeconds: 10 }] });
    const added = applyScienceEdit(pc.g, pc.availability, s0, { kind: 'pack-add', pack: 'advanced-research-pack', rate: 0.1 }).science;
    assert.deepEqual(added.packs.map((x) => x.pack), ['basic-research-pack', 'advanced-research-pack']);
    assert.deepEqual(applyScienceEdit(pc.g, pc.availability, added, { kind: 'pack-remove', pack: 'basic-research-pack' }).science.packs.map((x) => x.pack), ['advanced-research-pack']);
    assert.throws(() => applyScienceEdit(pc.g, pc.availability, s0, { kind: 'pack-add', pack: 'gear', rate: 1 }), /Gear is not a science pack/);
    assert.throws(() => applyScienceEdit(pc.g, pc.availability, s0, { kind: 'lab', lab: 'press' }), /Press is not a lab/);
    // The beacon tower transmits no productivity, and the lab has two slots.
    assert.throws(() => applyScienceEdit(pc.g, pc.availability, s0, { kind: 'modules', modules: [{ name: 'speed-module-s1', count: 3 }] }), /2 module slots, not 3/);
    assert.throws(
      () => applyScienceEdit(pc.g, pc.availability, s0, { kind: 'beacons', beacons: [{ beacon: 'beacon-tower', count: 1, modules: [{ name: 'productivity-module-s1', count: 1 }] }] }),
      /cannot go into Beacon tower/,
    );
    assert.throws(() => applyScienceEdit(pc.g, pc.availability, s0, { kind: 'research-minutes', minutes: 5 }), /derive it from a technology first/);
    const lab = applyScienceEdit(pc.g, pc.availability, s0, { kind: 'lab', lab: 'lab-unit' });
    assert.equal(lab.science.lab, 'lab-unit');
    assert.equal(applyScienceEdit(pc.g, pc.availability, lab.science, { kind: 'lab', lab: null }).science.lab, undefined);
  });

  it('refuses an edit made on an older version of the block, and a block that is not the science block', async () => {
    const p = sample.project;
    const pc = planningContext(p);
    const id = await createBlock(p, solve, { name: 'Science', doc: { science: { packs: [{ pack: 'basic-research-pack', rate: 0.2 }] } } });
    const old = getBlock(p, id).updatedAt;
    await editScience(p, solve, id, { kind: 'pack-rate', pack: 'basic-research-pack', rate: 0.4 }, old, pc);
    await assert.rejects(editScience(p, solve, id, { kind: 'pack-rate', pack: 'basic-research-pack', rate: 0.8 }, old, pc), /changed since the editor loaded it/);
    near(getBlock(p, id).doc.science!.packs[0].rate, 0.4);
    const gears = await createBlock(p, solve, { name: 'Gears', doc: { goals: [{ good: 'gear', rate: 1 }], recipes: [{ recipe: 'gear' }] } });
    await assert.rejects(editScience(p, solve, gears, { kind: 'lab', lab: null }, getBlock(p, gears).updatedAt, pc), /not the science block/);
  });
});

describe('science block edits: the prerequisites', function () {
  const sample = useSampleProject({ horizon: 'now' });
  it('keeps the research time when the prerequisites are left out', async () => {
    const pc = planningContext(sample.project);
    const s = science0();
    const next = applyScienceEdit(pc.g, pc.availability, s, { kind: 'research-prerequisites', on: false }).science;
    assert.deepEqual(next.research, { tech: 'advanced-pressing', minutes: 10, prerequisites: false });
    const r = await solveBlock(pc.g, pc.availability, parseBlockDoc({ science: next }));
    // advanced-pressing alone: 75 units × 20 s in 600 s on labs of speed 1.
    near(r.science!.labs, (75 * 20) / 600);
  });
  const science0 = () => parseBlockDoc({ science: { research: { tech: 'advanced-pressing', minutes: 10 } } }).science!;
});
