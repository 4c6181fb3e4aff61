// recipeOptions / recipeOptionsBatch: ranked producers or consumers of a good, in picker order
// (unlocked in the save, selectable, locked, superseded; then cost, then name), each with its
// availability as one `state` (plus `needs`: what is left to do) and the machine the default rule
// picks, stated in words.
import type { PlanningContext } from '../context';
import type { DefaultMachine } from '../availability';
import type { Machine } from '../gameIndex';
import { parseInput, QueryError, requireGood } from './errors';
import { costOut, fmtNum, inText, machineText, outText, rankedRecipes, verdictFields, virtualMachineText, type CandidateNeeds, type CandidateState, type RankedRecipe } from './common';
import { recipeOptionsBatchInput, recipeOptionsInput, type RecipeOptionsBatchInput, type RecipeOptionsInput } from './schemas';
import { firstRecipes, foldVariants, recipesIn } from './variants';

export interface RecipeCandidate {
  recipe: string;
  display: string;
  /** Its availability under the horizon (see CandidateState). */
  state: CandidateState;
  /** What is left to do: research (and missing packs), a TURD pick, a machine, or the recipe to use instead. */
  needs?: CandidateNeeds;
  /** Intrinsic cost per unit of the good (producers) or per craft (consumers); null = unpriced. */
  cost: number | null;
  /** Productivity modules/bonuses apply. */
  prod: boolean;
  researchProdPct?: number;
  /** The machine the default rule picks, and why. */
  machine: string;
  machineName: string | null;
  /** The favourite machine of the category, in the same state words. */
  machineFavorite?: { name: string; state: CandidateState; used: boolean };
  /** A faster machine than the default one, in the same state words. */
  fastestMachine?: { name: string; speed: number; state: CandidateState };
  in: string;
  out: string;
  /** The same recipe taking a fluid at another temperature (FactorioLab sets list each apart), folded into this line. */
  variants?: string[];
}

export interface RecipeOptionsResult {
  good: string;
  display: string;
  direction: 'produce' | 'consume';
  /** How the machine of each option was chosen. */
  machineRule: string;
  candidates: RecipeCandidate[];
  total: number;
  truncated: boolean;
  note?: string;
}

export function candidateOf(ctx: PlanningContext, r: RankedRecipe): RecipeCandidate {
  const { info } = r;
  const rec = info.recipe;
  const a = ctx.availability;
  const m = info.machine.machine;
  const fav = favoriteFor(ctx, rec.categories);
  const all = ctx.g.machinesFor(rec).filter((x) => !a.isExcluded(x.name) && !(x.hidden && !x.item));
  const fastest = all.length ? all.reduce((best, x) => (x.speed > best.speed ? x : best)) : null;
  const bonus = a.productivityBonus(rec);
  return {
    recipe: rec.name,
    display: rec.display,
    ...verdictFields(info.verdict),
    cost: costOut(r.cost),
    prod: rec.allowProductivity,
    ...(bonus > 0 ? { researchProdPct: Math.round(bonus * 1000) / 10 } : {}),
    machine: virtualMachineText(rec) ?? optionMachineText(info.machine),
    machineName: m?.name ?? null,
    ...(fav ? { machineFavorite: { name: fav.name, state: a.machineVerdict(fav.name).state, used: m?.name === fav.name } } : {}),
    ...(fastest && m && fastest.name !== m.name && fastest.speed > m.speed
      ? { fastestMachine: { name: fastest.name, speed: fastest.speed, state: a.machineVerdict(fastest.name).state } }
      : {}),
    in: inText(rec),
    out: outText(rec),
  };
}

// The rule is stated once per result (machineRule): a candidate gives its reason only when its machine
// is not simply the fastest buildable one (a favorite, or none buildable and what unlocks it).
function optionMachineText(d: DefaultMachine): string {
  return d.rule === 'fastest-buildable' && d.machine ? `${d.machine.display} [${d.machine.name}] ×${fmtNum(d.machine.speed)}` : machineText(d);
}

function favoriteFor(ctx: PlanningContext, categories: string[]): Machine | null {
  const favs = ctx.availability.state.settings.favorite_machines;
  for (const c of categories) {
    const f = favs[c];
    const m = f ? ctx.g.machines.get(f) : undefined;
    if (m && m.categories.includes(c)) return m;
  }
  return null;
}

export const MACHINE_RULE =
  'machine = your favorite for the category if set and buildable, else the fastest buildable machine (a machine with no reason after it); when none is buildable, the fastest one, marked not buildable with the technology it needs';

