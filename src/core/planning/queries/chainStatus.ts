// chainStatus: the stoichiometric closure of a recipe set towards a target. Starting from one craft of
// the set's best recipe for the target, every deficit of a good that a set recipe is *for* is covered
// by scaling that recipe (a bounded greedy fixed point, so loops settle or stop); what is still
// missing is an open input — import it (raw, energy, shared) or build it (add a recipe) — and what is
// left over is a byproduct. Amounts are per craft of the top recipe, without modules; the block
// solver, not this check, finds the best rates.
import type { PlanningContext } from '../context';
import type { Recipe } from '../gameIndex';
import { parseInput, QueryError, requireGood, requireRecipe } from './errors';
import { ADDITIVE_CONSUMERS, isRaw, rankedRecipes, realConsumers, realProducers, round } from './common';
import { chainStatusInput, type ChainStatusInput } from './schemas';

export interface OpenInput {
  good: string;
  display: string;
  amountPerCraft: number;
  additive: boolean;
  action: 'import' | 'build';
  /** What to do, in words. */
  suggestion: string;
  /** No producer is selectable under the horizon. */
  locked?: boolean;
  producers: number;
  topRecipe: string | null;
}

export interface ChainStatusResult {
  target: string;
  topRecipe: string | null;
  invalid: Array<{ recipe: string; error: string }>;
  /** No input is left that the chain should build itself. */
  closed: boolean;
  openInputs: OpenInput[];
  byproducts: Array<{ good: string; display: string; amountPerCraft: number }>;
  /** Crafts of each set recipe per craft of the top recipe. */
  crafts: Record<string, number>;
  unused?: string[];
  converged: boolean;
  note?: string;
}

const EPS = 1e-9;
const MAX_ROUNDS = 400;

const made = (r: Recipe, good: string) => r.products.filter((p) => p.name === good).reduce((s, p) => s + p.amount * p.probability, 0);

export function chainStatus(ctx: PlanningContext, raw: ChainStatusInput): ChainStatusResult {
  const input = parseInput(chainStatusInput, raw, 'chainStatus');
  const g = ctx.g;
  const target = requireGood(ctx, input.target).name;
  const invalid: ChainStatusResult['invalid'] = [];
  const set: Recipe[] = [];
  for (const n of new Set(input.recipes)) {
    try {
      set.push(requireRecipe(ctx, n));
    } catch (err) {
      if (!(err instanceof QueryError)) throw err;
      invalid.push({ recipe: n, error: err.message });
    }
  }
  const top = set.filter((r) => made(r, target) > 0).sort((x, y) => made(y, target) - made(x, target) || (x.name < y.name ? -1 : 1))[0] ?? null;
  if (!top) {
    return {
      target, topRecipe: null, invalid, closed: false, openInputs: [], byproducts: [], crafts: {}, converged: true,
      note: `no recipe of the set makes ${target}; add one (call recipeOptions for ${target})`,
    };
  }

  const x = new Map<string, number>([[top.name, 1]]);
  // A set recipe is scaled only for what it is *for* (its main product, else its first product); a
  // byproduct never drives its recipe up, so byproduct loops cannot inflate the chain.
  const makers = new Map<string, Recipe>();
  for (const r of set) {
    const primary = r.mainProduct ?? r.products.find((p) => p.amount * p.probability > 0)?.name;
    if (!primary || primary === target || !(made(r, primary) > 0)) continue;
    const cur = makers.get(primary);
    if (!cur || made(r, primary) > made(cur, primary) || (made(r, primary) === made(cur, primary) && r.name < cur.name)) makers.set(primary, r);
  }
  const inSet = new Set(set.map((r) => r.name));
  const netOf = () => {
    const net = new Map<string, number>();
    for (const r of set) {
      const n = x.get(r.name) ?? 0;
      if (!n) continue;
      for (const i of r.ingredients) net.set(i.name, (net.get(i.name) ?? 0) - i.amount * n);
      for (const p of r.products) net.set(p.name, (net.get(p.name) ?? 0) + p.amount * p.probability * n);
    }
    return net;
  };
  let converged = false;
  let net = netOf();
  for (let round_ = 0; round_ < MAX_ROUNDS; round_++) {
    let changed = false;
    for (const [good, v] of net) {
      if (v >= -EPS * 1e3) continue;
      const m = makers.get(good);
      if (!m) continue;
      x.set(m.name, (x.get(m.name) ?? 0) + -v / made(m, good));
      changed = true;
    }
    if (!changed) {
      converged = true;
      break;
    }
    net = netOf();
  }

  const openInputs: OpenInput[] = [];
  const byproducts: ChainStatusResult['byproducts'] = [];
  for (const [good, v] of [...net].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (good === target) continue;
    const x_ = g.goods.get(good);
    if (v < -1e-6 && !makers.has(good)) {
      const consumers = realConsumers(ctx, good).length;
      const additive = consumers >= ADDITIVE_CONSUMERS;
      const ranked = rankedRecipes(ctx, good, 'produce');
      const best = ranked[0]?.info;
      const selectable = ranked.some((r) => r.info.selectable);
      let action: OpenInput['action'] = 'build';
      let suggestion: string;
      if (x_?.synthetic) {
        action = 'import';
        suggestion = 'import: energy is supplied factory-wide';
      } else if (isRaw(ctx, good)) {
        action = 'import';
        suggestion = ranked.length ? 'import: raw resource (mine or pump it)' : 'import: nothing makes it';
      } else if (additive) {
        action = 'import';
        suggestion = `import: shared input of ${consumers} recipes (its own block)`;
      } else if (set.some((r) => made(r, good) > 0)) {
        const by = set.filter((r) => made(r, good) > 0).map((r) => r.name);
        suggestion = `build: the set makes it only as a byproduct (${by.join(', ')}), not enough; add a recipe for it or import the rest`;
      } else if (!selectable) {
        suggestion = `build: but no producer is selectable${best?.lockReason ? ` (${best.recipe.name}: ${best.lockReason})` : ''}`;
      } else suggestion = `build: add ${ranked.find((r) => r.info.selectable && !inSet.has(r.info.recipe.name))?.info.recipe.name ?? best!.recipe.name}`;
      openInputs.push({
        good, display: x_?.display ?? good, amountPerCraft: round(-v), additive, action, suggestion,
        ...(action === 'build' && !selectable ? { locked: true } : {}),
        producers: realProducers(ctx, good).length, topRecipe: best?.recipe.name ?? null,
      });
    } else if (v > 1e-6) {
      byproducts.push({ good, display: x_?.display ?? good, amountPerCraft: round(v) });
    }
  }
  openInputs.sort((a, b) => Number(a.action === 'import') - Number(b.action === 'import') || b.amountPerCraft - a.amountPerCraft);
  const crafts: Record<string, number> = {};
  for (const r of set) if ((x.get(r.name) ?? 0) > 0) crafts[r.name] = round(x.get(r.name)!);
  const unused = set.filter((r) => !crafts[r.name]).map((r) => r.name);
  const closed = !openInputs.some((o) => o.action === 'build');
  return {
    target,
    topRecipe: top.name,
    invalid,
    closed,
    openInputs,
    byproducts,
    crafts,
    ...(unused.length ? { unused } : {}),
    converged,
    ...(!converged ? { note: 'the set contains a loop that does not settle; amounts are approximate' } : {}),
  };
}
