// A statement run with its values bound directly (prepareRun, directBind.ts) stores exactly what sql.js's own binding stores — the same values, the same SQL
// types, text outside ASCII included — and a failing run leaves the statement usable.
import assert from 'node:assert/strict';
import { loadSqlJs, prepareRun, type Database, type SqlValue } from '../../../../src/core/db/sqlite';

const COLUMNS = 'a, b, c, d';
const ROW = '(?, ?, ?, ?)';

function table(db: Database, name: string): void {
  db.run(`CREATE TABLE ${name} (a TEXT PRIMARY KEY, b REAL, c INTEGER, d)`);
}

/** A fresh database holding the table `t` (and `more`), closed after `body`. */
async function withTables(body: (db: Database) => void, ...more: string[]): Promise<void> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  try {
    for (const name of ['t', ...more]) table(db, name);
    body(db);
  } finally {
    db.close();
  }
}

function contents(db: Database, name: string): unknown[][] {
  return db.exec(`SELECT a, typeof(a), b, typeof(b), c, typeof(c), d, typeof(d) FROM ${name} ORDER BY rowid`)[0]?.values ?? [];
}

const VALUES: SqlValue[][] = [
  ['iron-plate', 1.5, 3, null],
  ['Crème brûlée', -0.25, 2 ** 40, 'Größe 温度 🦀'],
  ['', 0, -7, 12.75],
  ['"quoted" \\ back', 1e-12, 0, ''],
  ['a\u0000b', Number.MAX_SAFE_INTEGER, 2147483647, -2147483648],
];

describe('directly bound statement', () => {
  it('stores what sql.js binding stores, in value and type, across runs', async () => {
    await withTables((db) => {
      const sql = (t: string) => `INSERT INTO ${t} (${COLUMNS}) VALUES ${[ROW, ROW].join(',')}`;
      const bulk = prepareRun(db, sql('t'));
      assert.ok(bulk.direct, 'this sql.js build binds directly');
      const plain = db.prepare(sql('theirs'));
      try {
        for (const [x, y] of [[0, 1], [2, 3]]) {
          bulk.run([...VALUES[x], ...VALUES[y]]);
          plain.run([...VALUES[x], ...VALUES[y]]);
        }
      } finally {
        bulk.stmt.free();
        plain.free();
      }
      const one = prepareRun(db, `INSERT INTO t (${COLUMNS}) VALUES ${ROW}`);
      one.run(VALUES[4]);
      one.stmt.free();
      db.run(`INSERT INTO theirs (${COLUMNS}) VALUES ${ROW}`, VALUES[4]);
      assert.deepEqual(contents(db, 't'), contents(db, 'theirs'));
      assert.equal(contents(db, 't').length, 5);
      assert.equal(contents(db, 't')[1][0], 'Crème brûlée');
      assert.equal(contents(db, 't')[4][0], 'a\u0000b');
    }, 'theirs');
  });

  it('reports a refused row and runs the next one', async () => {
    await withTables((db) => {
      const bulk = prepareRun(db, `INSERT INTO t (${COLUMNS}) VALUES ${ROW}`);
      try {
        bulk.run(VALUES[0]);
        assert.throws(() => bulk.run(VALUES[0]), /UNIQUE constraint failed: t\.a/);
        bulk.run(VALUES[1]);
      } finally {
        bulk.stmt.free();
      }
      assert.deepEqual(contents(db, 't').map((r) => r[0]), ['iron-plate', 'Crème brûlée']);
    });
  });

  it('binds a blob the way sql.js does', async () => {
    await withTables((db) => {
      const bulk = prepareRun(db, `INSERT INTO t (${COLUMNS}) VALUES ${ROW}`);
      bulk.run(['x', 1, 2, new Uint8Array([1, 2, 3])]);
      bulk.stmt.free();
      assert.deepEqual(contents(db, 't')[0].slice(6), [new Uint8Array([1, 2, 3]), 'blob']);
    });
  });
});
