// A simple, deterministic intrinsic cost per good and recipe (YAFC-style), used to rank options
// ("cost ascending, missing last") and reported as `cost`. It ignores the horizon on purpose: the
// same recipe always costs the same, so rankings are stable and the table is built once per index.
//   mining:  cost per craft = mining time (1 per unit of a 1-second resource) + its mining fluid;
//   other:   cost per craft = Σ ingredient cost × amount + CRAFT_SECOND_COST × craft time;
//   outputs: a craft's cost is spread over its expected outputs (fluid units weigh FLUID_WEIGHT of an
//            item), and a good's cost is the cheapest recipe making it.
// A good both taken and given by one recipe (a catalyst) counts by its net amount. Solved cheapest
// good first over the recipe graph (a shortest-path walk): once a good leaves the queue its price is
// final, so loops (byproduct spreading, recycling) cannot drive prices down, the walk is bounded and
// deterministic. Hidden recipes only price goods nothing visible makes.
import type { GameIndex, Product, Recipe } from '../gameIndex';

export const CRAFT_SECOND_COST = 0.1;
export const FLUID_WEIGHT = 0.1;

export interface CostTable {
  /** good → cost per unit (absent = no recipe chain makes it from raw resources). */
  goods: Map<string, number>;
}

const tables = new WeakMap<GameIndex, CostTable>();

export function costTable(g: GameIndex): CostTable {
  const hit = tables.get(g);
  if (hit) return hit;
  const goods = new Map<string, number>();
  const visible = [...g.recipes.values()].filter((r) => !r.hidden || r.synthetic);
  relax(g, goods, visible);
  const hidden = [...g.recipes.values()].filter((r) => r.hidden && !r.synthetic);
  if (hidden.length) {
    // Only goods that visible recipes cannot price take a hidden recipe's price.
    const priced = new Set(goods.keys());
    const extra = new Map(goods);
    relax(g, extra, [...visible, ...hidden]);
    for (const [k, v] of extra) if (!priced.has(k)) goods.set(k, v);
  }
  const out = { goods };
  tables.set(g, out);
  return out;
}

/** A recipe's net flows: a good both taken and given (a catalyst) counts only by its difference. */
interface NetRecipe {
  base: number;
  ins: Array<[string, number]>;
  outs: Array<[string, number, number]>; // good, expected amount, spread weight per unit
  weight: number;
}

const nets = new WeakMap<Recipe, NetRecipe>();

function netOf(r: Recipe): NetRecipe {
  const hit = nets.get(r);
  if (hit) return hit;
  // A fluid made at a temperature its own ingredient does not accept (superheating) is another good.
  const accepts = (p: Product) =>
    p.temperature === null || r.ingredients.some((i) => i.name === p.name && (i.minTemp === null || p.temperature! >= i.minTemp) && (i.maxTemp === null || p.temperature! <= i.maxTemp));
  const flow = new Map<string, { name: string; amt: number; fluid: boolean }>();
  for (const p of r.products) {
    const key = accepts(p) ? p.name : `${p.name}\u0000${p.temperature}`;
    const f = flow.get(key) ?? { name: p.name, amt: 0, fluid: p.kind === 'fluid' };
    f.amt += p.amount * p.probability;
    flow.set(key, f);
  }
  for (const i of r.ingredients) {
    const f = flow.get(i.name) ?? { name: i.name, amt: 0, fluid: i.kind === 'fluid' };
    f.amt -= i.amount;
    flow.set(i.name, f);
  }
  const ins: NetRecipe['ins'] = [];
  const outs: NetRecipe['outs'] = [];
  let weight = 0;
  for (const { name, ...f } of flow.values()) {
    if (f.amt < -1e-12) ins.push([name, -f.amt]);
    else if (f.amt > 1e-12) {
      const w = f.fluid ? FLUID_WEIGHT : 1;
      outs.push([name, f.amt, w]);
      weight += f.amt * w;
    }
  }
  const base = r.kind === 'mining' ? Math.max(0, r.energy) : CRAFT_SECOND_COST * Math.max(0, r.energy);
  const out = { base, ins, outs, weight };
  nets.set(r, out);
  return out;
}

/**
 * Cheapest-first pricing (Dijkstra / Knuth): goods leave a min-heap in price order and their price
 * is then final; a recipe prices its outputs once all its inputs are final. A loop can therefore
 * never keep lowering a price, the walk touches each recipe once per input, and the result is
 * deterministic (ties by name).
 */
