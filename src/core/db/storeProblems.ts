// What is wrong with a project's files, phrased for the user with what to do next: a full disk, a
// file that cannot be written, and the pointer to Recover Project.
import fs from 'node:fs';
import path from 'node:path';
import { BACKUP_SUFFIX } from './atomicFile';
import { journalPath, previousJournalPath } from './journal';
import { ProjectError } from './errors';

/** What to do about a damaged project, naming the command and the copies it will use. */
export function recoverHint(file: string): string {
  const base = path.basename(file);
  const copies = [file + BACKUP_SUFFIX, journalPath(file), previousJournalPath(file)].filter((f) => fs.existsSync(f)).map((f) => path.basename(f));
  const from = copies.length ? ` from ${copies.join(', ')}` : '';
  return ` Run "PyOps: Recover Project…" (or \`pyops project recover ${base}\`): it shows what can be recovered${from} and what would be lost before it changes anything.`;
}

/** A file-system error as a store error: disk full and permissions get their own words. */
export function storeError(file: string, err: unknown): Error {
  if (err instanceof ProjectError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new ProjectError('disk-full', `The disk holding ${path.basename(file)} is full (${code}); this change was not saved. Free some space, then try again.`);
  }
  return err as Error;
}

/** Why a project could not be opened for writing, as the read-only reason. */
export function describeFsError(file: string, err: unknown, consequence: string): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return `the disk holding ${path.basename(file)} is full (${code}), so it opened read-only and ${consequence}. Free some space, then open it again`;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return `${path.basename(file)} is not writable (${code}); ${consequence}`;
  return `${path.basename(file)} could not be opened for writing (${(err as Error).message}); ${consequence}`;
}
