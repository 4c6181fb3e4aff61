// Reading and checking the project file `<name>.pyops` itself, before anything is built on it: is
// it SQLite, is its seal intact, is it a PyOps project of a schema this version knows. A file that
// fails is reported and never modified.
import fs from 'node:fs';
import path from 'node:path';
import { hasSqliteHeader, loadSqlJs, scalar, type Database } from './sqlite';
import { schemaVersion, latestVersion } from './migrate';
import { unsealImage } from './seal';
import { ProjectError } from './errors';
import { recoverHint } from './storeProblems';
import { BACKUP_SUFFIX } from './atomicFile';
import { journalPath, previousJournalPath } from './journal';
import { gamedataPath } from './gamedataFile';
import { PROJECT_KIND, BUNDLE_KIND, PROJECT_MIGRATIONS } from './schema/project';

/**
 * The path a project is known by: absolute and through every symlink to the real file (or, for a
 * link whose file is gone, to where that file was). The lock, the journal and the copies then sit
 * beside the real file, a checkpoint replaces the real file and leaves the link a link, and one
 * project opened by two paths is still one project with one lock.
 */
export function projectPath(file: string): string {
  let p = path.resolve(file);
  for (let hops = 0; hops < 40; hops++) {
    try {
      return fs.realpathSync(p);
    } catch {
      // A dangling link: follow it by hand to the name its file had.
      try {
        if (!fs.lstatSync(p).isSymbolicLink()) return p;
        p = path.resolve(path.dirname(p), fs.readlinkSync(p));
      } catch {
        return p;
      }
    }
  }
  return p;
}

/** The copies a project leaves beside its file (`.bak`, the journals), those that exist. */
export function copiesBeside(file: string): string[] {
  return [file + BACKUP_SUFFIX, journalPath(file), previousJournalPath(file)].filter((f) => {
    try {
      return fs.statSync(f).isFile();
    } catch {
      return false;
    }
  });
}

export function readProjectBytes(file: string): Uint8Array {
  try {
    return fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw missingProjectError(file);
    throw err;
  }
}

/** A project file that is not there: a place for a new project, or a project whose copies say it was here. */
function missingProjectError(file: string): ProjectError {
  const label = path.basename(file);
  const copies = copiesBeside(file);
  const names = copies.map((f) => path.basename(f)).join(', ');
  if (copies.includes(file + BACKUP_SUFFIX)) {
    return new ProjectError('damaged', `${label} is missing, but its copies are beside it (${names}): it was deleted or moved away. If you moved it, open it where it is now; otherwise recover it.${recoverHint(file)}`);
  }
  if (copies.length) {
    return new ProjectError('missing', `${label} does not exist, but ${names} ${copies.length === 1 ? 'is' : 'are'} beside it: saves of a project that was here, which need its file. Put ${label} back, or restore a backup there, to keep them.`);
  }
  return new ProjectError('missing', `${file} does not exist; create a project there or pick another file.`);
}

type SqlJs = Awaited<ReturnType<typeof loadSqlJs>>;

export interface ValidateOptions {
  /** A file whose meta says it was sealed must still carry its seal (Project.open; not bundles). */
  sealRequired?: boolean;
}

/** Parse and check a project file's bytes without touching the file. Returns the open database. */
export function validateProjectBytes(SQL: SqlJs, bytes: Uint8Array, file: string, opts: ValidateOptions = {}): Database {
  const label = path.basename(file);
  if (!hasSqliteHeader(bytes)) {
    // An emptied or overwritten project still has its copies beside it: that is damage, not a stranger.
    if (hasRecoverableCopies(file)) {
      throw new ProjectError('damaged', `${label} is ${bytes.length === 0 ? 'empty' : 'not an SQLite database any more'}, but its copies are beside it: it was damaged.${recoverHint(file)}`);
    }
    throw new ProjectError('not-sqlite', `${label} is not a PyOps project (it is not an SQLite database). Pick a .pyops file, or create a new project.`);
  }
  const { image, state } = unsealImage(bytes);
  if (state === 'mismatch') {
    throw new ProjectError('damaged', `${label} is damaged: its checksum no longer matches what PyOps wrote, so bytes changed on disk after the last save. It was not opened, so nothing wrong is shown or saved.${recoverHint(file)}`);
  }
  let db: Database;
  try {
    db = new SQL.Database(image);
  } catch (err) {
    throw new ProjectError('damaged', `${label} cannot be read as SQLite (${(err as Error).message}).${recoverHint(file)}`);
  }
  try {
    // A matching seal already proves these are the bytes SQLite exported at the last checkpoint.
    const check = state === 'sealed' ? 'ok' : (() => {
      try {
        return String(scalar(db, 'PRAGMA quick_check') ?? '');
      } catch (err) {
        return (err as Error).message;
      }
    })();
    if (check !== 'ok') {
      throw new ProjectError('damaged', `${label} is damaged (SQLite integrity check: ${check}).${recoverHint(file)}`);
    }
    const hasMeta = scalar(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'");
    const kind = hasMeta ? scalar<string>(db, "SELECT value FROM meta WHERE key = 'kind'") : undefined;
    if (kind === BUNDLE_KIND) {
      throw new ProjectError('is-bundle', `${label} is a PyOps backup, not a working project. Use "PyOps: Restore Project from Backup" (or \`pyops project restore\`) to unpack it.`);
    }
    if (kind !== PROJECT_KIND) {
      throw new ProjectError('not-project', `${label} is an SQLite database but not a PyOps project (no PyOps meta table). It was left untouched.`);
    }
    if (opts.sealRequired && state === 'unsealed' && scalar(db, "SELECT value FROM meta WHERE key = 'image_seal'") !== undefined) {
      throw new ProjectError('damaged', `${label} is damaged: PyOps sealed it with a checksum, and the checksum is gone (the file was cut short or rewritten by another tool).${recoverHint(file)}`);
    }
    const version = schemaVersion(db);
    if (version > latestVersion(PROJECT_MIGRATIONS)) {
      throw new ProjectError('newer-version', `${label} was written by a newer PyOps (schema ${version}, this one knows ${latestVersion(PROJECT_MIGRATIONS)}). Update PyOps to open it.`);
    }
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

function hasRecoverableCopies(file: string): boolean {
  return [...copiesBeside(file), gamedataPath(file)].some((f) => {
    try {
      return fs.statSync(f).size > 0;
    } catch {
      return false;
    }
  });
}
