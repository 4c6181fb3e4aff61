// A linear program in plain arrays (columns with cost and bounds, rows in CSR with bounds) and a
// session that runs it on HiGHS's structured API. Plain data so a program can cross to a worker
// thread; constants always sit in the row bounds, never in the matrix. Every HiGHS call goes through
// the session so the time spent inside HiGHS can be reported on its own.
import type { Highs } from './highs';

/** minimize colCost·x subject to rowLower ≤ A·x ≤ rowUpper and colLower ≤ x ≤ colUpper. */
export interface LinearProgram {
  numCols: number;
  numRows: number;
  colCost: Float64Array;
  colLower: Float64Array;
  colUpper: Float64Array;
  rowLower: Float64Array;
  rowUpper: Float64Array;
  /** CSR: row i holds columns rowIndex[rowStarts[i]..rowStarts[i+1]) with rowValue. */
  rowStarts: Int32Array;
  rowIndex: Int32Array;
  rowValue: Float64Array;
}

export type LpStatus = 'optimal' | 'infeasible' | 'unbounded' | 'error';

export interface LpSolution {
  status: LpStatus;
  /** HiGHS model status code (7 optimal, 8 infeasible, 9 infeasible or unbounded, 10 unbounded, 13 time limit, …). */
  code: number;
  message?: string;
  objective: number;
  x: Float64Array;
  rowActivity: Float64Array;
  rowDual: Float64Array;
}

/** Assembles a program row by row; duplicate column entries in a row are summed. */
export class ProgramBuilder {
  private cost: number[] = [];
  private lo: number[] = [];
  private hi: number[] = [];
  private rLo: number[] = [];
  private rHi: number[] = [];
  private starts: number[] = [0];
  private index: number[] = [];
  private value: number[] = [];

  get numCols(): number {
    return this.cost.length;
  }

  get numRows(): number {
    return this.rLo.length;
  }

  addCol(cost: number, lower = 0, upper = Infinity): number {
    this.cost.push(cost);
    this.lo.push(lower);
    this.hi.push(upper);
    return this.cost.length - 1;
  }

  /** Adds lower ≤ Σ vals[k]·x[cols[k]] ≤ upper; returns the row index. */
  addRow(cols: ArrayLike<number>, vals: ArrayLike<number>, lower: number, upper: number): number {
    const n = cols.length;
    if (n === 1) {
      if (vals[0] !== 0) {
        this.index.push(cols[0]);
        this.value.push(vals[0]);
      }
    } else if (n > 1 && isSorted(cols)) {
      // Already in column order (rows built from a transpose): merge neighbours only.
      let k = 0;
      while (k < n) {
        const c = cols[k];
        let v = 0;
        while (k < n && cols[k] === c) v += vals[k++];
        if (v === 0) continue;
        this.index.push(c);
        this.value.push(v);
      }
    } else if (n > 1) {
      const order = Array.from({ length: n }, (_, k) => k).sort((a, b) => cols[a] - cols[b]);
      let k = 0;
      while (k < n) {
        const c = cols[order[k]];
        let v = 0;
        while (k < n && cols[order[k]] === c) v += vals[order[k++]];
        if (v === 0) continue;
        this.index.push(c);
        this.value.push(v);
      }
    }
    this.starts.push(this.index.length);
    this.rLo.push(lower);
    this.rHi.push(upper);
    return this.rLo.length - 1;
  }

  build(): LinearProgram {
    return {
      numCols: this.cost.length,
      numRows: this.rLo.length,
      colCost: Float64Array.from(this.cost),
      colLower: Float64Array.from(this.lo),
      colUpper: Float64Array.from(this.hi),
      rowLower: Float64Array.from(this.rLo),
      rowUpper: Float64Array.from(this.rHi),
      rowStarts: Int32Array.from(this.starts),
      rowIndex: Int32Array.from(this.index),
      rowValue: Float64Array.from(this.value),
    };
  }
}

function isSorted(a: ArrayLike<number>): boolean {
  for (let i = 1; i < a.length; i++) if (a[i] < a[i - 1]) return false;
  return true;
}

/** Columns of one row of a program. */
export function rowEntries(lp: LinearProgram, row: number): { cols: Int32Array; vals: Float64Array } {
  const a = lp.rowStarts[row];
  const b = lp.rowStarts[row + 1];
  return { cols: lp.rowIndex.subarray(a, b), vals: lp.rowValue.subarray(a, b) };
}

/** Maps a HiGHS model status to ours. Optimal (7) is the only status whose primal values we use. */
export function mapStatus(code: number): { status: LpStatus; message?: string } {
  switch (code) {
    case 7:
      return { status: 'optimal' };
    case 8:
      return { status: 'infeasible', message: 'the constraints cannot all be met' };
    case 9:
      return { status: 'infeasible', message: 'HiGHS reports the model infeasible or unbounded' };
    case 10:
      return { status: 'unbounded', message: 'the objective is unbounded (a recipe can run without limit at no cost)' };
    case 13:
      return { status: 'error', message: 'HiGHS stopped at its time limit' };
    case 14:
      return { status: 'error', message: 'HiGHS stopped at its iteration limit' };
    case 6:
      return { status: 'error', message: 'HiGHS reports an empty model' };
    default:
      return { status: 'error', message: `HiGHS ended with model status ${code}` };
  }
}

