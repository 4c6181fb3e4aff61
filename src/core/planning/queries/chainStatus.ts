// chainStatus: does a recipe set close towards a target? It answers from the block submitBlock would
// draft for the same set — the same document (one goal: a craft of the set's best recipe for the
// target per second; every good one row makes and another uses or burns covered inside), the same
// machines, fuel and LP — solved without modules, so a chain this tool calls closed is a block that
// solves. When the block cannot cover a good its rows make, the diagnosis names it; that good is
// reported open ("the set makes it but not enough") and left to be imported so the rest can still be
// shown. Every other import is intentional (raw, energy, a shared good the set does not make) or
// open (the chain should build it); the chain is closed only when the block solves and nothing is
// open. Amounts are per craft of the top recipe.
import type { PlanningContext } from '../context';
import type { Recipe } from '../gameIndex';
import type { BlockDoc } from '../block/document';
import { parseBlockDoc } from '../block/document';
import { solveBlock } from '../solver/solve';
import type { Flow, RowAdvice, SolveResult } from '../solver/result';
import { specFromSubmit, submitBlockInput } from '../proposals/draft';
import { ELECTRICITY, FLUID_FUEL, HEAT } from '../../gamedata/model';
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
  /** The block solves and nothing is open: every import left is intentional (raw, energy, shared). */
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
  /** Why a listed recipe does not run (or runs without a building), and the block edit that changes it. */
  idle?: Array<Pick<RowAdvice, 'recipe' | 'code' | 'message'>>;
  note?: string;
}

const EPS = 1e-9;
/** Rounds of "leave the short good to an import" before giving up on an infeasible set. */
const MAX_RELAXATIONS = 8;

const made = (r: Recipe, good: string) => r.products.filter((p) => p.name === good).reduce((s, p) => s + p.amount * p.probability, 0);

/** The block submitBlock drafts for these recipes and one goal (its made marks included). */
export function chainBlock(ctx: PlanningContext, chain: { recipes: string[]; target: string; rate: number; subBlocksNeeded?: string[]; drains?: string[] }): BlockDoc {
  return parseBlockDoc(specFromSubmit(ctx, submitBlockInput.parse(chain)).doc);
}

/**
 * Solves the chain's block; a good the block makes but cannot cover (a made mark the diagnosis
 * names) is dropped from the made marks and left to an import, until the block solves.
 */
async function solveChain(ctx: PlanningContext, doc: BlockDoc): Promise<{ result: SolveResult; short: string[] }> {
  const short: string[] = [];
  let result = await solveBlock(ctx.g, ctx.availability, doc);
  for (let round = 0; round < MAX_RELAXATIONS && result.status === 'infeasible'; round++) {
    const marks = new Set(doc.made);
    const names = [...new Set((result.diagnosis ?? []).flatMap((c) => c.members).filter((m) => m.kind === 'made' && marks.has(m.ref)).map((m) => m.ref))];
    if (!names.length) break;
    short.push(...names);
    doc = { ...doc, made: doc.made.filter((m) => !names.includes(m)) };
    result = await solveBlock(ctx.g, ctx.availability, doc);
  }
  return { result, short };
}

