// The project's `meta` rows that the store itself keeps: the journal generation a checkpoint
// bumps, and raw writes that happen inside a caller's transaction (no journal of their own).
import { scalar, type Database } from './sqlite';

export function nowIso(): string {
  return new Date().toISOString();
}

/** Set a row of the project's `meta` table inside the caller's transaction (no journal of its own). */
export function setMetaRaw(db: Database, key: string, value: string): void {
  db.run('INSERT INTO main.meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [key, value]);
}

/** The journal generation the project file was written under (0 before its first checkpoint). */
export function journalGeneration(db: Database): number {
  return Number(scalar(db, "SELECT value FROM main.meta WHERE key = 'journal_generation'") ?? 0);
}
