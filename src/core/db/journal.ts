// Write-ahead journal for project saves. A save appends the final state of every row the
// transaction touched (one checksummed frame) and fsyncs — a fraction of a millisecond however
// large the project has grown — instead of rewriting the whole file. A checkpoint folds the journal
// into the project file (atomically) and starts a new journal generation; a journal whose
// generation is older than the file's is already folded in.
//
// Layout: "PYJ2" magic, u32 generation, u32 crc32 of those 8 bytes, then frames of
// [u32 length][u32 crc32][JSON payload]. ("PYJ1" journals, without the header checksum, are still
// read.) The header checksum matters: a flipped generation byte would otherwise make a journal full
// of acknowledged saves look already folded in.
//
// The file is grown ahead of the frames in zero-filled steps, made durable with a full fsync. A
// frame then overwrites blocks that already exist, so saving it needs only a data sync — no file
// size or extent change for the file system to commit — which is most of a save's cost. A zero
// length word (no frame is empty) marks where the frames end.
//
// Reading tells a torn tail from damage. A crash mid-append leaves the last frame with whole disk
// sectors missing (still zero, the file was preallocated) and nothing valid after it; that save was
// never acknowledged and is dropped. Anything else that fails its checksum — a frame with intact
// frames after it, or bytes that no sector-sized loss explains — is damage: the reader skips it,
// finds every intact frame after it, and says where the bad bytes are. The save record (ackRecord.ts)
// says how many saves were acknowledged, without the journal's own bytes: a tail that looks torn but
// would drop one of them, or a journal that ends cleanly short of them, is damage too. A frame whose
// length word alone is damaged is still found (its checksum matches the payload up to where the
// payload must end) and served, reported as damage. A few stray bytes in the zero padding after the
// last save are no save at all: they are ignored, and zeroed by the next append.
import fs from 'node:fs';
import zlib from 'node:zlib';
import path from 'node:path';
import { fsyncPath } from './atomicFile';
import type { AckRecorder } from './ackRecord';

const MAGIC_V1 = Buffer.from('PYJ1', 'latin1');
const MAGIC = Buffer.from('PYJ2', 'latin1');
const HEADER_V1 = 8;
const HEADER = 12;
const FRAME = 8;
const MAX_FRAME = 256 * 1024 * 1024;
/** A write that tears loses whole sectors; 512 bytes is the smallest a disk writes atomically. */
const SECTOR = 512;
/** Every frame's JSON starts like this (the resync scan looks for it). */
const FRAME_START = Buffer.from('{"changes":', 'utf8');
/** Grow the file in steps this large (about 700 chat-message saves each). */
const GROW = 1024 * 1024;
const ZEROS = Buffer.alloc(64 * 1024);
/**
 * At most this many non-zero bytes after the last frame are stray bits, not a save: the smallest
 * frame has more (its 8-byte header and `{"changes":[]}`), and a torn one has at least a sector.
 */
const NOISE_BYTES = 8;

/** Final state of one row: its values, or null when the transaction deleted it. */
export type RowImage = Record<string, unknown> | null;
export interface JournalChange {
  table: string;
  rowid: number;
  row: RowImage;
}
export interface JournalFrame {
  changes: JournalChange[];
}

export function journalPath(projectFile: string): string {
  return projectFile + '.journal';
}

/** Where the journal folded by the last checkpoint is kept (it turns `.bak` into the current file). */
export function previousJournalPath(projectFile: string): string {
  return projectFile + '.journal.bak';
}

