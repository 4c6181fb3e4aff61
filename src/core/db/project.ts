// The project store. A project is `<name>.pyops` (SQLite: blocks, tasks, notes, conversations,
// settings) plus `<name>.pyops.gamedata` (SQLite: imported reference data), attached as schema `gd`.
// A save appends the rows a transaction changed to `<name>.pyops.journal` (see journal.ts); the
// project file itself is rewritten only at checkpoints, and the game data only by an import.
// `bundle.ts` packs everything into one file for backup and sharing.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { loadSqlJs, scalar, all, dbFilename, reuseStatements, type Database, type SqlValue, type Statement } from './sqlite';
import { atomicWriteFile, removeStaleTempFiles, BACKUP_SUFFIX } from './atomicFile';
import { JournalWriter, describeDamage, journalPath, previousJournalPath, readJournal, type JournalChange, type JournalFrame, type JournalRead } from './journal';
import { sealImage, unsealImage } from './seal';
import { acquireLock, isLockFree, type LockOwner } from './lock';
import { migrate, schemaVersion, latestVersion } from './migrate';
import { ProjectError } from './errors';
import { PROJECT_KIND, BUNDLE_KIND, PROJECT_MIGRATIONS } from './schema/project';
import { GAMEDATA_KIND, GAMEDATA_MIGRATIONS, GAMEDATA_TABLES, DATA_FORMAT_VERSION } from './schema/gamedata';

export const PROJECT_EXTENSION = '.pyops';
/** Fold the journal into the project file once it grows past this many bytes or frames. */
const CHECKPOINT_BYTES = 4 * 1024 * 1024;
const CHECKPOINT_FRAMES = 2000;
const BEFORE = 'temp._pyops_before';
/** How often a write refreshes meta `updated_at` (a per-write stamp would cost every save a second row). */
const STAMP_EVERY_MS = 60_000;
/** Undo history length (older actions are dropped). */
export const UNDO_LIMIT = 50;
/**
 * Tables outside undo: identity/provenance, the undo history itself, and the conversations — a log
 * of what was said, which Undo never rewinds (no undoable action writes it). Staying out matters
 * for speed too: a table's undo triggers are compiled into every statement that writes it, and
 * chat saves are the most frequent writes there are.
 */
const NOT_UNDOABLE = new Set(['meta', 'undo_actions', 'undo_changes', 'conversations', 'conversation_messages']);

export interface WriteOptions {
  /** Record the write as one undoable action with this label. */
  undo?: string;
}
export interface UndoEntry {
  id: number;
  label: string;
  createdAt: string;
}
export interface UndoResult extends UndoEntry {
  /** Rows the undo/redo rewrote. */
  touched: Array<{ table: string; rowid: number }>;
}
export const GAMEDATA_SUFFIX = '.gamedata';
const SQLITE_MAGIC = 'SQLite format 3\0';

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

export function gamedataPath(projectFile: string): string {
  return projectFile + GAMEDATA_SUFFIX;
}

