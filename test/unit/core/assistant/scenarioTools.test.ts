// The whole-factory tools as a model and the hosts call them (runTool), on the sample world. From its
// dump: basic-research-pack takes 1 gear + 2 wire for 1 pack in 5 s; gear takes 2 ferrite-plate for 1
// gear; the technology `electronics` is 30 units of 1 basic pack at 10 s each, its prerequisite
// `automation-basics` costs nothing (a trigger). The lab-unit researches at speed 1, 60 kW.
import assert from 'node:assert/strict';
import { findTool } from '../../../../src/core/assistant/tools/registry';
import { runTool } from '../../../../src/core/assistant/tools/run';
import { importGameData } from '../../../../src/core/gamedata/import';
import { writeSettings } from '../../../../src/core/planning/settings';
import { SAMPLE_DUMP } from '../../../helpers/paths';
import { createBlock, getBlock, listBlocks, scienceBlock } from '../../../../src/core/planning/factory/blocks';
import { planningContext } from '../../../../src/core/planning/context';
import { solveBlock } from '../../../../src/core/planning/solver/solve';
import { applyPending, listPending } from '../../../../src/core/planning/proposals/pending';
import { tempProject, type TempProject } from './helpers';

const near = (a: number | undefined, b: number, tol = 1e-6) => assert.ok(a !== undefined && Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} ≠ ${b}`);

describe('whole-factory tools: researchPlan, factoryScenario, balanceFactory', () => {
  let tp: TempProject;
  const call = (name: string, input: unknown, caller: 'agent' | 'mcp' = 'agent') => runTool(findTool(name)!, input, { project: tp.project, caller });
  const solve = (doc: Parameters<typeof solveBlock>[2]) => solveBlock(planningContext(tp.project).g, planningContext(tp.project).availability, doc);
  let packs: string;
  let gears: string;
  beforeEach(async () => {
    tp = await tempProject('scenario-tools');
    await importGameData(tp.project, SAMPLE_DUMP);
    writeSettings(tp.project, { research_mode: 'future' });
    packs = await createBlock(tp.project, solve, { name: 'Basic packs', doc: { goals: [{ good: 'basic-research-pack', rate: 0.3 }], recipes: [{ recipe: 'basic-research-pack' }] } });
    gears = await createBlock(tp.project, solve, { name: 'Gears', doc: { goals: [{ good: 'gear', rate: 0.5 }], recipes: [{ recipe: 'gear' }] } });
  });
  afterEach(() => tp.cleanup());

  it('plans research: 30 units × 10 s of electronics in 5 minutes is 1 lab and 0.1 packs/s', async () => {
    const out = await call('researchPlan', { target: 'electronics', minutes: 5 });
    assert.equal(out.ok, true, JSON.stringify(out).slice(0, 400));
    const r = (out as { result: { labs: number; wholeLabs: number; packs: Array<{ pack: string; perSecond: number; total: number }>; research: Array<{ tech: string }>; skipped: Array<{ tech: string }> } }).result;
    near(r.packs.find((p) => p.pack === 'basic-research-pack')?.perSecond, 30 / 300);
    near(r.packs[0].total, 30);
    near(r.labs, (30 * 10) / 300);
    assert.equal(r.wholeLabs, 1);
    assert.deepEqual(r.research.map((x) => x.tech), ['electronics']);
    assert.ok(r.skipped.some((x) => x.tech === 'automation-basics'));
  });

  it('answers an unknown technology with not-found and names close ones', async () => {
    const out = await call('researchPlan', { target: 'electronix', minutes: 5 });
    assert.equal(out.ok, false);
    assert.equal((out as { code: string }).code, 'not-found');
    assert.match((out as { error: string }).error, /electronics/);
  });

  it('resizes the suppliers for a pin and keeps it a question (nothing saved)', async () => {
    const before = JSON.stringify(listBlocks(tp.project).map((b) => b.doc));
    const out = await call('factoryScenario', { pins: [{ good: 'basic-research-pack', rate: 1 }] });
    assert.equal(out.ok, true, JSON.stringify(out).slice(0, 400));
    const view = (out as { view: { goalChanges: { items: Array<{ blockId: string; next: number }> } } }).view;
    near(view.goalChanges.items.find((c) => c.blockId === packs)?.next, 1);
    // 1 pack/s takes 1 gear/s.
    near(view.goalChanges.items.find((c) => c.blockId === gears)?.next, 1);
    assert.equal(JSON.stringify(listBlocks(tp.project).map((b) => b.doc)), before);
  });

  it('proposes research in minutes as one balance the user applies: science block created, suppliers resized, one undo', async () => {
    const plan = (await call('researchPlan', { target: 'electronics', minutes: 5 })) as { result: { science: unknown } };
    const out = await call('balanceFactory', { science: plan.result.science }, 'mcp');
    assert.equal(out.ok, true, JSON.stringify(out).slice(0, 400));
    const pending = listPending(tp.project);
    assert.equal(pending.length, 1);
    assert.equal(pending[0].kind, 'balance');
    const applied = await applyPending(tp.project, solve, pending[0].id);
    assert.ok(applied);
    const sci = scienceBlock(tp.project)!;
    assert.ok(sci, 'the science block exists');
    assert.equal(sci.doc.science?.research?.tech, 'electronics');
    // From 0.3 and 0.5/s to what the labs take: 0.1 packs/s and the 0.1 gears/s they need.
    near(getBlock(tp.project, packs).doc.goals[0].rate, 0.1);
    near(getBlock(tp.project, gears).doc.goals[0].rate, 0.1);
    assert.match(tp.project.undoable()!.label, /Balance factory/);
    tp.project.undo();
    assert.equal(scienceBlock(tp.project), undefined);
  });
});
