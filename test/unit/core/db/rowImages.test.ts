// Row images (what a save's journal frame holds) are the row as it is now, every column included —
// also a column the table gained after its rows were first read.
import assert from 'node:assert/strict';
import { loadSqlJs } from '../../../../src/core/db/sqlite';
import { readRow } from '../../../../src/core/db/rowImages';

describe('row images', () => {
  it('read a row by rowid with every column, also one added since the last read', async () => {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    try {
      db.run("CREATE TABLE t (k TEXT, v INTEGER); INSERT INTO t VALUES ('a', 1), ('b', 2)");
      assert.deepEqual(readRow(db, 't', 2), { k: 'b', v: 2 });
      assert.equal(readRow(db, 't', 3), undefined);
      db.run("ALTER TABLE t ADD COLUMN note TEXT DEFAULT 'none'");
      assert.deepEqual(readRow(db, 't', 1), { k: 'a', v: 1, note: 'none' });
    } finally {
      db.close();
    }
  });
});