function nowIso(): string {
  return new Date().toISOString();
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

  /** Create a new, empty project. Refuses to overwrite an existing file. */
  static async create(file: string, opts: CreateOptions = {}): Promise<Project> {
    file = path.resolve(file);
    if (fs.existsSync(file)) {
      throw new ProjectError('exists', `${file} already exists; open it, or choose another file name.`);
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
    file = path.resolve(file);
    const SQL = await loadSqlJs();
    const bytes = readBytes(file);
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
            const now = readBytes(file);
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
      let jr = readJournal(journalPath(file), generation);
      // A live writer may be mid-append or mid-checkpoint: what looks odd now is whole a moment later.
      for (let i = 0; i < 5 && !lockHeld && jr && (jr.damage.length || jr.newer) && !isLockFree(file); i++) {
        await new Promise((r) => setTimeout(r, 30));
        db.close();
        db = validateProjectBytes(SQL, readBytes(file), file, { sealRequired: true });
        generation = journalGeneration(db);
        jr = readJournal(journalPath(file), generation);
      }
      const damage = jr ? journalProblem(file, jr, generation) : undefined;
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
      const { gd, status: gdStatus } = openGamedata(SQL, file);
      const hadData = !!scalar(db, "SELECT value FROM meta WHERE key = 'data_fingerprint' AND value <> ''");
      const status: GamedataStatus = gdStatus === 'empty' && hadData ? 'missing' : gdStatus;
      const project = new Project(file, db, gd, readOnly, reason, owner, release, status, damage);
      db.run(`ATTACH DATABASE '${dbFilename(gd)}' AS gd`);
      // These databases live in sql.js's in-memory file system; durability is our journal and
      // checkpoints, so SQLite's own rollback journal and syncs may stay in memory too.
      db.run('PRAGMA main.journal_mode = MEMORY');
      db.run('PRAGMA gd.journal_mode = MEMORY');
      db.run('PRAGMA main.synchronous = OFF');
      db.run('PRAGMA gd.synchronous = OFF');
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
          project.startJournal = () => JournalWriter.resume(journalPath(file), generation, validBytes, frames.length);
        } else {
          project.startJournal = () => JournalWriter.create(journalPath(file), generation);
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
      const start = this.startJournal ?? (() => JournalWriter.create(journalPath(this.file), journalGeneration(this.db)));
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
    return this.query<UndoEntry>('SELECT id, label, created_at AS createdAt FROM main.undo_actions WHERE undone = 0 ORDER BY id DESC LIMIT 1')[0];
  }

  /** The action "Redo" would re-apply, if any. */
  redoable(): UndoEntry | undefined {
    return this.query<UndoEntry>('SELECT id, label, created_at AS createdAt FROM main.undo_actions WHERE undone = 1 ORDER BY id ASC LIMIT 1')[0];
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
    this.startJournal = () => JournalWriter.create(journalPath(this.file), next);
  }

  /**
   * Replace all reference data in one transaction. `fill` inserts the new rows (unqualified table
   * names resolve to `gd`). Project-owned rows are untouched. On any error nothing changes, in
   * memory or on disk.
   */
  replaceGameData(fill: (db: Database) => void, gdMeta: Record<string, string>): void {
    this.assertWritable();
    const db = this.db;
    db.run('BEGIN');
    try {
      for (const t of GAMEDATA_TABLES) db.run(`DELETE FROM gd.${t}`);
      db.run('DELETE FROM gd.gd_meta');
      fill(db);
      const stmt = db.prepare('INSERT INTO gd.gd_meta(key, value) VALUES (?, ?)');
      for (const [k, v] of Object.entries({ kind: GAMEDATA_KIND, ...gdMeta })) stmt.run([k, v]);
      stmt.free();
      db.run('COMMIT');
    } catch (err) {
      db.run('ROLLBACK');
      throw err;
    }
    // Game data first: if we crash in between, the project still opens with the new data and
    // simply records the fingerprint on its next save.
    atomicWriteFile(this.gamedataFile, sealImage(this.gd.export()));
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

function journalGeneration(db: Database): number {
  return Number(scalar(db, "SELECT value FROM main.meta WHERE key = 'journal_generation'") ?? 0);
}

const quoteId = (n: string) => `"${n.replace(/"/g, '""')}"`;

/**
 * What the open transaction touched, for the journal, and whether its before-images are wanted
 * (undoable writes only).
 */
interface ChangeCapture {
  /** Set by write() for the duration of an undoable write. */
  undo: boolean;
  /** The touched rowids per table, emptied. */
  take(): Map<string, Set<number>>;
}

/**
 * SQLite's update hook reports every inserted and updated row to us directly (no temp table, no
 * extra statements per save). It is silent on rows a REPLACE conflict deletes and on a DELETE
 * without WHERE (the truncate optimization), so each table gets an AFTER DELETE trigger that reports
 * the row — with recursive triggers, REPLACE deletes fire it, and any trigger disables truncation —
 * and one for the rare UPDATE that moves a row to another rowid. Temp objects are never exported.
 */
function installChangeCapture(db: Database): ChangeCapture {
  let touched = new Map<string, Set<number>>();
  const touch = (table: string, rowid: number) => {
    let set = touched.get(table);
    if (!set) touched.set(table, (set = new Set()));
    set.add(rowid);
  };
  const capture: ChangeCapture = {
    undo: false,
    take() {
      const t = touched;
      touched = new Map();
      return t;
    },
  };
  db.updateHook((_op, schema, table, rowid) => {
    if (schema === 'main') touch(table, rowid);
  });
  db.create_function('pyops_touched', (table: unknown, rowid: unknown) => {
    touch(String(table), Number(rowid));
    return null;
  });
  db.create_function('pyops_undo_capture', () => (capture.undo ? 1 : 0));
  db.run('PRAGMA recursive_triggers = ON');
  const tables = all<{ name: string }>(db, "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").map((r) => r.name);
  // Undo keeps each touched row's image from before the write (first touch wins). No unique key:
  // a conflict clause on the outer statement (an upsert, INSERT OR REPLACE) would override an
  // OR IGNORE inside the trigger, so "first touch" is a NOT EXISTS test instead.
  const sql = [
    'CREATE TEMP TABLE IF NOT EXISTS _pyops_before (tbl TEXT NOT NULL, rid INTEGER NOT NULL, img TEXT);',
    'CREATE INDEX IF NOT EXISTS temp._pyops_before_key ON _pyops_before (tbl, rid);',
  ];
  const firstTouch = (lit: string, rid: string, img: string) =>
    `INSERT INTO _pyops_before (tbl, rid, img) SELECT ${lit}, ${rid}, ${img} WHERE NOT EXISTS (SELECT 1 FROM _pyops_before WHERE tbl = ${lit} AND rid = ${rid});`;
  for (const t of tables) {
    const lit = `'${t.replace(/'/g, "''")}'`;
    const id = quoteId(t);
    sql.push(`CREATE TEMP TRIGGER IF NOT EXISTS ${quoteId(`_pyj_d_${t}`)} AFTER DELETE ON main.${id} BEGIN SELECT pyops_touched(${lit}, OLD.rowid); END;`);
    sql.push(`CREATE TEMP TRIGGER IF NOT EXISTS ${quoteId(`_pyj_m_${t}`)} AFTER UPDATE ON main.${id} WHEN OLD.rowid IS NOT NEW.rowid BEGIN SELECT pyops_touched(${lit}, OLD.rowid); END;`);
    if (NOT_UNDOABLE.has(t)) continue;
    const cols = all<{ name: string }>(db, `PRAGMA main.table_info(${id})`).map((c) => c.name);
    const img = (row: 'OLD' | 'NEW') => `json_object(${cols.map((c) => `'${c.replace(/'/g, "''")}', ${row}.${quoteId(c)}`).join(', ')})`;
    const when = 'WHEN pyops_undo_capture()';
    sql.push(`CREATE TEMP TRIGGER IF NOT EXISTS ${quoteId(`_pyu_i_${t}`)} AFTER INSERT ON main.${id} ${when} BEGIN ${firstTouch(lit, 'NEW.rowid', 'NULL')} END;`);
    sql.push(`CREATE TEMP TRIGGER IF NOT EXISTS ${quoteId(`_pyu_u_${t}`)} BEFORE UPDATE ON main.${id} ${when} BEGIN ${firstTouch(lit, 'OLD.rowid', img('OLD'))} ${firstTouch(lit, 'NEW.rowid', 'NULL')} END;`);
    sql.push(`CREATE TEMP TRIGGER IF NOT EXISTS ${quoteId(`_pyu_d_${t}`)} BEFORE DELETE ON main.${id} ${when} BEGIN ${firstTouch(lit, 'OLD.rowid', img('OLD'))} END;`);
  }
  // One call: each statement through its own prepare would cost the startup-critical path more.
  db.exec(sql.join('\n'));
  return capture;
}

/** Store the before-images of this write as one undo action; a new action drops the redo list. */
function recordUndo(db: Database, label: string): void {
  const rows = all<{ tbl: string; rid: number; img: string | null }>(db, `SELECT tbl, rid, img FROM ${BEFORE} ORDER BY tbl, rid`);
  db.run(`DELETE FROM ${BEFORE}`);
  if (!rows.length) return;
  db.run('DELETE FROM main.undo_changes WHERE action_id IN (SELECT id FROM main.undo_actions WHERE undone = 1)');
  db.run('DELETE FROM main.undo_actions WHERE undone = 1');
  db.run('INSERT INTO main.undo_actions(label, created_at, undone) VALUES (?, ?, 0)', [label, nowIso()]);
  const id = Number(scalar(db, 'SELECT last_insert_rowid()'));
  const stmt = db.prepare('INSERT INTO main.undo_changes(action_id, seq, tbl, row_key, before, after) VALUES (?, ?, ?, ?, ?, NULL)');
  try {
    rows.forEach((r, i) => stmt.run([id, i, r.tbl, String(r.rid), r.img]));
  } finally {
    stmt.free();
  }
  db.run(`DELETE FROM main.undo_changes WHERE action_id IN (SELECT id FROM main.undo_actions ORDER BY id DESC LIMIT -1 OFFSET ${UNDO_LIMIT})`);
  db.run(`DELETE FROM main.undo_actions WHERE id IN (SELECT id FROM main.undo_actions ORDER BY id DESC LIMIT -1 OFFSET ${UNDO_LIMIT})`);
}

function rowImage(db: Database, table: string, rowid: number): string | null {
  const row = readRow(db, table, rowid);
  return row ? JSON.stringify(row) : null;
}

function putImage(db: Database, table: string, rowid: number, img: string | null): void {
  db.run(`DELETE FROM main.${quoteId(table)} WHERE rowid = ?`, [rowid]);
  if (img !== null) putRow(db, table, rowid, JSON.parse(img) as Record<string, unknown>);
}

/** Write one row image under its rowid, replacing whatever holds that rowid. */
function putRow(db: Database, table: string, rowid: number, row: Record<string, unknown>): void {
  const cols = Object.keys(row);
  db.run(
    `INSERT OR REPLACE INTO main.${quoteId(table)} (rowid, ${cols.map(quoteId).join(', ')}) VALUES (?, ${cols.map(() => '?').join(', ')})`,
    [rowid, ...cols.map((c) => row[c] as SqlValue)],
  );
}

/** Undo: put back the before-images (keeping the current ones for redo); redo: the reverse. */
function swapImages(db: Database, entry: UndoEntry, direction: 'undo' | 'redo'): UndoResult {
  const changes = all<{ seq: number; tbl: string; row_key: string; before: string | null; after: string | null }>(
    db, 'SELECT seq, tbl, row_key, before, after FROM main.undo_changes WHERE action_id = ? ORDER BY seq', [entry.id],
  );
  const touched: UndoResult['touched'] = [];
  const now = changes.map((c) => rowImage(db, c.tbl, Number(c.row_key)));
  // Deletions first so unique keys never collide while rows move back.
  const order = [...changes.keys()].sort((a, b) => Number((direction === 'undo' ? changes[a].before : changes[a].after) !== null) - Number((direction === 'undo' ? changes[b].before : changes[b].after) !== null));
  for (const i of order) {
    const c = changes[i];
    putImage(db, c.tbl, Number(c.row_key), direction === 'undo' ? c.before : c.after);
    touched.push({ table: c.tbl, rowid: Number(c.row_key) });
  }
  const col = direction === 'undo' ? 'after' : 'before';
  const stmt = db.prepare(`UPDATE main.undo_changes SET ${col} = ? WHERE action_id = ? AND seq = ?`);
  try {
    changes.forEach((c, i) => stmt.run([now[i], entry.id, c.seq]));
  } finally {
    stmt.free();
  }
  db.run('UPDATE main.undo_actions SET undone = ? WHERE id = ?', [direction === 'undo' ? 1 : 0, entry.id]);
  return { ...entry, touched };
}

/** Per database, the prepared one-row reads of collectChanges (preparing is most of a small save's SQL cost). */
const rowReaders = new WeakMap<Database, Map<string, Statement>>();

function readRow(db: Database, table: string, rowid: number): Record<string, unknown> | undefined {
  let byTable = rowReaders.get(db);
  if (!byTable) rowReaders.set(db, (byTable = new Map()));
  let stmt = byTable.get(table);
  if (!stmt) byTable.set(table, (stmt = db.prepare(`SELECT * FROM main.${quoteId(table)} WHERE rowid = ?`)));
  try {
    stmt.bind([rowid]);
    return stmt.step() ? (stmt.getAsObject() as Record<string, unknown>) : undefined;
  } finally {
    stmt.reset();
  }
}

/** Final state of every row the transaction touched (deleted rows as null). */
function collectChanges(db: Database, touched: Map<string, Set<number>>): JournalFrame {
  const changes: JournalChange[] = [];
  for (const [table, rids] of touched) {
    const ids = [...rids];
    if (ids.length === 1) {
      changes.push({ table, rowid: ids[0], row: readRow(db, table, ids[0]) ?? null });
      continue;
    }
    const found = new Map<number, Record<string, unknown>>();
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      for (const row of all<Record<string, unknown>>(db, `SELECT rowid AS __rowid, * FROM main.${quoteId(table)} WHERE rowid IN (${chunk.map(() => '?').join(',')})`, chunk)) {
        const rowid = Number(row.__rowid);
        delete row.__rowid;
        found.set(rowid, row);
      }
    }
    for (const rowid of ids) changes.push({ table, rowid, row: found.get(rowid) ?? null });
  }
  return { changes };
}

