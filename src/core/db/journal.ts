// Write-ahead journal for project saves. A save appends the final state of every row the
// transaction touched (one checksummed frame) and fsyncs — a fraction of a millisecond however
// large the project has grown — instead of rewriting the whole file. A checkpoint folds the journal
// into the project file (atomically) and starts a new journal generation; a journal whose
// generation differs from the file's is already folded in and is ignored.
//
// Layout: "PYJ1" magic, u32 generation, then frames of [u32 length][u32 crc32][JSON payload].
// A frame cut short by a crash fails its length or checksum and ends the journal there.
//
// The file is grown ahead of the frames in zero-filled steps, made durable with a full fsync. A
// frame then overwrites blocks that already exist, so saving it needs only a data sync — no file
// size or extent change for the file system to commit — which is most of a save's cost. A zero
// length word (no frame is empty) marks where the frames end.
import fs from 'node:fs';
import zlib from 'node:zlib';

const MAGIC = Buffer.from('PYJ1', 'latin1');
const HEADER = 8;
const FRAME = 8;
const MAX_FRAME = 256 * 1024 * 1024;
/** Grow the file in steps this large (about 700 chat-message saves each). */
const GROW = 1024 * 1024;
const ZEROS = Buffer.alloc(64 * 1024);

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

const crc32: (b: Uint8Array) => number = (zlib as unknown as { crc32?: (b: Uint8Array) => number }).crc32 ?? crc32Fallback;

export interface JournalRead {
  frames: JournalFrame[];
  /** Bytes of the journal that hold whole, valid frames (a torn tail starts after them). */
  validBytes: number;
  torn: boolean;
  /** The journal belongs to another generation (already folded in) or is not ours. */
  stale: boolean;
}

export function readJournal(file: string, generation: number): JournalRead | undefined {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  if (buf.length < HEADER || !buf.subarray(0, 4).equals(MAGIC) || buf.readUInt32LE(4) !== generation) {
    return { frames: [], validBytes: 0, torn: false, stale: true };
  }
  const frames: JournalFrame[] = [];
  let off = HEADER;
  let torn = false;
  while (off < buf.length) {
    if (off + FRAME > buf.length) {
      torn = !allZero(buf, off);
      break;
    }
    const len = buf.readUInt32LE(off);
    if (len === 0) {
      // The preallocated tail; anything but zeros after it is a frame that never completed.
      torn = !allZero(buf, off);
      break;
    }
    const crc = buf.readUInt32LE(off + 4);
    if (len > MAX_FRAME || off + FRAME + len > buf.length) {
      torn = true;
      break;
    }
    const payload = buf.subarray(off + FRAME, off + FRAME + len);
    if (crc32(payload) >>> 0 !== crc) {
      torn = true;
      break;
    }
    try {
      frames.push(decodeFrame(payload));
    } catch {
      torn = true;
      break;
    }
    off += FRAME + len;
  }
  return { frames, validBytes: off, torn, stale: false };
}

function allZero(buf: Buffer, from: number): boolean {
  for (let i = from; i < buf.length; i++) if (buf[i] !== 0) return false;
  return true;
}

export class JournalWriter {
  private fd: number;
  private bytes: number;
  /** File length: frames end at `bytes`, zeros follow up to here. */
  private allocated: number;
  frames = 0;

  private constructor(
    readonly file: string,
    readonly generation: number,
    fd: number,
    bytes: number,
  ) {
    this.fd = fd;
    this.bytes = bytes;
    this.allocated = bytes;
  }

  /** Start a fresh journal for `generation`, replacing any old one. */
  static create(file: string, generation: number): JournalWriter {
    const fd = fs.openSync(file, 'w', 0o644);
    const header = Buffer.alloc(HEADER);
    MAGIC.copy(header, 0);
    header.writeUInt32LE(generation >>> 0, 4);
    fs.writeSync(fd, header);
    const w = new JournalWriter(file, generation, fd, HEADER);
    w.reserve(0);
    return w;
  }

  /** Continue an existing journal after its last valid frame (a torn tail is cut off). */
  static resume(file: string, generation: number, validBytes: number, frames: number): JournalWriter {
    const fd = fs.openSync(file, 'r+');
    fs.ftruncateSync(fd, validBytes);
    const w = new JournalWriter(file, generation, fd, validBytes);
    w.frames = frames;
    w.reserve(0);
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
    const payload = Buffer.from(JSON.stringify(frame, encodeValue), 'utf8');
    const head = Buffer.alloc(FRAME);
    head.writeUInt32LE(payload.length, 0);
    head.writeUInt32LE(crc32(payload) >>> 0, 4);
    const buf = Buffer.concat([head, payload]);
    this.reserve(buf.length);
    let off = 0;
    while (off < buf.length) off += fs.writeSync(this.fd, buf, off, buf.length - off, this.bytes + off);
    fs.fdatasyncSync(this.fd);
    this.bytes += buf.length;
    this.frames++;
  }

  close(): void {
    if (this.fd >= 0) fs.closeSync(this.fd);
    this.fd = -1;
  }
}

// Blobs survive JSON as {"$b64": "..."}.
function encodeValue(_k: string, v: unknown): unknown {
  if (v instanceof Uint8Array) return { $b64: Buffer.from(v).toString('base64') };
  return v;
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
