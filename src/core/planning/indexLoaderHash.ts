// Which code a game-index snapshot was written by (`<project>.pyops.gamedata.index`, indexCache.ts).
// A snapshot is read back only by the same index loader, so it is keyed by a hash of the loader's
// source files (indexLoader.json lists them). scripts/build.mjs computes that hash at build time and
// puts it into every bundle; running from source (tests, tsx) reads the same files. So the extension,
// the command line and the tests of one checkout agree on the key and share a snapshot, where keying
// by the functions' compiled text gave each bundle its own (esbuild renames locals per bundle): a
// project used from both VS Code and `pyops` rebuilt its index (~1 s and ~150 MB of heap on full Py)
// and rewrote the 10 MB file whenever the other one had opened it last.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import loader from './indexLoader.json';

/** Set by scripts/build.mjs (esbuild `define`); absent when running from source. */
declare const PYOPS_INDEX_LOADER_HASH: string | undefined;

/** sha256 over the loader's files in their listed order, each with \n line ends, separated by NUL; scripts/build.mjs computes the same. */
export function hashLoaderSources(read: (file: string) => string): string {
  const h = crypto.createHash('sha256');
  for (const f of loader.files) h.update(read(f).replace(/\r\n/g, '\n')).update('\0');
  return h.digest('hex');
}

let memo: string | undefined;

/**
 * The hash of the loader that runs here. `fallback` keys a build that has neither the build's hash
 * nor the source files beside it (a scratch bundle): its own snapshots only, never another build's.
 */
export function indexLoaderHash(fallback: () => string): string {
  if (memo) return memo;
  if (typeof PYOPS_INDEX_LOADER_HASH === 'string') return (memo = PYOPS_INDEX_LOADER_HASH);
  try {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
    return (memo = hashLoaderSources((f) => fs.readFileSync(path.join(root, f), 'utf8')));
  } catch {
    return (memo = `built:${crypto.createHash('sha256').update(fallback()).digest('hex')}`);
  }
}
