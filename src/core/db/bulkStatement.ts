// A prepared statement run many times over large batches of parameters (the game-data import's
// multi-row INSERTs: full Py binds ~300,000 values), its values bound directly (directBind.ts).
import { sqlJsOf, type Database, type SqlValue } from './sqlite';
import { directRun, trimScratch } from './directBind';

export interface BulkStatement {
  /** False when sql.js binds (its statement handle was not found). */
  readonly direct: boolean;
  run(params: readonly SqlValue[]): void;
  free(): void;
}

export function prepareBulk(db: Database, sql: string): BulkStatement {
  const stmt = db.prepare(sql);
  const SQL = sqlJsOf(db);
  const run = SQL ? directRun(SQL, stmt, sql) : undefined;
  return {
    direct: run !== undefined,
    run: run ?? ((params) => void stmt.run(params as SqlValue[])),
    free: () => void stmt.free(),
  };
}

/** After a bulk write: let go of the encoding buffer it grew (a few hundred kB for full Py). */
export function endBulkWrite(): void {
  trimScratch();
}
