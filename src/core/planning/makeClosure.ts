// The "able to make" horizon: the research needed to research a target AND make what it unlocks.
// A target technology's prerequisite closure can leave its own recipes unmakeable (Py's logistic
// science pack needs circuits whose recipe `electronics` unlocks, and `electronics` is no
// prerequisite of it), so this closes over the ingredient chains of what the target unlocks: for
// every good on them it picks the recipe that costs the least research from what is already in
// reach (ingredients included), adds the technology that unlocks it and the one that unlocks a
// machine able to run it, and goes on with its ingredients (a drill's mining fluid among them) and
// that machine's item. Fuel is left out: burners take any fuel the chain already makes. Plain data
// in, plain data out (Availability builds on it, so it cannot ask Availability's verdicts).
import type { GameIndex, Recipe, Technology } from './gameIndex';
import { barrelMakes, isBarrelRecipe, isVoidRecipeFor } from './queries/common';
import { MACHINELESS_KINDS as MACHINELESS } from './availability';
import type { PlanningSettings, TargetScope } from './settings';

/** Science packs: what labs accept (else every tool item). */
export function sciencePacks(g: GameIndex): string[] {
  const fromLabs = new Set([...g.labs.values()].flatMap((l) => l.inputs));
  const packs = fromLabs.size ? [...fromLabs] : [...g.goods.values()].filter((x) => x.type === 'tool').map((x) => x.name);
  return packs.filter((x) => g.goods.has(x));
}

/** The scope a target horizon has: the one set, else "able to make" for a science pack and the research closure otherwise. */
export function targetScope(g: GameIndex, s: Pick<PlanningSettings, 'horizon_target' | 'horizon_target_scope'>): TargetScope {
  if (s.horizon_target_scope) return s.horizon_target_scope;
  return s.horizon_target && sciencePacks(g).includes(s.horizon_target) ? 'make' : 'research';
}

/** Kinds that never make a good a chain needs. */
const NOT_A_SOURCE = new Set(['burning', 'research', 'generating']);
/** A TURD branch is a factory-wide pick: a route through one is taken only when nothing else exists. */
const TURD_PENALTY = 1e9;
const INF = Number.POSITIVE_INFINITY;

export interface MakeClosureInput {
  g: GameIndex;
  /** Researched in the save. */
  researched: ReadonlySet<string>;
  /** The horizon before closing over making: the target technology's prerequisite closure. */
  base: ReadonlySet<string>;
  /** The target: a good, or a technology (then every recipe it unlocks). */
  target: string;
  /** The technology behind `base` (a good's lowest-tier unlock), null when none is needed. */
  targetTech: string | null;
  /** Exclusion globs, as Availability applies them. */
  isExcluded(name: string): boolean;
}

export interface MakeClosure {
  /** base plus every technology added. */
  techs: Set<string>;
  /** Technologies added beyond `base` and the researched set, in prerequisite order. */
  added: string[];
  /** Goods on the chain that nothing in reach of any research makes (left to import). */
  unmakeable: string[];
}

/**
 * A technology's prerequisite closure in prerequisite order (each after its prerequisites, taken by
 * name), itself last. It depends on the game data alone, so it is kept per game index: every horizon
 * change asks for the closures of most technologies again (full Py: 925, hundreds deep).
 */
const closureCache = new WeakMap<GameIndex, { sorted: Map<string, string[]>; closures: Map<string, string[]> }>();

function prerequisiteClosure(g: GameIndex, t: string): string[] {
  let memo = closureCache.get(g);
  if (!memo) closureCache.set(g, (memo = { sorted: new Map(), closures: new Map() }));
  const { sorted, closures } = memo;
  const hit = closures.get(t);
  if (hit) return hit;
  const prereqs = (x: string) => {
    let l = sorted.get(x);
    if (!l) sorted.set(x, (l = [...(g.technologies.get(x)?.prerequisites ?? [])].sort()));
    return l;
  };
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (x: string) => {
    if (seen.has(x)) return;
    seen.add(x);
    for (const p of prereqs(x)) visit(p);
    out.push(x);
  };
  visit(t);
  closures.set(t, out);
  return out;
}

