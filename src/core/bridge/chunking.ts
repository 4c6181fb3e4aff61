// Splitting a message that is too big for one datagram into numbered parts, and putting parts back
// together on arrival. Both directions use the same frame, which the Lua side mirrors in
// companion-mod/scripts/chunk.lua:
//
//   "PYC1 <message id> <part> <parts>\n" followed by a slice of the message bytes
//
// A plain-text header (not JSON) keeps the slices byte-exact with no escaping overhead; cuts fall
// on UTF-8 boundaries so each slice is valid text on its own (the game's send_udp takes a string).
// Reassembly tolerates loss (a message never completes and expires), duplication (ignored) and
// reordering, and bounds memory so a flood of bogus parts cannot grow it.

export const CHUNK_MAGIC = 'PYC1 ';
const MAGIC_BYTES = Buffer.from(CHUNK_MAGIC, 'latin1');
const ID_RE = /^[A-Za-z0-9_.:-]{1,40}$/;
/** A header is short; anything longer before the newline is not ours. */
const MAX_HEADER = 64;

export interface ReassemblyLimits {
  /** Incomplete messages older than this are discarded. */
  timeoutMs: number;
  maxParts: number;
  /** Bytes of one reassembled message. */
  maxMessageBytes: number;
  /** Incomplete messages one source holds at once; that source's oldest is dropped beyond this. */
  maxPending: number;
  /**
   * Sources holding incomplete messages at once; the least recently active one's are dropped
   * beyond this (default 2). Each source has its own slots, so one source can never evict
   * another's messages by sending more — and the bridge lets only the paired game hold any.
   */
  maxSources?: number;
}

export const DEFAULT_REASSEMBLY: ReassemblyLimits = { timeoutMs: 5_000, maxParts: 256, maxMessageBytes: 2 * 1024 * 1024, maxPending: 32, maxSources: 2 };

export function isChunkFrame(bytes: Uint8Array): boolean {
  if (bytes.length < MAGIC_BYTES.length) return false;
  for (let i = 0; i < MAGIC_BYTES.length; i++) if (bytes[i] !== MAGIC_BYTES[i]) return false;
  return true;
}

/** Largest cut ≤ `end` that does not split a UTF-8 sequence (never below `start + 1`). */
function utf8Cut(buf: Buffer, start: number, end: number): number {
  if (end >= buf.length) return buf.length;
  let cut = end;
  // 0b10xxxxxx is a continuation byte: the sequence started earlier.
  while (cut > start + 1 && (buf[cut] & 0xc0) === 0x80) cut--;
  return cut;
}

/**
 * The datagrams for one message: the message itself when it fits in `maxDatagram` bytes,
 * otherwise chunk frames no larger than `maxDatagram`.
 */
export function splitMessage(text: string | Buffer, maxDatagram: number, messageId: string): Buffer[] {
  const buf = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  if (buf.length <= maxDatagram) return [buf];
  if (!ID_RE.test(messageId)) throw new Error(`invalid chunk message id "${messageId}"`);
  // The header grows with the part count; size it for the worst case (4-digit part numbers).
  const headerMax = Buffer.byteLength(`${CHUNK_MAGIC}${messageId} 9999 9999\n`);
  const room = maxDatagram - headerMax;
  if (room < 16) throw new Error(`datagram limit ${maxDatagram} too small for chunking`);
  const slices: Buffer[] = [];
  for (let at = 0; at < buf.length; ) {
    const cut = utf8Cut(buf, at, at + room);
    slices.push(buf.subarray(at, cut));
    at = cut;
  }
  if (slices.length > 9999) throw new Error('message too large to chunk');
  return slices.map((s, i) => Buffer.concat([Buffer.from(`${CHUNK_MAGIC}${messageId} ${i + 1} ${slices.length}\n`, 'latin1'), s]));
}

export interface ChunkHeader {
  id: string;
  part: number;
  parts: number;
  body: Buffer;
}

