// The solver worker thread: receives solve jobs (plain programs) and answers with stage results and
// diagnoses, so a large block never blocks the extension host's main thread. The same module is the
// worker's entry from source (tsx loads this file) and inside a bundle (the bundle file itself is
// started as a worker; this guard then turns that thread into a solver).
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { loadHighs, setHighsWasmDir } from './highs';
import type { JobResult, SolveJob } from './job';
import { runSolveJob } from './job';

export const SOLVER_WORKER_FLAG = 'pyopsSolverWorker';

export interface WorkerRequest {
  id: number;
  job: SolveJob;
}

export type WorkerReply = { id: number; result: JobResult } | { id: number; error: string };

/** True in a thread started as the solver worker; bundle entries use it to skip their own start-up. */
export function isSolverWorkerThread(): boolean {
  return !isMainThread && !!(workerData as Record<string, unknown> | null)?.[SOLVER_WORKER_FLAG];
}

function startWorker(): void {
  const data = workerData as { wasmDir?: string };
  if (data.wasmDir) setHighsWasmDir(data.wasmDir);
  const port = parentPort!;
  port.on('message', async (msg: WorkerRequest) => {
    try {
      const highs = await loadHighs();
      const result = runSolveJob(highs, msg.job);
      port.postMessage({ id: msg.id, result } satisfies WorkerReply, [result.x.buffer as ArrayBuffer]);
    } catch (err) {
      port.postMessage({ id: msg.id, error: err instanceof Error ? err.message : String(err) } satisfies WorkerReply);
    }
  });
  port.postMessage({ ready: true });
}

if (isSolverWorkerThread()) startWorker();
