// Fluid temperatures (domain C.5). A fluid whose producers and consumers could disagree is expanded:
// every produced temperature T becomes a variant F@T, every distinct accepted range a pool F[lo..hi],
// and a zero-cost selector per (variant in range, pool) moves fluid 1:1 — so a consumer takes any
// producer in its range and exact-temperature outputs stay distinct. A fluid whose products share
// one temperature that every consumer accepts stays a single good (smaller LP, same answer).
// After the solve, folding merges the keys back onto the bare fluid: exports at exact temperatures,
// imports with their accepted range, goal output split by the temperatures that fed it.
import type { GameIndex } from '../gameIndex';
import type { PreparedRow, Term } from './rows';
import { isTemperatureFluid } from './rows';

export type LpGoodKind = 'plain' | 'variant' | 'pool' | 'goal-pool';

/** One good of the LP: a bare good, or a temperature variant / pool / goal pool of a fluid. */
export interface LpGood {
  key: string;
  good: string;
  kind: LpGoodKind;
  /** Variant: its exact temperature. Plain fluid: the one produced temperature, if any. */
  temperature?: number;
  /** Pools: the accepted range. Plain fluid: the range every consumer accepts. */
  lo?: number;
  hi?: number;
  /** Goal pool: index of its goal. */
  goal?: number;
}

export interface Selector {
  from: number;
  to: number;
}

export interface TemperatureGoal {
  index: number;
  good: string;
  direction: 'produce' | 'consume';
  temperature?: number;
}

const rangeKey = (lo: number, hi: number) => `${lo}..${hi === Infinity ? '' : hi}`;

export function formatRange(lo: number | undefined, hi: number | undefined, defaultT?: number | null): string {
  const l = lo === undefined || lo === -Infinity || (defaultT !== undefined && defaultT !== null && lo <= defaultT) ? null : lo;
  const h = hi === undefined || hi === Infinity ? null : hi;
  const f = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1));
  if (l !== null && h !== null) return l === h ? `${f(l)}°` : `${f(l)}–${f(h)}°`;
  if (l !== null) return `≥${f(l)}°`;
  if (h !== null) return `≤${f(h)}°`;
  return 'any temperature';
}

export class TemperaturePlan {
  readonly goods: LpGood[] = [];
  readonly index = new Map<string, number>();
  readonly selectors: Selector[] = [];
  readonly expanded = new Set<string>();
  /** bare fluid → every key of it (plain, variants, pools, goal pools) */
  readonly keysOf = new Map<string, number[]>();
  /** goal index → its goal pool */
  readonly goalPools = new Map<number, number>();

  constructor(private readonly g: GameIndex) {}

  private add(good: LpGood): number {
    const hit = this.index.get(good.key);
    if (hit !== undefined) return hit;
    return this.append(good);
  }

  /** A good not in the plan yet (the caller looked its key up). */
  private append(good: LpGood): number {
    const i = this.goods.length;
    this.goods.push(good);
    this.index.set(good.key, i);
    const l = this.keysOf.get(good.good);
    if (l) l.push(i);
    else this.keysOf.set(good.good, [i]);
    return i;
  }

  addGoalPool(fluid: string, goal: number, lo: number, hi: number): number {
    const i = this.add({ key: `${fluid}{goal ${goal}}`, good: fluid, kind: 'goal-pool', lo, hi, goal });
    this.goalPools.set(goal, i);
    return i;
  }

  /** The LP good a row term touches (created on first use). */
  keyFor(t: Term): number {
    // Most goods are plain (most blocks expand no fluid): one lookup for them, not three.
    if (this.expanded.size === 0 || !this.expanded.has(t.good)) return this.index.get(t.good) ?? this.append({ key: t.good, good: t.good, kind: 'plain' });
    if (t.amount > 0) {
      const T = t.temperature ?? this.g.goods.get(t.good)?.defaultTemperature ?? 0;
      return this.add({ key: `${t.good}@${T}`, good: t.good, kind: 'variant', temperature: T });
    }
    const lo = t.lo ?? -Infinity;
    const hi = t.hi ?? Infinity;
    return this.add({ key: `${t.good}[${rangeKey(lo, hi)}]`, good: t.good, kind: 'pool', lo, hi });
  }

