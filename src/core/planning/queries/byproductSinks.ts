// byproductSinks: where a byproduct can go — recipes that use it (picker order, with availability),
// disposals (recipes that take only it and give back nothing, less of it, or a residue in a disposal
// machine such as Py's incinerator), blocks that import it (when the caller knows them) and whether
// it spoils on its own. One good, or several in one batch.
import type { PlanningContext } from '../context';
import { parseInput, QueryError, requireGood } from './errors';
import { costOut, inText, isDisposalRecipeFor, outText, pickerInfo, rankedRecipes, spoilFacts, verdictFields, type CandidateNeeds, type CandidateState, type SpoilFacts } from './common';
import { firstRecipes, foldVariants, recipesIn } from './variants';
import { byproductSinksBatchInput, byproductSinksInput, type ByproductSinksBatchInput, type ByproductSinksInput } from './schemas';

export interface ByproductSinksResult {
  good: string;
  display: string;
  spoils: SpoilFacts | null;
  importingBlocks: string[];
  /** `variants`: the same recipe taking a fluid at another temperature (FactorioLab sets list each apart). */
  consumedBy: Array<{ recipe: string; display: string; state: CandidateState; needs?: CandidateNeeds; cost: number | null; in: string; out: string; variants?: string[] }>;
  consumersTotal: number;
  truncated: boolean;
  /** Disposals: pure voids and residue-giving disposals (out states what is given back). */
  voidOptions: Array<{ recipe: string; display: string; state: CandidateState; needs?: CandidateNeeds; hidden: boolean; in: string; out: string }>;
  note: string;
}

export interface ByproductSinksOptions {
  /** Blocks importing the good (names), when the caller has a factory at hand. */
  importingBlocks?: string[];
}

const MAX_VOIDS = 3;

export function byproductSinks(ctx: PlanningContext, raw: ByproductSinksInput, opts: ByproductSinksOptions = {}): ByproductSinksResult {
  const input = parseInput(byproductSinksInput, raw, 'byproductSinks');
  return sinksOf(ctx, input.good, input.limit, opts.importingBlocks ?? []);
}

export interface ByproductSinksBatchResult {
  /** One entry per known good, in the order asked. */
  results: ByproductSinksResult[];
  /** Names that are not goods, each with suggestions. */
  unknown?: Array<{ good: string; error: string }>;
}

/** Sinks of one good (`good`) or several (`goods`); blocks importing each good come from `importers`. */
export function byproductSinksBatch(ctx: PlanningContext, raw: ByproductSinksBatchInput, importers: (good: string) => string[] = () => []): ByproductSinksBatchResult {
  const input = parseInput(byproductSinksBatchInput, raw, 'byproductSinks');
  const results: ByproductSinksResult[] = [];
  const unknown: Array<{ good: string; error: string }> = [];
  for (const good of new Set(input.goods ?? [input.good!])) {
    try {
      results.push(sinksOf(ctx, good, input.limit, importers(good)));
    } catch (err) {
      if (!(err instanceof QueryError)) throw err;
      unknown.push({ good, error: err.message });
    }
  }
  return { results, ...(unknown.length ? { unknown } : {}) };
}