/** Move a journal that is already folded into the file beside `.bak` (never delete saves). */
export function keepAsPreviousJournal(projectFile: string): void {
  try {
    fs.renameSync(journalPath(projectFile), previousJournalPath(projectFile));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

export const crc32: (b: Uint8Array) => number = (zlib as unknown as { crc32?: (b: Uint8Array) => number }).crc32 ?? crc32Fallback;

/** Bytes that are neither an intact frame nor a torn tail. */
export interface JournalDamage {
  offset: number;
  length: number;
}

export interface JournalRead {
  /** Every intact frame, in order (including those after a damaged stretch). */
  frames: JournalFrame[];
  /** Bytes of the journal that hold whole, valid frames from the start (appends continue here). */
  validBytes: number;
  /** The last frame was cut short by a crash: a save that was never acknowledged. */
  torn: boolean;
  /** The journal belongs to an older generation (already folded in). */
  stale: boolean;
  /** The journal's generation is newer than the file's: the file was replaced by an older copy. */
  newer: boolean;
  /** The header's generation, when the header is readable. */
  generation: number | undefined;
  /** The header is damaged: the frames are read, but which file they belong to is unknown. */
  headerDamaged: boolean;
  /** Damaged stretches, in order. Empty for a healthy journal (a torn tail is not damage). */
  damage: JournalDamage[];
  /** Frames whose checksums pass but whose content is not a journal frame. */
  undecodable: number;
  /** Frames read although their length word was damaged (each is also listed in `damage`). */
  repaired: number;
  /** Saves the save record says were acknowledged in this journal (undefined: no usable record). */
  confirmed: number | undefined;
  /** Acknowledged saves that are not among the intact frames: confirmed minus frames, at least 0. */
  missing: number;
  /** A few stray non-zero bytes after the last frame (no save): ignored, like a torn tail. */
  noise: boolean;
}

/** The number of saves the save record proves for one journal generation. */
export interface Confirmed {
  generation: number;
  saves: number;
}

/**
 * Read a journal. `generation` is the project file's: an older journal is `stale`, a newer one
 * `newer`. Omit it to read the frames whatever the generation. `confirmed` (from the save record)
 * counts for the journal only when its header names that generation.
 */
export function readJournal(file: string, generation?: number, confirmed?: Confirmed): JournalRead | undefined {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  return parseJournal(buf, generation, confirmed);
}

export function parseJournal(buf: Buffer, generation?: number, confirmed?: Confirmed): JournalRead {
  let start: number;
  let gen: number | undefined;
  let headerDamaged = false;
  if (buf.length >= HEADER && buf.subarray(0, 4).equals(MAGIC) && crc32(buf.subarray(0, 8)) >>> 0 === buf.readUInt32LE(8)) {
    start = HEADER;
    gen = buf.readUInt32LE(4);
  } else if (buf.length >= HEADER_V1 && buf.subarray(0, 4).equals(MAGIC_V1)) {
    start = HEADER_V1;
    gen = buf.readUInt32LE(4);
  } else {
    // A journal is created whole (see JournalWriter.create): a missing or unreadable header,
    // even in an empty file, is damage.
    start = HEADER;
    headerDamaged = true;
  }
  const owed = confirmed && gen !== undefined && confirmed.generation === gen ? confirmed.saves : undefined;
  const out: JournalRead = {
    frames: [], validBytes: start, torn: false, stale: false, newer: false, generation: gen, headerDamaged,
    damage: headerDamaged ? [{ offset: 0, length: Math.min(HEADER, buf.length) }] : [], undecodable: 0,
    repaired: 0, confirmed: owed, missing: 0, noise: false,
  };
  if (generation !== undefined && gen !== undefined && gen !== generation) {
    if (gen < generation) out.stale = true;
    else out.newer = true;
  }
  let off = start;
  let prefix = !headerDamaged;
  let ended = false;
  while (off < buf.length) {
    const f = frameAt(buf, off);
    if (f) {
      if (f.frame) out.frames.push(f.frame);
      else {
        out.undecodable++;
        out.damage.push({ offset: off, length: f.end - off });
        prefix = false;
      }
      off = f.end;
      if (prefix) out.validBytes = off;
      continue;
    }
    if (off + FRAME <= buf.length && allZero(buf, off)) {
      ended = true; // the clean end
      break;
    }
    const next = nextFrame(buf, off + 1);
    const whole = frameBehindBadLength(buf, off, next);
    if (whole) {
      out.frames.push(whole.frame!);
      out.repaired++;
      out.damage.push({ offset: off, length: 4 });
      prefix = false;
      off = whole.end;
      continue;
    }
    if (next === undefined) {
      // Nothing intact follows: a torn tail if the bad bytes look like sectors that never landed —
      // unless the save record says an acknowledged save should be among them.
      ended = true;
      const holdsAcknowledged = owed !== undefined && out.frames.length < owed;
      if (!holdsAcknowledged && isNoise(buf, off)) out.noise = true;
      else if (!holdsAcknowledged && looksTorn(buf, off)) out.torn = true;
      else out.damage.push({ offset: off, length: Math.max(1, lastNonZero(buf) + 1 - off) });
      break;
    }
    out.damage.push({ offset: off, length: next - off });
    prefix = false;
    off = next;
  }
  // Journals are written with zeros after the last frame (at least an end marker), and created
  // whole, header and all: a file that stops right after a frame, or before its header, was cut.
  if (!ended && !headerDamaged) out.damage.push({ offset: buf.length, length: 0 });
  if (owed !== undefined) out.missing = Math.max(0, owed - out.frames.length);
  return out;
}

/** Damage in words: "N bytes at offset O", or "cut short at offset O". */
export function describeDamage(d: JournalDamage): string {
  return d.length ? `${d.length} byte${d.length === 1 ? '' : 's'} at offset ${d.offset}` : `cut short at offset ${d.offset}`;
}

interface FoundFrame {
  end: number;
  frame: JournalFrame | undefined;
}

function frameAt(buf: Buffer, off: number): FoundFrame | undefined {
  if (off + FRAME > buf.length) return undefined;
  const len = buf.readUInt32LE(off);
  if (len === 0 || len > MAX_FRAME || off + FRAME + len > buf.length) return undefined;
  const payload = buf.subarray(off + FRAME, off + FRAME + len);
  if (crc32(payload) >>> 0 !== buf.readUInt32LE(off + 4)) return undefined;
  let frame: JournalFrame | undefined;
  try {
    frame = decodeFrame(payload);
  } catch {
    frame = undefined;
  }
  return { end: off + FRAME + len, frame };
}

/**
 * A frame whose length word is wrong but whose payload is whole: the payload ends where the next
 * intact frame starts, or at its first zero byte (JSON never holds one), and there its checksum
 * matches. A torn frame cannot pass this (its checksum covers bytes that never landed).
 */
function frameBehindBadLength(buf: Buffer, off: number, next: number | undefined): FoundFrame | undefined {
  const start = off + FRAME;
  if (start >= buf.length) return undefined;
  const claimed = buf.readUInt32LE(off);
  const zero = buf.indexOf(0, start);
  const ends = [zero < 0 ? buf.length : zero];
  if (next !== undefined && next !== ends[0]) ends.push(next);
  for (const end of ends) {
    if (end <= start || end - start > MAX_FRAME || end - start === claimed) continue;
    const payload = buf.subarray(start, end);
    if (crc32(payload) >>> 0 !== buf.readUInt32LE(off + 4)) continue;
    try {
      return { end, frame: decodeFrame(payload) };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** A few isolated non-zero bytes from `off` on: stray bits in the padding, too few to be any frame. */
function isNoise(buf: Buffer, off: number): boolean {
  let n = 0;
  for (let i = off; i < buf.length; i++) if (buf[i] !== 0 && ++n > NOISE_BYTES) return false;
  return n > 0;
}

/** The next offset at or after `from` where an intact frame starts. */
function nextFrame(buf: Buffer, from: number): number | undefined {
  for (let i = buf.indexOf(FRAME_START, from + FRAME); i >= 0; i = buf.indexOf(FRAME_START, i + 1)) {
    const at = i - FRAME;
    if (at >= from && frameAt(buf, at)) return at;
  }
  return undefined;
}

/**
 * A frame cut short by a crash: some of its sectors are still the preallocated zeros. Its JSON
 * never holds a zero byte, so look for a zero run that starts where the frame or a sector starts and
 * ends where the frame or a sector ends. A flipped byte, or a length word that no longer matches its
 * frame, leaves no such run.
 */
function looksTorn(buf: Buffer, off: number): boolean {
  const last = lastNonZero(buf);
  if (last < off) return false;
  const len = off + 4 <= buf.length ? buf.readUInt32LE(off) : 0;
  const claimedEnd = len > 0 && len <= MAX_FRAME ? off + FRAME + len : undefined;
  // The frame ends where it says, or (its length word lost) somewhere past its last non-zero byte.
  const end = Math.min(buf.length, claimedEnd ?? buf.length);
  if (last >= end) return false; // bytes past the frame's own end: not one interrupted append
  for (let i = off; i < end; ) {
    if (buf[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < buf.length && buf[j] === 0) j++;
    const startsOk = i === off || i % SECTOR === 0;
    const endsOk = j >= end || j % SECTOR === 0;
    // Inside the header a zero byte is ordinary (a small length's high bytes); only a run that
    // reaches past the header counts.
    if (startsOk && endsOk && j > off + FRAME - (i === off ? FRAME : 0)) return true;
    i = j;
  }
  return false;
}

function lastNonZero(buf: Buffer): number {
  let i = buf.length - 1;
  while (i >= 0 && buf[i] === 0) i--;
  return i;
}

function allZero(buf: Buffer, from: number): boolean {
  for (let i = from; i < buf.length; i++) if (buf[i] !== 0) return false;
  return true;
}

export class JournalWriter {
  private fd: number;
  /**
   * The same file opened for synchronized data writes (O_DSYNC, where the platform has it): one
   * write call is then durable on return, which costs the disk less than a write plus fdatasync.
   */
  private dsyncFd: number | undefined;
  private bytes: number;
  /** File length: frames end at `bytes`, zeros follow up to here. */
  private allocated: number;
  frames = 0;

  private constructor(
    readonly file: string,
    readonly generation: number,
    fd: number,
    bytes: number,
    /** Told of every durable append (the save record); none for a bare journal. */
    private readonly acks: AckRecorder | undefined,
  ) {
    this.fd = fd;
    this.bytes = bytes;
    this.allocated = bytes;
  }

  /** Start a fresh journal for `generation`, replacing any old one. */
  static create(file: string, generation: number, acks?: AckRecorder): JournalWriter {
    // Built under a temp name and renamed into place, so a journal is never seen without its header
    // and first reserve: an empty or headerless journal can then only be damage.
    const tmp = `${file}.tmp-${process.pid}`;
    let fd = fs.openSync(tmp, 'w', 0o644);
    try {
      const header = Buffer.alloc(HEADER);
      MAGIC.copy(header, 0);
      header.writeUInt32LE(generation >>> 0, 4);
      header.writeUInt32LE(crc32(header.subarray(0, 8)) >>> 0, 8);
      fs.writeSync(fd, header);
      const w = new JournalWriter(file, generation, fd, HEADER, acks);
      w.reserve(0);
      fs.renameSync(tmp, file);
      fsyncPath(path.dirname(file));
      fd = -1;
      acks?.note(generation, 0);
      return w;
    } finally {
      if (fd >= 0) {
        fs.closeSync(fd);
        fs.rmSync(tmp, { force: true });
      }
    }
  }

  /** Continue an existing journal after its last valid frame (a torn tail is cut off). */
  static resume(file: string, generation: number, validBytes: number, frames: number, acks?: AckRecorder): JournalWriter {
    const fd = fs.openSync(file, 'r+');
    // Zero a torn tail in place instead of truncating: the file never ends right after a frame,
    // which is how a journal cut short by damage is recognised.
    const size = fs.fstatSync(fd).size;
    const tail = Buffer.alloc(Math.min(size - validBytes, 64 * 1024));
    let dirty = false;
    for (let off = validBytes; off < size; off += tail.length) {
      const n = fs.readSync(fd, tail, 0, Math.min(tail.length, size - off), off);
      if (tail.subarray(0, n).some((b) => b !== 0)) {
        fs.writeSync(fd, ZEROS, 0, n, off);
        dirty = true;
      }
    }
    if (dirty) fs.fsyncSync(fd);
    const w = new JournalWriter(file, generation, fd, validBytes, acks);
    w.allocated = Math.max(validBytes, size);
    w.frames = frames;
    w.reserve(0);
    // A record that fell behind (a crash between a save and its note) catches up.
    acks?.note(generation, frames);
    return w;
  }

  /** Bytes of frames (the file itself is longer by its zero-filled reserve). */
  get size(): number {
    return this.bytes;
  }

  /** Make sure `n` more bytes plus an end marker fit in durable, zero-filled space. */
  private reserve(n: number): void {
    const need = this.bytes + n + FRAME;
    if (need <= this.allocated) return;
    const target = Math.ceil(need / GROW) * GROW;
    for (let off = this.allocated; off < target; ) off += fs.writeSync(this.fd, ZEROS, 0, Math.min(ZEROS.length, target - off), off);
    fs.fsyncSync(this.fd);
    this.allocated = target;
  }

  /** Append one frame and make it durable. */
  append(frame: JournalFrame): void {
    const json = encodeFrame(frame);
    // Header and payload in one buffer, for one write.
    const buf = Buffer.allocUnsafe(FRAME + Buffer.byteLength(json, 'utf8'));
    const payload = buf.subarray(FRAME);
    payload.write(json, 'utf8');
    buf.writeUInt32LE(payload.length, 0);
    buf.writeUInt32LE(crc32(payload) >>> 0, 4);
    this.reserve(buf.length);
    let off = 0;
    const fd = this.syncedFd();
    while (off < buf.length) off += fs.writeSync(fd ?? this.fd, buf, off, buf.length - off, this.bytes + off);
    if (fd === undefined) fs.fdatasyncSync(this.fd);
    this.bytes += buf.length;
    this.frames++;
    // Only now, with the frame durable: the record may fall behind the journal, never get ahead.
    this.acks?.note(this.generation, this.frames);
  }

  private syncedFd(): number | undefined {
    const flag = fs.constants.O_DSYNC;
    if (this.dsyncFd === undefined && flag) {
      try {
        this.dsyncFd = fs.openSync(this.file, fs.constants.O_WRONLY | flag);
      } catch {
        this.dsyncFd = -1;
      }
    }
    return this.dsyncFd !== undefined && this.dsyncFd >= 0 ? this.dsyncFd : undefined;
  }

  close(): void {
    if (this.fd >= 0) fs.closeSync(this.fd);
    this.fd = -1;
    if (this.dsyncFd !== undefined && this.dsyncFd >= 0) fs.closeSync(this.dsyncFd);
    this.dsyncFd = undefined;
    this.acks?.close();
  }
}

// Blobs survive JSON as {"$b64": "..."}.
function encodeValue(_k: string, v: unknown): unknown {
  if (v instanceof Uint8Array) return { $b64: Buffer.from(v).toString('base64') };
  return v;
}

/** A frame's JSON. Without a blob (nearly every save) it needs no replacer, which JSON.stringify calls for every value. */
function encodeFrame(frame: JournalFrame): string {
  for (const c of frame.changes) {
    if (!c.row) continue;
    for (const k in c.row) if (c.row[k] instanceof Uint8Array) return JSON.stringify(frame, encodeValue);
  }
  return JSON.stringify(frame);
}

function decodeFrame(payload: Buffer): JournalFrame {
  const f = JSON.parse(payload.toString('utf8'), (_k, v) =>
    v && typeof v === 'object' && typeof v.$b64 === 'string' && Object.keys(v).length === 1 ? new Uint8Array(Buffer.from(v.$b64, 'base64')) : v,
  );
  if (!f || !Array.isArray(f.changes)) throw new Error('not a journal frame');
  return f as JournalFrame;
}

let table: Uint32Array | undefined;
function crc32Fallback(b: Uint8Array): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let i = 0; i < 256; i++) {
      let c = i;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[i] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < b.length; i++) c = table[(c ^ b[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

