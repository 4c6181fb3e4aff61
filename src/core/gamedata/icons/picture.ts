// RGBA pictures in and out of PNG, and the one crop icons need: an icon file holds its mipmaps side
// by side, and the full-size picture is the size×size square at the top left. A PNG's header is
// read before it is decoded: a 70-byte file may declare 30000×30000 pixels, and the decoder would
// allocate for them all; an interlaced one is inflated under a cap first, as the decoder would
// inflate it without one.
import zlib from 'node:zlib';
import { PNG } from 'pngjs';
import { checkDimensions, DEFAULT_ICON_LIMITS, IconRefusal, type IconLimits } from './limits';

export interface Picture {
  width: number;
  height: number;
  /** RGBA, 8 bits per channel, straight (not premultiplied) alpha, rows top to bottom. */
  data: Uint8Array;
}

export interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlaced: boolean;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** The IHDR of a PNG, or undefined when the bytes do not start like one (the decoder says why). */
export function pngHeader(bytes: Uint8Array): PngHeader | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < 33 || !b.subarray(0, 8).equals(SIGNATURE) || b.readUInt32BE(8) !== 13 || b.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20), bitDepth: b[24], colorType: b[25], interlaced: b[28] === 1 };
}

/** Bytes the image data of an interlaced PNG inflates to: seven Adam7 passes, a filter byte a row. */
function interlacedBytes(h: PngHeader): number {
  const bits = (CHANNELS[h.colorType] ?? 4) * h.bitDepth;
  let total = 0;
  for (const [x0, y0, dx, dy] of [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]]) {
    const w = Math.max(0, Math.ceil((h.width - x0) / dx));
    const rows = Math.max(0, Math.ceil((h.height - y0) / dy));
    if (w && rows) total += rows * (1 + Math.ceil((w * bits) / 8));
  }
  return total;
}

function idatBytes(b: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 8; at + 8 <= b.length; ) {
    const len = b.readUInt32BE(at);
    const type = b.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT') parts.push(b.subarray(at + 8, Math.min(b.length, at + 8 + len)));
    if (type === 'IEND') break;
    at += 12 + len;
  }
  return Buffer.concat(parts);
}

/**
 * Any PNG the game can load (palette, grey, 16-bit, interlaced) comes out as 8-bit RGBA. One whose
 * header declares more pixels than the limits, or whose image data inflates past what its header
 * declares, is refused before anything that large is allocated.
 */
export function decodePng(bytes: Uint8Array, limits: IconLimits = DEFAULT_ICON_LIMITS, what = 'the PNG'): Picture {
  const header = pngHeader(bytes);
  if (header) {
    checkDimensions(what, header.width, header.height, limits);
    if (header.interlaced) {
      const expected = interlacedBytes(header);
      try {
        zlib.inflateSync(idatBytes(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)), { maxOutputLength: Math.max(1, expected) });
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new IconRefusal(`${what} holds more image data than its ${header.width}×${header.height} pixels need`);
        // anything else the decoder reports in its own words
      }
    }
  }
  const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return { width: png.width, height: png.height, data: png.data };
}

export function encodePng(pic: Picture): Buffer {
  const png = new PNG({ width: pic.width, height: pic.height });
  Buffer.from(pic.data.buffer, pic.data.byteOffset, pic.data.byteLength).copy(png.data);
  // One filter and a middle compression level: trying every filter per row at level 9 took most of
  // an extraction's time for files a few percent smaller.
  return PNG.sync.write(png, { colorType: 6, filterType: 4, deflateLevel: 6 });
}

/**
 * The full-size icon: the top-left `size`×`size` square. A file smaller than the size it is declared
 * with (the game would refuse it) gives what is there, so one bad mod file costs one icon.
 */
export function topLeftSquare(pic: Picture, size: number): Picture {
  const side = Math.max(1, Math.min(Math.round(size), pic.width, pic.height));
  if (side === pic.width && side === pic.height) return pic;
  const data = new Uint8Array(side * side * 4);
  for (let y = 0; y < side; y++) data.set(pic.data.subarray(y * pic.width * 4, y * pic.width * 4 + side * 4), y * side * 4);
  return { width: side, height: side, data };
}
