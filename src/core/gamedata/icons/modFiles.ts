// Where `__mod__/path` lives on disk. The game's own mods (base, core, space-age, …) are folders in
// `<install>/data/`; the others are in `<user data>/mods/` as a folder `<mod>/` or `<mod>_<version>/`,
// or a zip `<mod>_<version>.zip` whose single top folder may have any name. With several versions
// the one mod-list.json pins wins (the caller reads the pins: modPins.ts), else the newest; an
// unversioned folder (a mod being developed) wins over all. Each zip's directory is read once.
// Paths come from mod data, so none is trusted: `..` and other odd segments are refused, and every
// file is resolved through its symbolic links and read only when it lies inside the install's data/
// or the mods folder (a symlinked mod folder pointing elsewhere is refused too). Sizes are checked
// before reading.
import fs from 'node:fs';
import path from 'node:path';
import { checkFileSize, DEFAULT_ICON_LIMITS, type IconLimits } from './limits';
import { readAt, ZipArchive, type ZipEntry } from './zip';

export interface GameFolders {
  /** `<install>/data`: base, core and the official expansions. */
  gameData?: string;
  /** `<user data>/mods`. */
  mods?: string;
}

/** A file found: how to read it, its size as declared, and a stamp that changes when its content does. */
export interface ModFile {
  stamp: string;
  size: number;
  read(): Promise<Buffer>;
}

/** `refused`: the path was found but PyOps will not read it (outside the game's folders, too big). */
type Resolved = { ok: true; file: ModFile } | { ok: false; reason: string; refused?: boolean };

type Source = { kind: 'dir'; dir: string; label: string } | { kind: 'zip'; file: string; label: string };

/** `__mod__/rest` → [mod, rest]. */
export function splitModPath(p: string): [string, string] | undefined {
  const m = /^__([^/]+?)__\/(.+)$/.exec(p);
  return m ? [m[1], m[2]] : undefined;
}

/**
 * The segments of a path inside a mod, or undefined when any could step out of it or means
 * something else on some system: `..`, `.`, empty, a drive, a backslash or a NUL.
 */
export function safeSegments(rest: string): string[] | undefined {
  const parts = rest.split('/');
  return parts.every((s) => s !== '' && s !== '.' && s !== '..' && !/[\\\0:]/.test(s)) ? parts : undefined;
}

/** Whether `p` is `root` itself or lies below it (both already resolved). */
function within(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] || 0) - (pb[i] || 0);
    if (d) return d;
  }
  return 0;
}

