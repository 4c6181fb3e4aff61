// Building new game data hands back the file as committed: read where SQLite wrote it while the file
// fits the room it was given, exported once it outgrew it — a whole database with every row either way.
import assert from 'node:assert/strict';
import { loadSqlJs, scalar, type SqlJsStatic } from '../../../../src/core/db/sqlite';
import { buildGamedata, emptyGamedata } from '../../../../src/core/db/gamedataFile';

const ITEMS = 3000;

async function build(roomFor: number, items = ITEMS) {
  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  const current = emptyGamedata(SQL);
  db.run(`ATTACH DATABASE '${(current as unknown as { filename: string }).filename}' AS gd`);
  const fill = () => {
    const stmt = db.prepare("INSERT INTO gd.items(name, type, display) VALUES (?, 'item', ?)");
    for (let i = 0; i < items; i++) stmt.run([`item-${i}`, `Item number ${i} `.repeat(8)]);
    stmt.free();
  };
  const built = buildGamedata(SQL, db, current, fill, { fingerprint: 'f' }, roomFor);
  // The buffer the file was given, not a copy of it.
  const inRoom = built.image.buffer.byteLength === roomFor && built.image.byteLength < roomFor;
  const image = Uint8Array.from(built.image);
  const pages = Number(scalar(db, 'PRAGMA gd.page_count')) * Number(scalar(db, 'PRAGMA gd.page_size'));
  built.db.close();
  current.close();
  db.close();
  return { SQL, image, inRoom, pages };
}

/** The image opened on its own: sound, and holding every row written. */
function check(SQL: SqlJsStatic, image: Uint8Array, items = ITEMS): void {
  const db = new SQL.Database(image);
  try {
    assert.equal(scalar(db, 'PRAGMA integrity_check'), 'ok');
    assert.equal(scalar(db, 'SELECT count(*) FROM items'), items);
    assert.equal(scalar(db, `SELECT display FROM items WHERE name = 'item-${items - 1}'`), `Item number ${items - 1} `.repeat(8));
    assert.equal(scalar(db, "SELECT value FROM gd_meta WHERE key = 'fingerprint'"), 'f');
  } finally {
    db.close();
  }
}

describe('building game data', () => {
  it('gives the committed file where it lies in the room it was given', async () => {
    const { SQL, image, inRoom, pages } = await build(4 << 20);
    assert.ok(inRoom);
    assert.equal(image.length, pages);
    check(SQL, image);
  });

  it('exports the file once the rows outgrew the room', async () => {
    const { SQL, image, inRoom, pages } = await build(64 * 1024);
    assert.ok(!inRoom);
    assert.equal(image.length, pages);
    check(SQL, image);
  });

  it('exports a database given no room', async () => {
    const { SQL, image, inRoom } = await build(0, 10);
    assert.ok(!inRoom);
    check(SQL, image, 10);
  });
});
