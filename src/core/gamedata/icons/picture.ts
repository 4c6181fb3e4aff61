// RGBA pictures in and out of PNG, and the one crop icons need: an icon file holds its mipmaps side
// by side, and the full-size picture is the size×size square at the top left.
import { PNG } from 'pngjs';

export interface Picture {
  width: number;
  height: number;
  /** RGBA, 8 bits per channel, straight (not premultiplied) alpha, rows top to bottom. */
  data: Uint8Array;
}

/** Any PNG the game can load (palette, grey, 16-bit, interlaced) comes out as 8-bit RGBA. */
export function decodePng(bytes: Uint8Array): Picture {
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
