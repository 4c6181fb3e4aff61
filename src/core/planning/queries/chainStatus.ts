// chainStatus: the stoichiometric closure of a recipe set towards a target, per craft of the set's
// best recipe for it. A small linear program picks how often each set recipe runs: the target is
// made exactly, every other good may be left over (a byproduct) or brought in (an import), and
// imports of goods the set itself makes cost far more than others — so multi-output recipes run for
// whichever product is needed, loops settle where they balance, and nothing the set can make is
// imported while it can be made. Burner machines (the default machine of each recipe) burn fuel,
// preferably one the set makes; their fuel is an input and the burnt result an output, so the fuel
// is never mistaken for a byproduct. Then each import is either intentional (raw, energy, a shared
// good the set does not make) or open (the chain should build it); the chain is closed only when
// nothing is open. Amounts are without modules; the block solver, not this check, finds real rates.
import type { PlanningContext } from '../context';
import type { Recipe } from '../gameIndex';
import { defaultFuel } from '../energy';
import { loadHighs } from '../solver/highs';
import { ProgramBuilder, solveLinearProgram } from '../solver/program';
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

export interface ChainFuel {
  recipe: string;
  machine: string;
  fuel: string;
  amountPerCraft: number;
  burntResult?: string;
}

export interface ChainStatusResult {
  target: string;
  topRecipe: string | null;
  invalid: Array<{ recipe: string; error: string }>;
  /** Nothing is open: every import left is intentional (raw, energy, shared). */
  closed: boolean;
  /** Inputs the chain should still build (add a recipe, or more of one). */
  openInputs: OpenInput[];
  /** Intentional imports: raw resources, energy, shared goods the set does not make. */
  imports: OpenInput[];
  byproducts: Array<{ good: string; display: string; amountPerCraft: number }>;
  /** Crafts of each set recipe per craft of the top recipe. */
  crafts: Record<string, number>;
  /** Fuel the burner machines of the set burn (already counted in the flows above). */
  fuel?: ChainFuel[];
  unused?: string[];
  note?: string;
}

const EPS = 1e-7;
/** Cost of importing one unit of a good the set makes, against 1 for any other good. */
const OWN_GOOD_IMPORT_COST = 1000;
/** A tiny cost per craft, so no recipe runs without a reason. */
const CRAFT_COST = 1e-4;

const made = (r: Recipe, good: string) => r.products.filter((p) => p.name === good).reduce((s, p) => s + p.amount * p.probability, 0);

