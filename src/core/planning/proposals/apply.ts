// Turning drafts into blocks through the normal save path: a block draft becomes one new block;
// a plan becomes all its new blocks plus its updates as ONE undoable action. Machines and modules
// the draft chose are kept.
import type { Project } from '../../db/project';
import { applyPlan, createBlock, type BlockSolver } from '../factory/blocks';
import type { Draft } from './draft';
import type { PlanDraft } from './plan';
import type { RevisionDraft } from './revise';

export async function applyBlockDraft(p: Project, solve: BlockSolver, d: Draft): Promise<{ id: string }> {
  const id = await createBlock(p, solve, { name: d.name, doc: d.doc }, `Create block "${d.name}"`);
  return { id };
}

export async function applyRevision(p: Project, solve: BlockSolver, d: RevisionDraft): Promise<{ id: string }> {
  await applyPlan(p, solve, { create: [], update: [{ id: d.updateBlockId, baseUpdatedAt: d.baseUpdatedAt, doc: d.doc }] }, `Revise block "${d.name}"`);
  return { id: d.updateBlockId };
}

export async function applyPlanDraft(p: Project, solve: BlockSolver, plan: PlanDraft): Promise<{ created: string[]; updated: string[] }> {
  return applyPlan(
    p,
    solve,
    {
      create: plan.blocks.map((b) => ({ name: b.name, doc: b.doc })),
      update: plan.updates.map((u) => ({ id: u.updateBlockId, baseUpdatedAt: u.baseUpdatedAt, doc: u.doc })),
    },
    `Apply plan "${plan.title}"`,
  );
}
