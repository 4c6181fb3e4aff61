// What one block solve asks of HiGHS: the objective stages and, when the block is infeasible, the
// diagnosis. Plain data in and out, so the same function runs inline or in the solver worker.
import type { Highs } from './highs';
import type { BlockProgram } from './lp';
import type { DiagnosisCard } from './result';
import type { StageOptions, StageResult } from './stages';
import { solveStages } from './stages';
import { diagnose } from './diagnose';

export interface SolveJob {
  program: BlockProgram;
  /** Explain an infeasible block (default true). */
  diagnose?: boolean;
  timeLimitSec?: number;
}

export interface JobResult extends StageResult {
  diagnosis?: DiagnosisCard[];
}

export function runSolveJob(highs: Highs, job: SolveJob, intercept?: StageOptions['intercept']): JobResult {
  const r: JobResult = solveStages(highs, job.program, { timeLimitSec: job.timeLimitSec, intercept });
  if (r.status === 'infeasible' && job.diagnose !== false) {
    const d = diagnose(highs, job.program, { timeLimitSec: job.timeLimitSec });
    r.diagnosis = d.cards;
    r.highsMs += d.highsMs;
  }
  return r;
}
