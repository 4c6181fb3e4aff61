// A full disk is reported as a full disk (not as "read-only" or a raw ENOSPC), and leaves no lock
// temp file behind. Uses a real 4 MB tmpfs, so it needs root (mount); elsewhere it skips, saying why.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { Project } from '../../../../src/core/db/project';
import { ProjectError } from '../../../../src/core/db/errors';
import { tempDir } from '../../../helpers/paths';

function fill(dir: string): void {
  const chunk = Buffer.alloc(64 * 1024, 1);
  const fd = fs.openSync(path.join(dir, 'filler'), 'w');
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    fs.closeSync(fd);
  }
  // Every last byte: small writes until not even one fits.
  const fd2 = fs.openSync(path.join(dir, 'filler2'), 'w');
  try {
    for (;;) fs.writeSync(fd2, Buffer.alloc(1, 1));
  } catch {
    // full
  } finally {
    fs.closeSync(fd2);
  }
}

describe('disk full', function () {
  this.timeout(60_000);
  let mnt: string;
  before(function () {
    mnt = tempDir('pyops-full-');
    const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mnt]);
    if (r.status !== 0) {
      console.log(`      (skipped: cannot mount a small tmpfs here: ${String(r.stderr).trim() || r.error?.message})`);
      fs.rmSync(mnt, { recursive: true, force: true });
      this.skip();
    }
  });
  after(() => {
    if (!mnt) return;
    spawnSync('umount', [mnt]);
    fs.rmSync(mnt, { recursive: true, force: true });
  });

  it('opening on a full disk says the disk is full and leaves no temp file; saving says so too', async () => {
    const file = path.join(mnt, 'full.pyops');
    const p0 = await Project.create(file);
    p0.write((db) => db.run("INSERT INTO notes(id, title, created_at, updated_at) VALUES ('n1', 'kept', 't', 't')"));
    p0.close();
    fill(mnt);
    const before = fs.readdirSync(mnt).sort();

    const p = await Project.open(file);
    try {
      assert.equal(p.readOnly, true);
      assert.match(p.readOnlyReason!, /disk holding full\.pyops is full \(ENOSPC\)/);
      assert.match(p.readOnlyReason!, /Free some space/);
      assert.equal(p.query<{ title: string }>('SELECT title FROM notes')[0].title, 'kept', 'what is saved is still served');
    } finally {
      p.close();
    }
    assert.deepEqual(fs.readdirSync(mnt).sort(), before, 'no lock or lock temp file is left behind');

    // Opened with space, then the disk fills: the save that cannot be made is reported as such.
    fs.rmSync(path.join(mnt, 'filler'));
    fs.rmSync(path.join(mnt, 'filler2'));
    const w = await Project.open(file);
    assert.equal(w.readOnly, false);
    fill(mnt);
    // Bigger than the journal's preallocated reserve, so the save needs new space.
    const big = 'x'.repeat(1_500_000);
    assert.throws(
      () => w.write((db) => db.run("INSERT INTO notes(id, title, body, created_at, updated_at) VALUES ('n2', 'big', ?, 't', 't')", [big])),
      (e: unknown) => e instanceof ProjectError && e.code === 'disk-full' && /this change was not saved/.test(e.message),
    );
    assert.equal(w.query('SELECT id FROM notes WHERE id = ?', ['n2']).length, 0, 'the failed save is rolled back');
    fs.rmSync(path.join(mnt, 'filler'));
    fs.rmSync(path.join(mnt, 'filler2'));
    w.close();
    const again = await Project.open(file, { readOnly: true });
    assert.deepEqual(again.query<{ id: string }>('SELECT id FROM notes').map((r) => r.id), ['n1']);
    again.close();
  });
});
