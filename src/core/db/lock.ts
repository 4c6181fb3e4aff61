// One writer per project. The first process to open a project takes `<file>.lock`; another process
// (a second VS Code window, a CLI run) finds a live owner and opens the project read-only.
//
// Two openers may race. The lock therefore appears with its content in one step (a hard link of a
// finished temp file), so nobody reads an empty lock and calls it stale; and a stale lock is moved
// aside with a rename before it is replaced, so of two processes taking it over only one wins.
import fs from 'node:fs';
import os from 'node:os';
import crypto from 'node:crypto';
import { isProcessAlive } from './atomicFile';

export interface LockOwner {
  pid: number;
  host: string;
  app: string;
  since: string;
}

export interface LockResult {
  acquired: boolean;
  /** The live owner when the lock could not be taken (absent: a lock still being written). */
  owner?: LockOwner;
  release(): void;
}

/** An unreadable lock younger than this may be a writer's that is still being created. */
const UNREADABLE_GRACE_MS = 2000;

export function lockPath(projectFile: string): string {
  return projectFile + '.lock';
}

export function acquireLock(projectFile: string, app: string): LockResult {
  const file = lockPath(projectFile);
  const me: LockOwner = { pid: process.pid, host: os.hostname(), app, since: new Date().toISOString() };
  for (let attempt = 0; attempt < 4; attempt++) {
    if (createWithContent(file, JSON.stringify(me))) return held(file, me);
    const owner = readOwner(file);
    if (owner && isLive(owner)) return { acquired: false, owner, release() {} };
    if (!owner && youngerThan(file, UNREADABLE_GRACE_MS)) return { acquired: false, release() {} };
    takeOverStaleLock(file, owner);
  }
  throw new Error(`Could not take the project lock ${file}; delete it if no other PyOps window uses the project.`);
}

/**
 * True when nobody holds the project's lock any more (no lock, or its owner is gone): a copy that
 * opened read-only because of another window can now be reopened for editing.
 */
export function isLockFree(projectFile: string): boolean {
  const file = lockPath(projectFile);
  if (!fs.existsSync(file)) return true;
  const owner = readOwner(file);
  if (!owner) return !youngerThan(file, UNREADABLE_GRACE_MS);
  return !isLive(owner);
}

function held(file: string, me: LockOwner): LockResult {
  let released = false;
  return {
    acquired: true,
    release() {
      if (released) return;
      released = true;
      if (sameOwner(readOwner(file), me)) fs.rmSync(file, { force: true });
    },
  };
}

/** Create `file` holding `body`, only if it does not exist; false when it does. */
function createWithContent(file: string, body: string): boolean {
  const tmp = besideLock(file, 'tmp');
  try {
    // Inside the try: on a full disk the temp file is created but not written, and must not stay.
    fs.writeFileSync(tmp, body, { mode: 0o644 });
    fs.linkSync(tmp, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') return createExclusive(file, body);
    throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** For file systems without hard links: exclusive create, then write (briefly empty). */
function createExclusive(file: string, body: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, 'wx', 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    fs.writeSync(fd, body);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

/**
 * Remove a stale lock (its owner, read as `stale`, is gone). The rename is atomic: a second process
 * doing the same finds nothing to move, or moves a fresh lock another process has just taken — which
 * it then puts back.
 */
export function takeOverStaleLock(file: string, stale: LockOwner | undefined): void {
  const aside = besideLock(file, 'stale');
  try {
    fs.renameSync(file, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    const moved = readOwner(aside);
    if (moved && !sameOwner(moved, stale)) {
      try {
        fs.linkSync(aside, file);
      } catch {
        // yet another process holds the lock now; it is theirs either way
      }
    }
  } finally {
    fs.rmSync(aside, { force: true });
  }
}

/** A file name next to the lock, unique to this process and call. */
function besideLock(file: string, kind: 'tmp' | 'stale'): string {
  return `${file}.${process.pid}-${crypto.randomBytes(4).toString('hex')}.${kind}`;
}

function readOwner(file: string): LockOwner | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (typeof v?.pid === 'number' && typeof v?.host === 'string') return v as LockOwner;
  } catch {
    // missing or unreadable
  }
  return undefined;
}

function sameOwner(a: LockOwner | undefined, b: LockOwner | undefined): boolean {
  return !!a && !!b && a.pid === b.pid && a.host === b.host && a.since === b.since;
}

function youngerThan(file: string, ms: number): boolean {
  try {
    return Date.now() - fs.statSync(file).mtimeMs < ms;
  } catch {
    return false;
  }
}

function isLive(owner: LockOwner): boolean {
  // A lock from another host (shared folder) cannot be checked; respect it.
  if (owner.host !== os.hostname()) return true;
  if (owner.pid === process.pid) return true;
  return isProcessAlive(owner.pid);
}