export function makeClosure(input: MakeClosureInput): MakeClosure {
  const { g, researched, isExcluded } = input;
  const techs = new Set(input.base);
  const closureOf = (t: string): string[] => prerequisiteClosure(g, t);
  const inReach = (t: string) => researched.has(t) || techs.has(t);
  // TURD branches are chosen, not researched: their gate is the master's research.
  const gateOf = (t: string) => g.turdBranches.get(t)?.master ?? t;
  /** Science over what a technology still needs beyond the reach, plus one per technology (triggers cost no packs). */
  // Costs hold while the reach is unchanged; `add` clears them.
  const techCosts = new Map<string, number>();
  const techCost = (t: string): number => {
    const hit = techCosts.get(t);
    if (hit !== undefined) return hit;
    let n = 0;
    for (const x of closureOf(gateOf(t))) {
      if (inReach(x)) continue;
      const tech = g.technologies.get(x);
      if (!tech || tech.isTurd) continue;
      n += 1 + packUnits(tech);
    }
    n += g.turdBranches.has(t) ? TURD_PENALTY : 0;
    techCosts.set(t, n);
    return n;
  };
  const cheapestTech = (r: Recipe): { tech: string | null; cost: number } => {
    if (r.enabled || r.synthetic || r.unlockedBy.some((t) => inReach(gateOf(t)) && !g.turdBranches.has(t))) return { tech: null, cost: 0 };
    let best: { tech: string | null; cost: number } = { tech: null, cost: INF };
    for (const t of [...r.unlockedBy].sort()) {
      const c = techCost(t);
      if (c < best.cost) best = { tech: t, cost: c };
    }
    return best;
  };
  const itemProducers = (item: string) => g.producersOf(item).filter((n) => !g.recipes.get(n)!.synthetic && !isExcluded(n));
  /** Research a machine's item still needs (0: in reach, or nothing makes it so nothing gates it). */
  const machineCost = (item: string | null): { tech: string | null; cost: number } => {
    const makers = item ? itemProducers(item) : [];
    if (!makers.length) return { tech: null, cost: 0 };
    let best: { tech: string | null; cost: number } = { tech: null, cost: INF };
    for (const n of makers) {
      const c = cheapestTech(g.recipes.get(n)!);
      if (c.cost < best.cost) best = c;
    }
    return best;
  };
  const machinesOf = (r: Recipe) => (MACHINELESS.has(r.kind) ? [] : g.machinesFor(r).filter((m) => !isExcluded(m.name) && !(m.hidden && !m.item)));
  const bestMachine = (r: Recipe): { item: string | null; tech: string | null; cost: number } | null => {
    if (MACHINELESS.has(r.kind)) return { item: null, tech: null, cost: 0 };
    let best: { item: string | null; tech: string | null; cost: number } | null = null;
    for (const m of machinesOf(r).sort((a, b) => a.name.localeCompare(b.name))) {
      const c = machineCost(m.item);
      if (!best || c.cost < best.cost) best = { item: m.item, ...c };
    }
    return best;
  };
  // Barrels are logistics, not production: the closure never fills one (a chain asking for a full
  // barrel takes it as it comes), and empties one only where that is the fluid's source (barrelMakes).
  const emptiesForReal = (r: Recipe, good: string) => r.products.some((p) => p.name === good && p.kind === 'fluid') && barrelMakes(g, r, good);
  const sourceCache = new Map<string, Recipe[]>();
  const sources = (good: string): Recipe[] => {
    const hit = sourceCache.get(good);
    if (hit) return hit;
    const all = g.producersOf(good).map((n) => g.recipes.get(n)!).filter((r) => !NOT_A_SOURCE.has(r.kind) && !isExcluded(r.name) && (!isBarrelRecipe(r) || emptiesForReal(r, good)) && !isVoidRecipeFor(r, good));
    const visible = all.filter((r) => !r.hidden);
    const out = visible.length ? visible : all;
    sourceCache.set(good, out);
    return out;
  };

  // What making each good costs in research from the reach, ingredients included (the fixed point of
  // cost(good) = min over its recipes of own research + machine research + the ingredients' costs).
  // Shared technologies are counted once per use, which only ranks recipes, never adds research.
  const direct = new Map<string, number>();
  const directOf = (r: Recipe) => {
    let d = direct.get(r.name);
    if (d === undefined) {
      const m = bestMachine(r);
      d = cheapestTech(r).cost + (m ? m.cost : INF);
      direct.set(r.name, d);
    }
    return d;
  };
  const cost = new Map<string, number>();
  const costOf = (good: string) => cost.get(good) ?? (sources(good).length ? INF : 0);
  // Bellman-Ford over the recipe hypergraph: a recipe is looked at again only when one of its
  // ingredients got cheaper.
  const candidates = [...g.recipes.values()].filter((r) => !NOT_A_SOURCE.has(r.kind) && !isExcluded(r.name) && (!isBarrelRecipe(r) || r.products.some((p) => emptiesForReal(r, p.name))));
  const usedBy = new Map<string, Recipe[]>();
  for (const r of candidates) {
    for (const i of r.ingredients) {
      const l = usedBy.get(i.name);
      if (l) l.push(r);
      else usedBy.set(i.name, [r]);
    }
  }
  let dirty = new Set(candidates);
  for (let round = 0; dirty.size && round < 200; round++) {
    const next = new Set<Recipe>();
    for (const r of dirty) {
      const d = directOf(r);
      if (d === INF) continue;
      let sum = d;
      for (const i of r.ingredients) sum += costOf(i.name);
      if (sum === INF) continue;
      for (const p of r.products) {
        if (sum >= costOf(p.name) || isVoidRecipeFor(r, p.name)) continue;
        cost.set(p.name, sum);
        for (const u of usedBy.get(p.name) ?? []) next.add(u);
      }
    }
    dirty = next;
  }
  const score = (r: Recipe) => {
    let sum = directOf(r);
    // An ingredient no grounded route makes (a catalyst only its own recipes return) still ranks.
    for (const i of r.ingredients) sum += Math.min(costOf(i.name), 1e12);
    return sum;
  };

  const add = (t: string | null) => {
    if (!t) return;
    const before = techs.size;
    for (const x of closureOf(gateOf(t))) if (!researched.has(x) && !g.technologies.get(x)?.isTurd) techs.add(x);
    if (techs.size !== before) techCosts.clear();
  };
  const unmakeable: string[] = [];
  const seen = new Set<string>();
  const queue: string[] = [];
  const need = (good: string | null) => {
    if (good && !seen.has(good)) {
      seen.add(good);
      queue.push(good);
    }
  };
  const make = (r: Recipe) => {
    add(cheapestTech(r).tech);
    const m = bestMachine(r);
    if (m) {
      // Re-asked after the recipe's own research: that may already bring a machine in reach.
      const now = bestMachine(r)!;
      add(now.tech);
      need(now.item);
    }
    for (const i of r.ingredients) need(i.name);
  };

  const target = g.technologies.get(input.target);
  if (target) {
    for (const n of target.unlocks) {
      const r = g.recipes.get(n);
      if (r && !r.hidden && !isExcluded(n) && !NOT_A_SOURCE.has(r.kind)) make(r);
    }
  } else {
    // The target tech's own recipe for the good comes first: that is what the horizon is about.
    const own = input.targetTech ? sources(input.target).filter((r) => r.unlockedBy.includes(input.targetTech!)) : [];
    seen.add(input.target);
    const pick = (own.length ? own : sources(input.target)).sort((a, b) => score(a) - score(b) || a.name.localeCompare(b.name))[0];
    if (pick) make(pick);
  }
  while (queue.length) {
    const good = queue.shift()!;
    const rs = sources(good);
    if (!rs.length) continue;
    // Scores were ranked from the first reach; what is in reach now breaks ties first.
    const pick = rs.sort((a, b) => score(a) - score(b) || cheapestTech(a).cost - cheapestTech(b).cost || a.name.localeCompare(b.name))[0];
    if (score(pick) >= 1e12 && cheapestTech(pick).cost === INF) {
      unmakeable.push(good);
      continue;
    }
    make(pick);
  }
  const added = order(g, [...techs].filter((t) => !input.base.has(t) && !researched.has(t)));
  return { techs, added, unmakeable: unmakeable.sort() };
}

function packUnits(t: Technology): number {
  const units = t.unitCount ?? 1;
  return t.ingredients.reduce((n, i) => n + i.amount * units, 0);
}

/** Technologies in prerequisite order (each after its prerequisites), ties by name. */
function order(g: GameIndex, names: string[]): string[] {
  const set = new Set(names);
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (t: string) => {
    if (seen.has(t) || !set.has(t)) return;
    seen.add(t);
    for (const p of [...(g.technologies.get(t)?.prerequisites ?? [])].sort()) visit(p);
    out.push(t);
  };
  for (const t of [...names].sort()) visit(t);
  return out;
}
