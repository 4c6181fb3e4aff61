// What one icon extraction may cost, checked before the work is done rather than after: a source
// file's declared size before it is read or inflated, a PNG's declared pixels before it is decoded,
// and running totals for the whole run. A file over a limit is refused — its icon is named in the
// summary and keeps the views' usual symbol — so no mod file can cost more than bounded time and
// memory. The ceilings sit far above anything the game ships (its largest icons are a few hundred
// kB and 480×256 pixels with their mipmaps).
import { constants as bufferConstants } from 'node:buffer';

export interface IconLimits {
  /** Bytes of one source file (a PNG on disk, or a zip entry once inflated). */
  maxFileBytes: number;
  /** Inflated : stored ratio a zip entry may declare, for entries above `ratioFloorBytes`. */
  maxRatio: number;
  /** Entries this small are cheap whatever their ratio. */
  ratioFloorBytes: number;
  /** Bytes of zip central directory read per archive. */
  maxDirectoryBytes: number;
  /** Bytes of source files one extraction reads in all. */
  maxTotalBytes: number;
  /** Pixels of one decoded picture, and pixels on either side. */
  maxPixels: number;
  maxSide: number;
  /** Pixels one extraction decodes in all. */
  maxTotalPixels: number;
  /** The extraction thread's JavaScript heap, in MB (its buffers are bounded by the limits above). */
  workerHeapMb: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_ICON_LIMITS: Readonly<IconLimits> = Object.freeze({
  maxFileBytes: 16 * MiB,
  maxRatio: 100,
  ratioFloorBytes: MiB,
  maxDirectoryBytes: 64 * MiB,
  maxTotalBytes: 1024 * MiB,
  maxPixels: 4096 * 1024,
  maxSide: 8192,
  maxTotalPixels: 512 * MiB,
  workerHeapMb: 256,
});

/**
 * The most Node's fs and zlib accept for one buffer; a declared size above it must never reach
 * them (Node 20 aborts the process on a read longer than 2^31 − 1 bytes).
 */
export const MAX_IO_BYTES = Math.min(2 ** 31 - 1, bufferConstants.MAX_LENGTH);

/** A file PyOps will not read or decode because it is over a limit or outside the game's folders. */
export class IconRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IconRefusal';
  }
}

export const isRefusal = (err: unknown): err is IconRefusal => err instanceof Error && err.name === 'IconRefusal';

const n = (x: number) => x.toLocaleString('en-US');

/** "16 MB", "1.5 MB" (MiB, one decimal at most), or exact bytes below a MiB. */
export function bytesText(x: number): string {
  return x >= MiB ? `${n(Number((x / MiB).toFixed(1)))} MB` : `${n(x)} bytes`;
}

/** Refuse a source file by its declared size before anything is read. */
export function checkFileSize(what: string, bytes: number, limits: IconLimits): void {
  if (bytes > Math.min(limits.maxFileBytes, MAX_IO_BYTES)) {
    throw new IconRefusal(`${what} is ${bytesText(bytes)}, over the ${bytesText(limits.maxFileBytes)} PyOps reads for one icon file`);
  }
}

/** Refuse a picture by the dimensions its header declares, before it is decoded. */
export function checkDimensions(what: string, width: number, height: number, limits: IconLimits): void {
  if (width > limits.maxSide || height > limits.maxSide || width * height > limits.maxPixels) {
    throw new IconRefusal(`${what} declares ${n(width)}×${n(height)} pixels, more than the ${n(limits.maxPixels)} pixels, ${n(limits.maxSide)} a side, PyOps decodes for one icon`);
  }
}

/** What a whole extraction has read and decoded so far; refuses what would go over its totals. */
export class IconBudget {
  private bytes = 0;
  private pixels = 0;

  constructor(readonly limits: IconLimits) {}

  spendBytes(what: string, bytes: number): void {
    if (this.bytes + bytes > this.limits.maxTotalBytes) {
      throw new IconRefusal(`${what} was not read: this extraction already read ${bytesText(this.bytes)} of source files, and its limit is ${bytesText(this.limits.maxTotalBytes)}`);
    }
    this.bytes += bytes;
  }

  spendPixels(what: string, pixels: number): void {
    if (this.pixels + pixels > this.limits.maxTotalPixels) {
      throw new IconRefusal(`${what} was not decoded: this extraction already decoded ${n(this.pixels)} pixels, and its limit is ${n(this.limits.maxTotalPixels)}`);
    }
    this.pixels += pixels;
  }
}
