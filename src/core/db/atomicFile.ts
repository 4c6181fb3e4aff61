// Durable, atomic replacement of a file: write a temp file beside it, fsync, keep the previous
// good copy as `<file>.bak`, rename over, fsync the directory. A crash at any point leaves either
// the old or the new complete file under the real name.
import fs from 'node:fs';
import path from 'node:path';

export const BACKUP_SUFFIX = '.bak';
const TMP_MARK = '.tmp-';

export interface AtomicWriteOptions {
  /** Keep the replaced file as `<file>.bak` (default true). */
  keepPrevious?: boolean;
  /**
   * fsync the file and its folder (default true). A cache that its reader validates may skip it: after
   * a power loss it comes back whole, old, or refused, never as a wrong answer.
   */
  durable?: boolean;
}

/**
 * Replace `file` with `bytes`, or with its parts one after the other (a sealed image and its trailer,
 * the sections of the index snapshot: an iterable may make each part only when it is written).
 */
export function atomicWriteFile(file: string, bytes: Uint8Array | Iterable<Uint8Array>, opts: AtomicWriteOptions = {}): void {
  const dir = path.dirname(file);
  const tmp = `${file}${TMP_MARK}${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  const durable = opts.durable !== false;
  const fd = fs.openSync(tmp, 'w', 0o644);
  try {
    for (const part of bytes instanceof Uint8Array ? [bytes] : bytes) {
      let off = 0;
      while (off < part.length) off += fs.writeSync(fd, part, off, part.length - off);
    }
    if (durable) fs.fsyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  if (opts.keepPrevious !== false && fs.existsSync(file)) keepPreviousCopy(file);
  fs.renameSync(tmp, file);
  if (durable) fsyncPath(dir);
}

function keepPreviousCopy(file: string): void {
  const bak = file + BACKUP_SUFFIX;
  fs.rmSync(bak, { force: true });
  try {
    // A hard link is instant and shares the bytes; the rename below then detaches the names.
    fs.linkSync(file, bak);
  } catch {
    fs.copyFileSync(file, bak);
  }
}

/** Make a file's contents, or a folder's entries (a rename, a new file), durable; best effort. */
export function fsyncPath(target: string): void {
  if (process.platform === 'win32') return; // directories cannot be opened for fsync there
  let fd: number | undefined;
  try {
    fd = fs.openSync(target, 'r');
    fs.fsyncSync(fd);
  } catch {
    // some file systems refuse directory fsync; the rename is still atomic
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Remove temp files left by writers that died mid-save (their pid no longer runs). */
export function removeStaleTempFiles(file: string): void {
  const dir = path.dirname(file);
  const base = path.basename(file) + TMP_MARK;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) {
    if (!n.startsWith(base)) continue;
    const pid = Number(n.slice(base.length).split('-')[0]);
    // Our own temp files and those of a live writer are in use; only orphans go.
    if (pid === process.pid || (Number.isInteger(pid) && isProcessAlive(pid))) continue;
    fs.rmSync(path.join(dir, n), { force: true });
  }
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
