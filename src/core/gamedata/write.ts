// Bulk insert of normalized rows into the attached game-data schema. Multi-row INSERTs keep the
// number of calls across the wasm boundary low; column lists come from the live table definition
// so the writer cannot drift from the schema. Child tables packed into their parent's row
// (packed.ts) are written as that row's JSON columns.
import { all, prepareRun, type Database, type PreparedRun, type SqlValue } from '../db/sqlite';
import { trimScratch } from '../db/directBind';
import type { GameData } from './model';
import { isPackedTable, packChildren, PACKED_CHILDREN } from './packed';

const MAX_PARAMS = 30000;

export function writeGameData(db: Database, data: GameData, schema = 'gd'): void {
  try {
    writeTables(db, data, schema);
  } finally {
    // Let go of the encoding buffer the bulk runs grew (a few hundred kB for full Py).
    trimScratch();
  }
}

function writeTables(db: Database, data: GameData, schema: string): void {
  const packed = packChildren(data);
  for (const [table, rows] of Object.entries(data) as Array<[string, Array<Record<string, unknown>>]>) {
    if (!rows.length || isPackedTable(table)) continue;
    const cols = all<{ name: string }>(db, `PRAGMA ${schema}.table_info(${table})`).map((c) => c.name);
    if (!cols.length) throw new Error(`game-data table ${table} does not exist (schema out of date?)`);
    const lists = packed.get(table);
    // Per column: its packed lists by parent name, or undefined for a column the row holds.
    const packedCol = cols.map((c) => lists?.get(c));
    const perRow = cols.length;
    const rowSql = `(${cols.map(() => '?').join(',')})`;
    const into = `INSERT INTO ${schema}.${table} (${cols.join(',')}) VALUES `;
    // Statements of a few sizes, each prepared once: preparing a 500-row INSERT for every table's
    // last, shorter batch took more time than running it.
    const statements = new Map<number, PreparedRun>();
    const statement = (n: number) => {
      let stmt = statements.get(n);
      if (!stmt) statements.set(n, (stmt = prepareRun(db, into + Array(n).fill(rowSql).join(','))));
      return stmt;
    };
    const largest = Math.max(1, Math.min(500, Math.floor(MAX_PARAMS / perRow)));
    try {
      for (let i = 0; i < rows.length; ) {
        const left = rows.length - i;
        // The whole table when it fits in one; then full batches; then batches of 32 and single rows.
        const n = i === 0 && left <= largest ? left : left >= largest ? largest : left >= TAIL ? TAIL : 1;
        const params: SqlValue[] = new Array(n * perRow);
        let k = 0;
        for (let r = i; r < i + n; r++) {
          const row = rows[r];
          for (let c = 0; c < perRow; c++) {
            const texts = packedCol[c];
            params[k++] = texts ? texts(row.name as string) ?? '[]' : toSql(row[cols[c]]);
          }
        }
        statement(n).run(params);
        i += n;
      }
    } finally {
      for (const { stmt } of statements.values()) stmt.free();
    }
  }
}

/** Rows per statement for what is left after the full batches. */
const TAIL = 32;

function toSql(v: unknown): SqlValue {
  if (v === undefined || v === null) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  return v as SqlValue;
}

/** Rows looked at per table to estimate its size. */
const SAMPLE_ROWS = 256;

/**
 * About how many bytes of SQLite file `data` fills: each table's first rows, measured and scaled
 * to the table (1.7 × the values' own size, for record headers, the keys' indexes and part-filled
 * pages, plus two pages a table; a packed table's rows are JSON text in their parent's record, 1.2 ×
 * their JSON's size). 1.0–1.4 × the real size on the dumps and sets we have (never below it, which
 * would only cost the growth it is there to spare); a new database is given this much room up front
 * (db/gamedataFile.ts).
 */
export function estimateGameDataBytes(data: GameData): number {
  let bytes = 0;
  for (const [table, rows] of Object.entries(data) as Array<[string, Array<Record<string, unknown>>]>) {
    const spec = PACKED_CHILDREN.find((c) => c.table === table);
    const n = Math.min(rows.length, SAMPLE_ROWS);
    let sample = 0;
    for (let i = 0; i < n; i++) {
      sample += spec ? 2 : 6;
      const r = rows[i];
      for (const k in r) {
        if (k === spec?.key || k === spec?.order) continue;
        const v = r[k];
        sample += typeof v === 'string' ? v.length + (spec ? 3 : 1) : v == null ? (spec ? 5 : 1) : spec ? 4 : 5;
      }
    }
    bytes += spec ? (n ? (1.2 * sample * rows.length) / n : 0) : 8192 + (n ? (1.7 * sample * rows.length) / n : 0);
  }
  return Math.ceil(bytes);
}
