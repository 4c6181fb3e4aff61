import assert from 'node:assert/strict';
import { loadSqlJs, all, databaseFromOwnBytes, reuseStatements } from '../../../../src/core/db/sqlite';

describe('reused statements (db.run with parameters)', () => {
  it('runs each call with its own values, also after a failed call and after evictions', async () => {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    try {
      reuseStatements(db, 2);
      db.run('CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)');
      const put = 'INSERT INTO t (k, v) VALUES (?, ?)';
      db.run(put, ['a', 1]);
      db.run(put, ['b', 2]);
      // A constraint error leaves the cached statement usable for the next call.
      assert.throws(() => db.run(put, ['a', 9]), /UNIQUE/);
      db.run(put, ['c', 3]);
      // More distinct texts than the cache holds: evicted statements are freed, later ones prepared anew.
      for (let i = 0; i < 5; i++) db.run(`UPDATE t SET v = v + ? WHERE k = '${'abc'[i % 3]}'`, [10]);
      db.run(put, [':named', 4]);
      db.run('INSERT INTO t (k, v) VALUES ($k, $v)', { $k: 'd', $v: 5 });
      assert.deepEqual(all(db, 'SELECT k, v FROM t ORDER BY k'), [
        { k: ':named', v: 4 }, { k: 'a', v: 21 }, { k: 'b', v: 22 }, { k: 'c', v: 13 }, { k: 'd', v: 5 },
      ]);
      // Without parameters, several statements in one string still all run.
      db.run("INSERT INTO t VALUES ('e', 6); INSERT INTO t VALUES ('f', 7)");
      assert.equal(all(db, 'SELECT count(*) AS n FROM t')[0].n, 7);
    } finally {
      db.close();
    }
  });

  it('store text, numbers and NULL as sql.js binding does, text outside ASCII included', async () => {
    const SQL = await loadSqlJs();
    const mine = new SQL.Database();
    const theirs = new SQL.Database();
    try {
      reuseStatements(mine);
      const rows = [['Crème brûlée 温度 🦀', 1.5, 2 ** 40, null], ['', -0, 7, 'x'.repeat(5000)]];
      for (const db of [mine, theirs]) {
        db.run('CREATE TABLE t (a TEXT, b REAL, c INTEGER, d)');
        for (const r of rows) db.run('INSERT INTO t VALUES (?, ?, ?, ?)', r);
      }
      const read = (db: typeof mine) => db.exec('SELECT a, typeof(a), b, typeof(b), c, typeof(c), d, typeof(d) FROM t ORDER BY rowid')[0].values;
      assert.deepEqual(read(mine), read(theirs));
    } finally {
      mine.close();
      theirs.close();
    }
  });

  it('keep BEGIN, COMMIT and ROLLBACK prepared, with their errors', async () => {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    try {
      reuseStatements(db);
      db.run('CREATE TABLE t (k TEXT PRIMARY KEY)');
      for (let i = 0; i < 3; i++) {
        db.run('BEGIN');
        db.run('INSERT INTO t VALUES (?)', [`k${i}`]);
        db.run(i === 1 ? 'ROLLBACK' : 'COMMIT');
      }
      assert.deepEqual(all(db, 'SELECT k FROM t ORDER BY k'), [{ k: 'k0' }, { k: 'k2' }]);
      assert.throws(() => db.run('COMMIT'), /no transaction is active/);
      assert.throws(() => db.run('ROLLBACK'), /no transaction is active/);
      db.run('BEGIN');
      assert.throws(() => db.run('BEGIN'), /within a transaction/);
      db.run('ROLLBACK');
    } finally {
      db.close();
    }
  });
});

describe('a database opened from bytes it owns (databaseFromOwnBytes)', () => {
  async function image(): Promise<Uint8Array> {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    db.run('CREATE TABLE t (x TEXT)');
    db.run("INSERT INTO t VALUES ('kept')");
    const bytes = db.export();
    db.close();
    return bytes;
  }

  it('reads what the bytes hold, and writes past their end (the file grows)', async () => {
    const SQL = await loadSqlJs();
    const bytes = await image();
    const db = databaseFromOwnBytes(SQL, bytes);
    db.run('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) INSERT INTO t SELECT hex(randomblob(500)) FROM n');
    assert.deepEqual(all(db, "SELECT count(*) AS n, sum(x = 'kept') AS kept FROM t"), [{ n: 201, kept: 1 }]);
    const [{ size }] = all<{ size: number }>(db, 'SELECT page_count * page_size AS size FROM pragma_page_count, pragma_page_size');
    assert.ok(size > 100 * 1000 && bytes.length < 10 * 1000, `grew from ${bytes.length} to ${size} bytes`);
    db.close();
  });

  it('keeps the buffer instead of copying it: SQLite writes its pages into the bytes handed over', async () => {
    const SQL = await loadSqlJs();
    const bytes = await image();
    const room = new Uint8Array(256 * 1024);
    room.set(bytes);
    const db = databaseFromOwnBytes(SQL, room);
    db.run("INSERT INTO t VALUES ('written later')");
    // The page holding the new row is in the buffer itself; a copy would have left it as it was.
    assert.ok(Buffer.from(room).includes('written later'), 'the new row is in the handed-over buffer');
    db.close();
  });
});
