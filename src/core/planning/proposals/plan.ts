// submitPlan: several new blocks and updates to existing ones as one plan card, checked for
// one-branch-per-TURD-master across the whole plan.
import { z } from 'zod';
import type { Project } from '../../db/project';
import type { PlanningContext } from '../context';
import { buildDraft, draftGoods, specFromSubmit, submitBlockInput, type BlockSupply, type Draft } from './draft';
import { reviseBlockInput, reviseDraft, type RevisionDraft } from './revise';

export const submitPlanInput = z.object({
  title: z.string().trim().min(1).max(120),
  objective: z.string().trim().min(1).max(2000).describe('what the plan achieves, in one or two sentences'),
  blocks: z.array(submitBlockInput).min(1).max(20),
  updates: z.array(reviseBlockInput).max(20).optional(),
  buildingMaterialsIncluded: z.boolean().default(false).describe('true when the plan also makes the buildings it needs'),
  notes: z.string().max(4000).optional(),
});

export interface PlanDraft {
  kind: 'plan';
  title: string;
  objective: string;
  ok: boolean;
  blocks: Draft[];
  updates: RevisionDraft[];
  buildingMaterialsIncluded: boolean;
  turd: { conflicts: Array<{ master: string; branches: string[] }>; picks: Array<{ master: string; branch: string; state: string }> };
  invalid: string[];
  notes?: string;
}

export async function planDraft(ctx: PlanningContext, project: Project, input: z.output<typeof submitPlanInput>, supply: BlockSupply = new Map()): Promise<PlanDraft> {
  // Blocks of the plan supply each other: their goals count as "from blocks" for the others.
  const planSupply = new Map(supply);
  for (const b of input.blocks) {
    const goods = draftGoods(b);
    for (const g of goods) planSupply.set(g, [...(planSupply.get(g) ?? []), b.name ?? `${ctx.g.displayOf(g)} (drafted)`]);
  }
  const blocks = await Promise.all(input.blocks.map((b) => buildDraft(ctx, specFromSubmit(ctx, b), withoutSelf(planSupply, b))));
  const updates = await Promise.all((input.updates ?? []).map((u) => reviseDraft(ctx, project, u, planSupply)));
  const all = [...blocks, ...updates];
  const byMaster = new Map<string, Set<string>>();
  const picks = new Map<string, { master: string; branch: string; state: string }>();
  for (const d of all) {
    for (const r of d.turd.requirements) {
      byMaster.set(r.master, (byMaster.get(r.master) ?? new Set()).add(r.branch));
      picks.set(`${r.master}\0${r.branch}`, { master: r.master, branch: r.branch, state: r.state });
    }
  }
  const conflicts = [...byMaster].filter(([, b]) => b.size > 1).map(([master, b]) => ({ master, branches: [...b].sort() }));
  const invalid = all.flatMap((d) => d.invalid.map((i) => `${d.name}: ${i}`));
  return {
    kind: 'plan', title: input.title, objective: input.objective,
    ok: all.every((d) => d.ok) && conflicts.length === 0,
    blocks, updates, buildingMaterialsIncluded: input.buildingMaterialsIncluded,
    turd: { conflicts, picks: [...picks.values()] }, invalid,
    ...(input.notes ? { notes: input.notes } : {}),
  };
}

function withoutSelf(supply: BlockSupply, b: z.output<typeof submitBlockInput>): BlockSupply {
  const own = new Set(draftGoods(b));
  const name = b.name;
  const out: BlockSupply = new Map();
  for (const [good, blocks] of supply) {
    const rest = own.has(good) && name ? blocks.filter((x) => x !== name) : own.has(good) ? blocks.slice(0, -1) : blocks;
    if (rest.length) out.set(good, rest);
  }
  return out;
}