export async function chainStatus(ctx: PlanningContext, raw: ChainStatusInput): Promise<ChainStatusResult> {
  const input = parseInput(chainStatusInput, raw, 'chainStatus');
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

  const doc = chainBlock(ctx, {
    recipes: set.map((x) => x.name), target, rate: made(top, target),
    ...(input.subBlocksNeeded?.length ? { subBlocksNeeded: input.subBlocksNeeded } : {}), ...(input.drains?.length ? { drains: input.drains } : {}),
  });
  const { result: r, short } = await solveChain(ctx, doc);
  if (r.status !== 'optimal') {
    const why = r.diagnosis?.[0]?.message ?? r.message ?? r.status;
    return {
      target, topRecipe: top.name, invalid, closed: false, openInputs: [], imports: [], byproducts: [], crafts: {},
      note: `the block of this set cannot be solved: ${why}${r.diagnosis?.[0]?.fixes.length ? ` (${r.diagnosis[0].fixes.join('; ')})` : ''}`,
    };
  }

  // Per craft of the top recipe (per second of the goal when another recipe makes all of it).
  const xTop = r.rows.find((x) => x.recipe === top.name)?.craftsPerSecond ?? 0;
  const per = xTop > EPS ? 1 / xTop : 1;
  const crafts: Record<string, number> = {};
  for (const row of r.rows) if (row.craftsPerSecond > EPS) crafts[row.recipe] = round(row.craftsPerSecond * per);

  const inSet = new Set(set.map((x) => x.name));
  const shortSet = new Set(short);
  const openInputs: OpenInput[] = [];
  const imports: OpenInput[] = [];
  for (const f of mergeFlows(r.imports)) {
    if (f.good === ELECTRICITY) continue; // supplied factory-wide, never a chain's concern
    const entry = classifyImport(ctx, f.good, f.rate * per, { inSet, short: shortSet, setRecipes: set });
    (entry.action === 'import' ? imports : openInputs).push(entry);
  }
  const byAmount = (a: OpenInput, b: OpenInput) => b.amountPerCraft - a.amountPerCraft || (a.good < b.good ? -1 : 1);
  openInputs.sort(byAmount);
  imports.sort(byAmount);
  const byproducts = mergeFlows(r.byproducts)
    .filter((f) => f.good !== ELECTRICITY)
    .map((f) => ({ good: f.good, display: f.display, amountPerCraft: round(f.rate * per) }))
    .sort((a, b) => (a.good < b.good ? -1 : 1));
  const fuel: ChainFuel[] = r.rows
    .filter((row) => row.craftsPerSecond > EPS && row.fuel && row.machine && ctx.g.machines.get(row.machine)?.energySource === 'burner' && (row.fuelPerSecond ?? 0) > 0)
    .map((row) => {
      const burnt = ctx.g.goods.get(row.fuel!)?.burntResult;
      return { recipe: row.recipe, machine: row.machine!, fuel: row.fuel!, amountPerCraft: round(row.fuelPerSecond! * per), ...(burnt ? { burntResult: burnt } : {}) };
    });
  const unused = set.filter((x) => !crafts[x.name]).map((x) => x.name);
  const idle = (r.advice ?? []).map((a) => ({ recipe: a.recipe, code: a.code, message: a.message }));
  return {
    target,
    topRecipe: top.name,
    invalid,
    closed: openInputs.length === 0 && r.unmade.length === 0,
    openInputs,
    imports,
    byproducts,
    crafts,
    ...(fuel.length ? { fuel } : {}),
    ...(unused.length ? { unused } : {}),
    ...(idle.length ? { idle } : {}),
    ...(r.unmade.length ? { note: r.unmade.map((u) => u.reason).join('; ') } : {}),
  };
}

/** One flow per good (a fluid imported at several temperature ranges is one input of the chain). */
function mergeFlows(flows: Flow[]): Flow[] {
  const out = new Map<string, Flow>();
  for (const f of flows) {
    const seen = out.get(f.good);
    if (seen) seen.rate += f.rate;
    else out.set(f.good, { ...f });
  }
  return [...out.values()];
}

interface ChainSet {
  inSet: ReadonlySet<string>;
  /** Goods the set makes but its block cannot cover. */
  short: ReadonlySet<string>;
  setRecipes: Recipe[];
}

/** Is an import of the chain's block intentional (raw, energy, shared) or left for the chain to build? */
export function classifyImport(ctx: PlanningContext, good: string, amountPerCraft: number, set: ChainSet): OpenInput {
  const x = ctx.g.goods.get(good);
  const consumers = realConsumers(ctx, good).length;
  const additive = consumers >= ADDITIVE_CONSUMERS;
  const ranked = rankedRecipes(ctx, good, 'produce');
  const best = ranked[0]?.info;
  const selectable = ranked.some((r) => r.info.selectable);
  let action: OpenInput['action'] = 'build';
  let suggestion: string;
  if (good === HEAT) {
    suggestion = 'build: heat does not travel between blocks — add a reactor or heat source to the set';
  } else if (good === FLUID_FUEL) {
    action = 'import';
    suggestion = 'import: fluid fuel (MJ) from a fuel block, or add a burn-fluid-* recipe and its fluid';
  } else if (x?.synthetic) {
    action = 'import';
    suggestion = 'import: energy is supplied factory-wide';
  } else if (set.short.has(good)) {
    const by = set.setRecipes.filter((r) => made(r, good) > 0).map((r) => r.name);
    suggestion = `build: the set makes it (${by.join(', ')}) but not enough — running more would need more of what it uses; add a recipe for it, or import the rest (list it in subBlocksNeeded)`;
  } else if (isRaw(ctx, good)) {
    action = 'import';
    suggestion = ranked.length ? 'import: raw resource (mine or pump it)' : 'import: nothing makes it';
  } else if (additive) {
    action = 'import';
    suggestion = `import: shared input of ${consumers} recipes (its own block)`;
  } else if (!selectable) {
    suggestion = `build: but no producer is selectable${best?.lockReason ? ` (${best.recipe.name}: ${best.lockReason})` : ''}`;
  } else suggestion = `build: add ${ranked.find((r) => r.info.selectable && !set.inSet.has(r.info.recipe.name))?.info.recipe.name ?? best!.recipe.name}`;
  return {
    good, display: x?.display ?? good, amountPerCraft: round(amountPerCraft), additive, action, suggestion,
    ...(action === 'build' && !selectable && good !== HEAT && !set.short.has(good) ? { locked: true } : {}),
    producers: realProducers(ctx, good).length, topRecipe: best?.recipe.name ?? null,
  };
}
