// Which recipe to add for a good, in the order a player looks for it: usable first, a good's own maker
// before one that gives it on the side. No vscode import: the ranking is unit-tested on the Py data.
import type { PlanningContext } from '../../core/planning/context';
import { producerFor } from '../../core/planning/proposals/complete';
import { isRaw, makesAsMainProduct, rankedRecipes } from '../../core/planning/queries/common';

/**
 * The recipes that make (or use) `good`, leaving out those in `have`: usable under the horizon first
 * (unlocked before still to research), then, for makers, those that make it as their main product
 * (a mine before a recipe that gives it on the side: "Mine Coal" before "Coal gas from wood"), mines
 * and pumps first among those, then the tools' own order (cost).
 */
export function rankedFor(ctx: PlanningContext, good: string, direction: 'produce' | 'consume', have: Set<string>): string[] {
  const ranked = rankedRecipes(ctx, good, direction).filter((r) => !have.has(r.info.recipe.name));
  const tier = (v: { state: string }) => (v.state === 'unlocked' ? 0 : v.state === 'buildable' ? 1 : 2);
  const main = (r: (typeof ranked)[number]['info']['recipe']) => {
    if (direction !== 'produce') return 0;
    return makesAsMainProduct(r, good) ? (r.kind === 'mining' || r.kind === 'pumping' ? 0 : 1) : 2;
  };
  return ranked
    .map((r, i) => ({ name: r.info.recipe.name, key: [tier(r.info.verdict), main(r.info.recipe), i] }))
    .sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.key[2] - b.key[2])
    .map((x) => x.name);
}

/**
 * The best recipe to add for `good`. For a made good, the one Complete Chain adds for it (producerFor:
 * a selectable recipe a building runs, its main product, no TURD pick, not one feeding on the good
 * itself), so a Ctrl+click and a completed chain agree. For a raw resource (where completion stops,
 * and Py's distillations name coal their main product) and when nothing qualifies: the first usable
 * maker in picker order, the mine or pump first, else the first maker at all.
 */
export function bestMaker(ctx: PlanningContext, good: string, have: Set<string>): string | undefined {
  const completion = isRaw(ctx, good) ? undefined : producerFor(ctx, good, undefined, have);
  if (completion) return completion.chosen.info.recipe.name;
  const makers = rankedFor(ctx, good, 'produce', have);
  return makers.find((r) => {
    const v = ctx.availability.recipeVerdict(r);
    return v.state === 'unlocked' || v.state === 'buildable';
  }) ?? makers[0];
}