  /** Plain key of a good (items, pseudo-goods, unexpanded fluids). */
  plain(good: string): number | undefined {
    return this.expanded.has(good) ? undefined : this.index.get(good);
  }

  variants(fluid: string): number[] {
    return (this.keysOf.get(fluid) ?? []).filter((i) => this.goods[i].kind === 'variant');
  }

  pools(fluid: string, withGoalPools = false): number[] {
    return (this.keysOf.get(fluid) ?? []).filter((i) => this.goods[i].kind === 'pool' || (withGoalPools && this.goods[i].kind === 'goal-pool'));
  }

  /** Variants a pool accepts. */
  inRange(pool: number): number[] {
    const p = this.goods[pool];
    return this.variants(p.good).filter((v) => this.goods[v].temperature! >= p.lo! && this.goods[v].temperature! <= p.hi!);
  }

  /** Display qualifier of a key ("165°", "≥150°"). */
  qualifier(i: number): string {
    const x = this.goods[i];
    const d = this.g.goods.get(x.good)?.defaultTemperature;
    if (x.kind === 'variant') return formatRange(x.temperature, x.temperature);
    if (x.kind === 'pool' || x.kind === 'goal-pool') return formatRange(x.lo, x.hi, d);
    return '';
  }
}

/**
 * Decides which fluids expand and creates every LP good and selector. Goals: a produce goal on an
 * expanded fluid gets its own pool (exact temperature if given, else any); consume goals are
 * constrained on the fluid's aggregate and need no key.
 */
export function planTemperatures(g: GameIndex, rows: PreparedRow[], goals: TemperatureGoal[]): TemperaturePlan {
  const plan = new TemperaturePlan(g);
  const temps = new Map<string, Set<number>>();
  const ranges = new Map<string, Map<string, { lo: number; hi: number }>>();
  for (const r of rows) {
    for (const t of r.terms) {
      if (!isTemperatureFluid(g, t.good)) continue;
      if (t.amount > 0) {
        let s = temps.get(t.good);
        if (!s) temps.set(t.good, (s = new Set<number>()));
        s.add(t.temperature ?? g.goods.get(t.good)?.defaultTemperature ?? 0);
      } else {
        let m = ranges.get(t.good);
        if (!m) ranges.set(t.good, (m = new Map<string, { lo: number; hi: number }>()));
        const lo = t.lo ?? -Infinity;
        const hi = t.hi ?? Infinity;
        const key = rangeKey(lo, hi);
        if (!m.has(key)) m.set(key, { lo, hi });
      }
    }
  }
  const fluids = new Set([...temps.keys(), ...ranges.keys()]);
  for (const goal of goals) if (isTemperatureFluid(g, goal.good) && goal.temperature !== undefined && goal.direction === 'produce') fluids.add(goal.good);
  for (const f of fluids) {
    const pt = [...(temps.get(f) ?? [])];
    const cr = [...(ranges.get(f)?.values() ?? [])];
    let simple: boolean;
    if (pt.length > 1) simple = false;
    else if (pt.length === 1) simple = cr.every((r) => pt[0] >= r.lo && pt[0] <= r.hi);
    else simple = cr.length <= 1;
    if (simple) {
      for (const goal of goals) {
        if (goal.good === f && goal.direction === 'produce' && goal.temperature !== undefined && !(pt.length === 1 && pt[0] === goal.temperature)) simple = false;
      }
    }
    if (!simple) plan.expanded.add(f);
  }

  for (const r of rows) for (const t of r.terms) plan.keyFor(t);
  // Plain fluids remember their one temperature and the range all consumers accept (for reporting).
  for (const f of fluids) {
    if (plan.expanded.has(f)) continue;
    const i = plan.index.get(f);
    if (i === undefined) continue;
    const x = plan.goods[i];
    const pt = [...(temps.get(f) ?? [])];
    if (pt.length === 1) x.temperature = pt[0];
    const cr = [...(ranges.get(f)?.values() ?? [])];
    if (cr.length) {
      x.lo = cr.reduce((lo, r) => Math.max(lo, r.lo), -Infinity);
      x.hi = cr.reduce((hi, r) => Math.min(hi, r.hi), Infinity);
    }
  }
  for (const goal of goals) {
    if (!plan.expanded.has(goal.good) || goal.direction !== 'produce') continue;
    const lo = goal.temperature ?? -Infinity;
    const hi = goal.temperature ?? Infinity;
    plan.addGoalPool(goal.good, goal.index, lo, hi);
  }
  for (const f of plan.expanded) {
    for (const p of plan.pools(f, true)) for (const v of plan.inRange(p)) plan.selectors.push({ from: v, to: p });
  }
  return plan;
}

