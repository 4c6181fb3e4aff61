// The game-data sidecar `<name>.pyops.gamedata`: imported reference data, attached to the project
// as schema `gd` and written only by an import. Opening it never fails the project: a sidecar that
// is gone, unreadable or damaged is replaced by an empty one in memory and reported by status.
import fs from 'node:fs';
import path from 'node:path';
import { databaseFromOwnBytes, databaseWithRoom, dbFilename, hasSqliteHeader, loadSqlJs, scalar, type Database } from './sqlite';
import { migrate, schemaVersion, latestVersion } from './migrate';
import { pagesLength, sealImage, unsealImage } from './seal';
import { atomicWriteFile } from './atomicFile';
import { GAMEDATA_KIND, GAMEDATA_MIGRATIONS, DATA_FORMAT_VERSION } from './schema/gamedata';

export const GAMEDATA_SUFFIX = '.gamedata';

export function gamedataPath(projectFile: string): string {
  return projectFile + GAMEDATA_SUFFIX;
}

/**
 * `ok`: imported data present; `empty`: nothing imported yet; `missing`: the project says data was
 * imported but the sidecar is gone; `unreadable`: the sidecar cannot be read (permissions) or is not
 * PyOps game data of this schema; `damaged`: its checksum or SQLite's integrity check fails;
 * `outdated`: usable, but imported by an older normalizer (re-import for full fidelity).
 */
export type GamedataStatus = 'ok' | 'empty' | 'missing' | 'unreadable' | 'damaged' | 'outdated';

type SqlJs = Awaited<ReturnType<typeof loadSqlJs>>;

/**
 * Open the sidecar of `projectFile`; `empty` and `missing` are told apart by the caller (it knows
 * whether data was imported). `migrated`: the file was of an older schema and `gd` has been brought
 * to the current one in memory (the caller may save it: `saveMigratedGamedata`).
 */
export function openGamedata(SQL: SqlJs, projectFile: string): { gd: Database; status: GamedataStatus; migrated?: boolean } {
  const file = gamedataPath(projectFile);
  let bytes: Uint8Array;
  try {
    bytes = fs.readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { gd: emptyGamedata(SQL), status: code === 'ENOENT' ? 'empty' : 'unreadable' };
  }
  // A damaged sidecar is never served: an empty one stands in until the user re-imports (the file
  // itself is left alone).
  const { image, state } = unsealImage(bytes);
  if (state === 'mismatch' || !hasSqliteHeader(bytes)) {
    return { gd: emptyGamedata(SQL), status: 'damaged' };
  }
  let gd: Database;
  try {
    gd = databaseFromOwnBytes(SQL, image);
  } catch {
    return { gd: emptyGamedata(SQL), status: 'damaged' };
  }
  try {
    // A sealed file's checksum already proves these are the bytes SQLite exported; the integrity
    // check (tens of ms on Py data, paid by every window and every `pyops` process) is for the rest.
    let check = 'ok';
    if (state !== 'sealed') {
      try {
        check = String(scalar(gd, 'PRAGMA quick_check') ?? '');
      } catch (err) {
        check = (err as Error).message;
      }
    }
    if (check === 'ok') {
      const version = schemaVersion(gd);
      if (scalar<string>(gd, "SELECT value FROM gd_meta WHERE key = 'kind'") === GAMEDATA_KIND && version >= 1 && version <= latestVersion(GAMEDATA_MIGRATIONS)) {
        // An older sidecar is brought to the current tables in memory (new columns take their
        // defaults); the project's writer then saves it (saveMigratedGamedata).
        const migrated = version < latestVersion(GAMEDATA_MIGRATIONS);
        if (migrated) migrate(gd, GAMEDATA_MIGRATIONS);
        const fmt = Number(scalar(gd, "SELECT value FROM gd_meta WHERE key = 'data_format_version'") ?? 0);
        return { gd, status: fmt < DATA_FORMAT_VERSION ? 'outdated' : 'ok', migrated };
      }
      gd.close();
      return { gd: emptyGamedata(SQL), status: 'unreadable' };
    }
  } catch {
    // not PyOps game data (no gd_meta): unreadable below
    gd.close();
    return { gd: emptyGamedata(SQL), status: 'unreadable' };
  }
  gd.close();
  return { gd: emptyGamedata(SQL), status: 'damaged' };
}

/**
 * Write a sidecar migrated on open back to its file, so that the next open does not migrate it again
 * (schema 5's packing takes ~300 ms on the Py subset, on every window and `pyops` process until the
 * next import). Atomic and sealed like an import's write, the old file kept as `.bak`; only the
 * project's writer does it. A write that fails changes nothing: the data stays migrated in memory and
 * the next open tries again.
 */
export function saveMigratedGamedata(sidecar: string, gd: Database): void {
  try {
    // A migration that moves rows into other tables leaves the old pages free: without this the
    // saved full-Py file would be 10 MB instead of 4.4.
    gd.run('VACUUM');
    atomicWriteFile(sidecar, sealImage(gd.export()));
  } catch {
    // a read-only folder or a full disk: it stays migrated in memory, and the next open tries again
  }
}

/** What gamedataProblem needs to know about a project. */
export interface GamedataHolder {
  readonly name: string;
  readonly gamedataFile: string;
  readonly gamedataStatus: GamedataStatus;
  hasGameData(): boolean;
}

/**
 * Why the project has no usable game data, and what to do — undefined when it has some. Tools, the
 * CLI and the extension say this instead of a generic "no game data yet".
 */
