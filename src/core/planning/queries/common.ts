// Pieces every query shares: compact recipe text ("2 iron-ore + 1 coke"), the picker rank of a
// recipe under the current horizon (domain A), barrel and void detection, good classification and
// spoilage facts. Per-availability caches keep repeated queries cheap.
import type { GameIndex, Good, Ingredient, Product, Recipe } from '../gameIndex';
import { notBuildableSuffix, type CandidateVerdict, type DefaultMachine, type LockState, type RecipeAvailability } from '../availability';
import type { PlanningContext } from '../context';
import { netlyMakes, roundCost, unitCost, recipeCost } from './cost';
import { unlockDistance } from './unlocks';

/** Goods with at least this many consumers are "additive": shared inputs worth their own block. */
export const ADDITIVE_CONSUMERS = 10;
/** recipeGraph does not expand goods with at least this many consumers. */
export const SHARED_SEAM_CONSUMERS = 25;

export function fmtNum(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Number.isInteger(n)) return String(n);
  const a = Math.abs(n);
  return String(Number(n.toPrecision(a >= 1 ? 4 : 3)));
}

export const round = (n: number, digits = 4): number => (Number.isFinite(n) ? Number(n.toPrecision(digits)) : n);

function ingredientText(i: Ingredient): string {
  let t = '';
  if (i.minTemp !== null && i.maxTemp !== null) t = i.minTemp === i.maxTemp ? `(${fmtNum(i.minTemp)}°)` : `(${fmtNum(i.minTemp)}–${fmtNum(i.maxTemp)}°)`;
  else if (i.minTemp !== null) t = `(≥${fmtNum(i.minTemp)}°)`;
  else if (i.maxTemp !== null) t = `(≤${fmtNum(i.maxTemp)}°)`;
  return `${fmtNum(i.amount)} ${i.name}${t}`;
}

function productText(p: Product): string {
  const t = p.temperature !== null ? `(${fmtNum(p.temperature)}°)` : '';
  const pr = p.probability < 1 ? ` @${fmtNum(p.probability * 100)}%` : '';
  return `${fmtNum(p.amount)} ${p.name}${t}${pr}`;
}

export function inText(r: Recipe): string {
  return r.ingredients.length ? r.ingredients.map(ingredientText).join(' + ') : 'nothing';
}

export function outText(r: Recipe): string {
  return r.products.length ? r.products.map(productText).join(' + ') : 'nothing';
}

/** A container item: "barrel" or "canister" as a word of its name (`water-barrel`, Py's `barrel-milk`). */
const CONTAINER = /(^|-)(barrel|canister)(-|$)/;

/** Fill or empty a barrel (or canister): one fluid and one container, nothing else. */
export function isBarrelRecipe(r: Recipe): boolean {
  const all = [...r.ingredients, ...r.products];
  if (all.length < 2 || all.length > 3) return false;
  const fluids = all.filter((x) => x.kind === 'fluid');
  const containers = all.filter((x) => x.kind === 'item' && CONTAINER.test(x.name));
  return fluids.length === 1 && containers.length >= 1 && fluids.length + containers.length === all.length;
}

/** Something other than a barrel recipe makes `good`. */
function madeOutsideBarrels(g: GameIndex, good: string): boolean {
  return g.producersOf(good).some((n) => !isBarrelRecipe(g.recipes.get(n)!));
}

/**
 * A barrel recipe as a source of `good`. Filling makes the full barrel, unless the fluid itself comes
 * only out of barrels (filling it back is a round trip). Emptying makes the fluid only when something
 * other than filling makes the full barrel: Py's korlex ranch gives its milk in barrels, so emptying
 * them is the milk's one source, while a vanilla fluid is never "made" by emptying the barrels it was
 * filled into. An empty container is never made by either.
 */
export function barrelMakes(g: GameIndex, r: Recipe, good: string): boolean {
  const fluid = [...r.ingredients, ...r.products].find((x) => x.kind === 'fluid')!;
  const fills = r.ingredients.some((i) => i.kind === 'fluid');
  if (fills) return r.products.some((p) => p.name === good && p.kind === 'item') && madeOutsideBarrels(g, fluid.name);
  if (good !== fluid.name) return false;
  return r.ingredients.some((i) => i.kind === 'item' && madeOutsideBarrels(g, i.name));
}

/**
 * Really makes `good`: gives more of it than it takes (a recipe handing back less of a good than it
 * consumes is a consumer of it, however its products read); a barrel recipe only as barrelMakes says.
 */
