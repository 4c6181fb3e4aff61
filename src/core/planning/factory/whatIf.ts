// whatIf: how changing the rate of final products ripples through the supplier blocks. A factory
// LP over the blocks' current flows: productive blocks (whose goal output is consumed or is a
// final product) scale by s_b ≥ 0, every consumer's intake is covered by allocations from
// producer flows, final products meet their new targets, and the total scale is minimized.
import type { Project } from '../../db/project';
import type { GameIndex } from '../gameIndex';
import { loadHighs } from '../solver/highs';
import { LpSession, ProgramBuilder } from '../solver/program';
import type { BlockSolver } from './blocks';
import { factorySnapshot } from './fresh';
import { ENERGY_GOODS } from './ledger';

export interface WhatIfResult {
  status: 'optimal' | 'infeasible' | 'error';
  message?: string;
  blocksToResize: Array<{ blockId: string; name: string; good: string; rate: number; scale: number; delta: number }>;
  ignoredOverrides: Array<{ good: string; reason: string }>;
  demands: Array<{ good: string; display: string; current: number; target: number }>;
  rawsNeeded: Array<{ good: string; display: string; current: number; rate: number }>;
  overproduced: Array<{ good: string; display: string; surplus: number; absorb: string }>;
}

type Role = 'raw' | 'demand' | 'intermediate' | 'surplus';

export async function whatIf(p: Project, g: GameIndex, solve: BlockSolver, overrides: Array<{ good: string; rate: number }>): Promise<WhatIfResult> {
  const snap = await factorySnapshot(p, solve);
  const byGood = new Map<string, { prodPrimary: Array<{ b: string; rate: number }>; prodBy: Array<{ b: string; rate: number }>; cons: Array<{ b: string; rate: number }> }>();
  for (const f of snap.flows) {
    if (ENERGY_GOODS.has(f.item)) continue;
    const e = byGood.get(f.item) ?? { prodPrimary: [], prodBy: [], cons: [] };
    if (f.role === 'import') e.cons.push({ b: f.block_id, rate: f.rate });
    else if (f.role === 'byproduct') e.prodBy.push({ b: f.block_id, rate: f.rate });
    else e.prodPrimary.push({ b: f.block_id, rate: f.rate });
    byGood.set(f.item, e);
  }
  const role = (good: string): Role => {
    const e = byGood.get(good);
    if (!e || (!e.prodPrimary.length && !e.prodBy.length)) return 'raw';
    if (e.prodPrimary.length && !e.cons.length) return 'demand';
    if (e.prodPrimary.length && e.cons.length) return 'intermediate';
    if (e.cons.length) return 'intermediate';
    return 'surplus';
  };
  const out: WhatIfResult = { status: 'optimal', blocksToResize: [], ignoredOverrides: [], demands: [], rawsNeeded: [], overproduced: [] };
  const targets = new Map<string, number>();
  for (const o of overrides) {
    if (!g.goods.has(o.good)) out.ignoredOverrides.push({ good: o.good, reason: 'unknown good; call searchGoods for its internal name' });
    else if (role(o.good) !== 'demand') out.ignoredOverrides.push({ good: o.good, reason: role(o.good) === 'intermediate' ? 'it is consumed by other blocks (an intermediate); change the final product instead' : 'no block makes it as a goal' });
    else targets.set(o.good, o.rate);
  }

  const productive = new Set<string>();
  for (const [good, e] of byGood) {
    const r = role(good);
    if (r === 'demand' || r === 'intermediate') for (const x of e.prodPrimary) productive.add(x.b);
  }
  const b = new ProgramBuilder();
  const scaleCol = new Map<string, number>();
  for (const id of productive) scaleCol.set(id, b.addCol(1, 0, 1e7));
  const scaleOf = (id: string) => scaleCol.get(id);
  const balances: Array<{ good: string; row: number }> = [];
  for (const [good, e] of byGood) {
    const r = role(good);
    if (r !== 'demand' && r !== 'intermediate') continue;
    const cols: number[] = [];
    const vals: number[] = [];
    let fixed = 0;
    for (const x of [...e.prodPrimary, ...e.prodBy]) {
      const a = b.addCol(1e-6, 0, 1e12);
      cols.push(a);
      vals.push(1);
      // a ≤ rate · s_b (fixed blocks offer their current rate)
      const s = scaleOf(x.b);
      if (s !== undefined) b.addRow([a, s], [1, -x.rate], -Infinity, 0);
      else b.addRow([a], [1], -Infinity, x.rate);
    }
    for (const x of e.cons) {
      const s = scaleOf(x.b);
      if (s !== undefined) {
        cols.push(s);
        vals.push(-x.rate);
      } else fixed += x.rate;
    }
    const current = e.prodPrimary.reduce((t, x) => t + x.rate, 0);
    const target = r === 'demand' ? (targets.get(good) ?? current) : 0;
    if (r === 'demand') out.demands.push({ good, display: g.displayOf(good), current, target });
    balances.push({ good, row: b.addRow(cols, vals, target + fixed, Infinity) });
  }
  const highs = await loadHighs();
  const session = new LpSession(highs, b.build());
  let sol;
  try {
    sol = session.run();
  } finally {
    session.dispose();
  }
  if (sol.status !== 'optimal') return { ...out, status: sol.status === 'infeasible' ? 'infeasible' : 'error', message: sol.message ?? `the factory LP is ${sol.status}` };
  const blockName = new Map(snap.blocks.map((x) => [x.id, x.name]));
  const scale = (id: string) => (scaleCol.has(id) ? sol.x[scaleCol.get(id)!] : 1);
  for (const blk of snap.blocks) {
    if (!scaleCol.has(blk.id)) continue;
    const goal = snap.flows.find((f) => f.block_id === blk.id && (f.role === 'primary' || f.role === 'stock'));
    if (!goal) continue;
    const s = scale(blk.id);
    const delta = goal.rate * s - goal.rate;
    if (Math.abs(delta) > 1e-3) out.blocksToResize.push({ blockId: blk.id, name: blockName.get(blk.id)!, good: goal.item, rate: goal.rate * s, scale: s, delta });
  }
  for (const [good, e] of byGood) {
    const r = role(good);
    if (r === 'raw' && e.cons.length) {
      const current = e.cons.reduce((t, x) => t + x.rate, 0);
      out.rawsNeeded.push({ good, display: g.displayOf(good), current, rate: e.cons.reduce((t, x) => t + x.rate * scale(x.b), 0) });
    }
    const produced = [...e.prodPrimary, ...e.prodBy].reduce((t, x) => t + x.rate * scale(x.b), 0);
    const consumed = e.cons.reduce((t, x) => t + x.rate * scale(x.b), 0);
    const target = r === 'demand' ? (targets.get(good) ?? e.prodPrimary.reduce((t, x) => t + x.rate, 0)) : 0;
    const surplus = produced - consumed - target;
    if (surplus > 1e-3 && (r === 'intermediate' || r === 'surplus')) {
      const sinks = g.consumersOf(good).slice(0, 2).map((x) => g.displayOf(x));
      out.overproduced.push({ good, display: g.displayOf(good), surplus, absorb: sinks.length ? `route it to ${sinks.join(' or ')} (byproductSinks lists more)` : 'nothing consumes it; store or void it' });
    }
  }
  out.blocksToResize.sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta));
  out.rawsNeeded.sort((x, y) => y.rate - x.rate);
  return out;
}