/** Parse a chunk frame's header; undefined when it is malformed. */
export function parseChunk(bytes: Uint8Array): ChunkHeader | undefined {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!isChunkFrame(buf)) return undefined;
  const nl = buf.indexOf(0x0a, MAGIC_BYTES.length);
  if (nl < 0 || nl > MAX_HEADER) return undefined;
  const fields = buf.subarray(MAGIC_BYTES.length, nl).toString('latin1').split(' ');
  if (fields.length !== 3) return undefined;
  const [id, partText, partsText] = fields;
  if (!ID_RE.test(id) || !/^[1-9][0-9]{0,3}$/.test(partText) || !/^[1-9][0-9]{0,3}$/.test(partsText)) return undefined;
  const part = Number(partText);
  const parts = Number(partsText);
  if (parts < 2 || part > parts) return undefined;
  return { id, part, parts, body: buf.subarray(nl + 1) };
}

export type ChunkOutcome =
  | { kind: 'partial' }
  | { kind: 'duplicate' }
  | { kind: 'complete'; message: Buffer }
  | { kind: 'invalid'; reason: string };

interface Pending {
  parts: number;
  got: Map<number, Buffer>;
  bytes: number;
  firstAt: number;
}

/** Collects parts per (source, message id) until a message is whole or expires; slots are per source. */
export class Reassembler {
  /** Incomplete messages by source, then message id; the least recently active source first. */
  private readonly sources = new Map<string, Map<string, Pending>>();
  /** Messages discarded because a part never arrived (or memory bounds forced them out). */
  expired = 0;

  constructor(
    private readonly limits: ReassemblyLimits = DEFAULT_REASSEMBLY,
    private readonly now: () => number = Date.now,
  ) {}

  /** Incomplete messages held, over all sources. */
  get size(): number {
    let n = 0;
    for (const held of this.sources.values()) n += held.size;
    return n;
  }

  accept(frame: Uint8Array, source: string): ChunkOutcome {
    this.sweep();
    const c = parseChunk(frame);
    if (!c) return { kind: 'invalid', reason: 'bad chunk header' };
    if (c.parts > this.limits.maxParts) return { kind: 'invalid', reason: `too many parts (${c.parts} > ${this.limits.maxParts})` };
    const held = this.slotsOf(source);
    let p = held.get(c.id);
    if (p && p.parts !== c.parts) return { kind: 'invalid', reason: 'part count changed mid-message' };
    if (!p) {
      while (held.size >= this.limits.maxPending) {
        held.delete(held.keys().next().value as string);
        this.expired++;
      }
      p = { parts: c.parts, got: new Map(), bytes: 0, firstAt: this.now() };
      held.set(c.id, p);
    }
    if (p.got.has(c.part)) return { kind: 'duplicate' };
    if (p.bytes + c.body.length > this.limits.maxMessageBytes) {
      this.drop(source, c.id);
      this.expired++;
      return { kind: 'invalid', reason: 'message too large' };
    }
    p.got.set(c.part, Buffer.from(c.body));
    p.bytes += c.body.length;
    if (p.got.size < p.parts) return { kind: 'partial' };
    this.drop(source, c.id);
    const ordered: Buffer[] = [];
    for (let i = 1; i <= p.parts; i++) ordered.push(p.got.get(i)!);
    return { kind: 'complete', message: Buffer.concat(ordered) };
  }

  /** The slots of `source`, now the most recently active; a new source may push the least recent one out. */
  private slotsOf(source: string): Map<string, Pending> {
    let held = this.sources.get(source);
    if (held) {
      this.sources.delete(source);
    } else {
      held = new Map();
      while (this.sources.size >= (this.limits.maxSources ?? 2)) {
        const [oldest, its] = this.sources.entries().next().value as [string, Map<string, Pending>];
        this.sources.delete(oldest);
        this.expired += its.size;
      }
    }
    this.sources.set(source, held);
    return held;
  }

  private drop(source: string, id: string): void {
    const held = this.sources.get(source);
    held?.delete(id);
    if (held && !held.size) this.sources.delete(source);
  }

  /** Drop incomplete messages past the timeout; returns how many went. */
  sweep(): number {
    const limit = this.now() - this.limits.timeoutMs;
    let n = 0;
    for (const [source, held] of this.sources) {
      for (const [k, p] of held) {
        if (p.firstAt <= limit) {
          held.delete(k);
          n++;
        }
      }
      if (!held.size) this.sources.delete(source);
    }
    this.expired += n;
    return n;
  }

  clear(): void {
    this.sources.clear();
  }
}
