import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project, gamedataPath } from '../../../../src/core/db/project';
import { backupProject, restoreBackup, defaultBackupPath } from '../../../../src/core/db/bundle';
import { ProjectError } from '../../../../src/core/db/errors';
import { loadSqlJs, scalar } from '../../../../src/core/db/sqlite';
import { importGameData } from '../../../../src/core/gamedata/import';
import { journalPath } from '../../../../src/core/db/journal';
import { SAMPLE_DUMP, tempDir } from '../../../helpers/paths';

describe('backups', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function sampleProject(name = 'p.pyops'): Promise<Project> {
    const p = await Project.create(path.join(dir, name), { name: 'Backed up' });
    await importGameData(p, SAMPLE_DUMP);
    p.write((db) => db.run("INSERT INTO notes(id, title, body, created_at, updated_at) VALUES ('n1', 'Keep', 'me', 't', 't')"));
    return p;
  }

  it('writes one self-contained SQLite file holding project and game data', async () => {
    const p = await sampleProject();
    const dest = await backupProject(p, defaultBackupPath(p.file, new Date('2026-12-02T10:20:30Z')));
    assert.match(path.basename(dest), /^p-2026-12-02T10-20-30\.pyops-backup$/);
    assert.equal(path.basename(path.dirname(dest)), 'p.backups');
    const SQL = await loadSqlJs();
    const db = new SQL.Database(fs.readFileSync(dest));
    const n = (sql: string) => scalar(db, sql);
    assert.equal(n("SELECT value FROM meta WHERE key = 'kind'"), 'pyops-bundle');
    assert.equal(n('SELECT count(*) FROM items'), 44);
    assert.equal(n('SELECT count(*) FROM notes'), 1);
    db.close();
    p.close();
  });

  it('restores a backup into a working project with its game data', async () => {
    const p = await sampleProject();
    const dest = await backupProject(p, path.join(dir, 'b.pyops-backup'));
    p.close();
    const target = path.join(dir, 'restored', 'r.pyops');
    await restoreBackup(dest, target);
    const r = await Project.open(target);
    try {
      assert.equal(r.name, 'Backed up');
      assert.equal(r.gamedataStatus, 'ok');
      assert.equal(r.counts(['items'])['items'], 44);
      assert.deepEqual(r.query('SELECT title FROM notes').map((x) => x.title), ['Keep']);
      assert.ok(fs.existsSync(gamedataPath(target)));
      const tables = r.query<{ name: string }>("SELECT name FROM main.sqlite_master WHERE type = 'table'").map((x) => x.name);
      assert.ok(!tables.includes('items'), 'game data is not duplicated into the project file');
    } finally {
      r.close();
    }
  });

  it('restores over an existing project, keeping the replaced file as .bak', async () => {
    const p = await sampleProject();
    const dest = await backupProject(p, path.join(dir, 'b.pyops-backup'));
    p.write((db) => db.run("DELETE FROM notes"));
    p.close();
    await restoreBackup(dest, path.join(dir, 'p.pyops'));
    const r = await Project.open(path.join(dir, 'p.pyops'));
    assert.equal(r.counts(['notes'])['notes'], 1);
    r.close();
    assert.ok(fs.existsSync(path.join(dir, 'p.pyops.bak')));
  });

  it('does not replay the replaced project\'s journal onto the restored one', async () => {
    const p = await sampleProject();
    p.setMeta('x', 'one');
    const dest = await backupProject(p, path.join(dir, 'b.pyops-backup'));
    p.setMeta('x', 'two'); // journalled, not yet folded in
    // What a writer that crashed leaves behind: the file and its journal, no live lock.
    const crashed = path.join(dir, 'crashed.pyops');
    fs.copyFileSync(p.file, crashed);
    fs.copyFileSync(journalPath(p.file), journalPath(crashed));
    p.close();
    await restoreBackup(dest, crashed);
    const r = await Project.open(crashed);
    assert.equal(r.meta('x'), 'one');
    r.close();
  });

  it('refuses to restore into a project another PyOps window has open', async () => {
    const p = await sampleProject();
    const dest = await backupProject(p, path.join(dir, 'b.pyops-backup'));
    try {
      await assert.rejects(restoreBackup(dest, p.file), (e: unknown) => e instanceof ProjectError && /open in another PyOps window.*close it there, then restore again/.test(e.message));
      assert.equal(p.counts(['notes'])['notes'], 1);
    } finally {
      p.close();
    }
    const after = await Project.open(p.file);
    assert.equal(after.counts(['notes'])['notes'], 1, 'the open project was not replaced');
    after.close();
  });

  it("refuses to write a backup over the project's own files", async () => {
    const p = await sampleProject();
    try {
      for (const f of [p.file, gamedataPath(p.file), journalPath(p.file)]) {
        await assert.rejects(backupProject(p, f), (e: unknown) => e instanceof ProjectError && /one of the project's own files/.test(e.message));
      }
    } finally {
      p.close();
    }
    const again = await Project.open(path.join(dir, 'p.pyops'));
    assert.equal(again.counts(['notes'])['notes'], 1);
    again.close();
  });

  it('explains that a backup must be restored, not opened, and that a project is not a backup', async () => {
    const p = await sampleProject();
    const dest = await backupProject(p, path.join(dir, 'b.pyops-backup'));
    p.close();
    await assert.rejects(Project.open(dest), (e: unknown) => e instanceof ProjectError && e.code === 'is-bundle' && /Restore/.test(e.message));
    await assert.rejects(restoreBackup(path.join(dir, 'p.pyops'), path.join(dir, 'x.pyops')), (e: unknown) => e instanceof ProjectError && e.code === 'not-bundle');
  });

  it('backs up and restores a project without game data', async () => {
    const p = await Project.create(path.join(dir, 'empty.pyops'));
    const dest = await backupProject(p, path.join(dir, 'e.pyops-backup'));
    p.close();
    await restoreBackup(dest, path.join(dir, 'e2.pyops'));
    const r = await Project.open(path.join(dir, 'e2.pyops'));
    assert.equal(r.hasGameData(), false);
    assert.ok(!fs.existsSync(gamedataPath(path.join(dir, 'e2.pyops'))));
    r.close();
  });
});
