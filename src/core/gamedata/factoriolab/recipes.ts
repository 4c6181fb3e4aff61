// Recipes of a FactorioLab data set. Outputs are already expected values (amount × probability,
// ranges averaged), so each becomes a product of probability 1; `catalyst` is the part productivity
// does not multiply. Mining pseudo-recipes keep the planner's `mine-<resource>` names; burn
// pseudo-recipes are left to the shared synthesis (one fuel → one burnt result); technology
// pseudo-recipes become research costs (technologies.ts). Whether productivity is allowed: in 1.x
// sets it is the limitation of the productivity modules, in 2.0 sets the recipe's disallowed effects.
import { DEFAULT_MAX_PRODUCTIVITY } from '../normalize/recipes';
import { VIRTUAL_CATEGORY, type RecipeKind } from '../model';
import type { FlabCtx } from './entries';
import { isTechRecipe } from './entries';
import { allowedEffects, isBurnRecipe, type Producers } from './machines';
import type { FlabRecipe } from './schema';

const MINE_PREFIX = 'mine-';

/** The planner's recipe name for a data-set recipe. */
export function recipeName(r: FlabRecipe): string {
  return r.flags?.includes('mining') ? MINE_PREFIX + r.id : r.id;
}

/** Recipes productivity modules may be used on, when the set limits them (1.x); null when recipes say it (2.0). */
function productivityLimited(f: FlabCtx): Set<string> | null {
  const limitations = f.data.limitations ?? {};
  const keys = f.data.items.filter((e) => (e.module?.productivity ?? 0) > 0 && e.module?.limitation).map((e) => e.module!.limitation!);
  if (!keys.length) return null;
  return new Set(keys.flatMap((k) => limitations[k] ?? []));
}

function kindOf(f: FlabCtx, r: FlabRecipe, category: string): RecipeKind {
  if (r.flags?.includes('mining')) return 'mining';
  if (r.flags?.includes('grow')) return 'planting';
  if (r.part) return 'launch';
  if (category === VIRTUAL_CATEGORY) return 'spoiling';
  // Pumping or boiling when every producer is of that one entity type.
  const first = r.producers.length ? f.entries.get(r.producers[0])?.machine?.entityType : undefined;
  if (first !== 'offshore-pump' && first !== 'boiler') return 'real';
  for (const p of r.producers) if (f.entries.get(p)?.machine?.entityType !== first) return 'real';
  return first === 'offshore-pump' ? 'pumping' : 'boiling';
}

export function flabRecipes(f: FlabCtx, p: Producers): void {
  const out = f.ctx.out;
  const prodLimited = productivityLimited(f);
  const goodKind = (id: string) => (f.kinds.get(id) === 'fluid' ? 'fluid' : 'item');
  let located = 0;
  for (const r of f.data.recipes) {
    if (isTechRecipe(r) || isBurnRecipe(r)) continue;
    const name = recipeName(r);
    const category = p.categoryOf.get(r.id)!;
    const kind = kindOf(f, r, category);
    const mining = kind === 'mining';
    const outputs = Object.keys(r.out);
    const disallowed = r.disallowedEffects ?? [];
    const allowProd = mining || (prodLimited ? prodLimited.has(r.id) : !disallowed.includes('productivity'));
    const others = disallowed.filter((e) => e !== 'productivity');
    if (r.locations?.length) located++;
    out.recipes.push({
      name,
      display: mining ? `Mine ${r.name}` : r.name,
      kind,
      category,
      energy_required: r.time,
      enabled: r.flags?.includes('locked') ? 0 : 1,
      hidden: 0,
      allow_productivity: allowProd ? 1 : 0,
      maximum_productivity: DEFAULT_MAX_PRODUCTIVITY,
      allowed_effects: others.length ? allowedEffects([...others, ...(allowProd ? [] : ['productivity'])]) : null,
      allowed_module_categories: null,
      main_product: outputs.length === 1 ? outputs[0] : outputs.includes(r.id) ? r.id : null,
      source_entity: mining ? r.id : null,
      synthetic: mining ? 1 : 0,
      subgroup: `${r.category}:${r.row ?? 0}`,
      order_key: null,
    });
    out.recipe_categories.push({ recipe: name, category });
    let idx = 0;
    for (const good in r.in) out.recipe_ingredients.push({ recipe: name, idx: idx++, kind: goodKind(good), name: good, amount: r.in[good], min_temp: null, max_temp: null });
    idx = 0;
    for (const good in r.out) {
      out.recipe_products.push({
        recipe: name, idx: idx++, kind: goodKind(good), name: good, amount: r.out[good], amount_min: null, amount_max: null, probability: 1,
        temperature: null, ignored_by_productivity: r.catalyst?.[good] ?? 0,
      });
    }
    if (mining) {
      const fluid = Object.entries(r.in).find(([good]) => goodKind(good) === 'fluid');
      out.resources.push({ name: r.id, display: r.name, category, mining_time: r.time, required_fluid: fluid?.[0] ?? null, fluid_amount: fluid?.[1] ?? null, infinite: 0 });
    }
  }
  if (located) f.ctx.warn(`${located} recipe${located === 1 ? ' is' : 's are'} limited to planets (locations); the planner does not restrict recipes by planet`);
}
