// The extraction's work, run on the icon thread (see thread.ts): resolve every layer of every icon
// spec to a source file, draw each distinct icon once into the cache beside the project, write the
// manifest, and prune pictures no icon uses. Pictures already in the cache under the same key are
// kept, so a re-run after a sync that changed a few mods draws only those. Nothing here throws for
// a missing, broken or refused file: such an icon is counted as missing (a refused one is also
// named) and the views show their usual symbol for it.
import crypto from 'node:crypto';
import { composeIcon } from './compose';
import { decodePng, encodePng, pngHeader, topLeftSquare, type Picture } from './picture';
import { ModFiles, type GameFolders, type ModFile } from './modFiles';
import { iconKey, MANIFEST_FORMAT, type IconManifest } from './cacheLayout';
import { IconCacheFolder } from './cacheFolder';
import { checkDimensions, checkFileSize, DEFAULT_ICON_LIMITS, IconBudget, isRefusal, type IconLimits } from './limits';
import type { IconKind, IconSpec } from './spec';

/** Pixels per side of every cached picture: sharp at 2× in a 16–32 px tree row or card cell. */
export const ICON_PIXELS = 64;
/** Part of every key: bump when drawing changes, so caches are redrawn. */
const DRAWING_VERSION = 1;
const CONCURRENCY = 8;
/** Refused icons named in a summary; the count covers the rest. */
const REFUSED_LISTED = 20;

export interface IconSpecRow {
  kind: IconKind;
  name: string;
  spec: IconSpec;
}

/** Everything the icon thread needs: plain data, so it crosses to the thread as is. */
export interface IconJob {
  projectFile: string;
  fingerprint: string;
  specs: IconSpecRow[];
  folders: GameFolders;
  /** Mod name → the version mod-list.json pins (modPins.ts). */
  pins: Record<string, string>;
  size: number;
  limits: IconLimits;
}

export interface IconExtractSummary {
  /** Icons the cache now has a picture for. */
  extracted: number;
  /** Of those, drawn in this run (the others were in the cache already). */
  drawn: number;
  /** Icons left without a picture (refused ones included). */
  missing: number;
  /** Why, most frequent first (bounded). */
  missingReasons: Array<{ reason: string; icons: number }>;
  /** Of the missing, icons refused by a limit or because a file lies outside the game's folders. */
  refused: number;
  /** The refused icons by `kind:name`, with the reason (bounded; `refused` counts them all). */
  refusedIcons: Array<{ icon: string; reason: string }>;
  dir: string;
  seconds: number;
}

export interface DrawHooks {
  /** Icons settled so far (drawn, kept or missing) of all. */
  onProgress?(done: number, total: number): void;
  cancelled?(): boolean;
}

export class IconsCancelled extends Error {
  constructor() {
    super('Icon extraction was cancelled; the icons extracted before stay in use.');
    this.name = 'IconsCancelled';
  }
}

