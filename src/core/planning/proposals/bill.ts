// buildingBill: the whole machines a set of blocks needs (ceiling per machine and recipe in each
// block, then summed), with the same module fill as the drafts, and who makes each building item.
import { z } from 'zod';
import type { PlanningContext } from '../context';
import { placedBuildings } from '../factory/buildings';
import type { Project } from '../../db/project';
import { buildDraft, specFromSubmit, submitBlockInput, type BlockSupply, type Draft } from './draft';
import { planDraft, submitPlanInput } from './plan';

export const buildingBillInput = z
  .object({
    blocks: z.array(submitBlockInput).min(1).max(20).optional().describe('blocks drafted like submitBlock'),
    plan: submitPlanInput.optional().describe('or a whole plan as given to submitPlan (its "fromPlan" rates are sized first)'),
  })
  .refine((x) => (x.blocks === undefined) !== (x.plan === undefined), { message: 'give either blocks or plan' });

export interface BuildingBill {
  machines: Array<{ item: string | null; entity: string; display: string; count: number; producers: string[]; note?: string }>;
  skipped: Array<{ block: string; reason: string }>;
}

export async function buildingBill(ctx: PlanningContext, input: z.output<typeof buildingBillInput>, project?: Project, supply?: BlockSupply): Promise<BuildingBill> {
  if (input.plan) {
    if (!project) throw new Error('a plan is billed against a project');
    const plan = await planDraft(ctx, project, input.plan, supply);
    return billOf(ctx, [...plan.blocks, ...plan.updates]);
  }
  const drafts: Draft[] = [];
  for (const b of input.blocks!) drafts.push(await buildDraft(ctx, specFromSubmit(ctx, b)));
  return billOf(ctx, drafts);
}

/** Whole buildings of solved drafts; a draft that did not solve to something is skipped with the reason. */
export function billOf(ctx: PlanningContext, drafts: Draft[]): BuildingBill {
  const totals = new Map<string, number>();
  const skipped: BuildingBill['skipped'] = [];
  for (const d of drafts) {
    if (d.status !== 'optimal') {
      skipped.push({ block: d.name, reason: d.message ?? `the block is ${d.status}` });
      continue;
    }
    // An unknown recipe is dropped before solving and an unmade goal solves to zero rows: both come
    // back "optimal" yet would bill nothing for the block the model asked about.
    if (d.invalid.length || d.unmade.length) {
      const why = [
        ...(d.invalid.length ? [`invalid: ${d.invalid.join('; ')}`] : []),
        ...(d.unmade.length ? [`goals not met: ${d.unmade.map((u) => `${u.good} (${u.reason})`).join('; ')}`] : []),
      ];
      skipped.push({ block: d.name, reason: `${why.join('. ')}. Fix the block's recipe list and ask again.` });
      continue;
    }
    for (const x of placedBuildings(d.rows.map((r) => ({ recipe: r.recipe, machine: r.machine, buildings: r.buildings, beacons: r.beacons ?? [] })))) {
      totals.set(x.entity, (totals.get(x.entity) ?? 0) + x.count);
    }
  }
  const machines = [...totals]
    .map(([entity, count]) => {
      const m = ctx.g.machines.get(entity);
      const item = m?.item ?? ctx.g.beacons.get(entity)?.item ?? null;
      const producers = item ? ctx.g.producersOf(item).filter((r) => !ctx.g.recipes.get(r)!.synthetic).slice(0, 2) : [];
      return { item, entity, display: ctx.g.displayOf(entity), count, producers, ...(item ? {} : { note: 'no item places this entity' }) };
    })
    .sort((a, b) => b.count - a.count || a.entity.localeCompare(b.entity));
  return { machines, skipped };
}
