// What can feed a block's fluid-fuel import: a draft that needs N MJ/s of pooled fluid fuel lists the
// fuels the player can make now (a buildable recipe, pump or well makes the fluid), with the feed
// each would need — so the model can propose a real fuel supply instead of an abstract MJ import.
import type { PlanningContext } from '../context';
import { FLUID_FUEL } from '../../gamedata/model';

export interface FluidFuelOptions {
  /** Fluid fuel the draft imports (MJ/s = MW). */
  mjPerSecond: number;
  options: Array<{ fluid: string; display: string; mjPerUnit: number; feedPerSecond: number; burnRecipe: string; madeBy: string[] }>;
  /** Fuels left out by the limit. */
  more: number;
}

const isBarrelling = (name: string, category: string) => /barrel|canister/.test(name) || /barrel/.test(category);

/** Buildable fluid fuels for `mjPerSecond`, densest first (least feed per MJ). */
export function fluidFuelOptions(ctx: PlanningContext, mjPerSecond: number, limit = 5): FluidFuelOptions {
  const { g, availability: a } = ctx;
  const all: FluidFuelOptions['options'] = [];
  for (const r of g.recipes.values()) {
    if (r.kind !== 'burning' || r.products.length !== 1 || r.products[0].name !== FLUID_FUEL || r.ingredients.length !== 1) continue;
    if (!a.recipe(r.name).buildableNow) continue;
    const fluid = r.ingredients[0].name;
    const mjPerUnit = (r.products[0].amount * r.products[0].probability) / r.ingredients[0].amount;
    if (!(mjPerUnit > 0)) continue;
    const madeBy = g
      .producersOf(fluid)
      .filter((p) => {
        const rec = g.recipes.get(p)!;
        return !isBarrelling(p, rec.category) && a.recipe(p).buildableNow;
      })
      .sort();
    if (!madeBy.length) continue;
    all.push({ fluid, display: g.displayOf(fluid), mjPerUnit, feedPerSecond: mjPerSecond / mjPerUnit, burnRecipe: r.name, madeBy: madeBy.slice(0, 3) });
  }
  all.sort((x, y) => y.mjPerUnit - x.mjPerUnit || x.fluid.localeCompare(y.fluid));
  return { mjPerSecond, options: all.slice(0, limit), more: Math.max(0, all.length - limit) };
}
