// researchPath: the unresearched route to a technology, recipe or good (resolved in that order) in
// prerequisite order, with each step's cost (units × packs) and the total over the whole path. It
// always uses the real researched set, whatever the horizon. Long paths keep the steps nearest the
// target. TURD branch and `turd-select-*` gate technologies are choices, not research: they are
// reported as `turdGatesNeeded` instead of steps.
import type { TurdState } from '../availability';
import type { PlanningContext } from '../context';
import type { Technology } from '../gameIndex';
import { parseInput, QueryError, suggest } from './errors';
import { techUnits } from '../science/research';
import { makesForReal } from './common';
import { researchPathInput, type ResearchPathInput } from './schemas';

export interface TechCost {
  /** Research units (count, or count_formula at the technology's level). */
  units: number | null;
  /** Packs over all units: pack → amount. */
  packs: Record<string, number>;
  /** Seconds at lab speed 1. */
  time: number;
  /** Trigger technologies: what completes them instead of packs. */
  trigger?: string;
  /** The game data has no unit count (a FactorioLab set): packs and time are for one research unit. */
  perUnit?: true;
}

export interface ResearchStep {
  tech: string;
  display: string;
  cost: TechCost;
  /** How many recipes it unlocks (and the first few). */
  unlocks: { count: number; first: string[] };
}

export type ResearchPathResult =
  | {
      status: 'path';
      target: string;
      targetTech: string;
      targetDisplay: string;
      /** The recipe the target tech unlocks, when the target was a recipe or good. */
      via?: string;
      alternateRoutes?: Array<{ tech: string; steps: number; totalPacks: number }>;
      steps: ResearchStep[];
      stepsOmitted?: number;
      totalCost: { techs: number; units: number; packs: Record<string, number>; time: number; triggers: number };
      /** Packs the path needs that are not in available_science_packs. */
      missingPacks: string[];
      turdGatesNeeded?: Array<{ subTech: string; master: string; state: TurdState }>;
      note?: string;
    }
  | { status: 'alreadyUnlocked'; target: string; by: string; note: string }
  | { status: 'no-tech'; target: string; note: string };

export function techCost(t: Technology): TechCost {
  const units = techUnits(t);
  const perUnit = units === null && t.ingredients.length > 0;
  const n = perUnit ? 1 : (units ?? 0);
  const packs: Record<string, number> = {};
  for (const i of t.ingredients) packs[i.pack] = (packs[i.pack] ?? 0) + i.amount * n;
  const out: TechCost = { units, packs, time: (t.unitTime ?? 0) * n, ...(perUnit ? { perUnit: true as const } : {}) };
  if (t.trigger && !t.ingredients.length) out.trigger = triggerText(t.trigger);
  return out;
}

function triggerText(tr: Record<string, unknown>): string {
  const type = String(tr.type ?? 'trigger');
  const what = tr.item ?? tr.entity ?? tr.fluid ?? '';
  const n = tr.count !== undefined ? ` ×${tr.count}` : '';
  return `${type}${what ? ` ${typeof what === 'object' ? JSON.stringify(what) : String(what)}` : ''}${n}`;
}

interface Route {
  tech: string;
  path: string[];
  gates: Array<{ subTech: string; master: string; state: TurdState }>;
  totalPacks: number;
}

