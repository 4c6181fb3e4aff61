// Running a prepared statement with its values bound through SQLite's C API, which sql.js exports.
// sql.js binds each string by measuring it twice and copying it character by character in JavaScript
// into an allocation of its own, freed one by one: on the game-data import's ~300,000 values that was
// half the time of the inserts, and a chat message's text is most of a small save's binding. Here a
// run's strings are encoded together, with native UTF-8 encodes, into one allocation in SQLite's
// memory, and each value is bound where it lies; the statement is still stepped, reset and freed by
// sql.js. The statement's handle sits in sql.js's statement object under a name its build chooses:
// it is found by asking SQLite for each candidate's SQL, and where it is not found (another sql.js
// build) nothing is returned and the caller binds through sql.js: slower, never different.
import type { SqlJsStatic, Statement, SqlValue } from './sqlite';

/** Runs the statement once with `params` (step and reset), the values bound directly. */
export type DirectRun = (params: readonly SqlValue[]) => void;

/** The C functions of sql.js's module this needs; all of them are exported by sql.js 1.x. */
interface SqliteApi {
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  _sqlite3_sql(stmt: number): number;
  _sqlite3_bind_text(stmt: number, index: number, text: number, bytes: number, destructor: number): number;
  _sqlite3_bind_double(stmt: number, index: number, value: number): number;
  _sqlite3_bind_int(stmt: number, index: number, value: number): number;
  writeArrayToMemory(bytes: Uint8Array, ptr: number): void;
  UTF8ToString(ptr: number): string;
}

const SQLITE_OK = 0;
/** The text stays where it is until the statement is reset (sql.js's reset clears the bindings). */
const SQLITE_STATIC = 0;

/** A runner for `stmt` (prepared from `sql` on a database of `SQL`), or undefined where sql.js must bind. */
export function directRun(SQL: SqlJsStatic, stmt: Statement, sql: string): DirectRun | undefined {
  const api = SQL as unknown as SqliteApi;
  const handle = statementHandle(api, stmt, sql);
  if (handle === undefined) return undefined;
  return (params) => {
    if (!params.every((v) => v === null || typeof v === 'string' || typeof v === 'number')) {
      stmt.run(params as SqlValue[]);
      return;
    }
    const text = stringsOf(params);
    const ptr = text.bytes.length ? api._malloc(text.bytes.length) : 0;
    if (text.bytes.length && !ptr) throw new Error('SQLite is out of memory');
    try {
      if (ptr) api.writeArrayToMemory(text.bytes, ptr);
      let s = 0;
      for (let i = 0; i < params.length; i++) {
        const v = params[i];
        if (v === null) continue;
        let rc: number;
        if (typeof v === 'string') {
          rc = api._sqlite3_bind_text(handle, i + 1, ptr + text.starts[s], text.starts[s + 1] - text.starts[s], SQLITE_STATIC);
          s++;
        } else {
          // As sql.js binds a number: an INTEGER when it is a 32-bit integer, else a REAL.
          rc = v === (v | 0) ? api._sqlite3_bind_int(handle, i + 1, v) : api._sqlite3_bind_double(handle, i + 1, v as number);
        }
        if (rc !== SQLITE_OK) throw new Error(`SQLite refused parameter ${i + 1} (code ${rc})`);
      }
      // Unbound parameters are NULL: every run starts from a reset, which cleared them all.
      stmt.step();
    } finally {
      // The text may only go once no binding points into it.
      stmt.reset();
      if (ptr) api._free(ptr);
    }
  };
}

/** Where a run's strings are encoded; kept between runs, so runs touch no new memory. */
let scratch = Buffer.alloc(0);
const KEPT_SCRATCH = 64 * 1024;

/** Let go of a scratch buffer grown past what small runs need (a bulk insert's, once it is done). */
export function trimScratch(): void {
  if (scratch.length > KEPT_SCRATCH) scratch = Buffer.alloc(0);
}

/**
 * Strings joined and encoded at a time: few native calls, and each joined string small enough for
 * V8's young generation (a bulk run's strings joined in one were a few hundred kB each time, in
 * freshly mapped memory: most of the encoding's cost).
 */
const GROUP = 64;

/** A run's strings as one UTF-8 buffer (valid until the next run) and where each starts (plus where the last ends). */
function stringsOf(params: readonly SqlValue[]): { bytes: Uint8Array; starts: number[] } {
  let chars = 0;
  for (const v of params) if (typeof v === 'string') chars += v.length;
  // UTF-8 takes at most three bytes per UTF-16 unit.
  if (scratch.length < chars * 3) scratch = Buffer.allocUnsafe(Math.max(chars * 3, KEPT_SCRATCH));
  const starts: number[] = [];
  const group: string[] = [];
  let at = 0;
  const flush = () => {
    const text = group.length === 1 ? group[0] : group.join('');
    const bytes = scratch.write(text, at, 'utf8');
    // All ASCII (nearly always): bytes and characters line up.
    for (const part of group) {
      starts.push(at);
      at += bytes === text.length ? part.length : Buffer.byteLength(part, 'utf8');
    }
    group.length = 0;
  };
  for (const v of params) {
    if (typeof v !== 'string') continue;
    group.push(v);
    if (group.length === GROUP) flush();
  }
  if (group.length) flush();
  starts.push(at);
  return { bytes: scratch.subarray(0, at), starts };
}

/**
 * The SQLite statement handle sql.js keeps inside `stmt`: the one field holding an allocation's
 * address whose statement's SQL is `sql`. Undefined when there is none.
 */
function statementHandle(api: SqliteApi, stmt: Statement, sql: string): number | undefined {
  for (const v of Object.values(stmt)) {
    // An address from SQLite's allocator: 8-byte aligned and past the module's static data.
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 4096 || v % 8 !== 0) continue;
    if (api.UTF8ToString(api._sqlite3_sql(v)) === sql) return v;
  }
  return undefined;
}
