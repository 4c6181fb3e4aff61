// Drafts say what is left to research: each row names the technology that unlocks its recipe, its
// machine and its modules when the save has not researched it, and the draft and the plan list every
// such technology with its missing prerequisites as one path in research order with its science
// cost. Expected technologies and costs are read off the sample world's dump (unlocks, unit counts).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project } from '../../../../../src/core/db/project';
import { importGameData } from '../../../../../src/core/gamedata/import';
import { writeSettings, setResearched } from '../../../../../src/core/planning/settings';
import { findTool } from '../../../../../src/core/assistant/tools/registry';
import { runTool } from '../../../../../src/core/assistant/tools/run';
import { modelView } from '../../../../../src/core/assistant/tools/types';
import { researchSteps } from '../../../../../src/core/planning/queries/researchPath';
import type { Draft } from '../../../../../src/core/planning/proposals/draft';
import type { PlanDraft } from '../../../../../src/core/planning/proposals/plan';
import { SAMPLE_DUMP, tempDir } from '../../../../helpers/paths';
import { sampleWorld } from '../queries/world';

const raw = JSON.parse(fs.readFileSync(SAMPLE_DUMP, 'utf8'));
/** A technology's science from the dump: unit count × each ingredient's amount. */
const packsOf = (t: string): Record<string, number> =>
  Object.fromEntries(((raw.technology[t].unit?.ingredients ?? []) as Array<[string, number]>).map(([p, n]) => [p, n * raw.technology[t].unit.count]));
const unlockedBy = (recipe: string) => Object.keys(raw.technology).filter((t) => (raw.technology[t].effects ?? []).some((e: { recipe?: string }) => e.recipe === recipe));

