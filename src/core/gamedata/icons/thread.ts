// Runs an icon job on its own worker thread, so decoding thousands of pictures never blocks the
// extension host (or the CLI's signal handling), with a ceiling on the thread's heap and a cancel
// that ends the thread at once: what it wrote is complete pictures under their own names (each
// renamed into place whole), and the manifest the views read is replaced only at the very end.
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { runningBundled, sourceWorker } from '../../workers/fromSource';
import { IconsCancelled, type IconExtractSummary, type IconJob } from './draw';
import { ICON_WORKER_BUNDLE, ICON_WORKER_FLAG, type IconThreadMessage } from './worker';

export interface IconThreadOptions {
  signal?: AbortSignal;
  onProgress?(done: number, total: number): void;
}

let running = 0;
/** A built entry to start instead of the default (the benchmark runs the bundle users get). */
let entryOverride: string | undefined;

export function setIconWorkerEntry(file: string | undefined): void {
  entryOverride = file;
}

/** Icon threads alive in this process (tests check that a cancel ends its thread). */
export function runningIconThreads(): number {
  return running;
}

function startThread(job: IconJob): Worker {
  const workerData = { [ICON_WORKER_FLAG]: true, job };
  // The heap ceiling; buffers live outside it and are bounded by the file and pixel limits instead.
  const resourceLimits = { maxOldGenerationSizeMb: job.limits.workerHeapMb, maxYoungGenerationSizeMb: 32 };
  if (entryOverride) return new Worker(entryOverride, { workerData, resourceLimits });
  if (!runningBundled()) return sourceWorker(new URL('./worker.ts', import.meta.url).href, import.meta.url, { workerData, resourceLimits });
  const entry = path.join(path.dirname(__filename), ICON_WORKER_BUNDLE);
  if (!fs.existsSync(entry)) throw new Error(`PyOps' icon extractor (${entry}) is missing from this installation; reinstall PyOps or rebuild it (npm run build).`);
  return new Worker(entry, { workerData, resourceLimits });
}

function failure(err: Error, job: IconJob): Error {
  if ((err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return new Error(`Icon extraction needed more than the ${job.limits.workerHeapMb} MB of memory it may use and was stopped; the icons extracted before stay in use.`);
  }
  return err;
}

export function runIconThread(job: IconJob, opts: IconThreadOptions = {}): Promise<IconExtractSummary> {
  if (opts.signal?.aborted) return Promise.reject(new IconsCancelled());
  const worker = startThread(job);
  running++;
  return new Promise((resolve, reject) => {
    let outcome: { summary: IconExtractSummary } | { error: Error } | undefined;
    const cancel = () => {
      outcome ??= { error: new IconsCancelled() };
      void worker.terminate();
    };
    opts.signal?.addEventListener('abort', cancel, { once: true });
    worker.on('message', (m: IconThreadMessage) => {
      if (m.type === 'progress') opts.onProgress?.(m.done, m.total);
      else if (m.type === 'done') outcome ??= { summary: m.summary };
      else outcome ??= { error: Object.assign(new Error(m.message), { name: m.name }) };
    });
    worker.on('error', (err) => {
      outcome ??= { error: failure(err, job) };
    });
    // Settled only when the thread is gone, so nothing of this run writes after the caller moves on.
    worker.on('exit', (code) => {
      running--;
      opts.signal?.removeEventListener('abort', cancel);
      if (outcome && 'summary' in outcome) resolve(outcome.summary);
      else reject(outcome?.error ?? new Error(`The icon extraction thread stopped unexpectedly (exit code ${code}); the icons extracted before stay in use.`));
    });
  });
}
