// Where a solve job runs: inline on the caller's thread, or in one long-lived solver worker thread
// (HiGHS is single-threaded and blocks, so one worker serialises big solves off the main thread).
// The worker starts from the bundle file itself when bundled (a CJS bundle: `__filename`), from an
// entry the host names, or from worker.ts under tsx. If it cannot start, solving falls back inline.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { highsWasmDir, loadHighs } from './highs';
import type { JobResult, SolveJob } from './job';
import { runSolveJob } from './job';
import type { WorkerReply } from './worker';
import { SOLVER_WORKER_FLAG } from './worker';

export type SolveThread = 'auto' | 'inline' | 'worker';

export interface WorkerConfig {
  /** 'auto' solves use the worker (hosts with a UI thread turn this on). */
  enabled: boolean;
  /** LP size (columns + rows) from which 'auto' sends a solve to the worker. */
  minSize: number;
  /** Worker entry file (a script that imports worker.ts, e.g. a bundle of it); default: this bundle
   *  when bundled, worker.ts under tsx from source. */
  entry?: string;
  /** Stop an idle worker after this many ms. */
  idleMs: number;
}

const config: WorkerConfig = { enabled: false, minSize: 400, idleMs: 60_000 };

export function configureSolverWorker(patch: Partial<WorkerConfig>): WorkerConfig {
  Object.assign(config, patch);
  return { ...config };
}

/** A job failed inside a healthy worker (the worker itself stays in use). */
class JobError extends Error {}

interface Pending {
  resolve: (r: JobResult) => void;
  reject: (e: Error) => void;
}

class SolverWorker {
  private worker: Worker;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private idle: ReturnType<typeof setTimeout> | undefined;
  readonly ready: Promise<void>;
  dead = false;

  constructor() {
    const workerData = { [SOLVER_WORKER_FLAG]: true, wasmDir: highsWasmDir(), entry: undefined as string | undefined };
    if (config.entry) this.worker = new Worker(config.entry, { workerData });
    else if (typeof __filename !== 'undefined' && !/\.[cm]?ts$/.test(__filename)) {
      // Bundled (CJS): run this very file as the worker. The extension bundle requires `vscode`,
      // which exists only on the host's main thread, so the worker gets an empty stand-in.
      workerData.entry = __filename;
      this.worker = new Worker(
        `const { workerData } = require('node:worker_threads');
         const Module = require('node:module');
         const load = Module._load;
         Module._load = function (request) { return request === 'vscode' ? {} : load.apply(this, arguments); };
         require(workerData.entry);`,
        { eval: true, workerData },
      );
    } else {
      // From source: the worker must load TypeScript too, and tsx's loader flags do not reach worker
      // threads, so the worker imports worker.ts through tsx's API.
      const tsxDir = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
      const api = pathToFileURL(path.join(tsxDir, 'dist', 'esm', 'api', 'index.mjs')).href;
      const entry = new URL('./worker.ts', import.meta.url).href;
      this.worker = new Worker(
        `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(import.meta.url)}))`,
        { eval: true, workerData, execArgv: [] },
      );
    }
    this.worker.unref();
    this.ready = new Promise((resolve, reject) => {
      const onMessage = (m: { ready?: boolean }) => {
        if (!m?.ready) return;
        this.worker.off('message', onMessage);
        resolve();
      };
      this.worker.on('message', onMessage);
      this.worker.once('error', reject);
      this.worker.once('exit', (code) => reject(new Error(`solver worker exited (${code}) before it was ready`)));
    });
    this.worker.on('message', (m: WorkerReply | { ready: true }) => {
      if (!('id' in m)) return;
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if ('error' in m) p.reject(new JobError(m.error));
      else p.resolve(m.result);
      this.settle();
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`solver worker exited (${code})`)));
  }

  private fail(err: Error): void {
    this.dead = true;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  private settle(): void {
    if (this.pending.size) return;
    this.worker.unref();
    clearTimeout(this.idle);
    this.idle = setTimeout(() => void this.stop(), config.idleMs);
    this.idle.unref?.();
  }

  run(job: SolveJob): Promise<JobResult> {
    clearTimeout(this.idle);
    this.worker.ref();
    const id = this.nextId++;
    return new Promise<JobResult>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, job });
    });
  }

  async stop(): Promise<void> {
    clearTimeout(this.idle);
    this.dead = true;
    if (current === this) current = undefined;
    await this.worker.terminate();
  }
}

let current: SolverWorker | undefined;
let broken: string | undefined;
let workerJobs = 0;

async function worker(): Promise<SolverWorker> {
  if (!current || current.dead) current = new SolverWorker();
  await current.ready;
  return current;
}

/** Runs a job where asked; 'auto' uses the worker for large programs when workers are enabled. */
export async function runJob(job: SolveJob, thread: SolveThread): Promise<JobResult> {
  const size = job.program.lp.numCols + job.program.lp.numRows;
  const useWorker = thread === 'worker' || (thread === 'auto' && config.enabled && size >= config.minSize);
  if (useWorker && !broken) {
    try {
      const r = await (await worker()).run(job);
      workerJobs++;
      return r;
    } catch (err) {
      if (!(err instanceof JobError)) {
        broken = err instanceof Error ? err.message : String(err);
        current = undefined;
      }
    }
  }
  const r = runSolveJob(await loadHighs(), job);
  if (useWorker && broken) r.notes.push(`the solver worker is unavailable (${broken}); solved on the calling thread`);
  return r;
}

/** Stops the solver worker (tests, deactivation). A later solve starts a new one. */
export async function stopSolverWorker(): Promise<void> {
  broken = undefined;
  await current?.stop();
  current = undefined;
}

/** Jobs the worker has answered in this process (diagnostics and tests). */
export function solverWorkerJobs(): number {
  return workerJobs;
}

/** Whether the last worker start failed, and why. */
export function solverWorkerProblem(): string | undefined {
  return broken;
}
