import assert from 'node:assert/strict';
import { loadSqlJs, all, reuseStatements } from '../../../../src/core/db/sqlite';

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
});