export async function drawIcons(job: IconJob, hooks: DrawHooks = {}): Promise<IconExtractSummary> {
  const t0 = performance.now();
  const { size, specs } = job;
  const limits = job.limits ?? DEFAULT_ICON_LIMITS;
  const cache = IconCacheFolder.open(job.projectFile);
  const files = new ModFiles(job.folders, limits, job.pins);
  const budget = new IconBudget(limits);
  const existing = cache.pictures();
  const icons: Record<string, string> = {};
  const reasons = new Map<string, number>();
  const refusedIcons: Array<{ icon: string; reason: string }> = [];
  let refused = 0;
  let settled = 0;
  const settle = () => hooks.onProgress?.(++settled, specs.length);
  const miss = (row: IconSpecRow, reason: string, isRefused: boolean): void => {
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    if (isRefused) {
      refused++;
      if (refusedIcons.length < REFUSED_LISTED) refusedIcons.push({ icon: iconKey(row.kind, row.name), reason });
    }
    settle();
  };
  const drawing = new Map<string, Promise<string | { failed: string; refused: boolean }>>();
  const pictures = new PictureCache(budget, limits);
  const cancelled = () => !!hooks.cancelled?.();
  let drawn = 0;

  // First pass: resolve every layer and key every icon; count how often each picture is needed.
  const jobs: Array<{ row: IconSpecRow; key: string; file: string; layers: ModFile[] }> = [];
  try {
    await pool(specs, CONCURRENCY, async (row) => {
      if (cancelled()) return;
      const found = await Promise.all(row.spec.layers.map((l) => files.resolve(l.icon)));
      const bad = found.find((f) => !f.ok);
      if (bad && !bad.ok) return miss(row, bad.reason, !!bad.refused);
      const layers = found.map((f) => (f as { ok: true; file: ModFile }).file);
      const key = crypto
        .createHash('sha256')
        .update(`${DRAWING_VERSION}|${size}|${JSON.stringify(row.spec)}|${layers.map((l) => l.stamp).join('|')}`)
        .digest('hex')
        .slice(0, 24);
      jobs.push({ row, key, file: `${key}.png`, layers });
    });
    // Icons with the same key share one drawing (an item and the recipe showing it): count each once,
    // or the pictures it reads would never be released.
    for (const j of new Map(jobs.map((x) => [x.file, x])).values()) if (!existing.has(j.file)) for (const l of j.row.spec.layers) pictures.want(l.icon, l.size);

    await pool(jobs, CONCURRENCY, async (j) => {
      if (cancelled()) return;
      let done = drawing.get(j.file);
      if (!done) {
        done = existing.has(j.file)
          ? Promise.resolve(j.file)
          : (async () => {
              try {
                const pics = await Promise.all(j.row.spec.layers.map((l, i) => pictures.take(l.icon, l.size, j.layers[i])));
                // Synchronous writes: for thousands of small files the promise API's handles cost more.
                cache.writePicture(j.file, encodePng(composeIcon(j.row.spec, pics, size)));
                drawn++;
                return j.file;
              } catch (err) {
                const message = (err as Error).message;
                return isRefusal(err)
                  ? { failed: message, refused: true }
                  : { failed: `${j.row.spec.layers.map((l) => l.icon).join(' + ')} could not be drawn (${message})`, refused: false };
              }
            })();
        drawing.set(j.file, done);
      }
      const file = await done;
      if (typeof file === 'string') {
        icons[iconKey(j.row.kind, j.row.name)] = file;
        settle();
      } else miss(j.row, file.failed, file.refused);
    });
  } finally {
    await files.close();
  }
  if (cancelled()) throw new IconsCancelled();

  const extracted = Object.keys(icons).length;
  const manifest: IconManifest = { format: MANIFEST_FORMAT, fingerprint: job.fingerprint, extractedAt: new Date().toISOString(), size, icons, missing: specs.length - extracted };
  cache.writeManifest(manifest);
  cache.prune(new Set(Object.values(icons)));
  return {
    extracted,
    drawn,
    missing: specs.length - extracted,
    missingReasons: [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([reason, n]) => ({ reason, icons: n })),
    refused,
    refusedIcons,
    dir: cache.dir,
    seconds: (performance.now() - t0) / 1000,
  };
}

/**
 * Decoded, cropped source pictures, kept only while another icon still needs them. Each file is
 * charged to the run's budget once, by its declared size before it is read and by its header's
 * pixels before it is decoded.
 */
class PictureCache {
  private readonly wanted = new Map<string, number>();
  private readonly held = new Map<string, Promise<Picture>>();

  constructor(
    private readonly budget: IconBudget,
    private readonly limits: IconLimits,
  ) {}

  want(icon: string, size: number): void {
    const k = `${icon}@${size}`;
    this.wanted.set(k, (this.wanted.get(k) ?? 0) + 1);
  }

  take(icon: string, size: number, file: ModFile): Promise<Picture> {
    const k = `${icon}@${size}`;
    let p = this.held.get(k);
    if (!p) {
      p = this.load(icon, size, file);
      this.held.set(k, p);
    }
    const left = (this.wanted.get(k) ?? 1) - 1;
    this.wanted.set(k, left);
    if (left <= 0) this.held.delete(k);
    return p;
  }

  private async load(icon: string, size: number, file: ModFile): Promise<Picture> {
    // Each file's own limit first, so one bomb is refused without spending the whole run's budget.
    checkFileSize(icon, file.size, this.limits);
    this.budget.spendBytes(icon, file.size);
    const bytes = await file.read();
    const header = pngHeader(bytes);
    if (header) {
      checkDimensions(icon, header.width, header.height, this.limits);
      this.budget.spendPixels(icon, header.width * header.height);
    }
    return topLeftSquare(decodePng(bytes, this.limits, icon), size);
  }
}

async function pool<T>(items: T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
}
