// The icon thread's entry: draws one job (see draw.ts) and reports progress and the summary to
// the thread that started it. The same module runs from source (tsx imports it) and as the small
// bundle dist/icons-worker.cjs; the guard keeps it inert anywhere else it is imported.
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { drawIcons, type IconExtractSummary, type IconJob } from './draw';

export const ICON_WORKER_FLAG = 'pyopsIconWorker';
/** File name of the bundled entry, beside the extension's and the CLI's bundles. */
export const ICON_WORKER_BUNDLE = 'icons-worker.cjs';
/** Progress is sent at most this often. */
const PROGRESS_MS = 100;

export type IconThreadMessage =
  | { type: 'progress'; done: number; total: number }
  | { type: 'done'; summary: IconExtractSummary }
  | { type: 'failed'; name: string; message: string };

function start(): void {
  const port = parentPort!;
  const job = (workerData as { job: IconJob }).job;
  let last = 0;
  const post = (m: IconThreadMessage) => port.postMessage(m);
  drawIcons(job, {
    onProgress: (done, total) => {
      const now = Date.now();
      if (done < total && now - last < PROGRESS_MS) return;
      last = now;
      post({ type: 'progress', done, total });
    },
  }).then(
    (summary) => post({ type: 'done', summary }),
    (err: unknown) => post({ type: 'failed', name: err instanceof Error ? err.name : 'Error', message: err instanceof Error ? err.message : String(err) }),
  );
}

if (!isMainThread && (workerData as Record<string, unknown> | null)?.[ICON_WORKER_FLAG]) start();
