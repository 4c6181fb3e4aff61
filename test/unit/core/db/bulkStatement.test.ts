// A bulk statement stores exactly what sql.js's own binding stores — the same values, the same SQL
// types, text outside ASCII included — and a failing run leaves the statement usable.
import assert from 'node:assert/strict';
import { loadSqlJs, type Database, type SqlValue } from '../../../../src/core/db/sqlite';
import { prepareBulk } from '../../../../src/core/db/bulkStatement';

const COLUMNS = 'a, b, c, d';
const ROW = '(?, ?, ?, ?)';

function table(db: Database, name: string): void {
  db.run(`CREATE TABLE ${name} (a TEXT PRIMARY KEY, b REAL, c INTEGER, d)`);
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

describe('bulk statement', () => {
  it('stores what sql.js binding stores, in value and type, across runs', async () => {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    try {
      table(db, 'mine');
      table(db, 'theirs');
      const sql = (t: string) => `INSERT INTO ${t} (${COLUMNS}) VALUES ${[ROW, ROW].join(',')}`;
      const bulk = prepareBulk(db, sql('mine'));
      assert.ok(bulk.direct, 'this sql.js build binds directly');
      const plain = db.prepare(sql('theirs'));
      try {
        for (const [x, y] of [[0, 1], [2, 3]]) {
          bulk.run([...VALUES[x], ...VALUES[y]]);
          plain.run([...VALUES[x], ...VALUES[y]]);
        }
      } finally {
        bulk.free();
        plain.free();
      }
      const one = prepareBulk(db, `INSERT INTO mine (${COLUMNS}) VALUES ${ROW}`);
      one.run(VALUES[4]);
      one.free();
      db.run(`INSERT INTO theirs (${COLUMNS}) VALUES ${ROW}`, VALUES[4]);
      assert.deepEqual(contents(db, 'mine'), contents(db, 'theirs'));
      assert.equal(contents(db, 'mine').length, 5);
      assert.equal(contents(db, 'mine')[1][0], 'Crème brûlée');
      assert.equal(contents(db, 'mine')[4][0], 'a\u0000b');
    } finally {
      db.close();
    }
  });

  it('reports a refused row and runs the next one', async () => {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    try {
      table(db, 't');
      const bulk = prepareBulk(db, `INSERT INTO t (${COLUMNS}) VALUES ${ROW}`);
      try {
        bulk.run(VALUES[0]);
        assert.throws(() => bulk.run(VALUES[0]), /UNIQUE constraint failed: t\.a/);
        bulk.run(VALUES[1]);
      } finally {
        bulk.free();
      }
      assert.deepEqual(contents(db, 't').map((r) => r[0]), ['iron-plate', 'Crème brûlée']);
    } finally {
      db.close();
    }
  });

  it('binds a blob the way sql.js does', async () => {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    try {
      table(db, 't');
      const bulk = prepareBulk(db, `INSERT INTO t (${COLUMNS}) VALUES ${ROW}`);
      bulk.run(['x', 1, 2, new Uint8Array([1, 2, 3])]);
      bulk.free();
      assert.deepEqual(contents(db, 't')[0].slice(6), [new Uint8Array([1, 2, 3]), 'blob']);
    } finally {
      db.close();
    }
  });
});
