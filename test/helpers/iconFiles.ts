// Small pictures and zips for the icon tests: a PNG of solid or listed pixels, and a zip writer
// (stored or deflated entries, optionally zip64 records) so the reader is tested on archives whose
// every byte the test controls — hostile ones included: PNGs whose header declares more pixels than
// they hold, deflate streams of gigabytes of zeros built without ever holding them, and directory
// entries that declare any sizes.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { PNG } from 'pngjs';
import { crc32 } from '../../src/core/db/journal';

export type Rgba = [number, number, number, number];

/** A w×h PNG; `pixel(x, y)` gives each pixel's RGBA. */
export function png(w: number, h: number, pixel: (x: number, y: number) => Rgba): Buffer {
  const p = new PNG({ width: w, height: h });
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) p.data.set(pixel(x, y), (y * w + x) * 4);
  return PNG.sync.write(p);
}

export const solid = (w: number, h: number, c: Rgba) => png(w, h, () => c);

/** RGBA of pixel (x, y) of a PNG. */
export function pixelOf(bytes: Buffer, x: number, y: number): Rgba {
  const p = PNG.sync.read(bytes);
  const o = (y * p.width + x) * 4;
  return [p.data[o], p.data[o + 1], p.data[o + 2], p.data[o + 3]];
}

export function writeFile(file: string, bytes: Buffer | string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, bytes);
}

/** A PNG chunk: length, type, data, CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

/**
 * A valid-looking RGBA PNG declaring `w`×`h` pixels whose image data is `idat` (by default a few
 * zero bytes): the decoder trusts the header and allocates for every declared pixel.
 */
export function pngClaiming(w: number, h: number, opts: { interlaced?: boolean; idat?: Buffer } = {}): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  ihdr[12] = opts.interlaced ? 1 : 0;
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([sig, chunk('IHDR', ihdr), chunk('IDAT', opts.idat ?? zlib.deflateSync(Buffer.alloc(8))), chunk('IEND', Buffer.alloc(0))]);
}

/**
 * A raw deflate stream of `bytes` zeros (a multiple of 16 MiB), built from one fully flushed
 * 16 MiB block repeated: gigabytes for a few MB, without holding them.
 */
export function deflatedZeros(bytes: number): Buffer {
  const block = 16 * 1024 * 1024;
  if (bytes % block) throw new Error('deflatedZeros: a multiple of 16 MiB');
  // A full flush ends the block on a byte boundary with an empty dictionary, so copies follow each other.
  const one = zlib.deflateRawSync(Buffer.alloc(block), { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
  // 0x03 0x00: a final, empty block with fixed codes.
  return Buffer.concat([...Array.from({ length: bytes / block }, () => one), Buffer.from([0x03, 0x00])]);
}

/** An entry given as its stored bytes and whatever sizes and CRC its headers should declare. */
export interface RawZipEntry {
  stored: Buffer;
  method: 0 | 8;
  size: number;
  compressedSize?: number;
  crc?: number;
}

const isRaw = (e: Buffer | RawZipEntry): e is RawZipEntry => !Buffer.isBuffer(e);

/** A zip of `entries` (name → bytes); `deflate` compresses, `zip64` writes the zip64 end records. */
export function zip(entries: Record<string, Buffer | RawZipEntry>, opts: { deflate?: boolean; zip64?: boolean } = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, entry] of Object.entries(entries)) {
    const nameBuf = Buffer.from(name, 'utf8');
    const body = isRaw(entry) ? entry.stored : opts.deflate ? zlib.deflateRawSync(entry) : entry;
    const method = isRaw(entry) ? entry.method : opts.deflate ? 8 : 0;
    const crc = isRaw(entry) ? (entry.crc ?? 0) : crc32(entry);
    const size = isRaw(entry) ? entry.size : entry.length;
    const compressedSize = isRaw(entry) ? (entry.compressedSize ?? body.length) : body.length;
    // The local and central headers hold the same fields; the central one's start 2 bytes later.
    const header = (signature: number, length: number, at: number) => {
      const b = Buffer.alloc(length);
      b.writeUInt32LE(signature, 0);
      b.writeUInt16LE(20, 4);
      b.writeUInt16LE(20, 6);
      b.writeUInt16LE(0x800, at);
      b.writeUInt16LE(method, at + 2);
      b.writeUInt32LE(crc >>> 0, at + 8);
      b.writeUInt32LE(compressedSize, at + 12);
      b.writeUInt32LE(size, at + 16);
      b.writeUInt16LE(nameBuf.length, at + 20);
      return b;
    };
    locals.push(header(0x04034b50, 30, 6), nameBuf, body);
    const central = header(0x02014b50, 46, 8);
    let extra = Buffer.alloc(0);
    if (opts.zip64) {
      // Every 32-bit size and offset overflows into the zip64 extra field.
      central.writeUInt32LE(0xffffffff, 20);
      central.writeUInt32LE(0xffffffff, 24);
      central.writeUInt32LE(0xffffffff, 42);
      extra = Buffer.alloc(28);
      extra.writeUInt16LE(1, 0);
      extra.writeUInt16LE(24, 2);
      extra.writeBigUInt64LE(BigInt(size), 4);
      extra.writeBigUInt64LE(BigInt(compressedSize), 12);
      extra.writeBigUInt64LE(BigInt(offset), 20);
      central.writeUInt16LE(extra.length, 30);
    } else {
      central.writeUInt32LE(offset, 42);
    }
    centrals.push(central, nameBuf, extra);
    offset += 30 + nameBuf.length + body.length;
  }
  const dir = Buffer.concat(centrals);
  const count = Object.keys(entries).length;
  const tail: Buffer[] = [];
  if (opts.zip64) {
    const rec = Buffer.alloc(56);
    rec.writeUInt32LE(0x06064b50, 0);
    rec.writeBigUInt64LE(44n, 4);
    rec.writeBigUInt64LE(BigInt(count), 24);
    rec.writeBigUInt64LE(BigInt(count), 32);
    rec.writeBigUInt64LE(BigInt(dir.length), 40);
    rec.writeBigUInt64LE(BigInt(offset), 48);
    const loc = Buffer.alloc(20);
    loc.writeUInt32LE(0x07064b50, 0);
    loc.writeBigUInt64LE(BigInt(offset + dir.length), 8);
    loc.writeUInt32LE(1, 16);
    tail.push(rec, loc);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(opts.zip64 ? 0xffff : count, 8);
  end.writeUInt16LE(opts.zip64 ? 0xffff : count, 10);
  end.writeUInt32LE(opts.zip64 ? 0xffffffff : dir.length, 12);
  end.writeUInt32LE(opts.zip64 ? 0xffffffff : offset, 16);
  return Buffer.concat([...locals, dir, ...tail, end]);
}
