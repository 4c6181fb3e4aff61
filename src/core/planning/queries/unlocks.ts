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

/** The machines that could run a recipe: whether one is available under the horizon already, and
 *  for each of the others the technologies unlocking its item (any one of them). */
function machineUnlocks(ctx: PlanningContext, recipe: Recipe): { available: boolean; locked: Array<{ machine: string; techs: readonly string[] }> } {
  const a = ctx.availability;
  let available = false;
  const locked: Array<{ machine: string; techs: readonly string[] }> = [];
  for (const m of ctx.g.machinesFor(recipe)) {
    if (a.isExcluded(m.name)) continue;
    const av = a.machine(m.name);
    if (a.mode === 'now' ? av.buildableNow : av.availableNow) available = true;
    else for (const r of av.madeBy) locked.push({ machine: m.name, techs: ctx.g.recipes.get(r)!.unlockedBy });
  }
  return { available, locked };
}

/** Whether `u` takes fewer packs than `than` (ties by technology name). */
const nearer = (u: Unlock, than: Unlock | null) => !than || u.packs < than.packs || (u.packs === than.packs && u.tech < than.tech);

/** Of `techs`, the one with the fewest packs left (ties by name), when any is still to research. */
function best(ctx: PlanningContext, techs: readonly string[], machine?: string): Unlock | null {
  let out: Unlock | null = null;
  for (const t of techs) {
    const u: Unlock = { tech: t, packs: unlockPacks(ctx, t), ...(machine ? { machine } : {}) };
    if (u.packs > 0 && nearer(u, out)) out = u;
  }
  return out;
}

/** The unresearched technology that unlocks a recipe most cheaply: its own, or else its machine's. */
export function cheapestUnlock(ctx: PlanningContext, recipe: Recipe): Unlock | null {
  const own = best(ctx, recipe.unlockedBy);
  if (own) return own;
  let out: Unlock | null = null;
  for (const { machine, techs } of machineUnlocks(ctx, recipe).locked) {
    const u = best(ctx, techs, machine);
    if (u && nearer(u, out)) out = u;
  }
  return out;
}

/** Science packs left before a recipe can run: the larger of its own cheapest unlock and its
 *  machine's (0 for what is already researched or needs no research). */
export function unlockDistance(ctx: PlanningContext, recipe: Recipe): number {
  const research = ctx.availability.recipe(recipe.name).research;
  // No technology unlocks a recipe that is not enabled: it is as far as can be.
  const own = research === 'enabled' || research === 'researched' ? 0 : recipe.unlockedBy.length ? cheapest(ctx, recipe.unlockedBy) : Infinity;
  if (MACHINELESS_KINDS.has(recipe.kind)) return own;
  const { available, locked } = machineUnlocks(ctx, recipe);
  return available ? own : Math.max(own, Math.min(Infinity, ...locked.map((l) => cheapest(ctx, l.techs))));
}

/** Packs of the cheapest of a list of unlocking technologies; 0 when none is needed or one is done. */
function cheapest(ctx: PlanningContext, techs: readonly string[]): number {
  let out = techs.length ? Infinity : 0;
  for (const t of techs) out = Math.min(out, unlockPacks(ctx, t));
  return out;
}
