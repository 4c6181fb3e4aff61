// The project store. A project is `<name>.pyops` (SQLite: blocks, tasks, notes, conversations,
// settings) plus `<name>.pyops.gamedata` (SQLite: imported reference data), attached as schema `gd`.
// A save appends the rows a transaction changed to `<name>.pyops.journal` (see journal.ts); the
// project file itself is rewritten only at checkpoints, and the game data only by an import.
// `bundle.ts` packs everything into one file for backup and sharing.
//
// This module is the store's lifecycle (open, write, checkpoint, close); its parts live beside it:
// projectFile.ts (checking the file), changeCapture.ts (what a write changed), undo.ts (the undo
// log), rowImages.ts (rows by rowid, journal replay), gamedataFile.ts (the attached game data),
// storeProblems.ts (what went wrong, in the user's words).
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { loadSqlJs, scalar, all, reuseStatements, type Database, type SqlJsStatic, type SqlValue } from './sqlite';
import { atomicWriteFile, removeStaleTempFiles } from './atomicFile';
import { JournalWriter, journalPath, keepAsPreviousJournal } from './journal';
import { AckRecorder } from './ackRecord';
import { checkJournal } from './journalCheck';
import { sealImage } from './seal';
import { acquireLock, isLockFree, type LockOwner } from './lock';
import { migrate, schemaVersion, latestVersion } from './migrate';
import { ProjectError } from './errors';
import { journalGeneration, nowIso, setMetaRaw } from './meta';
import { applyFrames } from './rowImages';
import { collectChanges, installChangeCapture, type ChangeCapture } from './changeCapture';
import { nextRedo, nextUndo, recordUndo, swapImages, type UndoEntry, type UndoResult } from './undo';
import { attachGamedata, buildGamedata, gamedataPath, openGamedata, saveMigratedGamedata, swapGamedata, type GamedataStatus } from './gamedataFile';
import { copiesBeside, projectPath, readProjectBytes, validateProjectBytes } from './projectFile';
import { describeFsError, recoverHint, storeError } from './storeProblems';
import { PROJECT_KIND, PROJECT_MIGRATIONS } from './schema/project';

// The rest of the code knows these through the project; they live with their own concerns.
export { gamedataPath, gamedataProblem, type GamedataStatus } from './gamedataFile';
export { UNDO_LIMIT, type UndoEntry, type UndoResult } from './undo';

export const PROJECT_EXTENSION = '.pyops';
/** Fold the journal into the project file once it grows past this many bytes or frames. */
const CHECKPOINT_BYTES = 4 * 1024 * 1024;
const CHECKPOINT_FRAMES = 2000;
/** How often a write refreshes meta `updated_at` (a per-write stamp would cost every save a second row). */
const STAMP_EVERY_MS = 60_000;
export interface WriteOptions {
  /** Record the write as one undoable action with this label. */
  undo?: string;
}
export interface OpenOptions {
  /** Open without taking the writer lock and refuse every write. */
  readOnly?: boolean;
  /** Name of the opening application, recorded in the lock (e.g. "vscode", "cli"). */
  app?: string;
}

export interface CreateOptions {
  name?: string;
  app?: string;
}

export class Project {
  private closed = false;
  private txDepth = 0;
  private releaseLock: () => void;
  private journal: JournalWriter | undefined;
  /** How to start the journal at the first write (opening a project to read it costs no disk write). */
  private startJournal: (() => JournalWriter) | undefined;
  /** Change capture is installed at the first write, not at open (see prepareWrites). */
  private capture: ChangeCapture | undefined;
  private stampedAt = 0;

  private constructor(
    private readonly SQL: SqlJsStatic,
    readonly file: string,
    /** Project database; the game data is attached to it as schema `gd`. */
    readonly db: Database,
    private gd: Database,
    readonly readOnly: boolean,
    /** Why the project is read-only, phrased for the user. */
    readonly readOnlyReason: string | undefined,
    readonly lockOwner: LockOwner | undefined,
    release: () => void,
    /** State of the game-data sidecar when the project was opened. */
    readonly gamedataStatus: GamedataStatus,
    /** Damage found on open (the project is then read-only and `Recover Project` can repair it). */
    readonly damage: string | undefined,
  ) {
    this.releaseLock = release;
  }

