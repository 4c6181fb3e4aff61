// The block solver's public surface: solve a block document (async, inline or in the worker), the
// synchronous variant for callers holding a loaded HiGHS, the per-project result cache, a generic LP
// helper for factory-wide analyses, and the host hooks (wasm folder, worker).
export type { SolveOptions } from './solve';
export { solveBlock, solveBlockSync } from './solve';
export type { SolveResult, SolveStatus, SolvedRow, Flow, GoodBalance, DiagnosisCard, DiagnosisMember } from './result';
export { SolveCache, solveProjectBlock, solveStamp, solveKey, availabilityFor, projectSolveCache } from './cache';
export type { SolveStamp } from './cache';
export type { LinearProgram, LpSolution, LpStatus } from './program';
export { ProgramBuilder, solveLinearProgram, mapStatus } from './program';
export { loadHighs, setHighsWasmDir, highsIfLoaded } from './highs';
export { configureSolverWorker, stopSolverWorker, solverWorkerProblem, solverWorkerJobs } from './pool';
export type { SolveThread, WorkerConfig } from './pool';
export { isSolverWorkerThread } from './worker';
