// Which goods can be made at all under the horizon: raw goods (mined, pumped or made by nothing —
// they are imported at a chain's edge), energy, and every product of a selectable recipe whose
// inputs can all be made. A least fixed point over the recipe graph (each recipe fires once, when its
// last input becomes makeable), built once per availability. A good a recipe both takes and gives
// back at least as much of (a catalyst, a breeding loop) is no input for this purpose, so self-seeding
// loops do not count as dead ends. Nor do loops over several recipes that give back more than they
// take once started (Py's wood: 5 wood → 4 seeds, 1 seed → 3 seedlings, 3 seedlings → 3 logs,
// 4 logs → 20 wood), the player seeding them by hand as in the game (a FactorioLab set has no tree
// to mine): such a loop's goods count as made, and what they feed follows.
import type { PlanningContext } from '../context';
import type { Recipe } from '../gameIndex';
import { isRaw, makesForReal, pickerInfo } from './common';
import { netAmount } from './cost';

const cache = new WeakMap<object, Set<string>>();

/** The inputs a craft of `r` really consumes (catalysts it gives back in full left out). */
export function consumedInputs(r: Recipe): string[] {
  const out: string[] = [];
  for (const i of r.ingredients) {
    const back = r.products.filter((p) => p.name === i.name).reduce((s, p) => s + p.amount * p.probability, 0);
    if (back < i.amount && !out.includes(i.name)) out.push(i.name);
  }
  return out;
}

export function makeableGoods(ctx: PlanningContext): ReadonlySet<string> {
  const hit = cache.get(ctx.availability);
  if (hit) return hit;
  const g = ctx.g;
  const a = ctx.availability;
  const made = new Set<string>();
  const ready: string[] = [];
  const mark = (good: string) => {
    if (made.has(good)) return;
    made.add(good);
    ready.push(good);
  };
  for (const x of g.goods.values()) if (x.synthetic || isRaw(ctx, x.name)) mark(x.name);
  const missing = new Map<string, number>();
  const waiting = new Map<string, Recipe[]>();
  // Only what a recipe really makes (a full barrel comes from its filling; its fluid from emptying it
  // only when something else fills it, see barrelMakes).
  const real = (r: Recipe) => r.products.filter((p) => p.amount * p.probability > 0 && makesForReal(g, r, p.name));
  const fire = (r: Recipe) => {
    for (const p of real(r)) mark(p.name);
  };
  for (const r of g.recipes.values()) {
    if (a.isExcluded(r.name) || !real(r).length || !pickerInfo(ctx, r).selectable) continue;
    const ins = consumedInputs(r).filter((i) => !made.has(i));
    if (!ins.length) {
      fire(r);
      continue;
    }
    missing.set(r.name, ins.length);
    for (const i of ins) {
      const l = waiting.get(i) ?? [];
      l.push(r);
      waiting.set(i, l);
    }
  }
  const settle = () => {
    for (let good = ready.pop(); good !== undefined; good = ready.pop()) {
      for (const r of waiting.get(good) ?? []) {
        const left = missing.get(r.name)! - 1;
        missing.set(r.name, left);
        if (left === 0) fire(r);
      }
      waiting.delete(good);
    }
  };
  settle();
  // Each round seeds the gaining loops whose other inputs are made, then lets what they feed follow.
  for (let round = 0; round < 50; round++) {
    const waitingRecipes = [...new Set([...waiting.values()].flat())].filter((r) => missing.get(r.name)! > 0);
    const seeded = gainingLoopGoods(waitingRecipes, made, real);
    if (!seeded.length) break;
    for (const x of seeded) mark(x);
    settle();
  }
  cache.set(ctx.availability, made);
  return made;
}

/**
 * Goods on loops of waiting recipes that give back more than they take: edges run from a good a
 * recipe uses up to a good it gives, weighted by the ratio given ÷ used; a strongly connected group of
 * goods whose recipes wait only on goods of the group (or made ones) is seeded when some loop in it
 * multiplies by more than 1 (a Bellman–Ford negative cycle over −ln ratio).
 */
export function gainingLoopGoods(recipes: Recipe[], made: Set<string>, real: (r: Recipe) => Array<{ name: string }>): string[] {
  type Edge = { from: string; to: string; w: number; recipe: Recipe };
  const edges: Edge[] = [];
  for (const r of recipes) {
    const ins = consumedInputs(r).filter((i) => !made.has(i));
    for (const i of ins) {
      const used = -netAmount(r, i);
      for (const o of real(r)) {
        if (made.has(o.name) || o.name === i) continue;
        const given = netAmount(r, o.name);
        if (used > 0 && given > 0) edges.push({ from: i, to: o.name, w: -Math.log(given / used), recipe: r });
      }
    }
  }
  const out: string[] = [];
  for (const group of components(edges)) {
    if (group.size < 2) continue;
    // Only recipes whose unmade inputs all lie in the group can run once the group is seeded.
    const inner = edges.filter((e) => group.has(e.from) && group.has(e.to) && consumedInputs(e.recipe).every((i) => made.has(i) || group.has(i)));
    if (hasNegativeCycle([...group], inner)) out.push(...group);
  }
  return out;
}

/** Strongly connected groups of goods (Tarjan). */
function components(edges: Array<{ from: string; to: string }>): Array<Set<string>> {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    const l = next.get(e.from);
    if (l) l.push(e.to);
    else next.set(e.from, [e.to]);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: Array<Set<string>> = [];
  let n = 0;
  const visit = (v: string) => {
    index.set(v, n);
    low.set(v, n++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const g = new Set<string>();
      for (let w = stack.pop()!; ; w = stack.pop()!) {
        onStack.delete(w);
        g.add(w);
        if (w === v) break;
      }
      groups.push(g);
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return groups;
}

function hasNegativeCycle(nodes: string[], edges: Array<{ from: string; to: string; w: number }>): boolean {
  const dist = new Map(nodes.map((v) => [v, 0]));
  for (let i = 0; i < nodes.length; i++) {
    let changed = false;
    for (const e of edges) {
      const d = dist.get(e.from)! + e.w;
      if (d < dist.get(e.to)! - 1e-12) {
        dist.set(e.to, d);
        changed = true;
      }
    }
    if (!changed) return false;
  }
  return true;
}
