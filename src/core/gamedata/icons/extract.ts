// Extract the icons a project's game data names from the game's and mods' folders into the cache
// beside the project. Pictures already in the cache under the same key are kept, so a re-run after
// a sync that changed a few mods draws only those; files no icon uses any more are removed. Nothing
// here throws for a missing or broken file: such an icon is counted as missing and the views show
// their usual symbol for it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Project } from '../../db/project';
import { atomicWriteFile } from '../../db/atomicFile';
import { composeIcon } from './compose';
import { decodePng, encodePng, topLeftSquare, type Picture } from './picture';
import { ModFiles, type GameFolders, type ModFile } from './modFiles';
import { iconCacheDir, iconKey, MANIFEST_FILE, MANIFEST_FORMAT, type IconManifest } from './cache';
import { iconSpecSchema, type IconKind, type IconSpec } from './spec';

/** Pixels per side of every cached picture: sharp at 2× in a 16–32 px tree row or card cell. */
const ICON_PIXELS = 64;
/** Part of every key: bump when drawing changes, so caches are redrawn. */
const DRAWING_VERSION = 1;
const CONCURRENCY = 8;
/** The game-data format that first stored icon specs. */
const ICON_FORMAT_VERSION = 3;

export interface IconSpecRow {
  kind: IconKind;
  name: string;
  spec: IconSpec;
}

export interface ExtractOptions {
  folders: GameFolders;
  size?: number;
  signal?: AbortSignal;
}

export interface IconExtractSummary {
  /** Icons the cache now has a picture for. */
  extracted: number;
  /** Of those, drawn in this run (the others were in the cache already). */
  drawn: number;
  /** Icons left without a picture. */
  missing: number;
  /** Why, most frequent first (bounded). */
  missingReasons: Array<{ reason: string; icons: number }>;
  dir: string;
  seconds: number;
}

/** The icon specs the last import stored (none for game data imported before icons existed). */
export function readIconSpecs(project: Project): IconSpecRow[] {
  const out: IconSpecRow[] = [];
  for (const r of project.query<{ kind: IconKind; name: string; spec: string }>('SELECT kind, name, spec FROM gd.icons')) {
    try {
      const spec = iconSpecSchema.safeParse(JSON.parse(r.spec));
      if (spec.success) out.push({ kind: r.kind, name: r.name, spec: spec.data });
    } catch {
      // a row this version cannot read is an icon that does not show
    }
  }
  return out;
}

/** Extract the icons of a project's current game data (its fingerprint goes into the manifest). */
export async function extractProjectIcons(project: Project, opts: ExtractOptions): Promise<IconExtractSummary> {
  if (!project.hasGameData()) throw new Error(`"${project.name}" has no game data yet. Import a dump or sync from Factorio first.`);
  if (Number(project.gamedataMeta('data_format_version') ?? 0) < ICON_FORMAT_VERSION) {
    throw new Error(`The game data of "${project.name}" was imported before PyOps kept icons. Import or sync it again, then extract the icons.`);
  }
  // No specs (a dump without icons) still writes an empty manifest: icons of an earlier import go.
  const specs = readIconSpecs(project);
  return extractIcons(project.file, project.gamedataMeta('fingerprint') ?? '', specs, opts);
}

/** "icons: 5,210 extracted (120 new), 42 missing" */
export function describeIconSummary(s: IconExtractSummary): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return `icons: ${n(s.extracted)} extracted${s.drawn && s.drawn !== s.extracted ? ` (${n(s.drawn)} new)` : ''}, ${n(s.missing)} missing`;
}

