// recipeGraph: the production neighbourhood of a good, breadth first from the target and cut at
// seams — raw goods, goods an existing block makes, shared goods (≥25 consumers), the depth limit
// and dead ends (nothing selectable under the horizon makes it). Only producers selectable under the
// horizon are listed and expanded (picker order); the locked ones of a good are summed up in one
// line with their cheapest unlock, so a model never pays for routes it cannot build. Barrel recipes
// are skipped. The walk is bounded twice: by goods described (nodeBudget) and by the characters of
// the JSON result (maxChars) — a model pays for every character — and when either stops it the goods
// still queued come back as the frontier with what to call next. Further start goods (`also`: a
// plan's supplier blocks) are walked in the same breadth-first pass, so a good their chains share is
// described once and one call replaces a graph per block (its budgets grow with each).
import type { PlanningContext } from '../context';
import type { Recipe } from '../gameIndex';
import { parseInput, requireGood } from './errors';
import {
  SHARED_SEAM_CONSUMERS, costOut, inText, isRaw, outText, rankedRecipes, realConsumers, spoilFacts, verdictFields, virtualMachineText, type CandidateNeeds, type CandidateState, type RankedRecipe, type SpoilFacts,
} from './common';
import { consumedInputs, makeableGoods } from './makeable';
import { firstRecipes, foldVariants, recipesIn } from './variants';
import { cheapestUnlock, type Unlock } from './unlocks';
import { GRAPH_MAX_CHARS, GRAPH_MAX_NODES, recipeGraphInput, type RecipeGraphInput } from './schemas';

export type Seam = 'raw' | 'block' | 'shared' | 'depth' | 'energy' | 'dead-end';

export interface GraphCandidate {
  recipe: string;
  /** Its availability under the horizon (see CandidateState); absent = buildable, what nearly every
   *  listed candidate is (the graph lists selectable recipes only). */
  state?: Exclude<CandidateState, 'buildable'>;
  /** What is left to do: research (and missing packs), a TURD pick, a machine. */
  needs?: CandidateNeeds;
  /** Intrinsic cost per unit of the good; absent when unknown. */
  cost?: number;
  /** Productivity modules allowed; absent when not. */
  prod?: true;
  /** Only for a virtual recipe no building runs (fuel burning, spoiling): "none — what it is". */
  machine?: string;
  /** The same recipe taking a fluid at another temperature (FactorioLab sets list each apart): name one to use it. */
  variants?: string[];
  in: string;
  out: string;
}

export interface GraphNode {
  display: string;
  kind: string;
  depth: number;
  /** Recipes that use it: its fan-out (10 or more: a commodity worth importing; 25 or more: a shared seam). */
  consumers: number;
  fromBlock?: string;
  spoils?: SpoilFacts;
  leaf?: true;
  seam?: Seam;
  /** Nothing selectable under the horizon can make it (import it, or unlock what `locked` names). */
  deadEnd?: true;
  /** Why a good with selectable producers is still a dead end: inputs of them nothing selectable makes. */
  blockedBy?: string[];
  candidates?: GraphCandidate[];
  /** Selectable producers not listed (candidatesPerGood). */
  moreCandidates?: number;
  /** The producers that are not selectable, in one line: how many and the cheapest unlock. */
  locked?: string;
}

export interface RecipeGraphResult {
  target: string;
  /** The further start goods asked for (input `also`), each expanded like the target. */
  also?: string[];
  display: string;
  horizon: string;
  goodCount: number;
  /** A budget (nodeBudget or maxChars) stopped the walk: `unexpanded` holds goods found but not described. */
  truncated: boolean;
  unexpanded: string[];
  /** Frontier goods left out of `unexpanded` for size. */
  unexpandedMore?: number;
  /** What to call next when truncated. */
  next?: string;
  /** Goods nothing selectable makes under the horizon. */
  deadEnds?: string[];
  note?: string;
  legend: string;
  goods: Record<string, GraphNode>;
}

export interface RecipeGraphOptions {
  /** Goods made by existing blocks (good → block name): seams, never expanded. */
  blockGoods?: ReadonlyMap<string, string> | ReadonlySet<string>;
}

const MAX_FRONTIER = 40;
/** Default budgets, and what each further start good adds to them. */
const DEFAULT_CHARS = 8_000;
const CHARS_PER_ALSO = 4_000;
const DEFAULT_NODES = 55;
const NODES_PER_ALSO = 30;
const MAX_BLOCKERS = 6;
/** Characters kept free for the frontier list when the size budget stops the walk. */
const FRONTIER_RESERVE = 600;