function relax(g: GameIndex, cost: Map<string, number>, recipes: Recipe[]): void {
  const allowed = new Set(recipes.map((r) => r.name));
  const final = new Set<string>();
  const waiting = new Map<string, number>();
  const heap = new MinHeap();
  const offer = (r: Recipe) => {
    const n = netOf(r);
    if (!(n.weight > 0)) return;
    const c = netCost(n, cost);
    if (c === null) return;
    for (const [good, , w] of n.outs) {
      if (final.has(good)) continue;
      const unit = (c * w) / n.weight;
      const old = cost.get(good);
      if (old !== undefined && !(unit < old)) continue;
      cost.set(good, unit);
      heap.push(unit, good);
    }
  };
  for (const r of recipes) {
    const k = netOf(r).ins.length;
    waiting.set(r.name, k);
    if (k === 0) offer(r);
  }
  // Prices carried in (the second, hidden-recipe pass) are final from the start.
  for (const [good, c] of cost) heap.push(c, good);
  for (let e = heap.pop(); e; e = heap.pop()) {
    if (final.has(e.good) || cost.get(e.good) !== e.cost) continue;
    final.add(e.good);
    for (const cn of g.consumersOf(e.good)) {
      if (!allowed.has(cn)) continue;
      const r = g.recipes.get(cn)!;
      if (!netOf(r).ins.some(([name]) => name === e.good)) continue; // a catalyst, not an input
      const left = waiting.get(cn)! - 1;
      waiting.set(cn, left);
      if (left === 0) offer(r);
    }
  }
}

class MinHeap {
  private readonly c: number[] = [];
  private readonly v: string[] = [];
  push(cost: number, good: string): void {
    const c = this.c;
    const v = this.v;
    let i = c.length;
    c.push(cost);
    v.push(good);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (c[p] < c[i] || (c[p] === c[i] && v[p] <= v[i])) break;
      [c[p], c[i]] = [c[i], c[p]];
      [v[p], v[i]] = [v[i], v[p]];
      i = p;
    }
  }
  pop(): { cost: number; good: string } | undefined {
    const c = this.c;
    const v = this.v;
    if (!c.length) return undefined;
    const top = { cost: c[0], good: v[0] };
    const lc = c.pop()!;
    const lv = v.pop()!;
    if (c.length) {
      c[0] = lc;
      v[0] = lv;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < c.length && (c[l] < c[m] || (c[l] === c[m] && v[l] < v[m]))) m = l;
        if (r < c.length && (c[r] < c[m] || (c[r] === c[m] && v[r] < v[m]))) m = r;
        if (m === i) break;
        [c[m], c[i]] = [c[i], c[m]];
        [v[m], v[i]] = [v[i], v[m]];
        i = m;
      }
    }
    return top;
  }
}

function netCost(n: NetRecipe, cost: Map<string, number>): number | null {
  let c = n.base;
  for (const [name, amt] of n.ins) {
    const ic = cost.get(name);
    if (ic === undefined) return null;
    c += ic * amt;
  }
  return c;
}

/** Cost per unit of a good, or null when nothing makes it. */
export function goodCost(g: GameIndex, good: string): number | null {
  return costTable(g).goods.get(good) ?? null;
}

/** Cost of one craft of a recipe, or null when one of its ingredients has no cost. */
export function recipeCost(g: GameIndex, recipe: Recipe): number | null {
  return netCost(netOf(recipe), costTable(g).goods);
}

/** Cost per unit of `good` made by `recipe` (its share of the craft), or null. */
export function unitCost(g: GameIndex, recipe: Recipe, good: string): number | null {
  const n = netOf(recipe);
  const c = netCost(n, costTable(g).goods);
  const out = n.outs.find((o) => o[0] === good);
  if (c === null || !out || !(n.weight > 0)) return null;
  return (c * out[2]) / n.weight;
}

/** Net amount of `good` per craft at base (no productivity): what it gives less what it takes;
 *  negative when it uses the good up. */
export function netAmount(recipe: Recipe, good: string): number {
  const n = netOf(recipe);
  let sum = 0;
  for (const o of n.outs) if (o[0] === good) sum += o[1];
  for (const i of n.ins) if (i[0] === good) sum -= i[1];
  return sum;
}

/** Gives more of `good` than it takes, per craft at base (no productivity): a recipe that hands back
 *  less of a good than it consumes (Py's NiSi: 2 cobalt extract in, 1 back) only uses it up. */
export function netlyMakes(recipe: Recipe, good: string): boolean {
  return netOf(recipe).outs.some((o) => o[0] === good);
}

/** A cost for output: three significant digits. */
export function roundCost(c: number | null): number | null {
  if (c === null || !Number.isFinite(c)) return null;
  return c === 0 ? 0 : Number(c.toPrecision(3));
}