export async function extractIcons(projectFile: string, fingerprint: string, specs: IconSpecRow[], opts: ExtractOptions): Promise<IconExtractSummary> {
  const t0 = performance.now();
  const size = opts.size ?? ICON_PIXELS;
  const dir = iconCacheDir(projectFile);
  fs.mkdirSync(dir, { recursive: true });
  const files = new ModFiles(opts.folders);
  const existing = new Set(fs.readdirSync(dir));
  const icons: Record<string, string> = {};
  const reasons = new Map<string, number>();
  const miss = (reason: string): void => void reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  const drawing = new Map<string, Promise<string | undefined>>();
  const pictures = new PictureCache();
  let drawn = 0;

  // First pass: resolve every layer and key every icon; count how often each picture is needed.
  const jobs: Array<{ row: IconSpecRow; key: string; file: string; layers: ModFile[] }> = [];
  try {
    await pool(specs, CONCURRENCY, async (row) => {
      if (opts.signal?.aborted) return;
      const found = await Promise.all(row.spec.layers.map((l) => files.resolve(l.icon)));
      const bad = found.find((f) => !f.ok);
      if (bad && !bad.ok) return miss(bad.reason);
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
      if (opts.signal?.aborted) return;
      let done = drawing.get(j.file);
      if (!done) {
        done = existing.has(j.file)
          ? Promise.resolve(j.file)
          : (async () => {
              try {
                const pics = await Promise.all(j.row.spec.layers.map((l, i) => pictures.take(l.icon, l.size, j.layers[i])));
                const out = encodePng(composeIcon(j.row.spec, pics, size));
                // Named by content, so a half-written file under the real name would never be redrawn.
                // Synchronous calls: for thousands of small files the promise API's file handles cost
                // more than the writes.
                const tmp = path.join(dir, `${j.file}.${process.pid}.tmp`);
                fs.writeFileSync(tmp, out);
                fs.renameSync(tmp, path.join(dir, j.file));
                drawn++;
                return j.file;
              } catch (err) {
                miss(`${j.row.spec.layers.map((l) => l.icon).join(' + ')} could not be drawn (${(err as Error).message})`);
                return undefined;
              }
            })();
        drawing.set(j.file, done);
      }
      const file = await done;
      if (file) icons[iconKey(j.row.kind, j.row.name)] = file;
    });
  } finally {
    await files.close();
  }
  if (opts.signal?.aborted) throw new Error('Icon extraction was cancelled; the icons extracted before stay in use.');

  const extracted = Object.keys(icons).length;
  const missing = specs.length - extracted;
  const manifest: IconManifest = { format: MANIFEST_FORMAT, fingerprint, extractedAt: new Date().toISOString(), size, icons, missing };
  atomicWriteFile(path.join(dir, MANIFEST_FILE), Buffer.from(JSON.stringify(manifest)), { keepPrevious: false });
  const used = new Set(Object.values(icons));
  for (const f of fs.readdirSync(dir)) {
    if (f === MANIFEST_FILE || used.has(f)) continue;
    if (f.endsWith('.png') || f.endsWith('.tmp')) fs.rmSync(path.join(dir, f), { force: true });
  }
  return {
    extracted,
    drawn,
    missing,
    missingReasons: [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([reason, n]) => ({ reason, icons: n })),
    dir,
    seconds: (performance.now() - t0) / 1000,
  };
}

/** Decoded, cropped source pictures, kept only while another icon still needs them. */
class PictureCache {
  private readonly wanted = new Map<string, number>();
  private readonly held = new Map<string, Promise<Picture>>();

  want(icon: string, size: number): void {
    const k = `${icon}@${size}`;
    this.wanted.set(k, (this.wanted.get(k) ?? 0) + 1);
  }

  take(icon: string, size: number, file: ModFile): Promise<Picture> {
    const k = `${icon}@${size}`;
    let p = this.held.get(k);
    if (!p) {
      p = file.read().then((bytes) => topLeftSquare(decodePng(bytes), size));
      this.held.set(k, p);
    }
    const left = (this.wanted.get(k) ?? 1) - 1;
    this.wanted.set(k, left);
    if (left <= 0) this.held.delete(k);
    return p;
  }
}

async function pool<T>(items: T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
}
