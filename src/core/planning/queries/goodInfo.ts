// goodInfo: the build-or-import verdict for one good — what it is, what it costs, who makes and uses
// it, whether it is a shared ("additive") input, and whether it spoils on the way.
import type { PlanningContext } from '../context';
import { goodCost } from './cost';
import { requireGood, parseInput } from './errors';
import {
  ADDITIVE_CONSUMERS, costOut, isRaw, pickerInfo, rankedRecipes, realConsumers, realProducers, spoilFacts, type CandidateState, type SpoilFacts,
} from './common';
import { goodInfoInput, type GoodInfoInput } from './schemas';

export type GoodClassification = 'energy' | 'raw' | 'additive' | 'intermediate' | 'final' | 'unobtainable';
export type GoodVerdict = 'import' | 'build' | 'locked' | 'unobtainable';

export interface GoodInfoResult {
  name: string;
  display: string;
  kind: string;
  type: string;
  cost: number | null;
  producers: { count: number; selectable: number; top: Array<{ recipe: string; display: string; state: CandidateState }> };
  consumers: { count: number; top: Array<{ recipe: string; display: string }> };
  additive: boolean;
  classification: GoodClassification;
  verdict: GoodVerdict;
  /** The verdict in words. */
  reason: string;
  spoils: SpoilFacts | null;
  fromBlock?: string;
  fuelMJ?: number;
  placesMachine?: string;
  stackSize?: number;
}

const TOP = 5;

export interface GoodInfoOptions {
  /** Goods made by existing blocks (good → block name): their verdict is import. */
  blockGoods?: ReadonlyMap<string, string>;
  /** How many producers and consumers to list (5; a good's page lists them all on request). */
  top?: number;
}

export function goodInfo(ctx: PlanningContext, raw: GoodInfoInput, opts: GoodInfoOptions = {}): GoodInfoResult {
  const input = parseInput(goodInfoInput, raw, 'goodInfo');
  const good = requireGood(ctx, input.good);
  const g = ctx.g;
  const producers = realProducers(ctx, good.name);
  const consumers = realConsumers(ctx, good.name);
  const ranked = rankedRecipes(ctx, good.name, 'produce');
  const selectable = ranked.filter((r) => r.info.selectable).length;
  const additive = consumers.length >= ADDITIVE_CONSUMERS;
  const raw_ = isRaw(ctx, good.name);
  const fromBlock = opts.blockGoods?.get(good.name);

  let classification: GoodClassification;
  if (good.synthetic) classification = 'energy';
  else if (!producers.length) classification = consumers.length ? 'raw' : 'unobtainable';
  else if (raw_) classification = 'raw';
  else if (additive) classification = 'additive';
  else if (!consumers.length) classification = 'final';
  else classification = 'intermediate';

  let verdict: GoodVerdict;
  let reason: string;
  if (classification === 'unobtainable') {
    verdict = 'unobtainable';
    reason = 'nothing makes or uses it';
  } else if (fromBlock) {
    verdict = 'import';
    reason = `block '${fromBlock}' already makes it`;
  } else if (classification === 'energy') {
    verdict = 'import';
    reason = 'energy is supplied factory-wide';
  } else if (classification === 'raw') {
    verdict = 'import';
    reason = producers.length ? 'raw resource: mine or pump it where it is found' : 'no recipe makes it: it comes from outside the recipe graph';
  } else if (!selectable) {
    verdict = 'locked';
    const best = ranked[0]?.info;
    reason = `no producer is selectable under the ${ctx.availability.mode} horizon${best?.lockReason ? ` (best: ${best.recipe.name}, ${best.lockReason})` : ''}`;
  } else if (additive) {
    verdict = 'import';
    reason = `shared input of ${consumers.length} recipes: make it in its own block and import it`;
  } else {
    verdict = 'build';
    reason = 'an intermediate: make it inside the block that needs it';
  }

  const machine = g.placedBy.get(good.name);
  return {
    name: good.name,
    display: good.display,
    kind: good.kind,
    type: good.type,
    cost: costOut(goodCost(g, good.name)),
    producers: {
      count: producers.length,
      selectable,
      top: ranked.slice(0, opts.top ?? TOP).map((r) => ({ recipe: r.info.recipe.name, display: r.info.recipe.display, state: r.info.verdict.state })),
    },
    consumers: {
      count: consumers.length,
      top: consumers
        .map((n) => g.recipes.get(n)!)
        .sort((a, b) => pickerInfo(ctx, a).rank - pickerInfo(ctx, b).rank || (a.name < b.name ? -1 : 1))
        .slice(0, opts.top ?? TOP)
        .map((r) => ({ recipe: r.name, display: r.display })),
    },
    additive,
    classification,
    verdict,
    reason,
    spoils: spoilFacts(ctx, good) ?? null,
    ...(fromBlock ? { fromBlock } : {}),
    ...(good.fuelValueJ ? { fuelMJ: good.fuelValueJ / 1e6 } : {}),
    ...(machine ? { placesMachine: machine } : {}),
    ...(good.stackSize ? { stackSize: good.stackSize } : {}),
  };
}
