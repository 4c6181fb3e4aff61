// Reading single files out of a mod's zip without loading the zip: Py's graphics mods are hundreds
// of MB. The central directory is read once when the archive is opened; each file is then one
// positioned read plus an inflate. Stored and deflated entries are what mod zips hold; anything
// else (encrypted, other methods) reads as an error naming the entry. Zip64 is understood.
// Every size the archive declares is checked against the file's real size and the icon limits
// before it is used: a directory may claim any number, and Node 20 aborts the whole process when
// asked to read 2 GB or more at once, so no declared number reaches fs or zlib unchecked; and
// zlib may inflate no more than the entry declares.
import fs from 'node:fs';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { bytesText, checkFileSize, DEFAULT_ICON_LIMITS, IconRefusal, MAX_IO_BYTES, type IconLimits } from './limits';

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

/** Up to `length` bytes at `position` (fewer at the end of the file). */
export async function readAt(fh: fs.promises.FileHandle, position: number, length: number): Promise<Buffer> {
  if (!Number.isSafeInteger(position) || position < 0 || !Number.isSafeInteger(length) || length < 0 || length > MAX_IO_BYTES) {
    throw new RangeError(`cannot read ${length} bytes at ${position}`);
  }
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
    /** Bytes in the archive file. */
    readonly size: number,
    /** Every file in the archive by its full name (folders left out). */
    readonly entries: ReadonlyMap<string, ZipEntry>,
  ) {}

  static async open(file: string, limits: IconLimits = DEFAULT_ICON_LIMITS): Promise<ZipArchive> {
    const fh = await fs.promises.open(file, 'r');
    try {
      const { size } = await fh.stat();
      return new ZipArchive(file, fh, size, await readDirectory(file, fh, size, limits));
    } catch (err) {
      await fh.close();
      throw err;
    }
  }

  /**
   * The entry's bytes. Its declared sizes are checked first (a refusal names the limit), and the
   * inflate stops at the declared size, so a lying directory costs at most that much.
   */
  async read(entry: ZipEntry, limits: IconLimits = DEFAULT_ICON_LIMITS): Promise<Buffer> {
    if (entry.flags & 1) throw new ZipError(this.file, `${entry.name} is encrypted`);
    if (entry.method !== 0 && entry.method !== 8) throw new ZipError(this.file, `${entry.name} uses compression method ${entry.method}, which PyOps cannot read`);
    checkFileSize(`${this.file}: ${entry.name}`, entry.size, limits);
    if (entry.compressedSize > this.size || entry.localOffset > this.size) {
      throw new ZipError(this.file, `${entry.name}: its directory entry claims ${bytesText(entry.compressedSize)} at offset ${entry.localOffset} in a ${bytesText(this.size)} file (the zip is damaged)`);
    }
    if (entry.method === 0 && entry.compressedSize !== entry.size) throw new ZipError(this.file, `${entry.name}: stored, yet its two sizes differ (the zip is damaged)`);
    if (entry.method === 8 && entry.size > limits.ratioFloorBytes && entry.size > entry.compressedSize * limits.maxRatio) {
      throw new IconRefusal(`${this.file}: ${entry.name} would inflate ${bytesText(entry.compressedSize)} to ${bytesText(entry.size)}, more than the ${limits.maxRatio}:1 PyOps accepts`);
    }
    const head = await readAt(this.fh, entry.localOffset, 30);
    if (head.length < 30 || head.readUInt32LE(0) !== LOCAL) throw new ZipError(this.file, `${entry.name}: no local header where the directory says (the zip is damaged)`);
    const start = entry.localOffset + 30 + head.readUInt16LE(26) + head.readUInt16LE(28);
    const raw = await readAt(this.fh, start, entry.compressedSize);
    if (raw.length < entry.compressedSize) throw new ZipError(this.file, `${entry.name} is cut short (the zip is damaged or still being written)`);
    if (entry.method === 0) return raw;
    if (entry.size === 0) return Buffer.alloc(0);
    let out: Buffer;
    try {
      out = await inflateRaw(raw, { maxOutputLength: entry.size });
    } catch (err) {
      // zlib stopped at the declared size: an entry that lies about its size is refused, not inflated.
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new IconRefusal(`${this.file}: ${entry.name} inflates to more than the ${bytesText(entry.size)} its directory declares`);
      throw new ZipError(this.file, `${entry.name} cannot be inflated (${(err as Error).message})`);
    }
    if (out.length !== entry.size) throw new ZipError(this.file, `${entry.name} inflates to ${bytesText(out.length)}, not the ${bytesText(entry.size)} its directory declares (the zip is damaged)`);
    return out;
  }

  async close(): Promise<void> {
    await this.fh.close();
  }
}

async function readDirectory(file: string, fh: fs.promises.FileHandle, fileSize: number, limits: IconLimits): Promise<Map<string, ZipEntry>> {
  const tailLen = Math.min(fileSize, 22 + MAX_COMMENT);
  const tail = await readAt(fh, fileSize - tailLen, tailLen);
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
    if (recOffset > fileSize - 56) throw new ZipError(file, 'zip64 record damaged');
    const rec = await readAt(fh, recOffset, 56);
    if (rec.length < 56 || rec.readUInt32LE(0) !== ZIP64_EOCD) throw new ZipError(file, 'zip64 record damaged');
    count = Number(rec.readBigUInt64LE(32));
    dirSize = Number(rec.readBigUInt64LE(40));
    dirOffset = Number(rec.readBigUInt64LE(48));
  }
  if (dirOffset + dirSize > fileSize) throw new ZipError(file, `its directory claims ${bytesText(dirSize)} at offset ${dirOffset} in a ${bytesText(fileSize)} file (the zip is damaged)`);
  if (dirSize > limits.maxDirectoryBytes) throw new IconRefusal(`${file}: its directory is ${bytesText(dirSize)}, over the ${bytesText(limits.maxDirectoryBytes)} PyOps reads`);
  if (count * 46 > dirSize) throw new ZipError(file, `its directory claims ${count} entries in ${bytesText(dirSize)} (the zip is damaged)`);
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
