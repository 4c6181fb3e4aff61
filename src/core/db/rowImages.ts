// Rows as plain objects keyed by rowid: what the journal stores for a save, what undo keeps from
// before a write, and how both are written back.
import { all, type Database, type SqlValue, type Statement } from './sqlite';
import { ProjectError } from './errors';
import type { JournalFrame } from './journal';

export const quoteId = (n: string) => `"${n.replace(/"/g, '""')}"`;

/** Per database, the prepared one-row reads (preparing is most of a small save's SQL cost). */
const rowReaders = new WeakMap<Database, Map<string, { stmt: Statement; columns: string[] }>>();

export function readRow(db: Database, table: string, rowid: number): Record<string, unknown> | undefined {
  let byTable = rowReaders.get(db);
  if (!byTable) rowReaders.set(db, (byTable = new Map()));
  let reader = byTable.get(table);
  if (!reader) {
    const stmt = db.prepare(`SELECT * FROM main.${quoteId(table)} WHERE rowid = ?`);
    // The column names once per statement: asking sql.js for them decodes each name on every read.
    byTable.set(table, (reader = { stmt, columns: stmt.getColumnNames() }));
  }
  const { stmt } = reader;
  try {
    stmt.bind([rowid]);
    if (!stmt.step()) return undefined;
    const values = stmt.get();
    // A table that gained a column since is read again by SQLite with it: so are the names.
    if (values.length !== reader.columns.length) reader.columns = stmt.getColumnNames();
    const { columns } = reader;
    const row: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) row[columns[i]] = values[i];
    return row;
  } finally {
    stmt.reset();
  }
}

/** Several rows of one table by rowid, read in chunks (SQLite limits the parameters of a statement). */
export function readRows(db: Database, table: string, ids: number[]): Map<number, Record<string, unknown>> {
  const found = new Map<number, Record<string, unknown>>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    for (const row of all<Record<string, unknown>>(db, `SELECT rowid AS __rowid, * FROM main.${quoteId(table)} WHERE rowid IN (${chunk.map(() => '?').join(',')})`, chunk)) {
      const rowid = Number(row.__rowid);
      delete row.__rowid;
      found.set(rowid, row);
    }
  }
  return found;
}

/** Write one row image under its rowid, replacing whatever holds that rowid. */
export function putRow(db: Database, table: string, rowid: number, row: Record<string, unknown>): void {
  const cols = Object.keys(row);
  const values: SqlValue[] = [rowid];
  for (const c of cols) values.push(row[c] as SqlValue);
  db.run(`INSERT OR REPLACE INTO main.${quoteId(table)} (rowid, ${cols.map(quoteId).join(', ')}) VALUES (?, ${cols.map(() => '?').join(', ')})`, values);
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
