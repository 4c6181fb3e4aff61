// One writer per project. The first process to open a project takes `<file>.lock`; another process
// (a second VS Code window, a CLI run) finds a live owner and opens the project read-only.
import fs from 'node:fs';
import os from 'node:os';
import { isProcessAlive } from './atomicFile';

export interface LockOwner {
  pid: number;
  host: string;
  app: string;
  since: string;
}

export interface LockResult {
  acquired: boolean;
  /** The live owner when the lock could not be taken. */
  owner?: LockOwner;
  release(): void;
}

export function lockPath(projectFile: string): string {
  return projectFile + '.lock';
}

export function acquireLock(projectFile: string, app: string): LockResult {
  const file = lockPath(projectFile);
  const me: LockOwner = { pid: process.pid, host: os.hostname(), app, since: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o644);
      fs.writeSync(fd, JSON.stringify(me));
      fs.closeSync(fd);
      let released = false;
      return {
        acquired: true,
        release() {
          if (released) return;
          released = true;
          const current = readOwner(file);
          if (current && current.pid === me.pid && current.host === me.host) fs.rmSync(file, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = readOwner(file);
      if (owner && isLive(owner)) return { acquired: false, owner, release() {} };
      // Stale (owner died or the file is unreadable): take it over.
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not take the project lock ${file}; delete it if no other PyOps window uses the project.`);
}

function readOwner(file: string): LockOwner | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (typeof v?.pid === 'number' && typeof v?.host === 'string') return v as LockOwner;
  } catch {
    // unreadable lock: treated as stale
  }
  return undefined;
}

function isLive(owner: LockOwner): boolean {
  // A lock from another host (shared folder) cannot be checked; respect it.
  if (owner.host !== os.hostname()) return true;
  if (owner.pid === process.pid) return true;
  return isProcessAlive(owner.pid);
}
