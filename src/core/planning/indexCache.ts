// The game index, kept beside the game data as a V8 snapshot (`<project>.pyops.gamedata.index`).
// Building it from SQL takes ~250 ms on Py data; reading it back ~50 ms — most of what a fresh
// `pyops tool` process or a window reopening a Py project waits for. It is a cache only: valid for one
// import of the game data and one build of the index loader; anything else (missing, stale, damaged,
// unwritable) falls back to building from the database, never to an error.
import crypto from 'node:crypto';
import fs from 'node:fs';
import v8 from 'node:v8';

const MAGIC = Buffer.from('PYOPSIX1');

/** Cache key: the game data's import plus the loader's own source, so a changed loader never reads an old snapshot. */
export function indexCacheKey(importKey: string, loaderSource: string): string {
  return crypto.createHash('sha256').update(importKey).update('\0').update(loaderSource).digest('hex');
}

/** The snapshot under `key`, given back its class (`proto`), or undefined. */
export function readIndexCache<T extends object>(file: string, key: string, proto: T): T | undefined {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  try {
    if (buf.length < MAGIC.length + 64 || !buf.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
    if (buf.subarray(MAGIC.length, MAGIC.length + 64).toString('latin1') !== key) return undefined;
    const data = v8.deserialize(buf.subarray(MAGIC.length + 64));
    if (!data || typeof data !== 'object' || !(data.recipes instanceof Map) || !(data.goods instanceof Map)) return undefined;
    return Object.setPrototypeOf(data, proto) as T;
  } catch {
    return undefined;
  }
}

export function writeIndexCache(file: string, key: string, g: object): void {
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    fs.writeFileSync(tmp, Buffer.concat([MAGIC, Buffer.from(key, 'latin1'), v8.serialize(g)]));
    fs.renameSync(tmp, file);
  } catch {
    // a read-only folder or a full disk: the next open builds the index again
    fs.rmSync(tmp, { force: true });
  }
}
