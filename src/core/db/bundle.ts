// Backups and shared copies: one self-contained SQLite file holding the project tables and the
// game-data tables side by side (openable by any SQLite tool). Restoring splits it back into a
// working project and its game-data sidecar.
import fs from 'node:fs';
import path from 'node:path';
import { all, loadSqlJs, scalar, dbFilename, type Database } from './sqlite';
import { atomicWriteFile, BACKUP_SUFFIX } from './atomicFile';
import { migrate, schemaVersion, latestVersion } from './migrate';
import { ProjectError } from './errors';
import { journalPath, previousJournalPath } from './journal';
import { ackRecordPath } from './ackRecord';
import { sealImage, unsealImage } from './seal';
import { acquireLock, lockPath } from './lock';
import type { Project } from './project';
import { gamedataPath } from './gamedataFile';
import { setMetaRaw } from './meta';
import { projectPath, validateProjectBytes } from './projectFile';
import { BUNDLE_KIND, PROJECT_KIND, PROJECT_MIGRATIONS } from './schema/project';
import { GAMEDATA_MIGRATIONS, GAMEDATA_TABLES, RETIRED_GAMEDATA_TABLES } from './schema/gamedata';

export const BACKUP_EXTENSION = '.pyops-backup';

/** Suggested backup path: `<dir>/<name>.backups/<name>-<timestamp>.pyops-backup`. */
export function defaultBackupPath(projectFile: string, when = new Date()): string {
  const base = path.basename(projectFile, '.pyops');
  const stamp = when.toISOString().replace(/[:]/g, '-').replace(/\..+$/, '');
  return path.join(path.dirname(projectFile), `${base}.backups`, `${base}-${stamp}${BACKUP_EXTENSION}`);
}

/** Write a single-file backup of an open project (its saved state plus game data). */
export async function backupProject(project: Project, dest: string): Promise<string> {
  const SQL = await loadSqlJs();
  const bundle = new SQL.Database(project.db.export());
  try {
    const gd = new SQL.Database(project.exportGameData());
    try {
      // The game-data tables get their full DDL in the bundle; user_version stays the project's.
      for (const m of GAMEDATA_MIGRATIONS) bundle.exec(m.sql);
      copyGameDataTables(bundle, gd, (db) => {
        setMetaRaw(db, 'kind', BUNDLE_KIND);
        setMetaRaw(db, 'bundle_created_at', new Date().toISOString());
        setMetaRaw(db, 'bundle_gamedata_version', String(schemaVersion(gd)));
      });
    } finally {
      gd.close();
    }
    dest = projectPath(dest);
    const own = [project.file, gamedataPath(project.file), journalPath(project.file), previousJournalPath(project.file), lockPath(project.file), ackRecordPath(project.file)];
    if (own.includes(dest)) throw new ProjectError('exists', `${path.basename(dest)} is one of the project's own files; back it up to another file.`);
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    atomicWriteFile(dest, sealImage(bundle.export()), { keepPrevious: false });
    return dest;
  } finally {
    bundle.close();
  }
}

/**
 * Unpack a backup into a working project at `dest` (its `.gamedata` sidecar beside it). An existing
 * project at `dest` is replaced atomically and kept as `<dest>.bak`. Must not be open elsewhere.
 */
