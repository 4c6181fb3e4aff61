// A checksum over every byte a checkpoint (or an import) writes, so a flipped byte in the project
// file or the game data is reported instead of served: SQLite's own quick_check only looks at the
// b-tree structure and passes a changed title.
//
// The seal is a 40-byte trailer right after the database's last page: "PYSEAL01" and the SHA-256 of
// the pages before it. SQLite reads only the pages its header counts, so any SQLite tool still opens
// the file. Files written before seals existed have no trailer and are accepted as they are.
import crypto from 'node:crypto';

const MARK = Buffer.from('PYSEAL01', 'latin1');
const TRAILER = MARK.length + 32;

export type SealState =
  /** The trailer is present and matches. */
  | 'sealed'
  /** No trailer: a file from before seals (or another SQLite tool). */
  | 'unsealed'
  /** The trailer does not match the pages, or the pages end early: the bytes changed after writing. */
  | 'mismatch';

export interface Unsealed {
  /** The database pages, without the trailer. */
  image: Uint8Array;
  state: SealState;
}

/** Bytes of the database pages, from the header's page size and page count (undefined when unusable). */
export function pagesLength(bytes: Uint8Array): number | undefined {
  if (bytes.length < 100) return undefined;
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const raw = b.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  const pages = b.readUInt32BE(28);
  // The page count in the header is only trusted by SQLite while these two counters agree.
  if (!pageSize || !pages || b.readUInt32BE(24) !== b.readUInt32BE(92)) return undefined;
  return pageSize * pages;
}

/**
 * The sealed file as its two parts, the pages and the trailer, for atomicWriteFile to write one after
 * the other: joined, they would be a copy of the whole image (4 MB of fresh memory for full Py's game
 * data, ~13 ms on this project's test machines just to touch it).
 */
export function sealImage(image: Uint8Array): Uint8Array[] {
  const digest = crypto.createHash('sha256').update(image).digest();
  return [image, Buffer.concat([MARK, digest])];
}

export function unsealImage(bytes: Uint8Array): Unsealed {
  const len = pagesLength(bytes);
  if (len === undefined || bytes.length === len) return { image: bytes, state: 'unsealed' };
  if (bytes.length < len) return { image: bytes, state: 'mismatch' };
  const image = bytes.subarray(0, len);
  const trailer = Buffer.from(bytes.buffer, bytes.byteOffset + len, bytes.length - len);
  if (trailer.length !== TRAILER || !trailer.subarray(0, MARK.length).equals(MARK)) return { image, state: 'mismatch' };
  const digest = crypto.createHash('sha256').update(image).digest();
  return { image, state: digest.equals(trailer.subarray(MARK.length)) ? 'sealed' : 'mismatch' };
}