export function makesForReal(g: GameIndex, r: Recipe, good: string): boolean {
  if (!netlyMakes(r, good)) return false;
  return !isBarrelRecipe(r) || barrelMakes(g, r, good);
}

/**
 * `good` is what `r` is for: its own main product (the prototype's `main_product`), else its largest
 * expected output (coal liquefaction for heavy oil, where advanced oil processing gives more light
 * oil). The picker's order, the block editor's best maker and chain completion all rank by this.
 */
export function makesAsMainProduct(r: Recipe, good: string): boolean {
  if (r.mainProduct) return r.mainProduct === good;
  const amount = (name: string) => r.products.filter((p) => p.name === name).reduce((n, p) => n + p.amount * p.probability, 0);
  const mine = amount(good);
  return mine > 0 && r.products.every((p) => p.name === good || amount(p.name) <= mine);
}

/** Disposes of `good`: takes only it and gives back nothing, or less of it (and nothing else). */
export function isVoidRecipeFor(r: Recipe, good: string): boolean {
  if (r.ingredients.length !== 1 || r.ingredients[0].name !== good) return false;
  const taken = r.ingredients[0].amount;
  const given = r.products.filter((p) => p.name === good).reduce((s, p) => s + p.amount * p.probability, 0);
  return r.products.every((p) => p.name === good) && given < taken;
}

// Categories holding a pure void (a disposal machine's: Py's incinerator, a void pit), per game index.
const voidCategoryCache = new WeakMap<GameIndex, Set<string>>();

function voidCategories(g: GameIndex): Set<string> {
  let out = voidCategoryCache.get(g);
  if (out) return out;
  out = new Set();
  for (const r of g.recipes.values()) if (!r.synthetic && r.ingredients.length === 1 && isVoidRecipeFor(r, r.ingredients[0].name)) for (const c of r.categories) out.add(c);
  voidCategoryCache.set(g, out);
  return out;
}

/** Disposes of `good`: a pure void for it, or a recipe that takes only it in a disposal category and
 *  gives back less in all (Py's `iron-oxide-pyvoid`: 1 iron oxide → 0.2 ash in the incinerator). */
export function isDisposalRecipeFor(g: GameIndex, r: Recipe, good: string): boolean {
  if (isVoidRecipeFor(r, good)) return true;
  if (r.ingredients.length !== 1 || r.ingredients[0].name !== good) return false;
  const cats = voidCategories(g);
  if (!r.categories.some((c) => cats.has(c))) return false;
  const given = r.products.reduce((s, p) => s + p.amount * p.probability, 0);
  return given < r.ingredients[0].amount;
}

export { MACHINELESS_KINDS, type CandidateNeeds, type CandidateState, type CandidateVerdict, type LockState } from '../availability';

/** A recipe's verdict under the horizon (the availability layer's, one for every tool) and its default machine. */
export interface PickerInfo {
  recipe: Recipe;
  avail: RecipeAvailability;
  /** The verdict as tool results state it: one state and what is left to do. */
  verdict: CandidateVerdict;
  /** Can be picked under the horizon (domain A "selectable"). */
  selectable: boolean;
  /** 0 unlocked in the save, 1 selectable, 2 locked, 3 superseded. */
  rank: 0 | 1 | 2 | 3;
  lockState: LockState;
  /** Why it is not selectable (locked / superseded), in words. */
  lockReason?: string;
  machine: DefaultMachine;
}

const pickerCache = new WeakMap<object, Map<string, PickerInfo>>();

/** A recipe's place in a picker under the current horizon (rank order of domain A). */
export function pickerInfo(ctx: PlanningContext, recipe: Recipe): PickerInfo {
  const a = ctx.availability;
  let cache = pickerCache.get(a);
  if (!cache) {
    cache = new Map();
    pickerCache.set(a, cache);
  }
  const hit = cache.get(recipe.name);
  if (hit) return hit;
  const avail = a.recipe(recipe.name);
  const out: PickerInfo = { recipe, avail, verdict: a.recipeVerdict(recipe.name), selectable: avail.selectable, rank: avail.rank, lockState: avail.lockState, lockReason: avail.lockReason, machine: a.defaultMachine(recipe) };
  cache.set(recipe.name, out);
  return out;
}

/** Picker order: rank, then (locked recipes) the science packs left to unlock them, then cost
 *  ascending (missing last), then name. */
