// buildingBill: the whole machines a set of blocks needs (ceiling per machine and recipe in each
// block, then summed), with the same module fill as the drafts, and who makes each building item.
import { z } from 'zod';
import type { PlanningContext } from '../context';
import { beaconsPlaced } from '../effects';
import { buildDraft, specFromSubmit, submitBlockInput } from './draft';

export const buildingBillInput = z.object({ blocks: z.array(submitBlockInput).min(1).max(20) });

export interface BuildingBill {
  machines: Array<{ item: string | null; entity: string; display: string; count: number; producers: string[]; note?: string }>;
  skipped: Array<{ block: string; reason: string }>;
}

export async function buildingBill(ctx: PlanningContext, input: z.output<typeof buildingBillInput>): Promise<BuildingBill> {
  const totals = new Map<string, number>();
  const skipped: BuildingBill['skipped'] = [];
  for (const b of input.blocks) {
    const spec = specFromSubmit(ctx, b);
    const d = await buildDraft(ctx, spec);
    if (d.status !== 'optimal') {
      skipped.push({ block: spec.name, reason: d.message ?? `the block is ${d.status}` });
      continue;
    }
    // An unknown recipe is dropped before solving and an unmade goal solves to zero rows: both come
    // back "optimal" yet would bill nothing for the block the model asked about.
    if (d.invalid.length || d.unmade.length) {
      const why = [
        ...(d.invalid.length ? [`invalid: ${d.invalid.join('; ')}`] : []),
        ...(d.unmade.length ? [`goals not met: ${d.unmade.map((u) => `${u.good} (${u.reason})`).join('; ')}`] : []),
      ];
      skipped.push({ block: spec.name, reason: `${why.join('. ')}. Fix the block's recipe list and ask again.` });
      continue;
    }
    for (const r of d.rows) {
      if (!r.machine || r.buildings <= 1e-9) continue;
      totals.set(r.machine, (totals.get(r.machine) ?? 0) + Math.ceil(r.buildings - 1e-6));
      for (const bc of r.beacons ?? []) {
        totals.set(bc.beacon, (totals.get(bc.beacon) ?? 0) + beaconsPlaced(bc, r.buildings));
      }
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
