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
// Each field of the index is its own JSON text (a section), read from the file and decoded the
// first time the field is read. A query touches few of them: searchGoods reads the goods, the
// producer and consumer lists and the recipes' tags, 2.5 of full Py's 10 MB, and leaves the recipes
// (6.5 MB) unread. Nothing of the file is held meanwhile: a section is read when it is wanted, after
// checking that the file still starts with the header it was opened with and has the same size
// (snapshots are written whole and renamed into place, and the same index always encodes to the
// same bytes). A file that changed since, or a section that does not decode, is not an error: that
// field and every one not yet read come from the index built from the database instead.
//
// JSON has no Map or Set, so the encoder writes each as an array (of entries or of values) and says
// where it did in a `shape` table: a field of the index itself, or a property of each entry of such a
// field (a module's limitation, a TURD branch's replacements). Such a property holding the same Map
// or Set as an earlier entry (modules sharing one limitation list: full Py's 293 modules share 56)
// is written as a reference to it, so it is read once and shared again. A Map or Set anywhere else,
// or a number JSON cannot hold, makes the encoder refuse, so a changed index shape can never come
// back altered.
//
// Layout after the magic and the key: the header's length in decimal and a newline, the header
// (`{"shape": …, "sections": [[field, length], …]}`), then the sections in that order. Everything is
// ASCII.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { atomicWriteFile } from '../db/atomicFile';

const MAGIC = Buffer.from('PYOPSIX3');
/** In place of a Map or Set an earlier entry of the same field holds too: `{"$same": <that entry's index>}`. */
const SAME = '$same';
const KEY_CHARS = 64;

/**
 * Cache key: the game data's import plus the code that wrote the snapshot (`loader`: a hash of the
 * index loader's and this codec's source files, indexLoaderHash.ts), so a changed loader or format
 * never reads an old snapshot.
 */
export function indexCacheKey(importKey: string, loader: string): string {
  return crypto.createHash('sha256').update(importKey).update('\0').update(loader).digest('hex');
}

type Kind = 'map' | 'set';
/** [field, kind] for a field of the index; [field, kind, property] for a property of each of the field's entries. */
type ShapeEntry = [string, Kind] | [string, Kind, string];

interface Header {
  shape: ShapeEntry[];
  sections: Array<[string, number]>;
}

const kindOf = (v: unknown): Kind | undefined => (v instanceof Map ? 'map' : v instanceof Set ? 'set' : undefined);
const flatten = (v: Map<unknown, unknown> | Set<unknown>): unknown[] => (v instanceof Map ? [...v.entries()] : [...v]);

/** One field as JSON can carry it, its Map/Set entries in `shape`; undefined when it cannot be. */
function encodeField(field: string, value: unknown, shape: ShapeEntry[]): { value: unknown } | undefined {
  const kind = kindOf(value);
  if (!kind) return { value };
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
  if (!nested.size) return { value: entries };
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
  return { value: copies };
}

function json(v: unknown): string {
  return JSON.stringify(v, (_key, x: unknown) => {
    if (x instanceof Map || x instanceof Set) throw new Error('a Map or Set deeper than the snapshot format carries');
    if (typeof x === 'number' && !Number.isFinite(x)) throw new Error('a number JSON cannot hold');
    return x;
  });
}

// ASCII only: one character outside it (a dash in a display name) would make the whole text a
// two-byte string, decoded and parsed at a third of the speed.
const ascii = (text: string) => text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The snapshot after magic and key as its parts — the header line, then each section — or undefined
 * when the index holds something the format cannot carry. Parts, so a writer can put them in the file
 * one by one without joining 10 MB of text first.
 */
function encodeParts(index: object): string[] | undefined {
  const shape: ShapeEntry[] = [];
  const sections: Array<[string, number]> = [];
  const texts: string[] = [];
  try {
    for (const [field, value] of Object.entries(index)) {
      const enc = encodeField(field, value, shape);
      if (!enc) return undefined;
      const text = ascii(json(enc.value));
      sections.push([field, text.length]);
      texts.push(text);
    }
  } catch {
    return undefined;
  }
  const header = json({ shape, sections } satisfies Header);
  return [`${header.length}\n${header}`, ...texts];
}

/** The snapshot's text (after magic and key), or undefined when the index holds something the format cannot carry. */
export function encodeIndex(index: object): string | undefined {
  return encodeParts(index)?.join('');
}