function listDir(dir: string | undefined): string[] {
  if (!dir) return [];
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

export class ModFiles {
  private readonly sources = new Map<string, Source | undefined>();
  private readonly zips = new Map<string, Promise<{ zip: ZipArchive; byPath: Map<string, ZipEntry> } | Error>>();
  /** Mod name → candidates in the mods folder: [version or '' for unversioned, path, zip?]. */
  private readonly installed = new Map<string, Array<{ version: string; path: string; zip: boolean }>>();
  /** Each __mod__/… path resolved once: many icons share a picture. */
  private readonly resolved = new Map<string, Promise<Resolved>>();
  /** The game's folders with their own links resolved: where every file read must lie. */
  private roots: Promise<string[]> | undefined;

  constructor(
    private readonly folders: GameFolders,
    private readonly limits: IconLimits = DEFAULT_ICON_LIMITS,
    /** Mod name → the version mod-list.json pins. */
    private readonly pins: Readonly<Record<string, string>> = {},
  ) {
    for (const n of listDir(folders.mods)) {
      const full = path.join(folders.mods!, n);
      const zip = /\.zip$/i.test(n);
      const base = zip ? n.slice(0, -4) : n;
      const m = /^(.+)_(\d+(?:\.\d+)*)$/.exec(base);
      const [mod, version] = m ? [m[1], m[2]] : [base, ''];
      if (!zip && !isDir(full)) continue;
      if (zip && !version) continue;
      const list = this.installed.get(mod) ?? [];
      list.push({ version, path: full, zip });
      this.installed.set(mod, list);
    }
  }

  private source(mod: string): Source | undefined {
    if (this.sources.has(mod)) return this.sources.get(mod);
    let src: Source | undefined;
    const builtIn = this.folders.gameData ? path.join(this.folders.gameData, mod) : undefined;
    if (builtIn && isDir(builtIn)) src = { kind: 'dir', dir: builtIn, label: builtIn };
    else {
      const list = this.installed.get(mod) ?? [];
      const pin = Object.hasOwn(this.pins, mod) ? this.pins[mod] : undefined;
      const pick =
        list.find((c) => c.version === '') ??
        (pin ? list.find((c) => c.version === pin) : undefined) ??
        [...list].sort((a, b) => compareVersions(b.version, a.version) || Number(a.zip) - Number(b.zip))[0];
      if (pick) src = pick.zip ? { kind: 'zip', file: pick.path, label: pick.path } : { kind: 'dir', dir: pick.path, label: pick.path };
    }
    this.sources.set(mod, src);
    return src;
  }

  private openZip(file: string) {
    let z = this.zips.get(file);
    if (!z) {
      z = ZipArchive.open(file, this.limits).then(
        (zip) => {
          // Paths inside the mod are relative to the zip's one top folder, whatever it is called.
          // Names with `..` or odd segments are left out: no request can reach them anyway.
          const byPath = new Map<string, ZipEntry>();
          for (const [name, e] of zip.entries) {
            const slash = name.indexOf('/');
            const rest = name.slice(slash + 1);
            if (slash > 0 && safeSegments(name.slice(0, slash)) && safeSegments(rest) && !byPath.has(rest)) byPath.set(rest, e);
          }
          return { zip, byPath };
        },
        (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
      );
      this.zips.set(file, z);
    }
    return z;
  }

  resolve(modPath: string): Promise<Resolved> {
    let r = this.resolved.get(modPath);
    if (!r) this.resolved.set(modPath, (r = this.lookup(modPath)));
    return r;
  }

  private allowedRoots(): Promise<string[]> {
    this.roots ??= Promise.all(
      [this.folders.gameData, this.folders.mods].filter((d): d is string => !!d).map((d) => fs.promises.realpath(d).catch(() => undefined)),
    ).then((r) => r.filter((d): d is string => !!d));
    return this.roots;
  }

  /** The real path of `file` when it lies inside the game's folders; otherwise why not. */
  private async contained(file: string): Promise<{ real: string } | { ok: false; reason: string; refused?: boolean }> {
    let real: string;
    try {
      real = await fs.promises.realpath(file);
    } catch {
      return { ok: false, reason: `${file} does not exist` };
    }
    if ((await this.allowedRoots()).some((root) => within(root, real))) return { real };
    return { ok: false, refused: true, reason: `${file} leads to ${real}, outside the game's data folder and the mods folder, which are the only places PyOps reads icons from` };
  }

  private async lookup(modPath: string): Promise<Resolved> {
    const parts = splitModPath(modPath);
    if (!parts) return { ok: false, reason: `${modPath} is not a __mod__/… path` };
    const [mod, rest] = parts;
    const segments = safeSegments(rest);
    if (!segments || !safeSegments(mod)) return { ok: false, refused: true, reason: `${modPath} steps outside its mod's folder (or names a path no game folder has)` };
    const src = this.source(mod);
    if (!src) return { ok: false, reason: `mod "${mod}" is not in ${[this.folders.gameData, this.folders.mods].filter(Boolean).join(' or ') || 'any known folder'}` };
    if (src.kind === 'dir') {
      const file = path.join(src.dir, ...segments);
      const at = await this.contained(file);
      if (!('real' in at)) return at;
      try {
        const st = await fs.promises.stat(at.real);
        if (!st.isFile()) return { ok: false, reason: `${file} is not a file` };
        return { ok: true, file: { stamp: `f:${st.size}:${st.mtimeMs}`, size: st.size, read: () => this.readFile(at.real, file) } };
      } catch {
        return { ok: false, reason: `${file} does not exist` };
      }
    }
    const zipAt = await this.contained(src.file);
    if (!('real' in zipAt)) return zipAt;
    const z = await this.openZip(zipAt.real);
    if (z instanceof Error) return { ok: false, refused: z.name === 'IconRefusal', reason: `${src.file} cannot be read (${z.message})` };
    const entry = z.byPath.get(rest);
    if (!entry) return { ok: false, reason: `${src.file} has no ${rest}` };
    return { ok: true, file: { stamp: `z:${entry.crc32}:${entry.size}`, size: entry.size, read: () => z.zip.read(entry, this.limits) } };
  }

  /** A loose file, its size checked on the open handle (it may have grown since it was found). */
  private async readFile(real: string, shown: string): Promise<Buffer> {
    const fh = await fs.promises.open(real, 'r');
    try {
      const { size } = await fh.stat();
      checkFileSize(shown, size, this.limits);
      return await readAt(fh, 0, size);
    } finally {
      await fh.close();
    }
  }

  async close(): Promise<void> {
    for (const z of this.zips.values()) {
      const r = await z;
      if (!(r instanceof Error)) await r.zip.close();
    }
    this.zips.clear();
  }
}