export function researchPath(ctx: PlanningContext, raw: ResearchPathInput): ResearchPathResult {
  const input = parseInput(researchPathInput, raw, 'researchPath');
  const g = ctx.g;
  const a = ctx.availability;
  const R = a.state.researched;
  const target = input.target;

  // Resolve: technology > recipe > good.
  let techs: string[];
  let via: Map<string, string> | undefined;
  if (g.technologies.has(target)) techs = [target];
  else if (g.recipes.has(target) || g.goods.has(target)) {
    const isRecipe = g.recipes.has(target);
    const recipes = isRecipe ? [target] : g.producersOf(target);
    via = new Map();
    for (const rn of recipes) {
      const r = g.recipes.get(rn)!;
      if (r.synthetic || a.isExcluded(rn) || (!isRecipe && !makesForReal(g, r, target)) || (r.hidden && recipes.length > 1)) continue;
      if (r.enabled) return { status: 'alreadyUnlocked', target, by: `recipe ${rn} (enabled from the start)`, note: 'nothing to research' };
      for (const t of r.unlockedBy) if (!via.has(t)) via.set(t, rn);
    }
    techs = [...via.keys()];
    if (!techs.length) {
      const what = isRecipe ? `recipe ${target}` : `good ${target}`;
      return { status: 'no-tech', target, note: `no technology unlocks ${what}${isRecipe ? '' : ' (or any recipe making it)'}` };
    }
  } else {
    const s = [...suggest(ctx, 'technology', target, 2), ...suggest(ctx, 'good', target, 2)];
    throw new QueryError(`no technology, recipe or good named '${target}'; ${s.length ? `did you mean ${s.join(', ')}?` : 'nothing similar exists;'} call searchGoods first`, s);
  }
  const done = techs.find((t) => R.has(t));
  if (done) return { status: 'alreadyUnlocked', target, by: `technology ${done} (researched)`, note: 'already researched in the save' };

  const routes = techs.map((t) => route(ctx, t)).sort((x, y) => Number(x.gates.some((q) => q.state === 'blocked')) - Number(y.gates.some((q) => q.state === 'blocked')) || x.totalPacks - y.totalPacks || x.path.length - y.path.length || (x.tech < y.tech ? -1 : 1));
  const best = routes[0];
  const order = best.path;
  const steps = order.map((t) => step(ctx, g.technologies.get(t)!));

  // Keep the steps nearest the target (prerequisite distance), shown in prerequisite order.
  let shown = steps;
  let omitted = 0;
  if (steps.length > input.limit) {
    const dist = distances(ctx, [best.tech], new Set(order));
    const pos = new Map(order.map((t, i) => [t, i]));
    const keep = new Set([...order].sort((x, y) => dist.get(x)! - dist.get(y)! || pos.get(y)! - pos.get(x)!).slice(0, input.limit));
    shown = steps.filter((s) => keep.has(s.tech));
    omitted = steps.length - shown.length;
  }
  const total = { techs: steps.length, units: 0, packs: {} as Record<string, number>, time: 0, triggers: 0 };
  for (const s of steps) {
    total.units += s.cost.units ?? 0;
    total.time += s.cost.time;
    if (s.cost.trigger) total.triggers++;
    for (const [p, n] of Object.entries(s.cost.packs)) total.packs[p] = (total.packs[p] ?? 0) + n;
  }
  const have = new Set(a.state.settings.available_science_packs);
  const missingPacks = Object.keys(total.packs).filter((p) => !have.has(p)).sort();
  const blocked = best.gates.filter((q) => q.state === 'blocked');
  const tt = g.technologies.get(best.tech)!;
  return {
    status: 'path',
    target,
    targetTech: best.tech,
    targetDisplay: tt.display,
    ...(via?.get(best.tech) ? { via: via.get(best.tech) } : {}),
    ...(routes.length > 1 ? { alternateRoutes: routes.slice(1, 4).map((r) => ({ tech: r.tech, steps: r.path.length, totalPacks: r.totalPacks })) } : {}),
    steps: shown,
    ...(omitted ? { stepsOmitted: omitted } : {}),
    totalCost: total,
    missingPacks,
    ...(best.gates.length ? { turdGatesNeeded: best.gates } : {}),
    ...(blocked.length
      ? { note: `TURD master ${blocked.map((b) => b.master).join(', ')} has another branch selected: this route needs switching it (see turdChoices)` }
      : steps.length === 0 && best.gates.length
        ? { note: 'all research is done; only a TURD choice is left' }
        : steps.some((s) => s.cost.perUnit)
          ? { note: 'the game data has no research unit counts (a FactorioLab data set): costs marked perUnit are for one research unit, so the totals add one unit of each' }
          : {}),
  };
}

const unlockCosts = new WeakMap<object, Map<string, number>>();

/**
 * Science packs over a technology's unresearched closure (TURD gates are free choices): what
 * unlocking it costs from the save's research. 0 when it is researched. Cached per availability.
 */
export function unlockPacks(ctx: PlanningContext, tech: string): number {
  let cache = unlockCosts.get(ctx.availability);
  if (!cache) {
    cache = new Map();
    unlockCosts.set(ctx.availability, cache);
  }
  let n = cache.get(tech);
  if (n === undefined) {
    n = route(ctx, tech).totalPacks;
    cache.set(tech, n);
  }
  return n;
}

/** Unresearched closure of a tech in prerequisite order (post-order DFS, prerequisites by name). */
function route(ctx: PlanningContext, tech: string): Route {
  const { order, gates } = unresearched(ctx, [tech]);
  let totalPacks = 0;
  for (const t of order) for (const n of Object.values(techCost(ctx.g.technologies.get(t)!).packs)) totalPacks += n;
  return { tech, path: order, gates, totalPacks };
}

