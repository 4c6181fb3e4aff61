// Entry of dist/extension.cjs (package.json's main): runs the extension's bundle,
// dist/extension-main.cjs, from a V8 code cache (core/runtime/codeCache.ts), as the command line does.
// VS Code's extension host does not cache compiled code, so without this every window's activate()
// compiles each function it calls on the way to the open project, on a main thread it shares with
// the rest of the window's start. PYOPS_NO_CODE_CACHE=1 runs it without one.
//
// It also starts compiling sql.js's WebAssembly, whole and in the background, before the bundle runs
// (db/wasmAhead.ts), so the startup project opens with compiled code as soon as activate() has run.
import path from 'node:path';
import type * as vscode from 'vscode';
import { compileWasmAhead, handOverSqlWasm, type WasmAhead } from '../core/db/wasmAhead';
import { defaultCacheDir, runWithCodeCache } from '../core/runtime/codeCache';
import type * as Main from './extension';

/** After the startup project is open, the views' first work compiles more; let it, then store. */
const STORE_AFTER_START_MS = 1_000;

const loadStart = performance.now();
let sqlWasm: WasmAhead | undefined;
const run = runWithCodeCache(path.join(__dirname, 'extension-main.cjs'), {
  cacheDir: process.env.PYOPS_NO_CODE_CACHE ? undefined : defaultCacheDir(),
  beforeRun: () => handOverSqlWasm((sqlWasm = compileWasmAhead(path.join(__dirname, 'sql-wasm.wasm')))),
});
const main = run.exports as typeof Main;
const loadMs = performance.now() - loadStart;

export function activate(context: vscode.ExtensionContext): Main.PyOpsApi {
  main.startupClock.codeLoaded(run.use, loadMs);
  const api = main.activate(context);
  // Stored with V8's flags as they were when the cache was checked: after the WebAssembly compile.
  if (run.use === 'stored') void Promise.all([api.projects.whenStarted(), sqlWasm?.settled]).then(() => setTimeout(run.store, STORE_AFTER_START_MS));
  return api;
}

export function deactivate(): void {
  main.deactivate();
}
