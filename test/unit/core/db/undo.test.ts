import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project, UNDO_LIMIT } from '../../../../src/core/db/project';
import { tempDir } from '../../../helpers/paths';

describe('undo', () => {
  let dir: string;
  let p: Project;
  const notes = () => p.query('SELECT id, title FROM notes ORDER BY id').map((r) => `${r.id}:${r.title}`);
  const addNote = (id: string, title: string) => p.write((db) => db.run('INSERT INTO notes(id, title, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [id, title, '', 't', 't']), { undo: `Add note ${title}` });

  beforeEach(async () => {
    dir = tempDir();
    p = await Project.create(path.join(dir, 'u.pyops'));
  });
  afterEach(() => {
    p.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reverts one logical action (inserts, updates and deletes together) and redoes it', () => {
    addNote('a', 'A');
    addNote('b', 'B');
    p.write(
      (db) => {
        db.run("UPDATE notes SET title = 'A2' WHERE id = 'a'");
        db.run("DELETE FROM notes WHERE id = 'b'");
        db.run("INSERT INTO notes(id, title, body, created_at, updated_at) VALUES ('c', 'C', '', 't', 't')");
      },
      { undo: 'Edit notes' },
    );
    assert.deepEqual(notes(), ['a:A2', 'c:C']);
    assert.equal(p.undoable()?.label, 'Edit notes');
    const r = p.undo()!;
    assert.equal(r.label, 'Edit notes');
    assert.deepEqual(notes(), ['a:A', 'b:B']);
    assert.ok(r.touched.every((t) => t.table === 'notes'));
    assert.equal(p.undoable()?.label, 'Add note B');
    assert.equal(p.redoable()?.label, 'Edit notes');
    p.redo();
    assert.deepEqual(notes(), ['a:A2', 'c:C']);
    p.undo();
    p.undo();
    assert.deepEqual(notes(), ['a:A']);
  });

  it('drops the redo list when a new action is recorded, and writes without a label are not undoable', () => {
    addNote('a', 'A');
    p.undo();
    assert.equal(p.redoable()?.label, 'Add note A');
    addNote('b', 'B');
    assert.equal(p.redoable(), undefined);
    p.write((db) => db.run("UPDATE notes SET title = 'silent' WHERE id = 'b'"));
    assert.equal(p.undoable()?.label, 'Add note B');
  });

  it(`keeps the last ${UNDO_LIMIT} actions`, () => {
    for (let i = 0; i < UNDO_LIMIT + 7; i++) addNote(`n${i}`, `N${i}`);
    assert.equal(p.query('SELECT count(*) AS n FROM undo_actions')[0].n, UNDO_LIMIT);
    let undone = 0;
    while (p.undo()) undone++;
    assert.equal(undone, UNDO_LIMIT);
    assert.equal(p.counts(['notes'])['notes'], 7);
  });

  it('survives a reopen (the history is part of the project)', async () => {
    addNote('a', 'A');
    p.close();
    p = await Project.open(path.join(dir, 'u.pyops'));
    assert.equal(p.undoable()?.label, 'Add note A');
    p.undo();
    assert.equal(p.counts(['notes'])['notes'], 0);
  });
});

describe('undo with conflict clauses', () => {
  it('records upserts and INSERT OR REPLACE of an existing row (and a row touched twice)', async () => {
    const dir = tempDir();
    const p = await Project.create(path.join(dir, 'c.pyops'));
    try {
      const upsert = (v: string) => p.write((db) => db.run("INSERT INTO planning_settings(key, value) VALUES ('k', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", [v]), { undo: `set ${v}` });
      upsert('"a"');
      upsert('"b"');
      p.write(
        (db) => {
          db.run("UPDATE planning_settings SET value = '\"c\"' WHERE key = 'k'");
          db.run("INSERT OR REPLACE INTO planning_settings(key, value) VALUES ('k', '\"d\"')");
          db.run("INSERT INTO planning_settings(key, value) VALUES ('k', '\"e\"') ON CONFLICT(key) DO UPDATE SET value = excluded.value");
        },
        { undo: 'three touches' },
      );
      const value = () => p.query<{ value: string }>("SELECT value FROM planning_settings WHERE key = 'k'")[0]?.value;
      assert.equal(value(), '"e"');
      p.undo();
      assert.equal(value(), '"b"');
      p.undo();
      assert.equal(value(), '"a"');
      p.undo();
      assert.equal(value(), undefined);
    } finally {
      p.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
