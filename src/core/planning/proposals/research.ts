// What a draft still needs researched: per row, the technology that unlocks its recipe, its machine
// and its modules (and beacons) when the player has not researched it yet; per draft and plan, every
// such technology with the prerequisites it still lacks, as one path in research order with its
// science cost. A model reads the research left from the draft itself instead of asking recipeInfo
// or researchPath row by row.
import type { PlanningContext } from '../context';
import type { Recipe } from '../gameIndex';
import type { ModuleCount, BeaconConfig } from '../effects';
import { researchSteps, type ResearchList } from '../queries/researchPath';

/** Technologies a row waits for (absent keys: nothing to research). */
export interface RowResearch {
  recipe?: string;
  machine?: string;
  /** Modules and beacons, one technology each, without repeats. */
  modules?: string[];
}

/** The unlocking technology to research for a recipe, or null when it is usable in the save already. */
export function recipeUnlock(ctx: PlanningContext, recipe: Recipe): string | null {
  const gate = ctx.availability.researchGate(recipe.name);
  if (gate.research === 'enabled' || gate.research === 'researched') return null;
  return pickTech(ctx, gate.unlockTechs);
}

/** The technology to research before an item (machine, module, beacon) can be made, or null. */
export function itemUnlock(ctx: PlanningContext, item: string | null): string | null {
  const a = ctx.availability;
  const makers = a.itemAvailability(item).madeBy;
  if (!makers.length) return null; // nothing makes it: nothing gates it
  const gates = makers.map((r) => a.researchGate(r));
  if (gates.some((x) => x.research === 'enabled' || x.research === 'researched')) return null;
  return pickTech(ctx, gates.flatMap((x) => x.unlockTechs));
}

/** One technology among unlocks: reachable under the horizon first, then the lowest tier, then by name. */
function pickTech(ctx: PlanningContext, techs: string[]): string | null {
  const a = ctx.availability;
  const key = (t: string) => [a.tech(t).reachable ? 0 : 1, a.tier(t)] as const;
  const sorted = [...new Set(techs)].filter((t) => !a.state.researched.has(t)).sort((x, y) => {
    const [p, q] = [key(x), key(y)];
    return p[0] - q[0] || p[1] - q[1] || (x < y ? -1 : 1);
  });
  return sorted[0] ?? null;
}

export function rowResearch(ctx: PlanningContext, row: { recipe: string; machine: string | null; modules: ModuleCount[]; beacons: BeaconConfig[] }): RowResearch {
  const { g } = ctx;
  const rec = g.recipes.get(row.recipe);
  const out: RowResearch = {};
  const recipe = rec ? recipeUnlock(ctx, rec) : null;
  if (recipe) out.recipe = recipe;
  const m = row.machine ? g.machines.get(row.machine) : undefined;
  const machine = m ? itemUnlock(ctx, m.item) : null;
  if (machine) out.machine = machine;
  const items = [...row.modules.map((x) => x.name), ...row.beacons.flatMap((b) => [g.beacons.get(b.beacon)?.item ?? b.beacon, ...b.modules.map((x) => x.name)])];
  const modules = [...new Set(items.map((i) => itemUnlock(ctx, g.goods.has(i) ? i : null)).filter((t): t is string => !!t))];
  if (modules.length) out.modules = modules;
  return out;
}

/** Every technology rows wait for. */
export function rowTechs(rows: Array<{ research?: RowResearch }>): string[] {
  const out = new Set<string>();
  for (const r of rows) for (const t of [r.research?.recipe, r.research?.machine, ...(r.research?.modules ?? [])]) if (t) out.add(t);
  return [...out];
}

/** The research a set of rows still needs, as one path (undefined when nothing is left to research). */
export function researchLeft(ctx: PlanningContext, rows: Array<{ research?: RowResearch }>): ResearchList | undefined {
  const techs = rowTechs(rows);
  return techs.length ? researchSteps(ctx, techs) : undefined;
}
