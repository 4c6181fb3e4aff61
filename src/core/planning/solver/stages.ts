// The lexicographic objective (domain C.3) on one persistent HiGHS model:
//  1. minimize machine-seconds Σ (max(0, E) + tiny rank tie-break)·x — the tie-break is in the
//     objective only, so it can never make a feasible block infeasible;
//  2. if goals end with avoidable surplus (weighted Σ w·surplus, w = 1/max(1,|rate|), above 1e-6),
//     goal rows become equalities with slack σ ≥ 0 and Σ w·σ is minimized;
//  3. if that lowered the surplus, it is capped at its optimum (plus a tolerance) and machine-seconds
//     are minimized again. A failed later stage keeps the previous stage's solution.
// Runs in the caller's thread or in the solver worker: it needs only HiGHS and plain data.
import type { Highs } from './highs';
import type { BlockProgram } from './lp';
import type { LpSolution, LpStatus } from './program';
import { LpSession } from './program';

export interface StageOptions {
  timeLimitSec?: number;
  /** Test seam: sees (and may replace) the result of each stage's run. */
  intercept?: (stage: 1 | 2 | 3, result: LpSolution) => LpSolution;
}

export interface StageResult {
  status: LpStatus;
  message?: string;
  /** Executions per second per column (recipes, then selectors); |x| ≤ 1e-9 becomes 0. */
  x: Float64Array;
  /** The stage whose solution is used. */
  stage: 1 | 2 | 3;
  /** Weighted goal surplus of the solution used. */
  surplus: number;
  notes: string[];
  highsMs: number;
}

const SURPLUS_TOL = 1e-6;
const ZERO = 1e-9;

function weightedSurplus(p: BlockProgram, activity: Float64Array): number {
  let s = 0;
  p.constraints.forEach((c, i) => {
    if (c.kind !== 'goal' || c.goal === undefined || c.implicit) return;
    const d = c.sense === 'ge' ? activity[i] - c.rhs : c.rhs - activity[i];
    if (d > 0) s += (c.weight ?? 1) * d;
  });
  return s;
}

function clean(x: Float64Array, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.abs(x[i]) <= ZERO ? 0 : x[i];
  return out;
}

export function solveStages(highs: Highs, p: BlockProgram, opts: StageOptions = {}): StageResult {
  const n = p.lp.numCols;
  const session = new LpSession(highs, p.lp, { timeLimitSec: opts.timeLimitSec });
  const run = (stage: 1 | 2 | 3) => {
    const r = session.run();
    return opts.intercept ? opts.intercept(stage, r) : r;
  };
  const notes: string[] = [];
  try {
    const s1 = run(1);
    if (s1.status !== 'optimal') return { status: s1.status, message: s1.message, x: new Float64Array(n), stage: 1, surplus: 0, notes, highsMs: session.highsMs };
    const x1 = clean(s1.x, n);
    const S = weightedSurplus(p, s1.rowActivity);
    if (!(S > SURPLUS_TOL)) return { status: 'optimal', x: x1, stage: 1, surplus: S, notes, highsMs: session.highsMs };

    // Stage 2: goal rows become equalities with a weighted slack; only the slack costs.
    const sigma: number[] = [];
    const weights: number[] = [];
    p.constraints.forEach((c, i) => {
      if (c.kind !== 'goal' || c.goal === undefined || c.implicit) return;
      const w = c.weight ?? 1;
      sigma.push(session.addCol(w, 0, 1e12, [i], [c.sense === 'ge' ? -1 : 1]));
      weights.push(w);
      session.setRowBounds(i, c.rhs, c.rhs);
    });
    session.setCosts(new Float64Array(n));
    const s2 = run(2);
    if (s2.status !== 'optimal') {
      notes.push(`surplus minimization failed (${s2.message ?? s2.status}); kept the first solution`);
      return { status: 'optimal', x: x1, stage: 1, surplus: S, notes, highsMs: session.highsMs };
    }
    const S2 = s2.objective;
    const x2 = clean(s2.x, n);
    if (!(S2 + SURPLUS_TOL < S)) return { status: 'optimal', x: x1, stage: 1, surplus: S, notes, highsMs: session.highsMs };

    // Stage 3: keep the surplus at its optimum and minimize machine-seconds again.
    session.addRow(-Infinity, S2 + SURPLUS_TOL * Math.max(1, S2), sigma, weights);
    session.setCosts(p.lp.colCost);
    session.setCosts(new Float64Array(sigma.length), n);
    const s3 = run(3);
    if (s3.status !== 'optimal') {
      notes.push(`machine minimization after surplus failed (${s3.message ?? s3.status}); kept the surplus-minimal solution`);
      return { status: 'optimal', x: x2, stage: 2, surplus: S2, notes, highsMs: session.highsMs };
    }
    const S3 = sigma.reduce((a, col, k) => a + weights[k] * s3.x[col], 0);
    return { status: 'optimal', x: clean(s3.x, n), stage: 3, surplus: S3, notes, highsMs: session.highsMs };
  } finally {
    session.dispose();
  }
}
