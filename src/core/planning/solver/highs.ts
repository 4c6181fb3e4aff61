// Loads the HiGHS wasm runtime once per thread. The wasm file is found next to the bundle at run
// time (dist/highs.wasm), in a directory the host names (setHighsWasmDir, like setSqlWasmDir), or
// in node_modules when running from source (tests, tsx, bench).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
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
  const candidates: string[] = [];
  if (wasmDirOverride) candidates.push(path.join(wasmDirOverride, WASM));
  if (typeof __dirname !== 'undefined') candidates.push(path.join(__dirname, WASM));
  for (const base of [import.meta.url, path.join(process.cwd(), 'package.json')]) {
    try {
      candidates.push(createRequire(base).resolve('highs/runtime'));
    } catch {
      // not resolvable from here; the bundle location above must work
    }
  }
  for (const c of candidates) if (fs.existsSync(c)) return c;
  return candidates[0] ?? WASM;
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