export interface SessionOptions {
  timeLimitSec?: number;
}

/**
 * One persistent HiGHS model. Stages change costs, bounds and add columns or rows and re-run from
 * the previous basis. Must be disposed.
 */
export class LpSession {
  private readonly model: ReturnType<Highs['createModel']>;
  /** Milliseconds spent inside HiGHS calls by this session. */
  highsMs = 0;
  numCols: number;
  numRows: number;
  /** Row bounds of a column-free program, which HiGHS is not given (it would call it empty). */
  private readonly emptyRows?: { lower: Float64Array; upper: Float64Array };

  constructor(
    readonly highs: Highs,
    lp: LinearProgram,
    opts: SessionOptions = {},
  ) {
    const t0 = performance.now();
    this.model = highs.createModel();
    this.model.options.set({ output_flag: false, ...(opts.timeLimitSec ? { time_limit: opts.timeLimitSec } : {}) });
    this.numCols = lp.numCols;
    this.numRows = lp.numRows;
    if (lp.numCols === 0) this.emptyRows = { lower: lp.rowLower.slice(), upper: lp.rowUpper.slice() };
    else {
      this.model.passModel({
        numCols: lp.numCols,
        numRows: lp.numRows,
        colCost: lp.colCost,
        colLower: lp.colLower,
        colUpper: lp.colUpper,
        rowLower: lp.rowLower,
        rowUpper: lp.rowUpper,
        matrix: { format: 'csr', numRows: lp.numRows, numCols: lp.numCols, starts: lp.rowStarts, indices: lp.rowIndex, values: lp.rowValue },
      });
    }
    this.highsMs += performance.now() - t0;
  }

  private timed<T>(fn: () => T): T {
    const t0 = performance.now();
    try {
      return fn();
    } finally {
      this.highsMs += performance.now() - t0;
    }
  }

  run(): LpSolution {
    return this.timed(() => {
      if (this.emptyRows) {
        // Every activity is 0: feasible exactly when 0 lies within every row's bounds.
        const { lower, upper } = this.emptyRows;
        const ok = lower.every((l, i) => l <= 0 && upper[i] >= 0);
        return { ...mapStatus(ok ? 7 : 8), code: ok ? 7 : 8, objective: 0, x: new Float64Array(0), rowActivity: new Float64Array(this.numRows), rowDual: new Float64Array(this.numRows) };
      }
      let code: number;
      try {
        code = this.model.run().modelStatus;
        if (code === 9) {
          // Presolve could not tell infeasible from unbounded; the simplex without it can.
          this.model.options.set({ presolve: 'off' });
          code = this.model.run().modelStatus;
          this.model.options.set({ presolve: 'choose' });
        }
      } catch (err) {
        return { status: 'error', code: -1, message: `HiGHS failed: ${err instanceof Error ? err.message : String(err)}`, objective: NaN, x: new Float64Array(this.numCols), rowActivity: new Float64Array(this.numRows), rowDual: new Float64Array(this.numRows) };
      }
      const { status, message } = mapStatus(code);
      const s = this.model.getSolution();
      return { status, code, message, objective: status === 'optimal' ? this.model.getObjectiveValue() : NaN, x: s.colValue, rowActivity: s.rowValue, rowDual: s.rowDual };
    });
  }

  setCosts(costs: ArrayLike<number>, from = 0): void {
    if (!costs.length) return;
    this.timed(() => this.model.changeColsCost({ kind: 'range', from, to: from + costs.length - 1 }, Float64Array.from(costs)));
  }

  setColBounds(col: number, lower: number, upper: number): void {
    this.timed(() => this.model.changeColBounds(col, lower, upper));
  }

  setRowBounds(row: number, lower: number, upper: number): void {
    if (this.emptyRows) {
      this.emptyRows.lower[row] = lower;
      this.emptyRows.upper[row] = upper;
      return;
    }
    this.timed(() => this.model.changeRowBounds(row, lower, upper));
  }

  /** Appends a column with entries in existing rows; returns its index. */
  addCol(cost: number, lower: number, upper: number, rows: number[], vals: number[]): number {
    if (this.emptyRows) throw new Error('LpSession: cannot add columns to a column-free program');
    this.timed(() => this.model.addCol(cost, lower, upper, { indices: Int32Array.from(rows), values: Float64Array.from(vals) }));
    return this.numCols++;
  }

  /** Appends a row over existing columns; returns its index. */
  addRow(lower: number, upper: number, cols: number[], vals: number[]): number {
    if (this.emptyRows) throw new Error('LpSession: cannot add rows to a column-free program');
    this.timed(() => this.model.addRow(lower, upper, { indices: Int32Array.from(cols), values: Float64Array.from(vals) }));
    return this.numRows++;
  }

  dispose(): void {
    this.timed(() => this.model.dispose());
  }
}

/** Solves one program to optimality (a helper for analyses outside blocks, e.g. factory what-if). */
export function solveLinearProgram(highs: Highs, lp: LinearProgram, opts: SessionOptions = {}): LpSolution & { highsMs: number } {
  const s = new LpSession(highs, lp, opts);
  try {
    const r = s.run();
    return { ...r, highsMs: s.highsMs };
  } finally {
    s.dispose();
  }
}