export function comparePicks(a: { rank: number; cost: number | null; name: string; distance?: number }, b: { rank: number; cost: number | null; name: string; distance?: number }): number {
  if (a.rank !== b.rank) return a.rank - b.rank;
  if ((a.distance ?? 0) !== (b.distance ?? 0)) return (a.distance ?? 0) < (b.distance ?? 0) ? -1 : 1;
  if (a.cost !== b.cost) {
    if (a.cost === null) return 1;
    if (b.cost === null) return -1;
    return a.cost - b.cost;
  }
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export interface RankedRecipe {
  info: PickerInfo;
  /** Ranking cost: per unit of the good for producers, per craft for consumers. */
  cost: number | null;
}

/** Producers (or consumers) of a good in picker order; excluded recipes and barrel round trips left out. */
export function rankedRecipes(ctx: PlanningContext, good: string, direction: 'produce' | 'consume'): RankedRecipe[] {
  const g = ctx.g;
  const a = ctx.availability;
  const names = direction === 'produce' ? g.producersOf(good) : g.consumersOf(good);
  const out: Array<RankedRecipe & { rank: number; name: string; distance?: number }> = [];
  for (const n of names) {
    const r = g.recipes.get(n)!;
    if (a.isExcluded(n) || (direction === 'produce' ? !makesForReal(g, r, good) : isBarrelRecipe(r))) continue;
    if (direction === 'consume' && isVoidRecipeFor(r, good)) continue;
    const info = pickerInfo(ctx, r);
    const cost = direction === 'produce' ? unitCost(g, r, good) : recipeCost(g, r);
    // A locked recipe the player is close to unlocking comes before one deep in the tech tree,
    // however cheap that one runs (Py's pressurized steam: a heat exchanger before a simik boiler).
    out.push({ info, cost, rank: info.rank, name: n, ...(info.rank === 2 ? { distance: unlockDistance(ctx, r) } : {}) });
  }
  out.sort(comparePicks);
  return out.map(({ info, cost }) => ({ info, cost }));
}

/** A candidate's availability in tool results: `state`, and `needs` when something is left to do. */
export function verdictFields(v: CandidateVerdict): CandidateVerdict {
  return { state: v.state, ...(v.needs ? { needs: v.needs } : {}) };
}

/** What a virtual recipe (no building runs it) is, for a candidate's machine text: a burning recipe
 *  gives its burnt result only by destroying the fuel — a burner row burning that fuel gives the same
 *  result and uses the energy. Undefined for a recipe a building runs. */
export function virtualMachineText(r: Recipe): string | undefined {
  if (r.kind === 'burning') return "none — virtual burning; a burner row's fuel gives this result";
  if (r.kind === 'spoiling') return 'none — virtual: the item left to spoil';
  return undefined;
}

/** Machine text for results: "Press MK2 [press-mk2] ×1.1 — fastest buildable machine …". */
export function machineText(d: DefaultMachine): string {
  if (!d.machine) return `none — ${d.explanation}`;
  return `${d.machine.display} [${d.machine.name}] ×${fmtNum(d.machine.speed)} — ${d.explanation}${notBuildableSuffix(d)}`;
}

export interface SpoilFacts {
  into: string | null;
  seconds: number;
  /** Spoils faster than the import cutoff: make it where it is used. */
  mustBeLocal: boolean;
}

export function spoilFacts(ctx: PlanningContext, good: Good): SpoilFacts | undefined {
  if (!good.spoilTicks || good.spoilTicks <= 0) return undefined;
  const seconds = good.spoilTicks / 60;
  return { into: good.spoilResult, seconds: round(seconds), mustBeLocal: seconds < ctx.availability.state.settings.spoil_import_cutoff_sec };
}

/** Recipes that count as real uses of a good (barrels, voids and exclusions left out). */
export function realConsumers(ctx: PlanningContext, good: string): string[] {
  return ctx.g.consumersOf(good).filter((n) => {
    const r = ctx.g.recipes.get(n)!;
    return !ctx.availability.isExcluded(n) && !isBarrelRecipe(r) && !isVoidRecipeFor(r, good) && r.kind !== 'burning';
  });
}

/** Recipes that really make a good (exclusions and barrel round trips left out, see makesForReal). */
export function realProducers(ctx: PlanningContext, good: string): string[] {
  return ctx.g.producersOf(good).filter((n) => !ctx.availability.isExcluded(n) && makesForReal(ctx.g, ctx.g.recipes.get(n)!, good));
}

/** Mined, pumped or made by nothing: a raw resource at the edge of any chain (other recipes making it are side routes). */
export function isRaw(ctx: PlanningContext, good: string): boolean {
  const ps = realProducers(ctx, good);
  if (!ps.length) return true;
  return ps.some((n) => {
    const k = ctx.g.recipes.get(n)!.kind;
    return k === 'mining' || k === 'pumping';
  });
}

export function costOut(c: number | null): number | null {
  return roundCost(c);
}
