// Compiling sql.js's WebAssembly ahead, whole, on V8's background threads.
//
// V8 compiles WebAssembly lazily: each function when it is first called, on the thread that calls
// it. For sql.js that is ~25 ms of compiling inside the first statements a process runs: in the
// extension host, on the main thread, while the window waits for the startup project (the open of
// the 213 kB sample took ~45 ms in Node 24, ~20 ms with the module compiled). Compiled ahead instead,
// the work runs on background threads while the extension's code loads and activate() runs.
//
// Lazy compiling is a process-wide V8 flag, read by the compile job while it runs (not when it
// starts), so it stays off until this compile is done and is then put back (the default; a process
// started with its own setting of it is left alone). Another extension's module compiled meanwhile
// is compiled whole too: the same code, sooner. V8 also tags cached JavaScript with the flags, so the
// code cache (runtime/codeCache.ts) is read before the flag changes and written after it is back.
//
// The background compile holds nothing in Node's event loop: a process with nothing else to do would
// exit in the middle of it, with whatever awaited the module never resumed. A timer holds the loop
// until the compile is done.
import fs from 'node:fs';
import v8 from 'node:v8';
import { startedWithFlag } from '../runtime/ownFlags';

export interface WasmAhead {
  module: Promise<WebAssembly.Module>;
  /** Resolves once the compile is over and the flag is back. */
  settled: Promise<void>;
}

/** The module compiled from `file`, all functions at once, in the background. */
export function compileWasmAhead(file: string): WasmAhead {
  const own = startedWithFlag(/wasm-lazy-compilation/);
  if (!own) v8.setFlagsFromString('--no-wasm-lazy-compilation');
  let module: Promise<WebAssembly.Module>;
  try {
    module = WebAssembly.compile(fs.readFileSync(file));
  } catch (err) {
    module = Promise.reject(err as Error);
  }
  const alive = setInterval(() => undefined, 60_000);
  const settled = module.then(() => undefined, () => undefined).then(() => {
    clearInterval(alive);
    if (!own) v8.setFlagsFromString('--wasm-lazy-compilation');
  });
  return { module, settled };
}

/** Where an entry leaves sql.js's compile for the bundle it runs (each is its own bundle, with its own copy of these modules). */
const HANDOVER = Symbol.for('pyops.sqlWasmAhead');

/** Leaves sql.js's compile for the bundle about to run (extension/entry.ts). */
export function handOverSqlWasm(ahead: WasmAhead): void {
  (globalThis as Record<symbol, unknown>)[HANDOVER] = ahead.module;
}

/** The compile an entry left for sql.js, taken once (db/sqlite.ts). */
export function takeSqlWasm(): Promise<WebAssembly.Module> | undefined {
  const g = globalThis as Record<symbol, Promise<WebAssembly.Module> | undefined>;
  const m = g[HANDOVER];
  delete g[HANDOVER];
  return m;
}