export const GRAPH_LEGEND =
  'goods: breadth first from the target, each once; consumers = recipes using it (≥10: a commodity). candidates: producers selectable under the horizon, best first ' +
  '(state unlocked, then buildable (no state) or turd-pick; then cost/unit), only these are expanded; prod = productivity allowed; needs = what is left to do; variants = the same recipe taking a fluid at another temperature; moreCandidates = selectable ones not listed; ' +
  'locked = the others in one line with the cheapest unlock (researchPath it). leaf+seam = not expanded: raw, block (an existing ' +
  'block makes it), shared (≥25 consumers), depth, energy, dead-end (nothing selectable makes it: import it or unlock it).';

const HORIZON: Record<string, string> = { now: 'Now', target: 'Up to target', future: 'Future' };

export function recipeGraph(ctx: PlanningContext, raw: RecipeGraphInput, opts: RecipeGraphOptions = {}): RecipeGraphResult {
  const input = parseInput(recipeGraphInput, raw, 'recipeGraph');
  const target = requireGood(ctx, input.target).name;
  const also = [...new Set((input.also ?? []).map((a) => requireGood(ctx, a).name))].filter((a) => a !== target);
  const roots = new Set([target, ...also]);
  const maxChars = input.maxChars ?? Math.min(GRAPH_MAX_CHARS, DEFAULT_CHARS + CHARS_PER_ALSO * also.length);
  const nodeBudget = input.nodeBudget ?? Math.min(GRAPH_MAX_NODES, DEFAULT_NODES + NODES_PER_ALSO * also.length);
  const g = ctx.g;
  const blockOf = (good: string): string | undefined => {
    const b = opts.blockGoods;
    if (!b) return undefined;
    if (b instanceof Map) return b.get(good);
    return (b as ReadonlySet<string>).has(good) ? 'an existing block' : undefined;
  };
  const s = ctx.availability.state.settings;
  const horizon = s.research_mode === 'target' ? `${HORIZON.target} (${s.horizon_target ?? 'no target set'})` : HORIZON[s.research_mode];

  const makeable = makeableGoods(ctx);
  const goods: Record<string, GraphNode> = {};
  const deadEnds: string[] = [];
  let count = 0;
  // Every start good is a target at depth 0: breadth first from all of them, each good once.
  const queue: Array<{ good: string; depth: number }> = [...roots].map((good) => ({ good, depth: 0 }));
  const seen = new Set(roots);
  let head = 0;
  let truncated = false;
  // Size accounting: the result's JSON without goods, plus each described good's `"name":{…},`.
  const skeleton = JSON.stringify({ target, ...(also.length ? { also } : {}), display: g.goods.get(target)!.display, horizon, goodCount: 0, truncated: true, unexpanded: [], next: nextText(target), legend: GRAPH_LEGEND, goods: {} }).length;
  const goodsBudget = maxChars - skeleton - FRONTIER_RESERVE;
  let used = 0;
  while (head < queue.length) {
    if (count >= nodeBudget) {
      truncated = true;
      break;
    }
    const { good, depth } = queue[head];
    const x = g.goods.get(good);
    if (!x) {
      head++;
      continue;
    }
    const consumers = realConsumers(ctx, good).length;
    const node: GraphNode = { display: x.display, kind: x.kind, depth, consumers };
    const fromBlock = blockOf(good);
    if (fromBlock) node.fromBlock = fromBlock;
    const sp = spoilFacts(ctx, x);
    if (sp) node.spoils = sp;

    const isTarget = roots.has(good);
    let seam: Seam | undefined;
    if (x.synthetic) seam = 'energy';
    else if (isRaw(ctx, good) && (!isTarget || !g.producersOf(good).length)) seam = 'raw';
    else if (!isTarget && fromBlock) seam = 'block';
    else if (!isTarget && consumers >= SHARED_SEAM_CONSUMERS) seam = 'shared';
    else if (depth >= input.depth) seam = 'depth';

    let expand: RankedRecipe[] = [];
    if (seam !== 'energy' && seam !== 'raw' && seam !== 'block') {
      const ranked = rankedRecipes(ctx, good, 'produce');
      const open = ranked.filter((r) => r.info.selectable);
      const closed = ranked.filter((r) => !r.info.selectable);
      const locked = lockedLine(ctx, closed);
      if (locked) node.locked = locked;
      if (!open.length) {
        node.deadEnd = true;
        // The target's own recipes are worth naming even when none is selectable: they are what to unlock.
        if (isTarget) node.candidates = closed.slice(0, input.candidatesPerGood).map((r) => candidate(r));
        seam ??= 'dead-end';
      } else {
        const folded = foldVariants(g, open);
        const lines = firstRecipes(folded, input.candidatesPerGood);
        const shown = lines.map((x) => x.r);
        if (!makeable.has(good)) {
          // Selectable producers exist, but each needs something nothing selectable makes.
          node.deadEnd = true;
          const blockers = [...new Set(shown.flatMap((r) => consumedInputs(r.info.recipe)).filter((i) => !makeable.has(i)))].sort();
          node.blockedBy = blockers.slice(0, MAX_BLOCKERS);
        }
        if (!seam) {
          node.candidates = lines.map(({ r, variants }) => ({ ...candidate(r), ...(variants.length ? { variants } : {}) }));
          if (open.length > recipesIn(lines)) node.moreCandidates = open.length - recipesIn(lines);
          expand = shown;
        }
      }
    }
    if (seam) {
      node.leaf = true;
      node.seam = seam;
    }
    const size = JSON.stringify(good).length + 2 + JSON.stringify(node).length;
    if (count > 0 && used + size > goodsBudget) {
      truncated = true;
      break;
    }
    head++;
    used += size + (node.deadEnd ? good.length + 3 : 0) + (good === target && node.deadEnd ? deadTargetNote(target, horizon, node).length + 10 : 0);
    goods[good] = node;
    if (node.deadEnd) deadEnds.push(good);
    count++;
    for (const r of expand) {
      for (const i of r.info.recipe.ingredients) {
        if (seen.has(i.name)) continue;
        seen.add(i.name);
        queue.push({ good: i.name, depth: depth + 1 });
      }
    }
  }
  const frontier = queue.slice(head).map((q) => q.good);
  const unexpanded: string[] = [];
  let room = Math.max(FRONTIER_RESERVE, maxChars - skeleton - used);
  for (const f of frontier) {
    if (unexpanded.length >= MAX_FRONTIER || f.length + 3 > room) break;
    unexpanded.push(f);
    room -= f.length + 3;
  }
  const targetNode = goods[target];
  return {
    target,
    ...(also.length ? { also } : {}),
    display: g.goods.get(target)!.display,
    horizon,
    goodCount: count,
    truncated,
    unexpanded,
    ...(frontier.length > unexpanded.length ? { unexpandedMore: frontier.length - unexpanded.length } : {}),
    ...(truncated ? { next: nextText(target) } : {}),
    ...(deadEnds.length ? { deadEnds } : {}),
    ...(targetNode?.deadEnd
      ? { note: deadTargetNote(target, horizon, targetNode) }
      : {}),
    legend: GRAPH_LEGEND,
    goods,
  };
}

