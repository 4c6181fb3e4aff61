// How far a locked recipe is from the player: the technology that unlocks it (or its machine) with
// the fewest science packs left to research. recipeGraph names it in a good's locked line, and
// pickers list locked recipes nearest first.
import { MACHINELESS_KINDS } from '../availability';
import type { PlanningContext } from '../context';
import type { Recipe } from '../gameIndex';
import { unlockPacks } from './researchPath';

export interface Unlock {
  tech: string;
  packs: number;
  machine?: string;
}

/** The unresearched technology that unlocks a recipe most cheaply: its own, or else its machine's. */
export function cheapestUnlock(ctx: PlanningContext, recipe: Recipe): Unlock | null {
  const a = ctx.availability;
  const best = (techs: readonly string[], machine?: string): Unlock | null => {
    let out: Unlock | null = null;
    for (const t of techs) {
      const packs = unlockPacks(ctx, t);
      if (packs > 0 && (!out || packs < out.packs || (packs === out.packs && t < out.tech))) out = { tech: t, packs, ...(machine ? { machine } : {}) };
    }
    return out;
  };
  const own = best(recipe.unlockedBy);
  if (own) return own;
  let out: Unlock | null = null;
  for (const m of ctx.g.machinesFor(recipe)) {
    const av = a.machine(m.name);
    if (a.isExcluded(m.name) || (a.mode === 'now' ? av.buildableNow : av.availableNow)) continue;
    for (const r of av.madeBy) {
      const u = best(ctx.g.recipes.get(r)!.unlockedBy, m.name);
      if (u && (!out || u.packs < out.packs || (u.packs === out.packs && u.tech < out.tech))) out = u;
    }
  }
  return out;
}

/** Science packs left before a recipe can run: the larger of its own cheapest unlock and its
 *  machine's (0 for what is already researched or needs no research). */
export function unlockDistance(ctx: PlanningContext, recipe: Recipe): number {
  const a = ctx.availability;
  const research = a.recipe(recipe.name).research;
  // No technology unlocks a recipe that is not enabled: it is as far as can be.
  const own = research === 'enabled' || research === 'researched' ? 0 : recipe.unlockedBy.length ? cheapest(ctx, recipe.unlockedBy) : Infinity;
  if (MACHINELESS_KINDS.has(recipe.kind)) return own;
  let machine = Infinity;
  for (const m of ctx.g.machinesFor(recipe)) {
    if (a.isExcluded(m.name)) continue;
    const av = a.machine(m.name);
    if (a.mode === 'now' ? av.buildableNow : av.availableNow) return own;
    for (const r of av.madeBy) machine = Math.min(machine, cheapest(ctx, ctx.g.recipes.get(r)!.unlockedBy));
  }
  return Math.max(own, machine);
}

/** Packs of the cheapest of a list of unlocking technologies; 0 when none is needed or one is done. */
function cheapest(ctx: PlanningContext, techs: readonly string[]): number {
  let out = techs.length ? Infinity : 0;
  for (const t of techs) out = Math.min(out, unlockPacks(ctx, t));
  return out;
}