/**
 * Replay journal frames: per frame, deletions first, then the final row images. Strict replay is
 * all or nothing; lenient replay (a damaged journal) keeps every frame that applies and returns how
 * many did not.
 */
export function applyFrames(db: Database, frames: JournalFrame[], opts: { lenient?: boolean } = {}): number {
  let failed = 0;
  db.run('BEGIN');
  try {
    for (const f of frames) {
      if (opts.lenient) db.run('SAVEPOINT frame');
      try {
        for (const c of f.changes) if (c.row === null) db.run(`DELETE FROM main.${quoteId(c.table)} WHERE rowid = ?`, [c.rowid]);
        for (const c of f.changes) if (c.row !== null) putRow(db, c.table, c.rowid, c.row);
        if (opts.lenient) db.run('RELEASE frame');
      } catch (err) {
        if (!opts.lenient) throw err;
        db.run('ROLLBACK TO frame');
        db.run('RELEASE frame');
        failed++;
      }
    }
    db.run('COMMIT');
  } catch (err) {
    db.run('ROLLBACK');
    throw new ProjectError('damaged', `The project's journal could not be replayed (${(err as Error).message}); the project file itself is intact.`);
  }
  return failed;
}

/** Move a journal that is already folded into the file beside `.bak` (never delete saves). */
function keepAsPreviousJournal(file: string): void {
  try {
    fs.renameSync(journalPath(file), previousJournalPath(file));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/** What is wrong with a journal that must not be built on, phrased for the user; undefined if nothing. */
function journalProblem(file: string, jr: JournalRead, generation: number): string | undefined {
  const name = path.basename(journalPath(file));
  const saves = `${jr.frames.length} save${jr.frames.length === 1 ? '' : 's'}`;
  if (jr.headerDamaged) {
    return `${name} has a damaged header, so it cannot be matched to ${path.basename(file)}; ${saves} in it are intact and shown here. Nothing was changed.${recoverHint(file)}`;
  }
  if (jr.newer) {
    return `${name} holds ${saves} made after a newer version of ${path.basename(file)} (journal generation ${jr.generation}, file ${generation}): the project file was replaced by an older copy. They are shown here on top of it; nothing was changed.${recoverHint(file)}`;
  }
  if (jr.stale || !jr.damage.length) return undefined;
  const bad = jr.damage.map(describeDamage).join(', ');
  return `${name} is damaged (${bad}): ${saves} are intact and shown here; saves in the damaged bytes cannot be read. The project is read-only and nothing was changed or deleted.${recoverHint(file)}`;
}

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

function describeFsError(file: string, err: unknown, consequence: string): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return `the disk holding ${path.basename(file)} is full (${code}), so it opened read-only and ${consequence}. Free some space, then open it again`;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return `${path.basename(file)} is not writable (${code}); ${consequence}`;
  return `${path.basename(file)} could not be opened for writing (${(err as Error).message}); ${consequence}`;
}

/** Set a row of the project's `meta` table inside the caller's transaction (no journal of its own). */
export function setMetaRaw(db: Database, key: string, value: string): void {
  db.run('INSERT INTO main.meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [key, value]);
}

function readBytes(file: string): Uint8Array {
  try {
    return fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ProjectError('missing', `${file} does not exist; create a project there or pick another file.`);
    }
    throw err;
  }
}

type SqlJs = Awaited<ReturnType<typeof loadSqlJs>>;

export interface ValidateOptions {
  /** A file whose meta says it was sealed must still carry its seal (Project.open; not bundles). */
  sealRequired?: boolean;
}

/** Parse and check a project file's bytes without touching the file. Returns the open database. */
export function validateProjectBytes(SQL: SqlJs, bytes: Uint8Array, file: string, opts: ValidateOptions = {}): Database {
  const label = path.basename(file);
  if (bytes.length < 100 || Buffer.from(bytes.subarray(0, 16)).toString('latin1') !== SQLITE_MAGIC) {
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
  return [file + BACKUP_SUFFIX, journalPath(file), previousJournalPath(file), gamedataPath(file)].some((f) => {
    try {
      return fs.statSync(f).size > 0;
    } catch {
      return false;
    }
  });
}

/**
 * `ok`: imported data present; `empty`: nothing imported yet; `missing`: the project says data was
 * imported but the sidecar is gone; `unreadable`: the sidecar cannot be read (permissions) or is not
 * PyOps game data of this schema; `damaged`: its checksum or SQLite's integrity check fails;
 * `outdated`: usable, but imported by an older normalizer (re-import for full fidelity).
 */
export type GamedataStatus = 'ok' | 'empty' | 'missing' | 'unreadable' | 'damaged' | 'outdated';

function openGamedata(SQL: SqlJs, projectFile: string): { gd: Database; status: GamedataStatus } {
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
  if (state === 'mismatch' || bytes.length < 100 || Buffer.from(bytes.subarray(0, 16)).toString('latin1') !== SQLITE_MAGIC) {
    return { gd: emptyGamedata(SQL), status: 'damaged' };
  }
  let gd: Database;
  try {
    gd = new SQL.Database(image);
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
        // defaults); the file itself is rewritten by the next import.
        if (version < latestVersion(GAMEDATA_MIGRATIONS)) migrate(gd, GAMEDATA_MIGRATIONS);
        const fmt = Number(scalar(gd, "SELECT value FROM gd_meta WHERE key = 'data_format_version'") ?? 0);
        return { gd, status: fmt < DATA_FORMAT_VERSION ? 'outdated' : 'ok' };
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
 * Why the project has no usable game data, and what to do — undefined when it has some. Tools, the
 * CLI and the extension say this instead of a generic "no game data yet".
 */
export function gamedataProblem(project: Project): string | undefined {
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

function emptyGamedata(SQL: SqlJs): Database {
  const gd = new SQL.Database();
  migrate(gd, GAMEDATA_MIGRATIONS);
  return gd;
}
