// Writing into the icon cache beside a project, and only there. `<project>.icons` must be a real
// folder: a symbolic link there is refused (its target is never written to or pruned), and inside
// it only PyOps' own names are touched — pictures written under fresh temporary names opened
// exclusively and renamed into place, so a link planted under any name is replaced, never
// followed, and pruning removes only picture and temporary files this module names.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { atomicWriteFile } from '../../db/atomicFile';
import { iconCacheDir, MANIFEST_FILE, PICTURE_FILE, type IconManifest } from './cacheLayout';

const TEMP = /^[0-9a-f]{8,64}\.png\.[0-9a-f]+\.tmp$/;

export class IconCacheError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IconCacheError';
  }
}

/** Refuses `dir` unless it is a real folder (not a link to one). */
function checkFolder(dir: string): void {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(dir);
  } catch {
    throw new IconCacheError(`The icon cache ${dir} disappeared during the extraction; run it again.`);
  }
  if (st.isSymbolicLink()) {
    throw new IconCacheError(
      `The icon cache ${dir} is a symbolic link; PyOps writes and deletes icons only in a real folder of its own there, so it left the link and what it points to alone. Remove the link (not its target), then extract the icons again.`,
    );
  }
  if (!st.isDirectory()) throw new IconCacheError(`The icon cache ${dir} is a file, not a folder. Move it away, then extract the icons again.`);
}

export class IconCacheFolder {
  private constructor(readonly dir: string) {}

  /** The cache folder of a project, made when missing; refused when it is a link or a file. */
  static open(projectFile: string): IconCacheFolder {
    const dir = iconCacheDir(projectFile);
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    try {
      fs.mkdirSync(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    checkFolder(dir);
    return new IconCacheFolder(dir);
  }

  /**
   * Pictures already in the cache: regular files under PyOps' names. Anything else under such a
   * name (a link, a folder) is not a picture PyOps drew; links are removed (the link, not its
   * target) so the name can be drawn afresh.
   */
  pictures(): Set<string> {
    checkFolder(this.dir);
    const out = new Set<string>();
    for (const e of fs.readdirSync(this.dir, { withFileTypes: true })) {
      if (!PICTURE_FILE.test(e.name) && e.name !== MANIFEST_FILE) continue;
      if (e.isFile()) {
        if (e.name !== MANIFEST_FILE) out.add(e.name);
      } else if (e.isSymbolicLink()) fs.unlinkSync(path.join(this.dir, e.name));
    }
    return out;
  }

  /** Write a picture under its content name: a fresh temporary file (never an existing one), renamed. */
  writePicture(name: string, bytes: Uint8Array): void {
    if (!PICTURE_FILE.test(name)) throw new IconCacheError(`${name} is not an icon picture name`);
    const tmp = path.join(this.dir, `${name}.${crypto.randomBytes(6).toString('hex')}.tmp`);
    // 'wx': fails rather than follow anything already there.
    const fd = fs.openSync(tmp, 'wx', 0o644);
    try {
      let off = 0;
      while (off < bytes.length) off += fs.writeSync(fd, bytes, off, bytes.length - off);
    } catch (err) {
      fs.closeSync(fd);
      fs.rmSync(tmp, { force: true });
      throw err;
    }
    fs.closeSync(fd);
    fs.renameSync(tmp, path.join(this.dir, name));
  }

  writeManifest(manifest: IconManifest): void {
    checkFolder(this.dir);
    // A temporary file under a random name renamed over the manifest: a link there is replaced.
    atomicWriteFile(path.join(this.dir, MANIFEST_FILE), Buffer.from(JSON.stringify(manifest)), { keepPrevious: false });
  }

  /** Remove pictures no icon uses any more and leftover temporary files; nothing else. */
  prune(used: ReadonlySet<string>): void {
    checkFolder(this.dir);
    for (const e of fs.readdirSync(this.dir, { withFileTypes: true })) {
      if (e.isDirectory()) continue;
      if ((PICTURE_FILE.test(e.name) && !used.has(e.name)) || TEMP.test(e.name)) fs.rmSync(path.join(this.dir, e.name), { force: true });
    }
  }
}
