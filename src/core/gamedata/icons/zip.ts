// Reading single files out of a mod's zip without loading the zip: Py's graphics mods are hundreds
// of MB. The central directory is read once when the archive is opened; each file is then one
// positioned read plus an inflate. Stored and deflated entries are what mod zips hold; anything
// else (encrypted, other methods) reads as an error naming the entry. Zip64 is understood.
import fs from 'node:fs';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const inflateRaw = promisify(zlib.inflateRaw);

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_COMMENT = 0xffff;

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  crc32: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

export class ZipError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = 'ZipError';
  }
}

async function readAt(fh: fs.promises.FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await fh.read(buf, done, length - done, position + done);
    if (!bytesRead) break;
    done += bytesRead;
  }
  return done === length ? buf : buf.subarray(0, done);
}

export class ZipArchive {
  private constructor(
    readonly file: string,
    private readonly fh: fs.promises.FileHandle,
    /** Every file in the archive by its full name (folders left out). */
    readonly entries: ReadonlyMap<string, ZipEntry>,
  ) {}

  static async open(file: string): Promise<ZipArchive> {
    const fh = await fs.promises.open(file, 'r');
    try {
      return new ZipArchive(file, fh, await readDirectory(file, fh));
    } catch (err) {
      await fh.close();
      throw err;
    }
  }

  async read(entry: ZipEntry): Promise<Buffer> {
    if (entry.flags & 1) throw new ZipError(this.file, `${entry.name} is encrypted`);
    const head = await readAt(this.fh, entry.localOffset, 30);
    if (head.length < 30 || head.readUInt32LE(0) !== LOCAL) throw new ZipError(this.file, `${entry.name}: no local header where the directory says (the zip is damaged)`);
    const start = entry.localOffset + 30 + head.readUInt16LE(26) + head.readUInt16LE(28);
    const raw = await readAt(this.fh, start, entry.compressedSize);
    if (raw.length < entry.compressedSize) throw new ZipError(this.file, `${entry.name} is cut short (the zip is damaged or still being written)`);
    if (entry.method === 0) return raw;
    if (entry.method === 8) return inflateRaw(raw);
    throw new ZipError(this.file, `${entry.name} uses compression method ${entry.method}, which PyOps cannot read`);
  }

  async close(): Promise<void> {
    await this.fh.close();
  }
}

async function readDirectory(file: string, fh: fs.promises.FileHandle): Promise<Map<string, ZipEntry>> {
  const { size } = await fh.stat();
  const tailLen = Math.min(size, 22 + MAX_COMMENT);
  const tail = await readAt(fh, size - tailLen, tailLen);
  let at = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD) {
      at = i;
      break;
    }
  }
  if (at < 0) throw new ZipError(file, 'not a zip file (no end-of-directory record)');
  let count = tail.readUInt16LE(at + 10);
  let dirSize = tail.readUInt32LE(at + 12);
  let dirOffset = tail.readUInt32LE(at + 16);
  if (count === 0xffff || dirSize === 0xffffffff || dirOffset === 0xffffffff) {
    const locAt = at - 20;
    if (locAt < 0 || tail.readUInt32LE(locAt) !== ZIP64_LOCATOR) throw new ZipError(file, 'zip64 record missing');
    const recOffset = Number(tail.readBigUInt64LE(locAt + 8));
    const rec = await readAt(fh, recOffset, 56);
    if (rec.length < 56 || rec.readUInt32LE(0) !== ZIP64_EOCD) throw new ZipError(file, 'zip64 record damaged');
    count = Number(rec.readBigUInt64LE(32));
    dirSize = Number(rec.readBigUInt64LE(40));
    dirOffset = Number(rec.readBigUInt64LE(48));
  }
  const dir = await readAt(fh, dirOffset, dirSize);
  const entries = new Map<string, ZipEntry>();
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > dir.length || dir.readUInt32LE(p) !== CENTRAL) throw new ZipError(file, 'central directory damaged');
    const flags = dir.readUInt16LE(p + 8);
    const method = dir.readUInt16LE(p + 10);
    const crc32 = dir.readUInt32LE(p + 16);
    let compressedSize = dir.readUInt32LE(p + 20);
    let size = dir.readUInt32LE(p + 24);
    const nameLen = dir.readUInt16LE(p + 28);
    const extraLen = dir.readUInt16LE(p + 30);
    const commentLen = dir.readUInt16LE(p + 32);
    let localOffset = dir.readUInt32LE(p + 42);
    const name = dir.toString(flags & 0x800 ? 'utf8' : 'latin1', p + 46, p + 46 + nameLen).replace(/\\/g, '/');
    // Zip64: the 32-bit fields that overflowed are in extra field 0x0001, in this order.
    let e = p + 46 + nameLen;
    const extraEnd = e + extraLen;
    while (e + 4 <= extraEnd) {
      const id = dir.readUInt16LE(e);
      const len = dir.readUInt16LE(e + 2);
      if (id === 1) {
        let q = e + 4;
        const next = () => {
          const v = Number(dir.readBigUInt64LE(q));
          q += 8;
          return v;
        };
        if (size === 0xffffffff) size = next();
        if (compressedSize === 0xffffffff) compressedSize = next();
        if (localOffset === 0xffffffff) localOffset = next();
      }
      e += 4 + len;
    }
    if (!name.endsWith('/')) entries.set(name, { name, method, flags, crc32, compressedSize, size, localOffset });
    p = extraEnd + commentLen;
  }
  return entries;
}
