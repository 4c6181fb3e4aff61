// The save record `<name>.pyops.acked`: which journal generation the project is on and how many
// saves of it were acknowledged. It is the proof of an acknowledged save that does not live in the
// journal's own bytes, so a damaged journal whose last frame looks like a torn tail, or a journal
// that was deleted, is reported instead of being taken for "no saves since the last checkpoint".
//
// It costs a save no flush: the journal frame is already durable (O_DSYNC) when the record is
// rewritten in place, without a sync of its own. After a process crash the page cache keeps it; after
// a power loss it can only be behind the journal, never ahead — a record that is behind proves fewer
// saves, which never turns a torn tail into damage. A record that is missing, unreadable or of
// another project proves nothing and is ignored.
//
// Layout, one 64-byte write at offset 0: "PYACK001", the project id (36 bytes, ASCII), u32
// generation, u32 saves, 8 reserved bytes, u32 crc32 of the bytes before it.
import fs from 'node:fs';
import { crc32 } from './journal';

const MAGIC = Buffer.from('PYACK001', 'latin1');
const ID = 36;
const SIZE = 64;
const GEN_AT = MAGIC.length + ID;
const SAVES_AT = GEN_AT + 4;
const CRC_AT = SIZE - 4;

export function ackRecordPath(projectFile: string): string {
  return projectFile + '.acked';
}

export interface AckRecord {
  projectId: string;
  /** The journal generation the saves belong to. */
  generation: number;
  /** Saves of that generation acknowledged to the caller. */
  saves: number;
}

function encode(r: AckRecord): Buffer {
  const b = Buffer.alloc(SIZE);
  MAGIC.copy(b, 0);
  b.write(r.projectId.slice(0, ID), MAGIC.length, 'latin1');
  b.writeUInt32LE(r.generation >>> 0, GEN_AT);
  b.writeUInt32LE(r.saves >>> 0, SAVES_AT);
  b.writeUInt32LE(crc32(b.subarray(0, CRC_AT)) >>> 0, CRC_AT);
  return b;
}

/** The record beside `projectFile` when it belongs to `projectId` and is intact; otherwise undefined. */
export function readAckRecord(projectFile: string, projectId: string): AckRecord | undefined {
  let b: Buffer;
  try {
    b = fs.readFileSync(ackRecordPath(projectFile));
  } catch {
    return undefined;
  }
  if (b.length < SIZE || !b.subarray(0, MAGIC.length).equals(MAGIC) || crc32(b.subarray(0, CRC_AT)) >>> 0 !== b.readUInt32LE(CRC_AT)) return undefined;
  const id = b.subarray(MAGIC.length, GEN_AT).toString('latin1').replace(/\0+$/, '');
  if (!projectId || id !== projectId.slice(0, ID)) return undefined;
  return { projectId: id, generation: b.readUInt32LE(GEN_AT), saves: b.readUInt32LE(SAVES_AT) };
}

/** Keeps the record of one open, writable project up to date. Best effort: it never fails a save. */
export class AckRecorder {
  private fd: number | undefined;

  constructor(
    readonly projectFile: string,
    readonly projectId: string,
  ) {}

  /** Record that `saves` saves of journal generation `generation` are durable. */
  note(generation: number, saves: number): void {
    try {
      this.fd ??= fs.openSync(ackRecordPath(this.projectFile), fs.constants.O_RDWR | fs.constants.O_CREAT, 0o644);
      fs.writeSync(this.fd, encode({ projectId: this.projectId, generation, saves }), 0, SIZE, 0);
    } catch {
      // The record only ever adds evidence: one that lags proves fewer saves, and the save itself
      // is already durable in the journal.
    }
  }

  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }
}