function optionsFor(ctx: PlanningContext, good: string, direction: 'produce' | 'consume', limit: number): RecipeOptionsResult {
  const x = requireGood(ctx, good);
  const ranked = rankedRecipes(ctx, x.name, direction);
  const lines = firstRecipes(foldVariants(ctx.g, ranked), limit);
  const shown = lines.map((f) => f.r);
  const candidates = lines.map(({ r, variants }) => ({ ...candidateOf(ctx, r), ...(variants.length ? { variants } : {}) }));
  const note = !ranked.length
    ? direction === 'produce'
      ? `nothing makes ${x.name}${ctx.g.consumersOf(x.name).length ? '; it must come from outside (raw resource or import)' : ''}`
      : `nothing uses ${x.name}`
    : !shown.some((r) => r.info.selectable)
      ? `none is selectable under the ${ctx.availability.mode} horizon; each one's needs says what to unlock`
      : undefined;
  return {
    good: x.name,
    display: x.display,
    direction,
    machineRule: MACHINE_RULE,
    candidates,
    total: ranked.length,
    truncated: ranked.length > recipesIn(lines),
    ...(note ? { note } : {}),
  };
}

export function recipeOptions(ctx: PlanningContext, raw: RecipeOptionsInput): RecipeOptionsResult {
  const input = parseInput(recipeOptionsInput, raw, 'recipeOptions');
  return optionsFor(ctx, input.good, input.direction, input.limit);
}

export interface RecipeOptionsBatchResult {
  direction: 'produce' | 'consume';
  machineRule: string;
  options: Record<string, { display: string; candidates: RecipeCandidate[]; total: number; truncated: boolean; note?: string }>;
  /** Names that are not goods, each with suggestions. */
  unknown?: Array<{ good: string; error: string }>;
}

export function recipeOptionsBatch(ctx: PlanningContext, raw: RecipeOptionsBatchInput): RecipeOptionsBatchResult {
  const input = parseInput(recipeOptionsBatchInput, raw, 'recipeOptionsBatch');
  const options: RecipeOptionsBatchResult['options'] = {};
  const unknown: Array<{ good: string; error: string }> = [];
  for (const good of new Set(input.goods)) {
    try {
      const r = optionsFor(ctx, good, input.direction, input.limitEach);
      options[r.good] = { display: r.display, candidates: r.candidates, total: r.total, truncated: r.truncated, ...(r.note ? { note: r.note } : {}) };
    } catch (err) {
      if (!(err instanceof QueryError)) throw err;
      unknown.push({ good, error: err.message });
    }
  }
  if (!Object.keys(options).length && unknown.length) throw new QueryError(unknown.map((u) => u.error).join('; '));
  return { direction: input.direction, machineRule: MACHINE_RULE, options, ...(unknown.length ? { unknown } : {}) };
}

/** A candidate as the model reads it: recipe and machine by the internal names every other tool takes
 *  (display names are for people; the good's own display stays), the machine as "name ×speed" with its
 *  reason when it has one ("none — why" when no machine runs it), a faster one as "name ×speed (state)". */
type ModelCandidate = Omit<RecipeCandidate, 'display' | 'machineName' | 'fastestMachine' | 'cost' | 'prod'> & { fastestMachine?: string; cost?: number; prod?: true };

/** ... and, as in recipeGraph, without an unknown cost or `prod: false`. */
function candidateForModel({ display: _display, machineName, machine, fastestMachine, cost, prod, ...c }: RecipeCandidate): ModelCandidate {
  const tag = machineName ? `[${machineName}]` : '';
  const at = tag ? machine.indexOf(tag) : -1;
  return {
    ...c,
    ...(cost !== null ? { cost } : {}),
    ...(prod ? { prod: true as const } : {}),
    machine: at >= 0 ? `${machineName}${machine.slice(at + tag.length)}` : machine,
    ...(fastestMachine ? { fastestMachine: `${fastestMachine.name} ×${fmtNum(fastestMachine.speed)} (${fastestMachine.state})` } : {}),
  };
}

export function recipeOptionsForModel(r: RecipeOptionsResult): unknown {
  return { ...r, candidates: r.candidates.map(candidateForModel) };
}

export function recipeOptionsBatchForModel(r: RecipeOptionsBatchResult): unknown {
  return { ...r, options: Object.fromEntries(Object.entries(r.options).map(([good, o]) => [good, { ...o, candidates: o.candidates.map(candidateForModel) }])) };
}
