// Temperature variants of one recipe. FactorioLab data sets model a fluid's temperatures as goods of
// their own ("water", "water-100", "water-200") and list a recipe once per temperature it may take
// ("navens-1", "navens-1-water-100", "navens-1-water-200"): to a player that is one recipe fed with
// whichever water is at hand, and in a list of options it is three near-identical lines. Lists a
// model reads (recipeGraph, recipeOptions) show the first of them, naming the others in `variants`;
// lists a person picks from (the block editor) keep every one.
import type { GameIndex, Recipe } from '../gameIndex';
import type { RankedRecipe } from './common';

/** "Water (100°C)" → "Water": FactorioLab's names for a fluid's temperatures. */
const baseDisplay = (display: string) => display.replace(/\s*\(\s*-?\d+(?:\.\d+)?\s*\u00b0C\s*\)\s*$/, '');

/** Two fluids that are one fluid at two temperatures: same subgroup, same name but for the temperature. */
function sameFluid(g: GameIndex, a: string, b: string): boolean {
  const x = g.goods.get(a);
  const y = g.goods.get(b);
  return !!x && !!y && x.kind === 'fluid' && y.kind === 'fluid' && x.subgroup === y.subgroup && baseDisplay(x.display) === baseDisplay(y.display);
}

const side = (xs: Array<{ name: string; amount: number }>) => new Map(xs.map((x) => [x.name, x.amount]));

/**
 * Whether `v` is `base` taking `fluid` in place of one of its fluid ingredients at another
 * temperature, the same amount, everything else (ingredients, products, category) alike.
 */
function isVariant(g: GameIndex, base: Recipe, v: Recipe, fluid: string): boolean {
  if (base.category !== v.category || base.products.length !== v.products.length || base.ingredients.length !== v.ingredients.length) return false;
  const key = (p: Recipe['products'][number]) => `${p.name}\0${p.amount}\0${p.probability}`;
  const products = new Set(base.products.map(key));
  if (!v.products.every((p) => products.has(key(p)))) return false;
  const a = side(base.ingredients);
  const b = side(v.ingredients);
  if (!b.has(fluid) || a.has(fluid)) return false;
  const swapped = [...a.keys()].filter((n) => !b.has(n));
  if (swapped.length !== 1 || a.get(swapped[0]) !== b.get(fluid) || !sameFluid(g, swapped[0], fluid)) return false;
  return [...a].every(([n, amount]) => n === swapped[0] || b.get(n) === amount);
}

/** The recipe `name` is a temperature variant of (`<base>-<fluid>`), or undefined. */
export function variantBase(g: GameIndex, name: string): string | undefined {
  const v = g.recipes.get(name);
  if (!v) return undefined;
  for (let i = name.indexOf('-'); i > 0; i = name.indexOf('-', i + 1)) {
    const base = g.recipes.get(name.slice(0, i));
    const fluid = name.slice(i + 1);
    if (base && g.goods.get(fluid)?.kind === 'fluid' && isVariant(g, base, v, fluid)) return base.name;
  }
  return undefined;
}

/**
 * Ranked recipes with each one's temperature variants folded into the first of them in the list
 * (the one the ranking puts first stands for all), in the same order. Recipes of different
 * availability are never folded together: a variant that needs research stays a line of its own.
 */
export function foldVariants(g: GameIndex, ranked: RankedRecipe[]): Array<{ r: RankedRecipe; variants: string[] }> {
  const out: Array<{ r: RankedRecipe; variants: string[] }> = [];
  const byFamily = new Map<string, { r: RankedRecipe; variants: string[] }>();
  for (const r of ranked) {
    const name = r.info.recipe.name;
    const family = `${variantBase(g, name) ?? name}\0${r.info.verdict.state}\0${r.info.selectable}`;
    const host = byFamily.get(family);
    if (host) host.variants.push(name);
    else {
      const entry = { r, variants: [] };
      byFamily.set(family, entry);
      out.push(entry);
    }
  }
  return out;
}

/** How many recipes folded lines stand for: each line's own and its variants. */
export function recipesIn(lines: ReadonlyArray<{ variants: string[] }>): number {
  return lines.reduce((n, x) => n + 1 + x.variants.length, 0);
}

/**
 * The first folded lines holding at most `limit` recipes, variants included (and at least one line):
 * folding makes a list shorter to read, it does not make room for more recipes.
 */
export function firstRecipes<T extends { variants: string[] }>(folded: T[], limit: number): T[] {
  const out: T[] = [];
  let n = 0;
  for (const f of folded) {
    if (out.length && n + 1 + f.variants.length > limit) break;
    out.push(f);
    n += 1 + f.variants.length;
    if (n >= limit) break;
  }
  return out;
}
