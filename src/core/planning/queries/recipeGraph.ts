// recipeGraph: the production neighbourhood of a good, breadth first from the target and cut at
// seams — raw goods, goods an existing block makes, shared goods (≥25 consumers) and the depth
// limit. Each expanded good lists its best producers (picker order); their ingredients are queued
// best candidate first. Barrel recipes are skipped. When nodeBudget goods are described the walk
// stops and the goods still queued come back as the frontier (`unexpanded`, `budgetHit`).
import type { PlanningContext } from '../context';
import { parseInput, requireGood } from './errors';
import {
  ADDITIVE_CONSUMERS, SHARED_SEAM_CONSUMERS, costOut, inText, isRaw, outText, rankedRecipes, realConsumers, researchFields, spoilFacts, type SpoilFacts,
} from './common';
import { recipeGraphInput, type RecipeGraphInput } from './schemas';

export type Seam = 'raw' | 'block' | 'shared' | 'depth' | 'energy';

export interface GraphCandidate {
  recipe: string;
  availableNow: boolean;
  buildableNow: boolean;
  research: string;
  needsResearch?: string[];
  turd?: { master: string; choice: string; state: string };
  lockState: string;
  cost: number | null;
  prod: boolean;
  in: string;
  out: string;
}

export interface GraphNode {
  display: string;
  kind: string;
  depth: number;
  consumers: number;
  additive: boolean;
  fromBlock?: string;
  spoils?: SpoilFacts;
  leaf?: true;
  seam?: Seam;
  candidates?: GraphCandidate[];
  moreCandidates?: number;
}

export interface RecipeGraphResult {
  target: string;
  goodCount: number;
  budgetHit: boolean;
  /** Goods discovered but not described because the node budget ran out. */
  unexpanded: string[];
  unexpandedTruncated?: boolean;
  legend: string;
  goods: Record<string, GraphNode>;
}

export interface RecipeGraphOptions {
  /** Goods made by existing blocks (good → block name): seams, never expanded. */
  blockGoods?: ReadonlyMap<string, string> | ReadonlySet<string>;
}

const MAX_FRONTIER = 40;

export const GRAPH_LEGEND =
  'goods: each good once, breadth first from the target. leaf+seam = not expanded: raw (mined, pumped or made by nothing), ' +
  'block (an existing block makes it: import it), shared (≥25 consumers: its own block), depth (depth limit), energy. ' +
  'candidates: best producers first (unlocked in the save, selectable, locked, superseded; then cost per unit, then name); ' +
  'moreCandidates = producers not listed. unexpanded: goods found but left out when nodeBudget was hit (call recipeGraph on them).';

export function recipeGraph(ctx: PlanningContext, raw: RecipeGraphInput, opts: RecipeGraphOptions = {}): RecipeGraphResult {
  const input = parseInput(recipeGraphInput, raw, 'recipeGraph');
  const target = requireGood(ctx, input.target).name;
  const g = ctx.g;
  const blockOf = (good: string): string | undefined => {
    const b = opts.blockGoods;
    if (!b) return undefined;
    if (b instanceof Map) return b.get(good);
    return (b as ReadonlySet<string>).has(good) ? 'an existing block' : undefined;
  };

  const goods: Record<string, GraphNode> = {};
  let count = 0;
  const queue: Array<{ good: string; depth: number }> = [{ good: target, depth: 0 }];
  const seen = new Set([target]);
  let head = 0;
  let budgetHit = false;
  while (head < queue.length) {
    if (count >= input.nodeBudget) {
      budgetHit = true;
      break;
    }
    const { good, depth } = queue[head++];
    const x = g.goods.get(good);
    if (!x) continue;
    const consumers = realConsumers(ctx, good).length;
    const node: GraphNode = { display: x.display, kind: x.kind, depth, consumers, additive: consumers >= ADDITIVE_CONSUMERS };
    const fromBlock = blockOf(good);
    if (fromBlock) node.fromBlock = fromBlock;
    const sp = spoilFacts(ctx, x);
    if (sp) node.spoils = sp;
    goods[good] = node;
    count++;

    const isTarget = good === target;
    let seam: Seam | undefined;
    if (x.synthetic) seam = 'energy';
    else if (isRaw(ctx, good) && (!isTarget || !g.producersOf(good).length)) seam = 'raw';
    else if (!isTarget && fromBlock) seam = 'block';
    else if (!isTarget && consumers >= SHARED_SEAM_CONSUMERS) seam = 'shared';
    else if (depth >= input.depth) seam = 'depth';
    if (seam) {
      node.leaf = true;
      node.seam = seam;
      continue;
    }
    const ranked = rankedRecipes(ctx, good, 'produce');
    const shown = ranked.slice(0, input.candidatesPerGood);
    node.candidates = shown.map((r) => ({
      recipe: r.info.recipe.name,
      ...researchFields(r.info),
      lockState: r.info.lockState,
      cost: costOut(r.cost),
      prod: r.info.recipe.allowProductivity,
      in: inText(r.info.recipe),
      out: outText(r.info.recipe),
    }));
    if (ranked.length > shown.length) node.moreCandidates = ranked.length - shown.length;
    if (!shown.length) {
      node.leaf = true;
      node.seam = 'raw';
      delete node.candidates;
      continue;
    }
    for (const r of shown) {
      for (const i of r.info.recipe.ingredients) {
        if (seen.has(i.name)) continue;
        seen.add(i.name);
        queue.push({ good: i.name, depth: depth + 1 });
      }
    }
  }
  const frontier = queue.slice(head).map((q) => q.good);
  return {
    target,
    goodCount: count,
    budgetHit,
    unexpanded: frontier.slice(0, MAX_FRONTIER),
    ...(frontier.length > MAX_FRONTIER ? { unexpandedTruncated: true } : {}),
    legend: GRAPH_LEGEND,
    goods,
  };
}