function deadTargetNote(target: string, horizon: string, node: GraphNode): string {
  const why = node.blockedBy ? `its selectable recipes need ${node.blockedBy.join(', ')}, which nothing selectable makes` : 'no recipe for it is selectable';
  return `${target} cannot be made under the horizon (${horizon}): ${why}. Unlock what the dead ends' locked lines name (researchPath), import it, or change the horizon`;
}

function nextText(target: string): string {
  return `budget reached: call recipeOptionsBatch with the unexpanded goods you need, or recipeGraph on one of them (or raise maxChars/nodeBudget for ${target})`;
}

// Defaults are left out (a graph is read by models only, and most of its candidates are buildable,
// costed and without productivity): on full Py ~15 % of a plan's supplier graph.
function candidate(r: RankedRecipe): GraphCandidate {
  const virtual = virtualMachineText(r.info.recipe);
  const { state, needs } = verdictFields(r.info.verdict);
  const cost = costOut(r.cost);
  return {
    recipe: r.info.recipe.name,
    ...(state !== 'buildable' ? { state } : {}),
    ...(needs ? { needs } : {}),
    ...(cost !== null ? { cost } : {}),
    ...(r.info.recipe.allowProductivity ? { prod: true as const } : {}),
    ...(virtual ? { machine: virtual } : {}),
    in: inText(r.info.recipe),
    out: outText(r.info.recipe),
  };
}

/**
 * The producers a horizon rules out, in one line: how many are locked (and superseded), and the
 * cheapest way to unlock one — the technology with the fewest science packs left to research (the
 * recipe's own, or a machine's when only the machine is missing), else the reason it is locked.
 */
function lockedLine(ctx: PlanningContext, closed: RankedRecipe[]): string | undefined {
  if (!closed.length) return undefined;
  const superseded = closed.filter((r) => r.info.rank === 3);
  const locked = closed.filter((r) => r.info.rank !== 3);
  const parts: string[] = [];
  if (locked.length) {
    let best: (Unlock & { recipe: string }) | null = null;
    for (const r of locked) {
      const u = cheapestUnlock(ctx, r.info.recipe);
      if (u && (!best || u.packs < best.packs || (u.packs === best.packs && r.info.recipe.name < best.recipe))) best = { ...u, recipe: r.info.recipe.name };
    }
    const how = best
      ? `cheapest unlock ${best.tech} (${best.packs} packs) → ${best.recipe}${best.machine ? ` (its machine ${best.machine})` : ''}`
      : `${locked[0].info.recipe.name}: ${locked[0].info.lockReason ?? 'not selectable'}`;
    parts.push(`${locked.length} locked; ${how}`);
  }
  if (superseded.length) parts.push(`${superseded.length} superseded (${superseded[0].info.lockReason})`);
  return parts.join('; ');
}