export async function restoreBackup(backupFile: string, dest: string): Promise<void> {
  const SQL = await loadSqlJs();
  let bytes: Uint8Array;
  try {
    bytes = fs.readFileSync(backupFile);
  } catch {
    throw new ProjectError('missing', `${backupFile} does not exist; pick a PyOps backup file.`);
  }
  const bundle = openBundle(SQL, bytes, backupFile);
  try {
    const project = new SQL.Database(bundle.export());
    const gd = new SQL.Database();
    try {
      for (const t of ['gd_meta', ...GAMEDATA_TABLES, ...RETIRED_GAMEDATA_TABLES]) project.run(`DROP TABLE IF EXISTS ${t}`);
      const written = Number(scalar(bundle, "SELECT value FROM meta WHERE key = 'bundle_gamedata_version'") ?? 0);
      project.run("UPDATE meta SET value = ? WHERE key = 'kind'", [PROJECT_KIND]);
      project.run("DELETE FROM meta WHERE key LIKE 'bundle_%'");
      project.run('VACUUM');
      // The game data is copied into the schema the backup was written with, then migrated like a
      // sidecar of that version, so a migration that moves data (v4's limitation lists) moves it.
      migrate(gd, written >= 1 ? GAMEDATA_MIGRATIONS.filter((m) => m.version <= written) : GAMEDATA_MIGRATIONS);
      copyGameDataTables(gd, bundle);
      migrate(gd, GAMEDATA_MIGRATIONS);
      // Validate what we are about to write exactly as an open would.
      const projectBytes = project.export();
      validateProjectBytes(SQL, projectBytes, dest).close();
      // Through a symlink to the project it names, like an open: the link stays a link.
      dest = projectPath(dest);
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      const lock = acquireLock(dest, 'pyops restore');
      if (!lock.acquired) {
        throw new ProjectError(
          'read-only',
          `${path.basename(dest)} is open in another PyOps window${lock.owner ? ` (${lock.owner.app}, process ${lock.owner.pid})` : ''}; close it there, then restore again.`,
        );
      }
      try {
        // Saves journalled against the replaced file must not be replayed onto the restored one; they
        // go beside the replaced file's `.bak`, which they complete.
        fs.rmSync(previousJournalPath(dest), { force: true });
        if (fs.existsSync(journalPath(dest))) fs.renameSync(journalPath(dest), previousJournalPath(dest));
        // The save record counted that journal: against the restored file it would only mislead.
        fs.rmSync(ackRecordPath(dest), { force: true });
        const hasData = Number(scalar(gd, 'SELECT count(*) FROM gd_meta') ?? 0) > 0;
        if (hasData) atomicWriteFile(projectPath(gamedataPath(dest)), sealImage(gd.export()));
        else if (fs.existsSync(gamedataPath(dest))) fs.renameSync(gamedataPath(dest), gamedataPath(dest) + BACKUP_SUFFIX);
        atomicWriteFile(dest, sealImage(projectBytes));
      } finally {
        lock.release();
      }
    } finally {
      project.close();
      gd.close();
    }
  } finally {
    bundle.close();
  }
}

function openBundle(SQL: Awaited<ReturnType<typeof loadSqlJs>>, bytes: Uint8Array, file: string): Database {
  try {
    validateProjectBytes(SQL, bytes, file).close();
  } catch (err) {
    if (err instanceof ProjectError && err.code === 'is-bundle') {
      const db = new SQL.Database(unsealImage(bytes).image);
      if (schemaVersion(db) > latestVersion(PROJECT_MIGRATIONS)) {
        db.close();
        throw new ProjectError('newer-version', `${path.basename(file)} was written by a newer PyOps; update PyOps to restore it.`);
      }
      return db;
    }
    throw err;
  }
  throw new ProjectError('not-bundle', `${path.basename(file)} is a working project, not a backup; open it directly instead.`);
}

/**
 * Copy every game-data table `into` has from `from`, in one transaction. Columns are matched by name:
 * a backup written before a game-data migration lacks the newer columns, which then take their
 * defaults, and the newer tables, which stay empty.
 */
function copyGameDataTables(into: Database, from: Database, alsoInTransaction?: (db: Database) => void): void {
  into.run(`ATTACH DATABASE '${dbFilename(from)}' AS src`);
  into.run('BEGIN');
  const tables = all<{ name: string }>(into, "SELECT name FROM main.sqlite_master WHERE type = 'table'").map((r) => r.name);
  for (const t of ['gd_meta', ...GAMEDATA_TABLES, ...RETIRED_GAMEDATA_TABLES].filter((x) => tables.includes(x))) {
    const have = new Set(all<{ name: string }>(into, `PRAGMA main.table_info(${t})`).map((c) => c.name));
    const cols = all<{ name: string }>(into, `PRAGMA src.table_info(${t})`).map((c) => c.name).filter((c) => have.has(c)).map((c) => `"${c}"`).join(', ');
    // A table newer than the backup (icons) stays empty.
    if (!cols) continue;
    into.run(`INSERT INTO main.${t} (${cols}) SELECT ${cols} FROM src.${t}`);
  }
  alsoInTransaction?.(into);
  into.run('COMMIT');
  into.run('DETACH DATABASE src');
}
