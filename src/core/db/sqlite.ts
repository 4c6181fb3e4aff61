// Loads sql.js once per process. The wasm file is found next to the bundle at run time
// (dist/sql-wasm.wasm) or in node_modules when running from source (tests, tsx).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import initSqlJs from 'sql.js';
import { takeSqlWasm } from './wasmAhead';
import { firstExisting } from '../runtime/firstExisting';
import { directRun } from './directBind';
import type { SqlJsStatic, Database, Statement } from 'sql.js';

export type { Database, SqlJsStatic, Statement };
export type SqlValue = number | string | Uint8Array | null;

let wasmDirOverride: string | undefined;
let loading: Promise<SqlJsStatic> | undefined;
let loaded: SqlJsStatic | undefined;

/** Tell the loader where `sql-wasm.wasm` lives (the extension passes its `dist` folder). */
export function setSqlWasmDir(dir: string): void {
  wasmDirOverride = dir;
}

function locateWasm(file: string): string {
  return firstExisting(
    [
      () => (wasmDirOverride ? path.join(wasmDirOverride, file) : undefined),
      () => (typeof __dirname !== 'undefined' ? path.join(__dirname, file) : undefined),
      () => path.join(path.dirname(createRequire(path.join(process.cwd(), 'package.json')).resolve('sql.js/dist/sql-wasm.js')), file),
    ],
    fs.existsSync,
    file,
  );
}

/** sql.js's `instantiateWasm` hook over the compile handed over; compiled here after all when that one failed. */
function instantiateFrom(module: Promise<WebAssembly.Module>) {
  return (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void): object => {
    void module
      .catch(() => WebAssembly.compile(fs.readFileSync(locateWasm('sql-wasm.wasm'))))
      .then((m) => WebAssembly.instantiate(m, imports))
      .then(done);
    return {};
  };
}

export function loadSqlJs(): Promise<SqlJsStatic> {
  if (!loading) {
    // A compile the entry started before this code ran (db/wasmAhead.ts) is instantiated, not done again.
    const compiled = takeSqlWasm();
    // useOldExtensionFunctions:false keeps native math functions and avoids a deprecation notice.
    loading = initSqlJs({ locateFile: locateWasm, useOldExtensionFunctions: false, ...(compiled ? { instantiateWasm: instantiateFrom(compiled) } : {}) } as Parameters<typeof initSqlJs>[0]);
    loading.then(
      (SQL) => void (loaded = SQL),
      () => void (loading = undefined),
    );
  }
  return loading;
}

/** The loaded sql.js module `db` belongs to; undefined for a database of another instance. */
export function sqlJsOf(db: Database): SqlJsStatic | undefined {
  return loaded && db instanceof loaded.Database ? loaded : undefined;
}

/**
 * sql.js copies the bytes a database is opened from into its in-memory file (its file system takes
 * `bytes.slice(…)`). A copy of a few MB costs more than the rest of opening: every page of the new
 * buffer is a fresh page fault. Bytes that are ours alone and never used again (a file just read, a
 * buffer just made) are handed over instead: their `slice` is a view, so the file keeps them as they
 * are. SQLite then writes its pages into them; the caller must not read or change them afterwards.
 */
class HandedOver extends Uint8Array<ArrayBuffer> {
  override slice(start?: number, end?: number): Uint8Array<ArrayBuffer> {
    return this.subarray(start, end);
  }
}

/**
 * Handed over with room to grow: the view the file keeps reaches to the end of the buffer, while the
 * file's size stays the bytes given. sql.js's file system writes within a file's storage in place and
 * copies it into a new, larger one only when a write passes its end; and it copies it again on any
 * change of the file's size, so padding the file itself (SQLite cuts it to its pages at the commit)
 * costs a copy of the whole file. Here nothing is copied while the file fits the buffer.
 */
class HandedOverWithRoom extends Uint8Array<ArrayBuffer> {
  override slice(start = 0): Uint8Array<ArrayBuffer> {
    return new Uint8Array(this.buffer, this.byteOffset + start, this.buffer.byteLength - this.byteOffset - start);
  }
}

/** A database opened from `bytes`, which it owns from now on (see HandedOver). */
export function databaseFromOwnBytes(SQL: SqlJsStatic, bytes: Uint8Array): Database {
  return new SQL.Database(new HandedOver(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength));
}

/**
 * A database opened from a copy of `image` at the start of a new buffer of `room` bytes, which its
 * file fills in place as it grows (see HandedOverWithRoom). Returns the buffer too: while the file
 * fits, its first bytes are the file.
 */