export async function chainStatus(ctx: PlanningContext, raw: ChainStatusInput): Promise<ChainStatusResult> {
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
      target, topRecipe: null, invalid, closed: false, openInputs: [], imports: [], byproducts: [], crafts: {},
      note: `no recipe of the set makes ${target}; add one (call recipeOptions for ${target})`,
    };
  }

  // Net flow of one craft of each recipe, fuel included.
  const setMakes = new Set(set.flatMap((r) => r.products.filter((p) => p.amount * p.probability > 0).map((p) => p.name)));
  const fuels: ChainFuel[] = [];
  const flows = set.map((r) => {
    const f = new Map<string, number>();
    const add = (good: string, v: number) => f.set(good, (f.get(good) ?? 0) + v);
    for (const i of r.ingredients) add(i.name, -i.amount);
    for (const p of r.products) add(p.name, p.amount * p.probability);
    const burn = burnerFuel(ctx, r, setMakes);
    if (burn) {
      fuels.push(burn);
      add(burn.fuel, -burn.amountPerCraft);
      if (burn.burntResult) add(burn.burntResult, burn.amountPerCraft);
    }
    return f;
  });

  const goods = [...new Set(flows.flatMap((f) => [...f.keys()]))].sort();
  const lp = new ProgramBuilder();
  const xCol = set.map(() => lp.addCol(CRAFT_COST));
  const importCol = new Map<string, number>();
  for (const good of goods) if (good !== target) importCol.set(good, lp.addCol(setMakes.has(good) ? OWN_GOOD_IMPORT_COST : 1));
  for (const good of goods) {
    const cols: number[] = [];
    const vals: number[] = [];
    set.forEach((_, k) => {
      const v = flows[k].get(good);
      if (v) {
        cols.push(xCol[k]);
        vals.push(v);
      }
    });
    if (good === target) {
      const want = made(top, target);
      lp.addRow(cols, vals, want, want);
    } else {
      cols.push(importCol.get(good)!);
      vals.push(1);
      lp.addRow(cols, vals, 0, Infinity);
    }
  }
  const sol = solveLinearProgram(await loadHighs(), lp.build());
  if (sol.status !== 'optimal') throw new Error(`chainStatus: the closure program is ${sol.status}${sol.message ? ` (${sol.message})` : ''}`);

  const crafts: Record<string, number> = {};
  set.forEach((r, k) => {
    if (sol.x[xCol[k]] > EPS) crafts[r.name] = round(sol.x[xCol[k]]);
  });
  const net = new Map<string, number>();
  for (const good of goods) net.set(good, set.reduce((s, _, k) => s + (flows[k].get(good) ?? 0) * sol.x[xCol[k]], 0));

  const openInputs: OpenInput[] = [];
  const imports: OpenInput[] = [];
  const byproducts: ChainStatusResult['byproducts'] = [];
  const inSet = new Set(set.map((r) => r.name));
  for (const good of goods) {
    if (good === target) continue;
    const x = g.goods.get(good);
    const bought = sol.x[importCol.get(good)!];
    if (bought > 1e-6) {
      const consumers = realConsumers(ctx, good).length;
      const additive = consumers >= ADDITIVE_CONSUMERS;
      const ranked = rankedRecipes(ctx, good, 'produce');
      const best = ranked[0]?.info;
      const selectable = ranked.some((r) => r.info.selectable);
      let action: OpenInput['action'] = 'build';
      let suggestion: string;
      if (x?.synthetic) {
        action = 'import';
        suggestion = 'import: energy is supplied factory-wide';
      } else if (isRaw(ctx, good)) {
        action = 'import';
        suggestion = ranked.length ? 'import: raw resource (mine or pump it)' : 'import: nothing makes it';
      } else if (setMakes.has(good)) {
        const by = set.filter((r) => made(r, good) > 0).map((r) => r.name);
        suggestion = `build: the set makes it (${by.join(', ')}) but not enough — running more would need more of what it uses; add a recipe for it or import the rest`;
      } else if (additive) {
        action = 'import';
        suggestion = `import: shared input of ${consumers} recipes (its own block)`;
      } else if (!selectable) {
        suggestion = `build: but no producer is selectable${best?.lockReason ? ` (${best.recipe.name}: ${best.lockReason})` : ''}`;
      } else suggestion = `build: add ${ranked.find((r) => r.info.selectable && !inSet.has(r.info.recipe.name))?.info.recipe.name ?? best!.recipe.name}`;
      const entry: OpenInput = {
        good, display: x?.display ?? good, amountPerCraft: round(bought), additive, action, suggestion,
        ...(action === 'build' && !selectable ? { locked: true } : {}),
        producers: realProducers(ctx, good).length, topRecipe: best?.recipe.name ?? null,
      };
      (action === 'import' ? imports : openInputs).push(entry);
    }
    const left = net.get(good)! + bought;
    if (left > 1e-6) byproducts.push({ good, display: x?.display ?? good, amountPerCraft: round(left) });
  }
  const byAmount = (a: OpenInput, b: OpenInput) => b.amountPerCraft - a.amountPerCraft || (a.good < b.good ? -1 : 1);
  openInputs.sort(byAmount);
  imports.sort(byAmount);
  const usedFuel = fuels.filter((f) => crafts[f.recipe]).map((f) => ({ ...f, amountPerCraft: round(f.amountPerCraft * sol.x[xCol[set.findIndex((r) => r.name === f.recipe)]]) }));
  const unused = set.filter((r) => !crafts[r.name]).map((r) => r.name);
  return {
    target,
    topRecipe: top.name,
    invalid,
    closed: openInputs.length === 0,
    openInputs,
    imports,
    byproducts,
    crafts,
    ...(usedFuel.length ? { fuel: usedFuel } : {}),
    ...(unused.length ? { unused } : {}),
  };
}

/**
 * Fuel one craft of `r` burns in its default machine when that is a burner: a fuel the set makes
 * if the burner accepts one, else the default fuel. Energy per craft = power × craft time / speed.
 */
function burnerFuel(ctx: PlanningContext, r: Recipe, setMakes: ReadonlySet<string>): ChainFuel | null {
  const m = ctx.availability.defaultMachine(r).machine;
  if (!m || m.energySource !== 'burner' || !(m.speed > 0)) return null;
  const pick = defaultFuel(ctx.g, m, null, (f) => setMakes.has(f));
  const fuel = pick.fuel ? ctx.g.goods.get(pick.fuel) : undefined;
  if (!fuel?.fuelValueJ) return null;
  const joules = (m.energyUsageW * r.energy) / m.speed;
  return { recipe: r.name, machine: m.name, fuel: fuel.name, amountPerCraft: joules / fuel.fuelValueJ, ...(fuel.burntResult ? { burntResult: fuel.burntResult } : {}) };
}