function sinksOf(ctx: PlanningContext, name: string, limit: number, importingBlocks: string[]): ByproductSinksResult {
  const g = ctx.g;
  const good = requireGood(ctx, name);
  const ranked = rankedRecipes(ctx, good.name, 'consume').filter((r) => r.info.recipe.kind !== 'burning' && !isDisposalRecipeFor(g, r.info.recipe, good.name));
  // Temperature variants of one consumer fold into its line, as in recipeOptions (variants.ts); they
  // count toward the limit.
  const lines = firstRecipes(foldVariants(g, ranked), limit);
  const shown = lines.map((x) => x.r);
  const consumedBy = lines.map(({ r, variants }) => ({
    recipe: r.info.recipe.name,
    display: r.info.recipe.display,
    ...verdictFields(r.info.verdict),
    cost: costOut(r.cost),
    in: inText(r.info.recipe),
    out: outText(r.info.recipe),
    ...(variants.length ? { variants } : {}),
  }));
  const voids = g
    .consumersOf(good.name)
    .map((n) => g.recipes.get(n)!)
    .filter((r) => isDisposalRecipeFor(g, r, good.name) && !ctx.availability.isExcluded(r.name))
    .map((r) => ({ r, p: pickerInfo(ctx, r) }))
    .sort((x, y) => x.p.rank - y.p.rank || Number(x.r.hidden) - Number(y.r.hidden) || (x.r.name < y.r.name ? -1 : 1))
    .slice(0, MAX_VOIDS);
  const voidOptions = voids.map(({ r, p }) => ({ recipe: r.name, display: r.display, ...verdictFields(p.verdict), hidden: r.hidden, in: inText(r), out: outText(r) }));
  const burn = g.consumersOf(good.name).find((n) => g.recipes.get(n)!.kind === 'burning');
  const spoils = spoilFacts(ctx, good) ?? null;
  const usable = shown.filter((r) => r.info.selectable).length;
  const v = voids[0];
  const parts = [
    usable ? `${usable} selectable recipe${usable === 1 ? '' : 's'} use it: route it there (a drain pin in the block, or a block that consumes it)` : 'no selectable recipe uses it',
    v
      ? `void it with ${v.r.name} (${inText(v.r)} → ${outText(v.r)})${v.p.selectable ? '' : ` — not selectable yet: ${v.p.lockReason ?? v.p.verdict.state}`}`
      : 'no void recipe exists',
    ...(burn ? [`it is a fuel (${burn})`] : []),
    ...(spoils ? [`it spoils into ${spoils.into ?? 'nothing'} after ${spoils.seconds} s`] : []),
  ];
  return {
    good: good.name,
    display: good.display,
    spoils,
    importingBlocks,
    consumedBy,
    consumersTotal: ranked.length,
    truncated: ranked.length > recipesIn(lines),
    voidOptions,
    note: parts.join('; '),
  };
}

/** Ingredients a consumer's `in` keeps whole for the model; a longer list keeps the good's own term. */
const SINK_INPUTS = 4;

/** "20 moss + 1 negasium + … (13 terms)" → "1 negasium + 12 other inputs": what routing the good needs
 *  to know of a consumer is how much of it one craft takes, not a Py science pack's whole recipe. */
export function sinkInText(text: string, good: string): string {
  const terms = text.split(' + ');
  if (terms.length <= SINK_INPUTS) return text;
  const own = terms.find((t) => t.split(' ')[1]?.replace(/\(.*$/, '') === good);
  return own ? `${own} + ${terms.length - 1} other inputs` : text;
}

/** One good's sinks as the model reads them: recipes by their internal names (display names are for
 *  people; the good's own stays), without `spoils: null` and an empty disposal list — the note says
 *  whether it spoils and that no void recipe exists. A consumer's long ingredient list keeps the
 *  good's own term (sinkInText), an unknown cost is left out, and what a locked consumer needs names
 *  the technologies (researchPath gives their packs). */
function sinksForModel({ spoils, consumedBy, voidOptions, ...r }: ByproductSinksResult): unknown {
  const bare = <T extends { display: string }>({ display: _display, ...x }: T) => x;
  return {
    ...r,
    ...(spoils ? { spoils } : {}),
    consumedBy: consumedBy.map(({ display: _display, cost, needs, ...c }) => ({
      ...c,
      ...(needs ? { needs: needsWithoutPacks(needs) } : {}),
      ...(cost !== null ? { cost } : {}),
      in: sinkInText(c.in, r.good),
    })),
    ...(voidOptions.length ? { voidOptions: voidOptions.map(bare) } : {}),
  };
}

function needsWithoutPacks({ packs: _packs, machine, ...n }: CandidateNeeds): CandidateNeeds {
  return { ...n, ...(machine ? { machine: { name: machine.name, ...(machine.research ? { research: machine.research } : {}) } } : {}) };
}

export function byproductSinksForModel(r: ByproductSinksBatchResult): unknown {
  return { ...r, results: r.results.map(sinksForModel) };
}
