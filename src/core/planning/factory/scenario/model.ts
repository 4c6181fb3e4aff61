// How each block scales with its goals, as the block's own solver answers it. A block's flows are a
// function of its goal rates; the scenario needs that function as a linear model:
//   flows(G) = base + Σ_k G_k · perUnit_k
// A block with one rate goal and nothing fixed (no building count or cap pins, stock goals, campaign
// or spoil rates) is exact: its LP is homogeneous, so its flows at rate G are G/current times its
// flows now. Any other block (several goals, coproducts it must balance, pins) is linearized at its
// current goals by solving it once more per goal with that goal raised; the scenario checks the
// prediction against a real solve at the goals it picks and linearizes again where they differ.
import { goalRate, type BlockDoc } from '../../block/document';
import { campaignGoals } from '../../block/campaign';
import { projectionFlows, type BlockRecord, type BlockSolver } from '../blocks';
import type { SolveResult } from '../../solver/result';
import { addScaled, vectorOf, type FlowSpace, type FlowVector } from '../flowKeys';

/** One goal the scenario may change. */
export interface GoalVar {
  blockId: string;
  /** Index into the block document's goals. */
  index: number;
  good: string;
  direction: 'produce' | 'consume';
  /** Its rate now, as a magnitude (items or units per second). */
  current: number;
  temperature?: number;
}

/** The block's flows and buildings at some goals. */
export interface Point {
  flows: FlowVector;
  buildings: number;
}

export interface BlockModel {
  block: BlockRecord;
  goals: GoalVar[];
  /** Flows with every goal the scenario may change at zero (pins, stock goals, campaigns). */
  base: FlowVector;
  /** Flows per unit of each goal. */
  perUnit: FlowVector[];
  /** Buildings per unit of each goal (the scenario's cost of growing it). */
  buildingsPerUnit: number[];
  /** Homogeneous: the model is the block's own answer at every rate, not a linearization. */
  exact: boolean;
  /** Highest rate of each goal the block can reach (its building pins and caps), once found. */
  upper: number[];
}

export interface ExcludedBlock {
  blockId: string;
  name: string;
  reason: string;
}

/** The goals of a block the scenario may change: rate goals (stock goals, campaigns and goals on
 *  goods the factory does not trade — heat, and electricity without power blocks — stay). */
export function scalableGoals(b: BlockRecord, fixed: ReadonlySet<string> = new Set()): GoalVar[] {
  const out: GoalVar[] = [];
  b.doc.goals.forEach((goal, index) => {
    const r = goalRate(goal);
    if (r.stock || fixed.has(goal.good)) return;
    out.push({ blockId: b.id, index, good: goal.good, direction: r.direction, current: Math.abs(r.rate), ...(goal.temperature !== undefined ? { temperature: goal.temperature } : {}) });
  });
  return out;
}

/** The block's document with its changeable goals at these magnitudes. */
export function withGoals(doc: BlockDoc, goals: GoalVar[], magnitudes: number[]): BlockDoc {
  const next = doc.goals.map((x) => ({ ...x }));
  goals.forEach((v, i) => {
    const m = Math.max(0, magnitudes[i]);
    next[v.index] = { ...next[v.index], rate: v.direction === 'consume' ? -m : m, ...(v.direction === 'consume' ? { direction: 'consume' as const } : {}) };
  });
  return { ...doc, goals: next };
}

function isHomogeneous(b: BlockRecord, goals: GoalVar[]): boolean {
  const d = b.doc;
  return (
    goals.length === 1 && goals[0].current > 0 && goals.length === d.goals.length &&
    !d.pins.some((p) => p.kind === 'count' || p.kind === 'cap') &&
    !Object.values(d.spoilRates ?? {}).some((r) => r > 0) &&
    !campaignGoals(d.campaign).length
  );
}

export function pointOf(b: BlockRecord, r: SolveResult, space: FlowSpace): Point {
  return { flows: vectorOf(projectionFlows(b.id, b.doc, r), space), buildings: r.rows.reduce((s, x) => s + x.buildings, 0) };
}

/** Relative step for the finite difference of a linearized goal. */
const STEP = 0.05;

/**
 * The model of one block at `at` (goal magnitudes; default its current goals), from the point `now`
 * when it is already known (the factory snapshot), solving more where the block is not exact.
 * Returns a reason instead when the block cannot be scaled.
 */
export async function modelBlock(
  b: BlockRecord, solve: BlockSolver, space: FlowSpace, now?: Point, at?: number[],
): Promise<BlockModel | { reason: string }> {
  const goals = scalableGoals(b, space.skip);
  const solveAt = async (mags: number[]): Promise<Point | { reason: string }> => {
    const r = await solve(withGoals(b.doc, goals, mags));
    if (r.status !== 'optimal') return { reason: r.status === 'infeasible' ? 'infeasible at these goals (open it to see the diagnosis)' : (r.message ?? r.status) };
    return pointOf(b, r, space);
  };
  const mags = at ?? goals.map((x) => x.current);
  if (!goals.length) {
    const p = now && !at ? now : await solveAt([]);
    if ('reason' in p) return p;
    return { block: b, goals, base: p.flows, perUnit: [], buildingsPerUnit: [], exact: true, upper: [] };
  }
  if (!at && isHomogeneous(b, goals)) {
    const p = now ?? (await solveAt(mags));
    if ('reason' in p) return p;
    const c = goals[0].current;
    return { block: b, goals, base: new Map(), perUnit: [addScaled(new Map(), p.flows, 1 / c)], buildingsPerUnit: [p.buildings / c], exact: true, upper: [Infinity] };
  }
  // A goal at zero has no slope to measure from: measure around one unit instead.
  const from = mags.map((m) => (m > 0 ? m : 1));
  const p0 = now && !at && from.every((m, i) => m === mags[i]) ? now : await solveAt(from);
  if ('reason' in p0) return p0;
  const perUnit: FlowVector[] = [];
  const buildingsPerUnit: number[] = [];
  for (let k = 0; k < goals.length; k++) {
    const step = Math.max(from[k] * STEP, 1e-3);
    const p1 = await solveAt(from.map((m, i) => (i === k ? m + step : m)));
    if ('reason' in p1) return p1;
    const d = addScaled(new Map(), p1.flows, 1 / step);
    addScaled(d, p0.flows, -1 / step);
    perUnit.push(d);
    buildingsPerUnit.push(Math.max(0, (p1.buildings - p0.buildings) / step));
  }
  const base = addScaled(new Map(), p0.flows, 1);
  perUnit.forEach((d, k) => addScaled(base, d, -from[k]));
  return { block: b, goals, base, perUnit, buildingsPerUnit, exact: false, upper: goals.map(() => Infinity) };
}

/** Flows the model predicts at these goal magnitudes. */
export function predict(m: BlockModel, mags: number[]): FlowVector {
  const v = addScaled(new Map(), m.base, 1);
  m.perUnit.forEach((d, k) => addScaled(v, d, mags[k]));
  return v;
}