export function gamedataProblem(project: GamedataHolder): string | undefined {
  const file = path.basename(project.gamedataFile);
  const reimport = 'Import it again ("PyOps: Import Game Data (Dump or FactorioLab Set)…", "PyOps: Sync Game Data from Factorio", or `pyops import`)';
  switch (project.gamedataStatus) {
    case 'missing':
      return `The game data of "${project.name}" is missing: ${file} is gone although data was imported. ${reimport}, or put the file back.`;
    case 'unreadable':
      return `The game data of "${project.name}" is unreadable: ${file} cannot be read (permissions) or is not PyOps game data of this version. ${reimport}; the file was left as it is.`;
    case 'damaged':
      return `The game data of "${project.name}" is damaged: ${file} fails its checksum or integrity check, so it is not used. ${reimport}; the damaged file was left as it is.`;
    default:
      return project.hasGameData() ? undefined : `"${project.name}" has no game data yet. Import a dump or sync from Factorio (PyOps commands, or \`pyops import\`), then try again.`;
  }
}

/** The empty current schema's file, made once per sql.js instance. */
const emptyImages = new WeakMap<SqlJs, Uint8Array>();

function emptyImage(SQL: SqlJs): Uint8Array {
  let image = emptyImages.get(SQL);
  if (!image) {
    const gd = new SQL.Database();
    migrate(gd, GAMEDATA_MIGRATIONS);
    image = gd.export();
    gd.close();
    emptyImages.set(SQL, image);
  }
  return image;
}

/** A new game-data database of the current schema, with no data. */
export function emptyGamedata(SQL: SqlJs): Database {
  return new SQL.Database(emptyImage(SQL));
}

/**
 * An empty game-data database whose in-memory file has room to grow to `roomFor` bytes in place
 * (`databaseWithRoom`), with the buffer it fills; without room (`roomFor` no more than the empty
 * file) there is no buffer. sql.js's file system grows a file by an eighth each time a write passes
 * its end, so filling 7.7 MB (full Py, schema 4) without room went through ~20 ever larger copies,
 * 60 MB of new memory, which in a fresh process was a third of the import.
 */
function emptyGamedataWithRoom(SQL: SqlJs, roomFor: number): { db: Database; buffer?: Uint8Array } {
  const image = emptyImage(SQL);
  return roomFor <= image.length ? { db: new SQL.Database(image) } : databaseWithRoom(SQL, image, roomFor);
}

/** Attach `gd` to the project's connection as schema `gd`. */
export function attachGamedata(db: Database, gd: Database): void {
  db.run(`ATTACH DATABASE '${dbFilename(gd)}' AS gd`);
  // In sql.js's in-memory file system, like the project (see Project.open).
  db.run('PRAGMA gd.journal_mode = MEMORY');
  db.run('PRAGMA gd.synchronous = OFF');
}

/** Attach `next` as schema `gd` in place of the database attached now. */
export function swapGamedata(db: Database, next: Database): void {
  db.run('DETACH DATABASE gd');
  attachGamedata(db, next);
}

/**
 * Build new game data beside the current one: a new database (room for about `roomFor` bytes) is
 * attached as `gd` in its place, `fill` inserts the rows and `gdMeta` is recorded, in one
 * transaction. Returns the new database, attached; the caller closes the old one once the new is
 * saved. On any error the current game data is attached again, untouched, and the new one dropped.
 */
export function buildGamedata(SQL: SqlJs, db: Database, current: Database, fill: (db: Database) => void, gdMeta: Record<string, string>, roomFor: number): BuiltGamedata {
  const { db: fresh, buffer } = emptyGamedataWithRoom(SQL, roomFor);
  try {
    swapGamedata(db, fresh);
  } catch (err) {
    fresh.close();
    throw err;
  }
  try {
    db.run('BEGIN');
    try {
      fill(db);
      const stmt = db.prepare('INSERT INTO gd.gd_meta(key, value) VALUES (?, ?)');
      try {
        for (const [k, v] of Object.entries({ kind: GAMEDATA_KIND, ...gdMeta })) stmt.run([k, v]);
      } finally {
        stmt.free();
      }
      db.run('COMMIT');
    } catch (err) {
      db.run('ROLLBACK');
      throw err;
    }
    return { db: fresh, image: builtImage(db, fresh, buffer) };
  } catch (err) {
    swapGamedata(db, current);
    fresh.close();
    throw err;
  }
}

export interface BuiltGamedata {
  /** The new database, attached as `gd`. */
  db: Database;
  /** Its file as committed, to be saved; not to be changed. */
  image: Uint8Array;
}

/**
 * The file of a database just built, read where SQLite wrote it: a database with room keeps its
 * file at the start of its buffer for as long as the file fits, so when that buffer's header counts
 * the pages SQLite says the file has, those bytes are the file (a file that outgrew the buffer was
 * copied elsewhere with more pages than the buffer holds). sql.js's export would copy the database
 * page by page (SQLite's backup API) into a new array: 4.4 MB of fresh memory, ~13 ms of a full-Py
 * import. (The copy's header differs from the file's in its change counter, which the backup sets.)
 */
function builtImage(db: Database, fresh: Database, buffer: Uint8Array | undefined): Uint8Array {
  if (buffer) {
    const length = pagesLength(buffer);
    const pages = Number(scalar(db, 'PRAGMA gd.page_count')) * Number(scalar(db, 'PRAGMA gd.page_size'));
    if (length !== undefined && length === pages && length <= buffer.length) return buffer.subarray(0, length);
  }
  return fresh.export();
}