  get gamedataFile(): string {
    return gamedataPath(this.file);
  }

  /**
   * Create a new, empty project. Refuses to overwrite an existing file (or link), and to start over
   * the copies an earlier project left beside it (their saves would be replayed onto the new one).
   */
  static async create(file: string, opts: CreateOptions = {}): Promise<Project> {
    file = path.resolve(file);
    if (entryExists(file) || entryExists((file = projectPath(file)))) {
      throw new ProjectError('exists', `${file} already exists; open it, or choose another file name.`);
    }
    const earlier = copiesBeside(file);
    if (earlier.length) {
      const names = earlier.map((f) => path.basename(f)).join(', ');
      throw new ProjectError('exists', `${names} of an earlier project ${earlier.length === 1 ? 'is' : 'are'} beside ${path.basename(file)}: recover that project first${earlier.includes(file + '.bak') ? ` (\`pyops project recover ${path.basename(file)}\` or "PyOps: Recover Project…")` : ''}, or move ${earlier.length === 1 ? 'it' : 'them'} away, or choose another file name.`);
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    migrate(db, PROJECT_MIGRATIONS);
    const name = opts.name?.trim() || path.basename(file, PROJECT_EXTENSION);
    const id = crypto.randomUUID();
    const t = nowIso();
    db.run('BEGIN');
    for (const [k, v] of [
      ['kind', PROJECT_KIND],
      ['schema_version', String(latestVersion(PROJECT_MIGRATIONS))],
      ['project_id', id],
      ['name', name],
      ['created_at', t],
      ['updated_at', t],
    ]) {
      db.run('INSERT INTO meta(key, value) VALUES (?, ?)', [k, v]);
    }
    db.run('COMMIT');
    atomicWriteFile(file, db.export(), { keepPrevious: false });
    db.close();
    return Project.open(file, { app: opts.app });
  }

  /**
   * Open a project. A file that is not a valid PyOps project is reported with a clear error and
   * never modified. If another live process holds the project, it opens read-only.
   */
  static async open(file: string, opts: OpenOptions = {}): Promise<Project> {
    file = projectPath(file);
    const SQL = await loadSqlJs();
    const bytes = readProjectBytes(file);
    let db = validateProjectBytes(SQL, bytes, file, { sealRequired: true });

    let readOnly = !!opts.readOnly;
    let reason: string | undefined = readOnly ? 'opened read-only on request' : undefined;
    let owner: LockOwner | undefined;
    let lockHeld = false;
    let release = () => {};
    if (!readOnly) {
      try {
        fs.accessSync(file, fs.constants.W_OK);
        const lock = acquireLock(file, opts.app ?? 'pyops');
        if (lock.acquired) {
          lockHeld = true;
          release = () => lock.release();
          // The previous writer may have saved and closed between our read and the lock: what we
          // read first was only good for refusing a non-project early.
          try {
            const now = readProjectBytes(file);
            if (!Buffer.from(now.buffer, now.byteOffset, now.byteLength).equals(bytes)) {
              db.close();
              db = validateProjectBytes(SQL, now, file, { sealRequired: true });
            }
          } catch (err) {
            release();
            throw err;
          }
        } else {
          readOnly = true;
          owner = lock.owner;
          reason = owner
            ? `${path.basename(file)} is open in another PyOps window (${owner.app}, process ${owner.pid}); changes here are not saved. Close it there to edit it here.`
            : `${path.basename(file)} is being opened by another PyOps process; changes here are not saved. Close it there, or open it again here in a moment.`;
        }
      } catch (err) {
        if (err instanceof ProjectError) throw err;
        readOnly = true;
        reason = describeFsError(file, err, 'changes are not saved');
      }
    }

    try {
      // Saves since the last checkpoint live in the journal; replay them under the file's own schema.
      let generation = journalGeneration(db);
      let check = checkJournal(file, generation, projectIdOf(db));
      // A live writer may be mid-append or mid-checkpoint: what looks odd now is whole a moment later.
      for (let i = 0; i < 5 && !lockHeld && check.problem && !isLockFree(file); i++) {
        await new Promise((r) => setTimeout(r, 30));
        db.close();
        db = validateProjectBytes(SQL, readProjectBytes(file), file, { sealRequired: true });
        generation = journalGeneration(db);
        check = checkJournal(file, generation, projectIdOf(db));
      }
      const { jr, problem: damage } = check;
      if (jr && !jr.stale && jr.frames.length) {
        const failed = applyFrames(db, jr.frames, { lenient: !!damage });
        if (failed && !damage) throw new ProjectError('damaged', `${path.basename(journalPath(file))} holds saves that cannot be replayed.${recoverHint(file)}`);
      }
      if (damage) {
        // Never build on a damaged journal: the next save would rewrite it. Open what can be read,
        // read-only, and leave every file as it is for Recover Project.
        readOnly = true;
        reason = damage;
        release();
        release = () => {};
      }
      const { gd, status: gdStatus, migrated } = openGamedata(SQL, file);
      if (migrated && !readOnly) saveMigratedGamedata(projectPath(gamedataPath(file)), gd);
      const hadData = !!scalar(db, "SELECT value FROM meta WHERE key = 'data_fingerprint' AND value <> ''");
      const status: GamedataStatus = gdStatus === 'empty' && hadData ? 'missing' : gdStatus;
      const project = new Project(SQL, file, db, gd, readOnly, reason, owner, release, status, damage);
      // These databases live in sql.js's in-memory file system; durability is our journal and
      // checkpoints, so SQLite's own rollback journal and syncs may stay in memory too.
      attachGamedata(db, gd);
      db.run('PRAGMA main.journal_mode = MEMORY');
      db.run('PRAGMA main.synchronous = OFF');
      db.run('PRAGMA temp_store = MEMORY');
      // No other connection ever opens the project's in-memory file (the game data's has its own,
      // for exports, so it stays shared): holding the lock spares every transaction re-checking
      // its page cache, which is a good part of a small save.
      db.run('PRAGMA main.locking_mode = EXCLUSIVE');
      reuseStatements(db);
      if (!readOnly) {
        removeStaleTempFiles(file);
        removeStaleTempFiles(journalPath(file));
        if (jr?.stale) keepAsPreviousJournal(file);
        const migrate_ = schemaVersion(db) < latestVersion(PROJECT_MIGRATIONS);
        if (migrate_) {
          migrate(db, PROJECT_MIGRATIONS);
          setMetaRaw(db, 'schema_version', String(schemaVersion(db)));
        }
        if (migrate_ || jr?.frames.length) {
          // Fold replayed saves (and the migration) into the file; the old file stays as .bak.
          project.checkpoint();
        } else if (jr && !jr.stale) {
          const { validBytes, frames } = jr;
          project.startJournal = () => JournalWriter.resume(journalPath(file), generation, validBytes, frames.length, project.ackRecorder());
        } else {
          project.startJournal = () => JournalWriter.create(journalPath(file), generation, project.ackRecorder());
        }
      }
      return project;
    } catch (err) {
      release();
      db.close();
      throw err;
    }
  }

  get name(): string {
    return this.meta('name') ?? path.basename(this.file, PROJECT_EXTENSION);
  }

  get id(): string {
    return this.meta('project_id') ?? '';
  }

  meta(key: string): string | undefined {
    this.assertOpen();
    return scalar<string>(this.db, 'SELECT value FROM main.meta WHERE key = ?', [key]);
  }

  gamedataMeta(key: string): string | undefined {
    this.assertOpen();
    return scalar<string>(this.db, 'SELECT value FROM gd.gd_meta WHERE key = ?', [key]);
  }

  /** True once game data has been imported into this project. */
  hasGameData(): boolean {
    return this.gamedataMeta('fingerprint') !== undefined;
  }

  /**
   * Run `fn` in one transaction and save durably. Nested calls join the outer transaction. With
   * `undo`, the write is one undoable action under that label (what the user sees in "Undo …").
   */
  write<T>(fn: (db: Database) => T, opts: WriteOptions = {}): T {
    this.assertWritable();
    if (this.txDepth > 0) return fn(this.db);
    const capture = this.ready();
    this.txDepth++;
    this.db.run('BEGIN');
    let result: T;
    const stamp = Date.now() - this.stampedAt >= STAMP_EVERY_MS;
    try {
      capture.undo = !!opts.undo;
      result = fn(this.db);
      if (opts.undo) recordUndo(this.db, opts.undo);
      if (stamp) setMetaRaw(this.db, 'updated_at', nowIso());
      // Durable before it is visible: if the journal cannot be written, nothing changes.
      const frame = collectChanges(this.db, capture.take());
      if (frame.changes.length) {
        try {
          this.journal!.append(frame);
        } catch (err) {
          throw storeError(journalPath(this.file), err);
        }
      }
      this.db.run('COMMIT');
    } catch (err) {
      this.db.run('ROLLBACK');
      capture.take();
      throw err;
    } finally {
      capture.undo = false;
      this.txDepth--;
    }
    if (stamp) this.stampedAt = Date.now();
    for (const l of this.writeListeners) {
      try {
        l();
      } catch {
        // a listener's failure is its own; the write has already happened
      }
    }
    if (this.journal!.size > CHECKPOINT_BYTES || this.journal!.frames > CHECKPOINT_FRAMES) {
      try {
        this.checkpoint();
      } catch {
        // The save itself is durable in the journal; the next write retries the checkpoint.
      }
    }
    return result;
  }

  private readonly writeListeners = new Set<() => void>();

  /**
   * Everything a save needs that a project opened only to be read does not: the change capture and
   * the journal. The first write does it if nobody did before, so opening stays cheap (it is on VS
   * Code's startup path); a host may call this when it is idle so the first edit does not wait.
   */
  prepareWrites(): void {
    this.assertWritable();
    this.ready();
  }

  private ready(): ChangeCapture {
    if (!this.capture) this.capture = installChangeCapture(this.db);
    if (!this.journal) {
      const start = this.startJournal ?? (() => JournalWriter.create(journalPath(this.file), journalGeneration(this.db), this.ackRecorder()));
      try {
        this.journal = start();
      } catch (err) {
        throw storeError(journalPath(this.file), err);
      }
      this.startJournal = undefined;
    }
    return this.capture;
  }

  /**
   * Call `listener` after every committed write (any caller: an edit, a chat apply, a game sync, an
   * undo), so views can follow the project without each writer remembering to notify them. Returns
   * the unsubscribe function.
   */
  onDidWrite(listener: () => void): () => void {
    this.writeListeners.add(listener);
    return () => this.writeListeners.delete(listener);
  }

  setMeta(key: string, value: string): void {
    this.write((db) => setMetaRaw(db, key, value));
  }

  /** The action "Undo" would revert, if any. */
  undoable(): UndoEntry | undefined {
    this.assertOpen();
    return nextUndo(this.db);
  }

  /** The action "Redo" would re-apply, if any. */
  redoable(): UndoEntry | undefined {
    this.assertOpen();
    return nextRedo(this.db);
  }

  /** Revert the latest undoable action; returns what it touched (callers re-solve from that). */
  undo(): UndoResult | undefined {
    const entry = this.undoable();
    if (!entry) return undefined;
    return this.write((db) => swapImages(db, entry, 'undo'));
  }

  /** Re-apply the action undone last. */
  redo(): UndoResult | undefined {
    const entry = this.redoable();
    if (!entry) return undefined;
    return this.write((db) => swapImages(db, entry, 'redo'));
  }

  /**
   * Fold the journal into the project file: write the whole project database atomically under a
   * new journal generation, then start an empty journal. The game data is not touched.
   */
  checkpoint(): void {
    this.assertWritable();
    const previous = journalGeneration(this.db);
    const next = previous + 1;
    setMetaRaw(this.db, 'journal_generation', String(next));
    setMetaRaw(this.db, 'image_seal', 'sha256');
    // The file itself carries these; they are no save of their own.
    this.capture?.take();
    try {
      atomicWriteFile(this.file, sealImage(this.db.export()));
    } catch (err) {
      setMetaRaw(this.db, 'journal_generation', String(previous));
      this.capture?.take();
      throw storeError(this.file, err);
    }
    this.journal?.close();
    this.journal = undefined;
    // The folded journal is what turns `.bak` into the new file: keep it beside `.bak`, so a
    // recovery from `.bak` loses nothing.
    keepAsPreviousJournal(this.file);
    // The next write starts the new generation's journal.
    this.startJournal = () => JournalWriter.create(journalPath(this.file), next, this.ackRecorder());
  }

  /** Each journal keeps the save record up to date while it is written (see ackRecord.ts). */
  private ackRecorder(): AckRecorder {
    return new AckRecorder(this.file, this.id);
  }

  /**
   * Replace all reference data. `fill` inserts the new rows (unqualified table names resolve to `gd`)
   * into a new game-data database, with room for about `roomFor` bytes, which is swapped in once it
   * is complete and written. Project-owned rows are untouched. On any error nothing changes, in
   * memory or on disk.
   */
  replaceGameData(fill: (db: Database) => void, gdMeta: Record<string, string>, roomFor = 0): void {
    this.assertWritable();
    const { db: fresh, image } = buildGamedata(this.SQL, this.db, this.gd, fill, gdMeta, roomFor);
    try {
      // Game data first: if we crash in between, the project still opens with the new data and
      // simply records the fingerprint on its next save.
      // Through a symlinked sidecar to its file: the link stays where the user put it.
      atomicWriteFile(projectPath(this.gamedataFile), sealImage(image));
    } catch (err) {
      swapGamedata(this.db, this.gd);
      fresh.close();
      throw err;
    }
    this.gd.close();
    this.gd = fresh;
    this.write((d) => {
      setMetaRaw(d, 'data_fingerprint', gdMeta.fingerprint ?? '');
      setMetaRaw(d, 'data_imported_at', gdMeta.imported_at ?? nowIso());
    });
  }

  /** Bytes of the game-data database (for bundles and benchmarks). */
  exportGameData(): Uint8Array {
    this.assertOpen();
    return this.gd.export();
  }

  /** Row counts of the given tables, for summaries and tests. */
  counts(tables: readonly string[]): Record<string, number> {
    const out: Record<string, number> = {};
    for (const t of tables) out[t] = Number(scalar(this.db, `SELECT count(*) FROM ${t}`) ?? 0);
    return out;
  }

  query<T = Record<string, SqlValue>>(sql: string, params: SqlValue[] = []): T[] {
    this.assertOpen();
    return all<T>(this.db, sql, params);
  }

  /** Close the project; pending journal frames are folded into the file first. */
  close(): void {
    if (this.closed) return;
    try {
      if (!this.readOnly && this.journal && this.journal.frames > 0) this.checkpoint();
    } finally {
      this.closed = true;
      this.journal?.close();
      if (!this.readOnly && this.journal && this.journal.frames === 0) fs.rmSync(this.journal.file, { force: true });
      this.journal = undefined;
      try {
        this.db.close();
        this.gd.close();
      } finally {
        this.releaseLock();
      }
    }
  }

  /**
   * True when this copy is read-only only because another window held the project, and that window
   * has let go: reopening now gives an editable project.
   */
  canReopenWritable(): boolean {
    return !this.closed && this.readOnly && this.lockOwner !== undefined && !this.damage && isLockFree(this.file);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private assertOpen(): void {
    if (this.closed) throw new ProjectError('closed', 'The project was closed; open it again.');
  }

  private assertWritable(): void {
    this.assertOpen();
    if (this.readOnly) {
      const reopen = this.canReopenWritable() ? ' The other window has closed it since: reopen the project here to edit it.' : '';
      throw new ProjectError('read-only', `This project is read-only: ${this.readOnlyReason ?? 'opened read-only'}.${reopen}`);
    }
  }
}

function projectIdOf(db: Database): string {
  return scalar<string>(db, "SELECT value FROM main.meta WHERE key = 'project_id'") ?? '';
}

/** Anything under that name, a dangling symlink included. */
function entryExists(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
}
