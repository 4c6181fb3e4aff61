// Entry of dist/cli.cjs (the `pyops` bin): runs the command line's bundle, dist/cli-main.cjs, from a
// V8 code cache (core/runtime/codeCache.ts). PYOPS_NO_CODE_CACHE=1 runs it without one.
//
// A one-shot command runs sql.js and HiGHS on V8's baseline WebAssembly code only (Liftoff). With
// the default tiering, the functions that get hot (SQLite's bytecode loop, the solver's) are
// recompiled optimized on a background thread, and a process that is done by then still waits for
// that compile before it exits: ~150 ms of a 500 ms `pyops tool` call, measured on the Py data with
// strace (the main thread waiting on a thread running TurboFan). Baseline-only was faster for every
// one-shot command measured: a search 0.40–0.50 s against 0.57–0.72, a completed block draft
// 0.59–0.70 against 0.82–0.86, the full-Py import 1.40 against 1.66. The commands that run for
// minutes (the agent, the servers) keep the tiering: there the optimized code pays off.
// (sql.js is compiled lazily here, unlike in the extension's entry: a command reaches its first
// statement ~60 ms after start, too soon for a background compile to win anything; measured, no
// difference.)
import path from 'node:path';
import v8 from 'node:v8';
import { defaultCacheDir, runWithCodeCache } from '../core/runtime/codeCache';
import { startedWithFlag } from '../core/runtime/ownFlags';

const LONG_RUNNING = new Set(['ask', 'mcp', 'relay', 'bridge']);

const baselineOnly = !LONG_RUNNING.has(process.argv[2] ?? '') && !startedWithFlag(/liftoff|wasm-(dynamic-)?tier/);
// Before the code cache is read: V8 checks cached code against the flags.
if (baselineOnly) v8.setFlagsFromString('--liftoff-only');

runWithCodeCache(path.join(__dirname, 'cli-main.cjs'), {
  cacheDir: process.env.PYOPS_NO_CODE_CACHE ? undefined : defaultCacheDir(),
  variant: baselineOnly ? 'liftoff' : undefined,
  storeAtExit: true,
});
