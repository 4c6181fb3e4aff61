// Loads the HiGHS wasm runtime once per thread. The wasm file is found next to the bundle at run
// time (dist/highs.wasm), in a directory the host names (setHighsWasmDir, like setSqlWasmDir), or
// in node_modules when running from source (tests, tsx, bench).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { firstExisting } from '../../runtime/firstExisting';
import highsLoader from 'highs';
import type { Highs } from 'highs';

export type { Highs };

const WASM = 'highs.wasm';
let wasmDirOverride: string | undefined;
let loading: Promise<Highs> | undefined;
let loaded: Highs | undefined;

/** Tell the loader where `highs.wasm` lives (the extension passes its `dist` folder). */
export function setHighsWasmDir(dir: string): void {
  wasmDirOverride = dir;
}

export function highsWasmDir(): string | undefined {
  return wasmDirOverride;
}

/** Where the wasm is: the configured folder, next to the bundle, or the `highs` package. */
export function locateHighsWasm(): string {
  return firstExisting(
    [
      () => (wasmDirOverride ? path.join(wasmDirOverride, WASM) : undefined),
      () => (typeof __dirname !== 'undefined' ? path.join(__dirname, WASM) : undefined),
      ...[import.meta.url, path.join(process.cwd(), 'package.json')].map((base) => () => createRequire(base).resolve('highs/runtime')),
    ],
    fs.existsSync,
    WASM,
  );
}

/** The HiGHS runtime, loaded on first use (0.05–0.4 s) and shared afterwards. */
export function loadHighs(): Promise<Highs> {
  if (loaded) return Promise.resolve(loaded);
  if (!loading) {
    const file = locateHighsWasm();
    loading = highsLoader({ locateFile: () => file }).then((h) => (loaded = h));
    loading.catch(() => {
      loading = undefined;
    });
  }
  return loading;
}

/** The runtime if it is already loaded (for synchronous callers). */
export function highsIfLoaded(): Highs | undefined {
  return loaded;
}