export function databaseWithRoom(SQL: SqlJsStatic, image: Uint8Array, room: number): { db: Database; buffer: Uint8Array } {
  const buffer = new Uint8Array(Math.max(room, image.length));
  buffer.set(image);
  return { db: new SQL.Database(new HandedOverWithRoom(buffer.buffer, 0, image.length)), buffer };
}

const SQLITE_MAGIC = 'SQLite format 3\0';

/** True when `bytes` start like an SQLite database file (the 100-byte header with its magic). */
export function hasSqliteHeader(bytes: Uint8Array): boolean {
  return bytes.length >= 100 && Buffer.from(bytes.subarray(0, 16)).toString('latin1') === SQLITE_MAGIC;
}

/** Run a query and return rows as plain objects. */
export function all<T = Record<string, SqlValue>>(db: Database, sql: string, params: SqlValue[] = []): T[] {
  const stmt = db.prepare(sql);
  try {
    if (params.length) stmt.bind(params);
    const rows: T[] = [];
    let cols: string[] | undefined;
    while (stmt.step()) {
      const v = stmt.get();
      cols ??= stmt.getColumnNames();
      const o: Record<string, unknown> = {};
      for (let i = 0; i < cols.length; i++) o[cols[i]] = v[i];
      rows.push(o as T);
    }
    return rows;
  } finally {
    stmt.free();
  }
}

export function scalar<T extends SqlValue = SqlValue>(db: Database, sql: string, params: SqlValue[] = []): T | undefined {
  const stmt = db.prepare(sql);
  try {
    if (params.length) stmt.bind(params);
    return stmt.step() ? (stmt.get()[0] as T) : undefined;
  } finally {
    stmt.free();
  }
}

/** Name of the database's file in sql.js's in-memory file system, usable with ATTACH. */
export function dbFilename(db: Database): string {
  const name = (db as unknown as { filename?: string }).filename;
  if (!name) throw new Error('sql.js database has no in-memory filename (unexpected sql.js version)');
  return name;
}

/** A prepared statement whose runs bind their values directly where this sql.js build allows it. */
export interface PreparedRun {
  readonly stmt: Statement;
  /** False when sql.js binds (its statement handle was not found, see directBind.ts). */
  readonly direct: boolean;
  /** Step the statement once with `params`, then reset it. */
  run(params: readonly SqlValue[]): void;
}

export function prepareRun(db: Database, sql: string): PreparedRun {
  const stmt = db.prepare(sql);
  const SQL = sqlJsOf(db);
  const direct = SQL ? directRun(SQL, stmt, sql) : undefined;
  return { stmt, direct: direct !== undefined, run: direct ?? ((params) => void stmt.run(params as SqlValue[])) };
}

const TRANSACTION_CONTROL = new Set(['BEGIN', 'COMMIT', 'ROLLBACK']);

/**
 * Make `db.run(sql, params)` on this connection reuse prepared statements (the most recent `size`
 * SQL texts). sql.js prepares, runs and frees a statement on every parameterised `run`; preparing
 * costs more than running a one-row write, and a save's statements repeat. Their values are bound
 * directly (prepareRun): a chat message's text is most of a small save's binding. BEGIN, COMMIT
 * and ROLLBACK are kept prepared too; other calls without parameters (DDL, several statements in
 * one string) keep sql.js's own path.
 */
export function reuseStatements(db: Database, size = 64): void {
  const cache = new Map<string, PreparedRun>();
  const plainRun = db.run.bind(db);
  db.run = function run(sql: string, params?: Parameters<Database['run']>[1]): Database {
    // Every save begins and ends a transaction: parsed each time, that was a tenth of a small save's CPU.
    if (params == null && !TRANSACTION_CONTROL.has(sql)) return plainRun(sql);
    let cached = cache.get(sql);
    if (cached) {
      // Most recent last, so eviction takes the longest unused.
      cache.delete(sql);
    } else {
      cached = prepareRun(db, sql);
      if (cache.size >= size) {
        const [oldest, old] = cache.entries().next().value as [string, PreparedRun];
        cache.delete(oldest);
        old.stmt.free();
      }
    }
    cache.set(sql, cached);
    if (Array.isArray(params)) {
      cached.run(params);
      return db;
    }
    try {
      if (params != null) cached.stmt.bind(params);
      cached.stmt.step();
    } finally {
      cached.stmt.reset();
    }
    return db;
  };
}
