// Turning drafts into blocks through the normal save path: a block draft becomes one new block;
// a plan becomes all its new blocks plus its updates as ONE undoable action. Machines and modules
// the draft chose are kept. A stored draft (from a conversation or the pending proposals) is
// checked for its shape first, since it was written by an older run or read back from a file.
import { z } from 'zod';
import type { Project } from '../../db/project';
import { applyPlan, createBlock, getBlock, type BlockSolver } from '../factory/blocks';
import type { Draft } from './draft';
import type { PlanDraft } from './plan';
import type { RevisionDraft } from './revise';
import { balanceFactory } from '../factory/scenario/apply';
import type { ScenarioResult } from '../factory/scenario/scenario';

/** A factory balance proposal: the scenario result it applies. */
export type BalanceProposal = ScenarioResult & { kind: 'balance' };

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

export type ProposalKind = 'block' | 'update' | 'plan' | 'balance';

const draftShape = z.looseObject({ kind: z.enum(['block', 'update']), name: z.string().min(1), doc: z.looseObject({ goals: z.array(z.unknown()), recipes: z.array(z.unknown()) }) });
const revisionShape = draftShape.extend({ kind: z.literal('update'), updateBlockId: z.string().min(1), baseUpdatedAt: z.string().min(1) });
const planShape = z.looseObject({ kind: z.literal('plan'), title: z.string().min(1), blocks: z.array(draftShape), updates: z.array(revisionShape).default([]) });

export interface ApplyOutcome {
  label: string;
  created: string[];
  updated: string[];
}

/** A stored draft, checked and ready to apply. */
export interface ApplicableProposal {
  label: string;
  /** Solved and free of conflicts; otherwise `problem` says what needs attention. */
  ok: boolean;
  problem?: string;
  apply(p: Project, solve: BlockSolver): Promise<ApplyOutcome>;
}

const balanceShape = z.looseObject({ kind: z.literal('balance'), fingerprint: z.string().min(1), status: z.string(), goalChanges: z.array(z.looseObject({ blockId: z.string(), goalIndex: z.number(), next: z.number(), updatedAt: z.string() })) });

/** Check a stored draft of `kind`; a damaged one throws an error saying to draft it again. */
export function applicable(kind: ProposalKind, result: unknown): ApplicableProposal {
  if (kind === 'balance') {
    if (!balanceShape.safeParse(result).success) throw new Error('This factory balance proposal is damaged; ask for the factory to be balanced again.');
    const r = result as BalanceProposal;
    const label = 'Balance factory';
    return {
      label, ok: r.status === 'optimal', problem: r.status === 'optimal' ? undefined : `The factory scenario did not solve (${r.status}).`,
      apply: async (p, solve) => {
        const done = await balanceFactory(p, solve, r);
        return { label: done.label, created: done.created, updated: done.updated };
      },
    };
  }
  if (kind === 'plan') {
    if (!planShape.safeParse(result).success) throw new Error('This plan proposal is damaged (missing blocks or documents); ask for it to be drafted again.');
    const plan = result as PlanDraft;
    const label = `Apply plan "${plan.title}"`;
    return { label, ok: plan.ok, problem: plan.ok ? undefined : `The plan "${plan.title}" needs attention (unsolved blocks or TURD conflicts).`, apply: async (p, solve) => ({ label, ...(await applyPlanDraft(p, solve, plan)) }) };
  }
  if (kind === 'update') {
    if (!revisionShape.safeParse(result).success) throw new Error('This revision proposal is damaged; ask for it to be drafted again.');
    const d = result as RevisionDraft;
    const label = `Revise block "${d.name}"`;
    return { label, ok: d.ok, problem: d.ok ? undefined : `The revision of "${d.name}" is not solved (${d.status}).`, apply: async (p, solve) => ({ label, created: [], updated: [(await applyRevision(p, solve, d)).id] }) };
  }
  if (!draftShape.safeParse(result).success) throw new Error('This block proposal is damaged; ask for it to be drafted again.');
  const d = result as Draft;
  const label = `Create block "${d.name}"`;
  return { label, ok: d.ok, problem: d.ok ? undefined : `The block "${d.name}" is not solved (${d.status}).`, apply: async (p, solve) => ({ label, created: [(await applyBlockDraft(p, solve, d)).id], updated: [] }) };
}

/** Whether every block an apply created is gone again (undone or deleted): then it may be applied again. */
export function blocksGone(project: Project, created: readonly string[]): boolean {
  if (!created.length) return false;
  return created.every((id) => {
    try {
      getBlock(project, id);
      return false;
    } catch {
      return true;
    }
  });
}