describe('the research a draft still needs', () => {
  let dir: string;
  let p: Project;
  beforeEach(async () => {
    dir = tempDir('pyops-research-');
    p = await Project.create(path.join(dir, 'r.pyops'));
    await importGameData(p, SAMPLE_DUMP);
    // Now with the basic pack: the press (not the press-mk2) and no modules, unless a row names them.
    writeSettings(p, { research_mode: 'now', available_science_packs: ['basic-research-pack'] });
  });
  afterEach(() => {
    p.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const draft = async (tool: string, input: unknown) => {
    const o = await runTool(findTool(tool)!, input, { project: p, caller: 'agent' });
    assert.ok(o.ok, o.ok ? '' : o.error);
    return o as Extract<typeof o, { ok: true }>;
  };

  it("names per row the technologies of its recipe and machine, and lists the path with its science once", async () => {
    // circuit: electronics; wire: automation-basics; both run in the press, whose item automation-basics unlocks.
    assert.deepEqual(unlockedBy('circuit'), ['electronics']);
    assert.deepEqual(unlockedBy('wire'), ['automation-basics']);
    assert.deepEqual(unlockedBy('press'), ['automation-basics']);
    const o = await draft('submitBlock', { target: 'circuit', rate: 1, recipes: ['circuit', 'wire'] });
    const d = o.result as Draft;
    const row = (r: string) => d.rows.find((x) => x.recipe === r)!;
    assert.equal(row('circuit').machine, 'press');
    assert.deepEqual(row('circuit').research, { recipe: 'electronics', machine: 'automation-basics' });
    assert.deepEqual(row('wire').research, { recipe: 'automation-basics', machine: 'automation-basics' });
    // automation-basics is researched by a trigger (craft 20 ferrite plates), electronics with packs.
    assert.deepEqual(raw.technology['automation-basics'].research_trigger, { type: 'craft-item', item: 'ferrite-plate', count: 20 });
    assert.deepEqual(d.research, {
      steps: [
        { tech: 'automation-basics', packs: {}, trigger: 'craft-item ferrite-plate ×20' },
        { tech: 'electronics', packs: packsOf('electronics') },
      ],
      total: { techs: 2, packs: packsOf('electronics') },
    });
    const seen = modelView(o) as { rows: Array<{ recipe: string; research?: unknown }>; research: unknown };
    assert.deepEqual(seen.rows.find((r) => r.recipe === 'circuit')!.research, { recipe: 'electronics', machine: 'automation-basics' }, 'the model reads the row technologies');
    assert.deepEqual(seen.research, d.research);
  });

  it('says nothing once the save has researched it all', async () => {
    setResearched(p, ['automation-basics', 'electronics']);
    const d = (await draft('submitBlock', { target: 'circuit', rate: 1, recipes: ['circuit', 'wire'] })).result as Draft;
    assert.ok(d.rows.every((r) => r.research === undefined));
    assert.equal(d.research, undefined);
  });

  it('names the technology of each module and beacon a row uses, and their prerequisites join the path', async () => {
    assert.deepEqual(unlockedBy('speed-module-s1'), ['modules-1']);
    assert.deepEqual(unlockedBy('beacon-tower'), ['beacons']);
    setResearched(p, ['automation-basics', 'electronics']);
    writeSettings(p, { research_mode: 'future' });
    const d = (
      await draft('submitBlock', {
        target: 'circuit', rate: 1,
        recipes: [{ recipe: 'circuit', machine: 'press', modules: [{ name: 'speed-module-s1', count: 1 }], beacons: [{ beacon: 'beacon-tower', count: 1, modules: [{ name: 'speed-module-s1', count: 1 }] }] }, 'wire'],
      })
    ).result as Draft;
    const circuit = d.rows.find((r) => r.recipe === 'circuit')!;
    assert.deepEqual(circuit.research, { modules: ['modules-1', 'beacons'] });
    // beacons ← modules-1 ← advanced-pressing ← advanced-research ← fluid-handling ← electronics (researched)
    assert.deepEqual(d.research!.steps.map((s) => s.tech), ['fluid-handling', 'advanced-research', 'advanced-pressing', 'modules-1', 'beacons']);
    const total: Record<string, number> = {};
    for (const t of ['fluid-handling', 'advanced-research', 'advanced-pressing', 'modules-1', 'beacons']) for (const [k, n] of Object.entries(packsOf(t))) total[k] = (total[k] ?? 0) + n;
    assert.deepEqual(d.research!.total, { techs: 5, packs: total });
    assert.deepEqual(d.research!.missingPacks, ['advanced-research-pack'], 'the basic pack is produced, the advanced one is not');
  });

  it('gives a plan one research path over all its blocks; the model reads it once, each row still names its own', async () => {
    const o = await draft('submitPlan', {
      title: 'Circuits', objective: 'circuits from wire',
      blocks: [
        { name: 'Circuits', target: 'circuit', rate: 1, recipes: ['circuit'], subBlocksNeeded: ['wire'] },
        { name: 'Wire', target: 'wire', rate: 'fromPlan', recipes: ['wire'] },
      ],
    });
    const plan = o.result as PlanDraft;
    assert.deepEqual(plan.research!.steps.map((s) => s.tech), ['automation-basics', 'electronics']);
    assert.deepEqual(plan.blocks[1].research!.steps.map((s) => s.tech), ['automation-basics'], 'each draft keeps its own list for the cards');
    const seen = modelView(o) as { research: unknown; blocks: Array<{ research?: unknown; rows: Array<{ research?: unknown }> }> };
    assert.deepEqual(seen.research, plan.research);
    assert.ok(seen.blocks.every((b) => b.research === undefined), 'not repeated per block for the model');
    assert.deepEqual(seen.blocks[0].rows[0].research, { recipe: 'electronics', machine: 'automation-basics' });
  });

  describe('researchSteps', () => {
    it('joins several technologies into one research order and says which the horizon does not reach', async () => {
      const w = await sampleWorld();
      const ctx = w.ctx({ research_mode: 'now', available_science_packs: ['basic-research-pack'] }, ['automation-basics']);
      const r = researchSteps(ctx, ['advanced-research', 'electronics', 'advanced-pressing']);
      assert.deepEqual(r.steps.map((s) => s.tech), ['electronics', 'fluid-handling', 'advanced-research', 'advanced-pressing']);
      assert.equal(r.total.techs, 4);
      assert.deepEqual(r.missingPacks, ['advanced-research-pack'], 'advanced-pressing takes advanced packs');
      assert.deepEqual(r.outsideHorizon, ['advanced-pressing']);
      assert.equal(r.stepsOmitted, undefined);
    });
  });
});
