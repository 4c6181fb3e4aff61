// Starting a worker thread on a TypeScript module when running from source (tests, benchmarks, the
// CLI under tsx). tsx's loader flags do not reach worker threads, so the thread imports the module
// through tsx's own API; bundles start their worker from a built file instead.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** Whether this code runs from a bundle (a CJS file that is not TypeScript). */
export function runningBundled(): boolean {
  return typeof __filename !== 'undefined' && !/\.[cm]?ts$/.test(__filename);
}

/** A worker running the TypeScript module `entry` (a file URL), resolved from `parent`. */
export function sourceWorker(entry: string, parent: string, options: WorkerOptions): Worker {
  const tsxDir = path.dirname(createRequire(parent).resolve('tsx/package.json'));
  const api = pathToFileURL(path.join(tsxDir, 'dist', 'esm', 'api', 'index.mjs')).href;
  return new Worker(`import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(parent)}))`, {
    ...options,
    eval: true,
    execArgv: [],
  });
}
