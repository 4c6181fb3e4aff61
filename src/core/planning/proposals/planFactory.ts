// A draft plan seen as part of the factory: the enabled blocks as they solve now, the plan's updates
// in place of the blocks they revise, and its new blocks added. The audit, the power summary and the
// plan's own balance then judge the factory as it would be once the plan is applied.
import type { Project } from '../../db/project';
import type { PlanningContext } from '../context';
import { solveBlock } from '../solver/solve';
import { listBlocks, projectionFlows, type BlockRecord } from '../factory/blocks';
import { factorySnapshot, type FactorySnapshot } from '../factory/fresh';
import { draftSolve, type Draft } from './draft';

/** Id of the plan's i-th new block in a snapshot (never a real block id). */
export const planBlockId = (i: number) => `plan:${i + 1}`;

export async function snapshotWithDrafts(project: Project, ctx: PlanningContext, plan: { blocks: Draft[]; updates: Array<Draft & { updateBlockId: string }> }): Promise<FactorySnapshot> {
  const solve = (doc: BlockRecord['doc']) => solveBlock(ctx.g, ctx.availability, doc);
  const base = await factorySnapshot(project, solve, listBlocks(project, { enabledOnly: true }));
  const updated = new Map(plan.updates.map((u) => [u.updateBlockId, u]));
  const now = new Date().toISOString();
  const entries: Array<{ id: string; draft: Draft; record: BlockRecord }> = [];
  for (const b of base.blocks) {
    const u = updated.get(b.id);
    if (u) entries.push({ id: b.id, draft: u, record: { ...b, doc: u.doc } });
  }
  plan.blocks.forEach((d, i) => {
    const id = planBlockId(i);
    entries.push({
      id, draft: d,
      record: { id, name: d.name, icon: null, doc: d.doc, enabled: true, order: base.blocks.length + i, groupId: null, createdAt: now, updatedAt: now, layout: null, cache: { status: d.status, powerW: d.powerW, pollutionPerMinute: d.pollutionPerMinute, diagnosis: null, fresh: true } },
    });
  });
  const drafted = new Set(entries.map((e) => e.id));
  const out: FactorySnapshot = {
    blocks: [...base.blocks.filter((b) => !updated.has(b.id)), ...entries.map((e) => e.record)],
    flows: base.flows.filter((f) => !drafted.has(f.block_id)),
    machines: base.machines.filter((m) => !drafted.has(m.block_id)),
    power: new Map([...base.power].filter(([id]) => !drafted.has(id))),
    resolved: [...base.resolved.filter((id) => !drafted.has(id)), ...drafted],
  };
  for (const { id, draft } of entries) {
    const r = draftSolve(draft);
    for (const f of projectionFlows(id, draft.doc, r)) out.flows.push(f);
    for (const row of r.rows) if (row.machine && row.buildings > 0) out.machines.push({ block_id: id, machine: row.machine, recipe: row.recipe, count: row.buildings });
    out.power.set(id, { powerW: r.powerW, status: r.status });
  }
  return out;
}
