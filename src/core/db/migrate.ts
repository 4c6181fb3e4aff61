// Schema versions: PRAGMA user_version is the truth, mirrored into the meta table for humans and
// other SQLite tools. Migrations run in one transaction each and only move forward.
import type { Database } from './sqlite';
import { scalar } from './sqlite';

export interface Migration {
  version: number;
  sql: string;
}

export function schemaVersion(db: Database, schema = 'main'): number {
  return Number(scalar(db, `PRAGMA ${schema}.user_version`) ?? 0);
}

export function latestVersion(migrations: Migration[]): number {
  return migrations.reduce((m, x) => Math.max(m, x.version), 0);
}

/** Apply pending migrations; returns the versions applied. */
export function migrate(db: Database, migrations: Migration[], schema = 'main'): number[] {
  const current = schemaVersion(db, schema);
  const applied: number[] = [];
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (m.version <= current) continue;
    db.run('BEGIN');
    try {
      // Statements are written for an unqualified schema; run them against `schema`.
      const sql = schema === 'main' ? m.sql : qualify(m.sql, schema);
      db.exec(sql);
      db.run(`PRAGMA ${schema}.user_version = ${m.version}`);
      db.run('COMMIT');
    } catch (err) {
      db.run('ROLLBACK');
      throw err;
    }
    applied.push(m.version);
  }
  return applied;
}

function qualify(sql: string, schema: string): string {
  return sql
    .replace(/CREATE TABLE (\w+)/g, `CREATE TABLE ${schema}.$1`)
    .replace(/CREATE (UNIQUE )?INDEX (\w+) ON/g, `CREATE $1INDEX ${schema}.$2 ON`);
}