export interface FoldedFluid {
  exports: Array<{ temperature: number; rate: number }>;
  imports: Array<{ lo: number; hi: number; rate: number }>;
  /** goal index → rate by the temperature that fed it */
  goalSplit: Map<number, Array<{ temperature: number; rate: number }>>;
}

/**
 * Folds an expanded fluid back onto its bare name. `net` is per LP good (selectors included) and
 * `flow` per selector. Overfed pools hand their excess back to the variants, then pool shortfalls
 * are met from in-range variant surplus (pools by upper bound, coldest variant first — optimal for
 * points-in-intervals), so nothing is reported as both bought and sold.
 */
export function foldFluid(plan: TemperaturePlan, fluid: string, net: Float64Array, flow: Float64Array, goalRate: (goal: number) => number): FoldedFluid {
  const n = new Map<number, number>();
  for (const k of plan.keysOf.get(fluid) ?? []) n.set(k, net[k]);
  const sel = plan.selectors.map((s, i) => ({ ...s, i, flow: flow[i] })).filter((s) => plan.goods[s.from].good === fluid);
  const unroute = (pool: number, excess: number) => {
    for (const s of sel) {
      if (excess <= 0) break;
      if (s.to !== pool || s.flow <= 0) continue;
      const d = Math.min(s.flow, excess);
      s.flow -= d;
      excess -= d;
      n.set(pool, n.get(pool)! - d);
      n.set(s.from, n.get(s.from)! + d);
    }
  };
  for (const p of plan.pools(fluid, true)) {
    const x = plan.goods[p];
    const excess = n.get(p)! - (x.kind === 'goal-pool' ? Math.max(0, goalRate(x.goal!)) : 0);
    if (excess > 0) unroute(p, excess);
  }
  const pools = plan.pools(fluid).sort((a, b) => plan.goods[a].hi! - plan.goods[b].hi! || plan.goods[b].lo! - plan.goods[a].lo!);
  const variants = plan.variants(fluid).sort((a, b) => plan.goods[a].temperature! - plan.goods[b].temperature!);
  for (const p of pools) {
    let need = -n.get(p)!;
    if (need <= 0) continue;
    for (const v of variants) {
      if (need <= 0) break;
      const T = plan.goods[v].temperature!;
      const have = n.get(v)!;
      if (have <= 0 || T < plan.goods[p].lo! || T > plan.goods[p].hi!) continue;
      const d = Math.min(have, need);
      n.set(v, have - d);
      n.set(p, n.get(p)! + d);
      need -= d;
    }
  }
  const out: FoldedFluid = { exports: [], imports: [], goalSplit: new Map() };
  for (const v of variants) if (n.get(v)! > 0) out.exports.push({ temperature: plan.goods[v].temperature!, rate: n.get(v)! });
  for (const v of variants) if (n.get(v)! < 0) out.imports.push({ lo: plan.goods[v].temperature!, hi: plan.goods[v].temperature!, rate: -n.get(v)! });
  for (const p of pools) if (n.get(p)! < 0) out.imports.push({ lo: plan.goods[p].lo!, hi: plan.goods[p].hi!, rate: -n.get(p)! });
  for (const p of plan.pools(fluid, true)) {
    const x = plan.goods[p];
    if (x.kind !== 'goal-pool') continue;
    const split = new Map<number, number>();
    for (const s of sel) if (s.to === p && s.flow > 0) split.set(plan.goods[s.from].temperature!, (split.get(plan.goods[s.from].temperature!) ?? 0) + s.flow);
    out.goalSplit.set(x.goal!, [...split].sort((a, b) => a[0] - b[0]).map(([temperature, rate]) => ({ temperature, rate })));
  }
  return out;
}