/** A section's JSON text back to the field's value: Maps and Sets (and shared ones) as the encoder found them. */
function decodeSection(field: string, text: string, shape: ShapeEntry[]): unknown {
  const value = JSON.parse(text) as unknown;
  const kind = shape.find((e) => e[0] === field && e[2] === undefined)?.[1];
  if (!kind) return value;
  if (!Array.isArray(value)) throw new Error(`snapshot field ${field} is not a list`);
  const isMap = kind === 'map';
  const entry = (item: unknown) => (isMap ? (item as [unknown, unknown])[1] : item) as Record<string, unknown>;
  // Properties of entries first: the field is still the array the encoder wrote.
  for (const [f, k, prop] of shape) {
    if (f !== field || prop === undefined) continue;
    for (const item of value) {
      const v = entry(item);
      const pv = v?.[prop];
      if (Array.isArray(pv)) v[prop] = k === 'map' ? new Map(pv as Array<[unknown, unknown]>) : new Set(pv);
      else if (pv && typeof pv === 'object' && SAME in pv) v[prop] = entry(value[(pv as Record<string, number>)[SAME]])[prop];
    }
  }
  return isMap ? new Map(value as Array<[unknown, unknown]>) : new Set(value);
}

/** The codec's own code, for a key when the source files cannot be hashed (indexLoaderHash.ts). */
export const codecSource = (): string => readHeader.toString() + decodeSection.toString() + encodeParts.toString();

/** Parses the header at the start of `bytes`; `size` is the whole snapshot's, which the sections must fill exactly. */
function readHeader(bytes: Buffer, size: number): { header: Header; start: number } {
  const nl = bytes.indexOf(10);
  const len = nl > 0 && nl <= 12 ? Number(bytes.toString('latin1', 0, nl)) : NaN;
  if (!Number.isSafeInteger(len) || nl + 1 + len > bytes.length) throw new Error('not an index snapshot');
  const header = JSON.parse(bytes.toString('latin1', nl + 1, nl + 1 + len)) as Header;
  if (!Array.isArray(header?.shape) || !Array.isArray(header.sections)) throw new Error('not an index snapshot');
  const start = nl + 1 + len;
  let total = 0;
  for (const s of header.sections) {
    if (!Array.isArray(s) || typeof s[0] !== 'string' || !Number.isSafeInteger(s[1]) || s[1] < 0) throw new Error('not an index snapshot');
    total += s[1];
  }
  // A cut or padded file is refused whole, before any field is served from it.
  if (start + total !== size) throw new Error('the index snapshot is cut short or has bytes after its end');
  return { header, start };
}

/** Where the sections' bytes come from: the snapshot's text in memory, or its file. */
interface Source {
  header: Header;
  /** Offset of the first section. */
  start: number;
  read(from: number, to: number): Buffer;
}

/** The file changed on disk after it was opened: another process wrote a snapshot of another import. */
class SnapshotChanged extends Error {}

/**
 * The index over a source: each field an accessor that decodes its section on first read and then
 * becomes a plain property. A section that fails (unreadable, changed file, bad JSON) is taken from
 * `rebuild`, called at most once, and so is every field not yet read after it.
 */
function lazyIndex<T extends object>(source: Source, proto: T, rebuild?: (err: unknown) => T): T {
  const out = Object.create(proto) as Record<string, unknown>;
  const spans = new Map<string, { from: number; to: number }>();
  let at = source.start;
  for (const [field, length] of source.header.sections) {
    spans.set(field, { from: at, to: at + length });
    at += length;
  }
  // Let go of the file, the fallback (and through it the database) once every field is decoded.
  let src: Source | undefined = source;
  let fallback = rebuild;
  let rescued: Record<string, unknown> | undefined;
  const settle = (field: string, value: unknown) => {
    Object.defineProperty(out, field, { value, writable: true, enumerable: true, configurable: true });
    if (spans.delete(field) && !spans.size) src = fallback = rescued = undefined;
    return value;
  };
  const load = (field: string): unknown => {
    if (rescued) return settle(field, rescued[field]);
    const { from, to } = spans.get(field)!;
    try {
      return settle(field, decodeSection(field, src!.read(from, to).toString('latin1'), src!.header.shape));
    } catch (err) {
      if (!fallback) throw err;
      rescued = fallback(err) as Record<string, unknown>;
      return settle(field, rescued[field]);
    }
  };
  for (const field of spans.keys()) {
    Object.defineProperty(out, field, { enumerable: true, configurable: true, get: () => load(field), set: (v: unknown) => settle(field, v) });
  }
  return out as T;
}

