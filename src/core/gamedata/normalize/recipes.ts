// Recipe prototypes: 2.0 `category` and 2.1 `categories`, fixed or ranged amounts, independent and
// 2.1 shared probabilities, fluid temperatures (exact on products, ranges on ingredients), and the
// amount productivity leaves out (ignored_by_productivity, by default ignored_by_stats).
import type { Ctx } from './context';
import { b, json } from './context';
import { recipeSchema } from '../dump/schema';
import type { GoodKind } from '../model';

const DEFAULT_CRAFT_TIME = 0.5;
/** Factorio's default cap: +300 % productivity. */
export const DEFAULT_MAX_PRODUCTIVITY = 3;

export function normalizeRecipes(ctx: Ctx): void {
  for (const r of ctx.protos('recipe', recipeSchema)) {
    const categories = r.categories?.length ? r.categories : [r.category ?? 'crafting'];
    const results = r.results ?? [];
    const ingredients = r.ingredients ?? [];
    const mainProduct = r.main_product || (results.length === 1 ? results[0].name : null);
    const allowed = (['speed', 'productivity', 'consumption', 'pollution', 'quality'] as const).filter((e) =>
      e === 'productivity' ? r.allow_productivity === true : (r as Record<string, unknown>)[`allow_${e}`] !== false,
    );
    const restrictsOther = ['speed', 'consumption', 'pollution', 'quality'].some((e) => !allowed.includes(e as never));
    ctx.out.recipes.push({
      name: r.name,
      display: ctx.display('recipe', r, () => (mainProduct ? ctx.goodDisplay.get(mainProduct) : undefined)),
      kind: 'real',
      category: categories[0],
      energy_required: r.energy_required ?? DEFAULT_CRAFT_TIME,
      enabled: b(r.enabled, true),
      hidden: b(r.hidden),
      allow_productivity: b(r.allow_productivity),
      maximum_productivity: r.maximum_productivity ?? DEFAULT_MAX_PRODUCTIVITY,
      allowed_effects: restrictsOther ? json(allowed) : null,
      allowed_module_categories: json(r.allowed_module_categories ?? null),
      main_product: mainProduct,
      source_entity: null,
      synthetic: 0,
      subgroup: r.subgroup ?? null,
      order_key: r.order ?? null,
    });
    for (const c of new Set(categories)) ctx.out.recipe_categories.push({ recipe: r.name, category: c });
    ingredients.forEach((ing, idx) => {
      const kind: GoodKind = ing.type === 'fluid' ? 'fluid' : 'item';
      const exact = 'temperature' in ing ? ing.temperature : undefined;
      ctx.out.recipe_ingredients.push({
        recipe: r.name,
        idx,
        kind,
        name: ing.name,
        amount: ing.amount,
        min_temp: kind === 'fluid' ? (exact ?? ('minimum_temperature' in ing ? ing.minimum_temperature : undefined) ?? null) : null,
        max_temp: kind === 'fluid' ? (exact ?? ('maximum_temperature' in ing ? ing.maximum_temperature : undefined) ?? null) : null,
      });
    });
    results.forEach((p, idx) => {
      if (p.type === 'research-progress') return;
      const kind: GoodKind = p.type === 'fluid' ? 'fluid' : 'item';
      const shared = p.shared_probability ? Math.max(0, p.shared_probability.max - p.shared_probability.min) : 1;
      const extra = p.extra_count_fraction ?? 0;
      ctx.out.recipe_products.push({
        recipe: r.name,
        idx,
        kind,
        name: p.name,
        amount: p.amount !== undefined ? p.amount + extra : null,
        amount_min: p.amount === undefined ? p.amount_min! + extra : null,
        amount_max: p.amount === undefined ? p.amount_max! + extra : null,
        probability: (p.probability ?? 1) * shared,
        temperature: kind === 'fluid' ? (p.temperature ?? null) : null,
        // 2.0: a product's ignored_by_productivity defaults to its ignored_by_stats.
        ignored_by_productivity: p.ignored_by_productivity ?? p.ignored_by_stats ?? 0,
      });
    });
  }
}
