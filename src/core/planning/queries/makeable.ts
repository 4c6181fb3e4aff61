// Which goods can be made at all under the horizon: raw goods (mined, pumped or made by nothing —
// they are imported at a chain's edge), energy, and every product of a selectable recipe whose
// inputs can all be made. A least fixed point over the recipe graph (each recipe fires once, when its
// last input becomes makeable), built once per availability. A good a recipe both takes and gives
// back at least as much of (a catalyst, a breeding loop) is no input for this purpose, so self-seeding
// loops do not count as dead ends.
import type { PlanningContext } from '../context';
import type { Recipe } from '../gameIndex';
import { isRaw, makesForReal, pickerInfo } from './common';

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
  // Only what a recipe really makes (a barrel's fluid comes from its filling, not its emptying).
  const real = (r: Recipe) => r.products.filter((p) => p.amount * p.probability > 0 && makesForReal(r, p.name));
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
  for (let good = ready.pop(); good !== undefined; good = ready.pop()) {
    for (const r of waiting.get(good) ?? []) {
      const left = missing.get(r.name)! - 1;
      missing.set(r.name, left);
      if (left === 0) fire(r);
    }
    waiting.delete(good);
  }
  cache.set(ctx.availability, made);
  return made;
}