/**
 * The index back from its snapshot's text (as encodeIndex wrote it), given its class (`proto`),
 * each field decoded when first read. Throws at once on text that is not a snapshot; a section that
 * does not decode throws where its field is read.
 */
export function decodeIndex<T extends object>(text: string, proto: T): T {
  const bytes = Buffer.from(text, 'latin1');
  const { header, start } = readHeader(bytes, bytes.length);
  return lazyIndex({ header, start, read: (from, to) => bytes.subarray(from, to) }, proto);
}

function readFully(fd: number, into: Buffer, position: number): void {
  for (let off = 0; off < into.length; ) {
    const n = fs.readSync(fd, into, off, into.length - off, position + off);
    if (n === 0) throw new SnapshotChanged('the index snapshot is shorter than when it was opened');
    off += n;
  }
}

/** The first bytes of a snapshot: magic, key, and (for any real header) the whole header. */
const PREFIX_READ = 64 * 1024;

/**
 * The snapshot under `key`, given back its class (`proto`), or undefined. Its fields are read from
 * the file when first used. `rebuild` builds the index from the database, for a section that cannot
 * be served when it is first read: that field and every one not yet read then come from the rebuilt
 * index, and a snapshot found damaged (rather than replaced) is written again from it.
 */
export function readIndexCache<T extends object>(file: string, key: string, proto: T, rebuild?: () => T): T | undefined {
  let prefix: Buffer;
  let size: number;
  let src: Source;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      size = fs.fstatSync(fd).size;
      let head = Buffer.allocUnsafe(Math.min(size, PREFIX_READ));
      readFully(fd, head, 0);
      if (head.length < MAGIC.length + KEY_CHARS || !head.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
      if (head.subarray(MAGIC.length, MAGIC.length + KEY_CHARS).toString('latin1') !== key) return undefined;
      const body = MAGIC.length + KEY_CHARS;
      let parsed: { header: Header; start: number };
      try {
        parsed = readHeader(head.subarray(body), size - body);
      } catch {
        // A header longer than the first read (an index of many more fields): read the file whole once.
        if (head.length === size) return undefined;
        head = Buffer.allocUnsafe(size);
        readFully(fd, head, 0);
        parsed = readHeader(head.subarray(body), size - body);
      }
      prefix = Buffer.from(head.subarray(0, body + parsed.start));
      src = {
        header: parsed.header,
        start: body + parsed.start,
        read: (from, to) => {
          const again = fs.openSync(file, 'r');
          try {
            const now = Buffer.allocUnsafe(prefix.length);
            readFully(again, now, 0);
            if (fs.fstatSync(again).size !== size || !now.equals(prefix)) throw new SnapshotChanged('the index snapshot was replaced');
            const out = Buffer.allocUnsafe(to - from);
            readFully(again, out, from);
            return out;
          } finally {
            fs.closeSync(again);
          }
        },
      };
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const heal = rebuild
    ? (err: unknown) => {
        const built = rebuild();
        // Damaged in place: write it again. Replaced by another process: that file is its to keep.
        if (!(err instanceof SnapshotChanged) && !isErrno(err)) writeIndexCache(file, key, built);
        return built;
      }
    : undefined;
  const fields = src.header.sections.map(([f]) => f);
  return fields.includes('recipes') && fields.includes('goods') ? lazyIndex(src, proto, heal) : undefined;
}

const isErrno = (err: unknown) => typeof (err as NodeJS.ErrnoException)?.code === 'string';

export function writeIndexCache(file: string, key: string, g: object): void {
  const parts = encodeParts(g);
  if (parts === undefined) return;
  try {
    // Each part is ASCII, written as latin1 (a byte a character, as the reader counts them) and made
    // into bytes only when its turn comes. A cache: its reader refuses a torn file, so no fsync.
    atomicWriteFile(file, (function* () {
      yield MAGIC;
      for (const text of [key, ...parts]) yield Buffer.from(text, 'latin1');
    })(), { keepPrevious: false, durable: false });
  } catch {
    // a read-only folder or a full disk: the next open builds the index again
  }
}