/** The unresearched closure of several technologies as one research order (each after its
 *  prerequisites), with the TURD gates on the way (choices, not steps). */
function unresearched(ctx: PlanningContext, techs: string[]): { order: string[]; gates: Route['gates'] } {
  const g = ctx.g;
  const a = ctx.availability;
  const R = a.state.researched;
  const order: string[] = [];
  const seen = new Set<string>();
  const gates: Route['gates'] = [];
  const visit = (t: string) => {
    if (seen.has(t) || R.has(t)) return;
    seen.add(t);
    const tech = g.technologies.get(t);
    if (!tech) return;
    for (const p of [...tech.prerequisites].sort()) visit(p);
    const branch = g.turdBranches.get(t);
    if (branch) {
      gates.push({ subTech: t, master: branch.master, state: a.branchState(branch.master, t) });
      return;
    }
    if (tech.isTurd) return; // a turd-select-* gate: free, chosen with its branch
    order.push(t);
  };
  for (const t of techs) visit(t);
  return { order, gates };
}

/** Research still to do before some technologies, as a draft reports it. */
export interface ResearchList {
  /** In research order (each after its prerequisites): the science each takes, or what triggers it. */
  steps: Array<{ tech: string; packs: Record<string, number>; trigger?: string }>;
  /** Over the whole path, omitted steps included. */
  total: { techs: number; packs: Record<string, number> };
  /** Packs the path takes that are not among the packs the player produces. */
  missingPacks?: string[];
  /** Of the technologies asked for, those the horizon does not reach. */
  outsideHorizon?: string[];
  /** Steps left out to keep the list short: the ones farthest from what was asked for. */
  stepsOmitted?: number;
}

/** Steps a research list shows; the total always covers the whole path. */
export const RESEARCH_STEPS_SHOWN = 40;

/** The research left before `techs` can be used, in research order, with its science cost. */
export function researchSteps(ctx: PlanningContext, techs: string[]): ResearchList {
  const g = ctx.g;
  const a = ctx.availability;
  const wanted = [...new Set(techs)].sort();
  const { order } = unresearched(ctx, wanted);
  const total = { techs: order.length, packs: {} as Record<string, number> };
  const costs = new Map(order.map((t) => [t, techCost(g.technologies.get(t)!)]));
  for (const c of costs.values()) for (const [p, n] of Object.entries(c.packs)) total.packs[p] = (total.packs[p] ?? 0) + n;
  let shown = order;
  if (order.length > RESEARCH_STEPS_SHOWN) {
    const dist = distances(ctx, wanted, new Set(order));
    const pos = new Map(order.map((t, i) => [t, i]));
    const keep = new Set([...order].sort((x, y) => dist.get(x)! - dist.get(y)! || pos.get(y)! - pos.get(x)!).slice(0, RESEARCH_STEPS_SHOWN));
    shown = order.filter((t) => keep.has(t));
  }
  const have = new Set(a.state.settings.available_science_packs);
  const missing = Object.keys(total.packs).filter((p) => !have.has(p)).sort();
  const outside = wanted.filter((t) => !a.tech(t).reachable);
  return {
    steps: shown.map((t) => {
      const c = costs.get(t)!;
      return { tech: t, packs: c.packs, ...(c.trigger ? { trigger: c.trigger } : {}) };
    }),
    total,
    ...(missing.length ? { missingPacks: missing } : {}),
    ...(outside.length ? { outsideHorizon: outside } : {}),
    ...(shown.length < order.length ? { stepsOmitted: order.length - shown.length } : {}),
  };
}

function step(ctx: PlanningContext, t: Technology): ResearchStep {
  return { tech: t.name, display: t.display, cost: techCost(t), unlocks: { count: t.unlocks.length, first: t.unlocks.slice(0, 3) } };
}

/** Prerequisite distance from the nearest of `from` (Infinity for a technology of `within` no path reaches). */
function distances(ctx: PlanningContext, from: string[], within: Set<string>): Map<string, number> {
  const d = new Map<string, number>();
  const q: string[] = [...from];
  for (const t of from) d.set(t, 0);
  for (let i = 0; i < q.length; i++) {
    const t = q[i];
    for (const p of ctx.g.technologies.get(t)?.prerequisites ?? []) {
      if (d.has(p)) continue;
      d.set(p, d.get(t)! + 1);
      q.push(p);
    }
  }
  for (const t of within) if (!d.has(t)) d.set(t, Infinity);
  return d;
}
