// byproductSinks: where a byproduct can go — recipes that use it (picker order, with availability),
// void options (recipes that take only it and give back nothing or less of it), blocks that import
// it (when the caller knows them) and whether it spoils on its own.
import type { PlanningContext } from '../context';
import { parseInput, requireGood } from './errors';
import { costOut, inText, isVoidRecipeFor, outText, pickerInfo, rankedRecipes, spoilFacts, type LockState, type SpoilFacts } from './common';
import { byproductSinksInput, type ByproductSinksInput } from './schemas';

export interface ByproductSinksResult {
  good: string;
  display: string;
  spoils: SpoilFacts | null;
  importingBlocks: string[];
  consumedBy: Array<{ recipe: string; display: string; available: boolean; lockState: LockState; lockReason?: string; cost: number | null; in: string; out: string }>;
  consumersTotal: number;
  truncated: boolean;
  voidOptions: Array<{ recipe: string; display: string; available: boolean; lockState: LockState; hidden: boolean; in: string; out: string }>;
  note: string;
}

export interface ByproductSinksOptions {
  /** Blocks importing the good (names), when the caller has a factory at hand. */
  importingBlocks?: string[];
}

const MAX_VOIDS = 3;

export function byproductSinks(ctx: PlanningContext, raw: ByproductSinksInput, opts: ByproductSinksOptions = {}): ByproductSinksResult {
  const input = parseInput(byproductSinksInput, raw, 'byproductSinks');
  const g = ctx.g;
  const good = requireGood(ctx, input.good);
  const ranked = rankedRecipes(ctx, good.name, 'consume').filter((r) => r.info.recipe.kind !== 'burning');
  const consumedBy = ranked.slice(0, input.limit).map((r) => ({
    recipe: r.info.recipe.name,
    display: r.info.recipe.display,
    available: r.info.selectable,
    lockState: r.info.lockState,
    ...(r.info.lockReason ? { lockReason: r.info.lockReason } : {}),
    cost: costOut(r.cost),
    in: inText(r.info.recipe),
    out: outText(r.info.recipe),
  }));
  const voids = g
    .consumersOf(good.name)
    .map((n) => g.recipes.get(n)!)
    .filter((r) => isVoidRecipeFor(r, good.name) && !ctx.availability.isExcluded(r.name))
    .map((r) => ({ r, p: pickerInfo(ctx, r) }))
    .sort((x, y) => x.p.rank - y.p.rank || Number(x.r.hidden) - Number(y.r.hidden) || (x.r.name < y.r.name ? -1 : 1))
    .slice(0, MAX_VOIDS)
    .map(({ r, p }) => ({ recipe: r.name, display: r.display, available: p.selectable, lockState: p.lockState, hidden: r.hidden, in: inText(r), out: outText(r) }));
  const burn = g.consumersOf(good.name).find((n) => g.recipes.get(n)!.kind === 'burning');
  const spoils = spoilFacts(ctx, good) ?? null;
  const usable = consumedBy.filter((c) => c.available).length;
  const parts = [
    usable ? `${usable} selectable recipe${usable === 1 ? '' : 's'} use it: route it there (a drain pin in the block, or a block that consumes it)` : 'no selectable recipe uses it',
    voids.length ? `void it with ${voids[0].recipe}${voids[0].available ? '' : ' (not selectable yet)'}` : 'no void recipe exists',
    ...(burn ? [`it is a fuel (${burn})`] : []),
    ...(spoils ? [`it spoils into ${spoils.into ?? 'nothing'} after ${spoils.seconds} s`] : []),
  ];
  return {
    good: good.name,
    display: good.display,
    spoils,
    importingBlocks: opts.importingBlocks ?? [],
    consumedBy,
    consumersTotal: ranked.length,
    truncated: ranked.length > input.limit,
    voidOptions: voids,
    note: parts.join('; '),
  };
}
