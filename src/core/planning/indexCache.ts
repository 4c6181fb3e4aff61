// The game index, kept beside the game data as a snapshot (`<project>.pyops.gamedata.index`).
// Building it from SQL takes ~250 ms on Py data; reading it back is most of what a fresh `pyops tool`
// process or a window reopening a Py project waits for. It is a cache only: valid for one import of
// the game data and one build of the index loader; anything else (missing, stale, damaged,
// unwritable, unencodable) falls back to building from the database, never to an error.
//
// The snapshot is JSON, not a V8 serialization: V8's JSON parser shares the string of every repeated
// short value (a good's name appears in hundreds of recipes, producer lists and machine lists), where
// v8.deserialize makes a new string for each. On the full Py set that is 270k strings of which 17k
// differ: JSON reads the recipes 2–3× faster and they take half the heap.
//
// JSON has no Map or Set, so the encoder writes each as an array (of entries or of values) and says
// where it did in a `shape` table: a field of the index itself, or a property of each entry of such a
// field (a module's limitation, a TURD branch's replacements). Such a property holding the same Map
// or Set as an earlier entry (modules sharing one limitation list: full Py's 293 modules share 56)
// is written as a reference to it, so it is read once and shared again. A Map or Set anywhere else,
// or a number JSON cannot hold, makes the encoder refuse, so a changed index shape can never come
// back altered.
import crypto from 'node:crypto';
import fs from 'node:fs';

const MAGIC = Buffer.from('PYOPSIX2');
/** In place of a Map or Set an earlier entry of the same field holds too: `{"$same": <that entry's index>}`. */
const SAME = '$same';
const KEY_CHARS = 64;

/**
 * Cache key: the game data's import plus the loader's own source and this codec's, so a changed loader
 * or format never reads an old snapshot.
 */
export function indexCacheKey(importKey: string, loaderSource: string): string {
  return crypto.createHash('sha256').update(importKey).update('\0').update(loaderSource).update('\0').update(decodeIndex.toString()).digest('hex');
}

type Kind = 'map' | 'set';
/** [field, kind] for a field of the index; [field, kind, property] for a property of each of the field's entries. */
type ShapeEntry = [string, Kind] | [string, Kind, string];

interface Snapshot {
  shape: ShapeEntry[];
  data: Record<string, unknown>;
}

const kindOf = (v: unknown): Kind | undefined => (v instanceof Map ? 'map' : v instanceof Set ? 'set' : undefined);
const flatten = (v: Map<unknown, unknown> | Set<unknown>): unknown[] => (v instanceof Map ? [...v.entries()] : [...v]);

/** The snapshot's text, or undefined when the index holds something the format cannot carry. */
export function encodeIndex(index: object): string | undefined {
  const shape: ShapeEntry[] = [];
  const data: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(index)) {
    const kind = kindOf(value);
    if (!kind) {
      data[field] = value;
      continue;
    }
    shape.push([field, kind]);
    const entries = flatten(value as Map<unknown, unknown> | Set<unknown>);
    // One level down: a property holding a Map or Set in the entries' values (the same property of every entry).
    const values = kind === 'map' ? entries.map((e) => (e as [unknown, unknown])[1]) : entries;
    const nested = new Map<string, Kind>();
    for (const v of values) {
      if (!v || typeof v !== 'object' || Array.isArray(v)) continue;
      for (const [prop, pv] of Object.entries(v)) {
        const k = kindOf(pv);
        if (k) nested.set(prop, k);
      }
    }
    for (const [prop, k] of nested) shape.push([field, k, prop]);
    if (!nested.size) {
      data[field] = entries;
      continue;
    }
    const copies: unknown[] = [];
    // Where each Map or Set was written first: entries holding the same one refer to it.
    const firstAt = new Map<unknown, number>();
    for (const [i, v] of values.entries()) {
      const copy: Record<string, unknown> = { ...(v as Record<string, unknown>) };
      for (const [prop, k] of nested) {
        const pv = copy[prop];
        // The decoder turns this property back into a Map or Set wherever it holds a list: anything
        // else there but nothing would come back changed.
        if (kindOf(pv) === k) {
          const at = firstAt.get(pv);
          if (at !== undefined) copy[prop] = { [SAME]: at };
          else {
            firstAt.set(pv, i);
            copy[prop] = flatten(pv as Map<unknown, unknown> | Set<unknown>);
          }
        } else if (pv !== null && pv !== undefined) return undefined;
      }
      copies.push(kind === 'map' ? [(entries[i] as [unknown, unknown])[0], copy] : copy);
    }
    data[field] = copies;
  }
  let text: string;
  try {
    text = JSON.stringify({ shape, data } satisfies Snapshot, (_key, v: unknown) => {
      if (v instanceof Map || v instanceof Set) throw new Error('a Map or Set deeper than the snapshot format carries');
      if (typeof v === 'number' && !Number.isFinite(v)) throw new Error('a number JSON cannot hold');
      return v;
    });
  } catch {
    return undefined;
  }
  // ASCII only: one character outside it (a dash in a display name) would make the whole text a
  // two-byte string, decoded and parsed at a third of the speed.
  return text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The index back from its snapshot's text, given its class (`proto`). Throws on text that is not a snapshot. */
export function decodeIndex<T extends object>(text: string, proto: T): T {
  const { shape, data } = JSON.parse(text) as Snapshot;
  if (!Array.isArray(shape) || !data || typeof data !== 'object') throw new Error('not an index snapshot');
  const fieldKind = new Map(shape.filter((e) => e[2] === undefined).map(([field, kind]) => [field, kind]));
  // Properties of entries first: their field is still the array the encoder wrote.
  for (const [field, kind, prop] of shape) {
    if (prop === undefined) continue;
    const list = data[field] as unknown[];
    const isMap = fieldKind.get(field) === 'map';
    const entry = (item: unknown) => (isMap ? (item as [unknown, unknown])[1] : item) as Record<string, unknown>;
    for (const item of list) {
      const v = entry(item);
      const pv = v?.[prop];
      if (Array.isArray(pv)) v[prop] = kind === 'map' ? new Map(pv as Array<[unknown, unknown]>) : new Set(pv);
      else if (pv && typeof pv === 'object' && SAME in pv) v[prop] = entry(list[(pv as Record<string, number>)[SAME]])[prop];
    }
  }
  for (const [field, kind, prop] of shape) {
    if (prop !== undefined) continue;
    const list = data[field] as unknown[];
    if (!Array.isArray(list)) throw new Error(`snapshot field ${field} is not a list`);
    data[field] = kind === 'map' ? new Map(list as Array<[unknown, unknown]>) : new Set(list);
  }
  return Object.setPrototypeOf(data, proto) as T;
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
    if (buf.length < MAGIC.length + KEY_CHARS || !buf.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
    if (buf.subarray(MAGIC.length, MAGIC.length + KEY_CHARS).toString('latin1') !== key) return undefined;
    const data = decodeIndex(buf.toString('latin1', MAGIC.length + KEY_CHARS), proto) as Record<string, unknown>;
    if (!(data.recipes instanceof Map) || !(data.goods instanceof Map)) return undefined;
    return data as T;
  } catch {
    return undefined;
  }
}

export function writeIndexCache(file: string, key: string, g: object): void {
  const text = encodeIndex(g);
  if (text === undefined) return;
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    fs.writeFileSync(tmp, Buffer.concat([MAGIC, Buffer.from(key, 'latin1'), Buffer.from(text, 'latin1')]));
    fs.renameSync(tmp, file);
  } catch {
    // a read-only folder or a full disk: the next open builds the index again
    fs.rmSync(tmp, { force: true });
  }
}
