import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { Project, gamedataPath } from '../../../../src/core/db/project';
import { ProjectError } from '../../../../src/core/db/errors';
import { journalPath } from '../../../../src/core/db/journal';
import { AckRecorder } from '../../../../src/core/db/ackRecord';
import { loadSqlJs } from '../../../../src/core/db/sqlite';
import { PROJECT_TABLES } from '../../../../src/core/db/schema/project';
import { tempDir, REPO } from '../../../helpers/paths';
import { framesEnd } from '../../../helpers/journalBytes';

describe('project store', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('creates a project file with identity meta and every project table', async () => {
    const file = path.join(dir, 'factory.pyops');
    const p = await Project.create(file, { name: 'My factory' });
    try {
      assert.equal(p.name, 'My factory');
      assert.match(p.id, /^[0-9a-f-]{36}$/);
      assert.equal(p.meta('kind'), 'pyops-project');
      assert.equal(p.readOnly, false);
      assert.equal(p.hasGameData(), false);
      assert.equal(p.gamedataStatus, 'empty');
      const tables = p.query<{ name: string }>("SELECT name FROM main.sqlite_master WHERE type='table'").map((r) => r.name);
      for (const t of PROJECT_TABLES) assert.ok(tables.includes(t), `missing table ${t}`);
    } finally {
      p.close();
    }
    assert.ok(fs.statSync(file).size > 0);
  });

  it('refuses to create over an existing file', async () => {
    const file = path.join(dir, 'x.pyops');
    fs.writeFileSync(file, 'keep me');
    await assert.rejects(Project.create(file), (e: unknown) => e instanceof ProjectError && e.code === 'exists');
    assert.equal(fs.readFileSync(file, 'utf8'), 'keep me');
  });

  it('persists writes through the journal and folds them into the file on close, keeping the previous file as .bak', async () => {
    const file = path.join(dir, 'a.pyops');
    const p = await Project.create(file);
    const created = fs.readFileSync(file);
    p.write((db) => db.run("INSERT INTO notes(id, title, body, created_at, updated_at) VALUES ('n1', 'First', 'x', 't', 't')"));
    p.write((db) => db.run("INSERT INTO notes(id, title, body, created_at, updated_at) VALUES ('n2', 'Second', 'y', 't', 't')"));
    assert.deepEqual(fs.readFileSync(file), created, 'a small write does not rewrite the project file');
    assert.ok(fs.statSync(journalPath(file)).size > 8, 'the writes are in the journal');
    // Another reader (a crash, a second window) already sees both saves.
    const reader = await Project.open(file, { readOnly: true });
    assert.deepEqual(reader.query('SELECT id FROM notes ORDER BY id').map((r) => r.id), ['n1', 'n2']);
    reader.close();
    p.close();
    assert.ok(!fs.existsSync(journalPath(file)), 'the journal is folded in and removed on close');
    const again = await Project.open(file);
    assert.deepEqual(again.query('SELECT id FROM notes ORDER BY id').map((r) => r.id), ['n1', 'n2']);
    again.close();
    assert.deepEqual(fs.readFileSync(file + '.bak'), created);
  });

  it('replays deletes, updates and replaced rows from the journal exactly', async () => {
    const file = path.join(dir, 'j.pyops');
    const p = await Project.create(file);
    p.write((db) => {
      for (let i = 0; i < 5; i++) db.run('INSERT INTO conversation_messages(id, conversation_id, role, parts, seq, created_at) VALUES (?, ?, ?, ?, ?, ?)', [`m${i}`, 'c', 'user', '[]', i, 't']);
    });
    p.write((db) => {
      db.run("DELETE FROM conversation_messages WHERE seq >= 3");
      db.run("UPDATE conversation_messages SET parts = '[1]' WHERE id = 'm0'");
      // REPLACE removes the row holding seq 1 through the unique index.
      db.run("INSERT OR REPLACE INTO conversation_messages(id, conversation_id, role, parts, seq, created_at) VALUES ('m9', 'c', 'assistant', '[9]', 1, 't')");
      db.run('DELETE FROM notes');
    });
    const expected = p.query('SELECT * FROM conversation_messages ORDER BY seq');
    const reader = await Project.open(file, { readOnly: true });
    assert.deepEqual(reader.query('SELECT * FROM conversation_messages ORDER BY seq'), expected);
    assert.deepEqual(expected.map((r) => r.id), ['m0', 'm9', 'm2']);
    reader.close();
    p.close();
  });

  it('journals the deletes SQLite reports to no hook: a whole-table DELETE, a REPLACE undone in the same save, a moved rowid', async () => {
    const file = path.join(dir, 'k.pyops');
    const p = await Project.create(file);
    const note = (db: import('sql.js').Database, id: string) => db.run('INSERT INTO notes(id, title, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [id, id, '', 't', 't']);
    p.write((db) => {
      for (const id of ['a', 'b', 'c']) note(db, id);
      db.run("INSERT INTO undo_actions(label, created_at, undone) VALUES ('x', 't', 0)");
    }, { undo: 'three notes' });
    p.write((db) => {
      // No WHERE: SQLite's truncate optimization, on an undoable table and on one outside undo.
      db.run('DELETE FROM notes');
      db.run('DELETE FROM undo_changes');
      note(db, 'd');
      // The REPLACE removes 'd' through the primary key, then the new row goes too: only the
      // reported delete of the first row keeps 'd' from coming back on replay.
      db.run("INSERT OR REPLACE INTO notes(id, title, body, created_at, updated_at) VALUES ('d', 'again', '', 't', 't')");
      db.run("DELETE FROM notes WHERE title = 'again'");
      note(db, 'e');
      db.run("UPDATE notes SET rowid = rowid + 100 WHERE id = 'e'");
    });
    const expected = { notes: p.query('SELECT rowid, * FROM notes ORDER BY id'), undo: p.query('SELECT * FROM undo_changes') };
    assert.deepEqual(expected.notes.map((r) => r.id), ['e']);
    assert.deepEqual(expected.undo, []);
    const reader = await Project.open(file, { readOnly: true });
    assert.deepEqual({ notes: reader.query('SELECT rowid, * FROM notes ORDER BY id'), undo: reader.query('SELECT * FROM undo_changes') }, expected);
    reader.close();
    p.close();
  });

  it('opens without writing anything; the first save starts the journal', async () => {
    const file = path.join(dir, 'lazy.pyops');
    (await Project.create(file)).close();
    const before = fs.readdirSync(dir).sort();
    const p = await Project.open(file);
    assert.deepEqual(fs.readdirSync(dir).filter((f) => !f.endsWith('.lock')).sort(), before.filter((f) => !f.endsWith('.lock')));
    assert.ok(!fs.existsSync(journalPath(file)));
    p.write((db) => db.run("INSERT INTO notes(id, title, body, created_at, updated_at) VALUES ('n', 'n', '', 't', 't')"));
    assert.ok(fs.existsSync(journalPath(file)));
    const reader = await Project.open(file, { readOnly: true });
    assert.equal(reader.query('SELECT id FROM notes').length, 1);
    reader.close();
    p.close();
  });

  it('drops a torn journal tail and ignores a journal of an older generation', async () => {
    const file = path.join(dir, 't.pyops');
    const p = await Project.create(file);
    p.write((db) => db.run("INSERT INTO notes(id, title, body, created_at, updated_at) VALUES ('n1', 'kept', '', 't', 't')"));
    const start = framesEnd(fs.readFileSync(journalPath(file)));
    p.write((db) => db.run("INSERT INTO notes(id, title, body, created_at, updated_at) VALUES ('n2', 'torn', '', 't', 't')"));
    const j = fs.readFileSync(journalPath(file));
    // Simulate a crash in the middle of the last frame: its sectors never reach the disk (it is
    // smaller than one, so all of it), and the zeros of the preallocated tail are left in its place.
    const torn = Buffer.from(j);
    torn.fill(0, start, framesEnd(j));
    fs.writeFileSync(journalPath(file), torn);
    // A crash mid-append comes before the save is acknowledged: the save record still says one.
    new AckRecorder(file, p.id).note(0, 1);
    const reader = await Project.open(file, { readOnly: true });
    assert.deepEqual(reader.query('SELECT id FROM notes').map((r) => r.id), ['n1']);
    assert.equal(reader.damage, undefined, 'a torn tail is no damage');
    reader.close();
    p.close(); // folds both frames (in memory they are whole) and starts a new generation
    fs.writeFileSync(journalPath(file), j); // an old-generation journal left behind
    const again = await Project.open(file);
    assert.deepEqual(again.query('SELECT id FROM notes ORDER BY id').map((r) => r.id), ['n1', 'n2']);
    again.close();
  });

  it('checkpoints on its own when the journal grows long', async () => {
    const file = path.join(dir, 'long.pyops');
    const p = await Project.create(file);
    const body = 'x'.repeat(100_000);
    for (let i = 0; i < 45; i++) p.write((db) => db.run('INSERT INTO notes(id, title, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [`n${i}`, 't', body, 't', 't']));
    assert.ok(fs.statSync(journalPath(file)).size < 4 * 1024 * 1024 + 200_000);
    const reader = await Project.open(file, { readOnly: true });
    assert.equal(reader.counts(['notes'])['notes'], 45);
    reader.close();
    p.close();
  });

  it('rolls back a failed write and leaves the file as it was', async () => {
    const file = path.join(dir, 'b.pyops');
    const p = await Project.create(file);
    const before = fs.readFileSync(file);
    assert.throws(() =>
      p.write((db) => {
        db.run("INSERT INTO notes(id, title, body, created_at, updated_at) VALUES ('n1', 'x', '', 't', 't')");
        throw new Error('boom');
      }),
    );
    assert.equal(p.query('SELECT count(*) AS n FROM notes')[0].n, 0);
    assert.deepEqual(fs.readFileSync(file), before);
    p.close();
  });

  for (const [label, content, code] of [
    ['a text file', 'hello, not a database', 'not-sqlite'],
    ['an empty file', '', 'not-sqlite'],
  ] as const) {
    it(`reports ${label} as not a project and never modifies it`, async () => {
      const file = path.join(dir, 'bad.pyops');
      fs.writeFileSync(file, content);
      const before = fs.readFileSync(file);
      await assert.rejects(Project.open(file), (e: unknown) => e instanceof ProjectError && e.code === code && /not a PyOps project/.test(e.message));
      assert.deepEqual(fs.readFileSync(file), before);
      assert.ok(!fs.existsSync(file + '.lock'));
    });
  }

  it('reports an SQLite file that is not a PyOps project and leaves it untouched', async () => {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    db.run('CREATE TABLE t(x)');
    const file = path.join(dir, 'other.sqlite');
    fs.writeFileSync(file, db.export());
    db.close();
    const before = fs.readFileSync(file);
    await assert.rejects(Project.open(file), (e: unknown) => e instanceof ProjectError && e.code === 'not-project');
    assert.deepEqual(fs.readFileSync(file), before);
  });

  it('reports a damaged project and points at the .bak copy', async () => {
    const file = path.join(dir, 'c.pyops');
    const p = await Project.create(file);
    p.setMeta('x', '1');
    p.close();
    const good = fs.readFileSync(file);
    // A garbled schema page behind an intact header, and a copy cut short.
    const garbled = Buffer.from(good);
    garbled.fill(0xab, 100, 4096);
    const truncated = good.subarray(0, Math.floor(good.length / 2));
    for (const bytes of [garbled, truncated]) {
      fs.writeFileSync(file, bytes);
      await assert.rejects(Project.open(file), (e: unknown) => e instanceof ProjectError && e.code === 'damaged' && /c\.pyops\.bak/.test(e.message));
      assert.deepEqual(fs.readFileSync(file), bytes);
    }
  });

  it('refuses a project from a newer schema version', async () => {
    const file = path.join(dir, 'new.pyops');
    const p = await Project.create(file);
    p.write((db) => db.run('PRAGMA user_version = 999'));
    p.close();
    await assert.rejects(Project.open(file), (e: unknown) => e instanceof ProjectError && e.code === 'newer-version');
  });

  it('says a missing file is missing', async () => {
    await assert.rejects(Project.open(path.join(dir, 'nope.pyops')), (e: unknown) => e instanceof ProjectError && e.code === 'missing');
  });

  it('opens read-only, with a notice, when another live process holds the project', async () => {
    const file = path.join(dir, 'shared.pyops');
    (await Project.create(file)).close();
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO, 'test/helpers/holdProject.ts'), file], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d) => String(d).includes('holding') && resolve());
        child.on('exit', (c) => reject(new Error(`holder exited early (${c})`)));
      });
      const p = await Project.open(file);
      try {
        assert.equal(p.readOnly, true);
        assert.match(p.readOnlyReason ?? '', /open in another PyOps window/);
        assert.equal(p.lockOwner?.pid, child.pid);
        assert.throws(() => p.setMeta('x', '1'), (e: unknown) => e instanceof ProjectError && e.code === 'read-only');
        assert.equal(p.canReopenWritable(), false, 'the writer is still there');
        child.kill('SIGKILL');
        await new Promise((r) => child.once('exit', r));
        // The writer is gone: the read-only copy says it can be reopened for editing.
        assert.equal(p.canReopenWritable(), true);
        assert.throws(() => p.setMeta('x', '1'), (e: unknown) => e instanceof ProjectError && /reopen/i.test(e.message));
      } finally {
        p.close();
      }
    } finally {
      child.kill('SIGKILL');
    }
    // The holder died without releasing: its stale lock is taken over.
    const p2 = await Project.open(file);
    assert.equal(p2.readOnly, false);
    p2.close();
  });

  it("reads the file again once it holds the lock, so a writer's last saves before closing survive", async () => {
    const file = path.join(dir, 'handover.pyops');
    const b = await Project.create(file);
    b.setMeta('x', 'early');
    const opening = Project.open(file); // reads the file now, takes the lock after yielding
    b.setMeta('x', 'late');
    b.close();
    const a = await opening;
    assert.equal(a.readOnly, false);
    assert.equal(a.meta('x'), 'late');
    a.setMeta('y', '1');
    a.close();
    const c = await Project.open(file, { readOnly: true });
    assert.deepEqual([c.meta('x'), c.meta('y')], ['late', '1']);
    c.close();
  });

  it('opens a second time in the same process read-only and releases the lock on close', async () => {
    const file = path.join(dir, 'twice.pyops');
    const a = await Project.create(file);
    const b = await Project.open(file);
    assert.equal(a.readOnly, false);
    assert.equal(b.readOnly, true);
    b.close();
    a.close();
    assert.ok(!fs.existsSync(file + '.lock'));
    const c = await Project.open(file);
    assert.equal(c.readOnly, false);
    c.close();
  });

  it('never writes the game-data file on an ordinary save', async () => {
    const file = path.join(dir, 'small.pyops');
    const p = await Project.create(file);
    p.setMeta('x', '1');
    p.close();
    assert.ok(!fs.existsSync(gamedataPath(file)), 'no game-data file before an import');
  });
});
