// A project by any path: opened through a symlink it stays one project and the link stays a link;
// a project file that is gone while its copies lie beside it is a recovery, not a new project; and
// names planted where recovery keeps the originals never stop it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project } from '../../../../src/core/db/project';
import { ProjectError } from '../../../../src/core/db/errors';
import { journalPath } from '../../../../src/core/db/journal';
import { recoverProject } from '../../../../src/core/db/recover';
import { run } from '../../../../src/cli/main';
import { tempDir } from '../../../helpers/paths';

const ids = (p: Project) => p.query<{ id: string }>('SELECT id FROM notes ORDER BY id').map((r) => r.id);
const addNote = (p: Project, id: string) =>
  p.write((db) => db.run('INSERT INTO notes(id, title, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [id, `Note ${id}`, '', 't', 't']));

describe('project paths', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a project opened through a symlink writes through to its file, and the link stays a link', async () => {
    const real = path.join(dir, 'data', 'real.pyops');
    fs.mkdirSync(path.dirname(real));
    (await Project.create(real)).close();
    const link = path.join(dir, 'link.pyops');
    fs.symlinkSync(real, link);

    const p = await Project.open(link);
    assert.equal(p.file, real, 'the project is known by its real file');
    addNote(p, 'n1');
    p.checkpoint();
    addNote(p, 'n2');
    // The same project by its other name is the same project: it is held, so this copy is read-only.
    const other = await Project.open(real);
    assert.equal(other.readOnly, true);
    assert.ok(other.lockOwner);
    other.close();
    p.close();

    assert.ok(fs.lstatSync(link).isSymbolicLink(), 'checkpoints did not replace the link');
    assert.equal(fs.readlinkSync(link), real);
    for (const f of ['link.pyops.journal', 'link.pyops.bak', 'link.pyops.lock']) assert.ok(!fs.existsSync(path.join(dir, f)), `${f} is not made beside the link`);
    const again = await Project.open(link);
    assert.deepEqual(ids(again), ['n1', 'n2']);
    again.close();
  });

  it('a deleted project file with .bak and its journal beside it offers recovery, not a new project', async () => {
    const file = path.join(dir, 'gone.pyops');
    const p = await Project.create(file);
    addNote(p, 'n1');
    p.checkpoint();
    addNote(p, 'n2');
    // Copies as a crash leaves them, then the project file itself is deleted.
    const kept = path.join(dir, 'kept');
    fs.mkdirSync(kept);
    for (const f of [file + '.bak', journalPath(file) + '.bak', journalPath(file), file + '.acked']) fs.copyFileSync(f, path.join(kept, path.basename(f)));
    p.close();
    const target = path.join(kept, 'gone.pyops');

    await assert.rejects(Project.open(target), (e: unknown) => {
      assert.ok(e instanceof ProjectError);
      assert.equal(e.code, 'damaged', 'the open paths offer "Recover…" on this code');
      assert.match(e.message, /gone\.pyops is missing, but its copies are beside it \(gone\.pyops\.bak, gone\.pyops\.journal, gone\.pyops\.journal\.bak\)/);
      assert.match(e.message, /pyops project recover gone\.pyops/);
      assert.doesNotMatch(e.message, /create a project there/);
      return true;
    });
    const err: string[] = [];
    assert.equal(await run(['project', 'backup', target], { out: () => {}, err: (t) => err.push(t) }), 1);
    assert.match(err.join('\n'), /is missing, but its copies are beside it.*pyops project recover gone\.pyops/);
    await assert.rejects(Project.create(target), (e: unknown) => e instanceof ProjectError && e.code === 'exists' && /of an earlier project are beside gone\.pyops: recover that project first/.test(e.message));

    const r = await recoverProject(target, { apply: true });
    assert.deepEqual(r.lost, []);
    const healed = await Project.open(target);
    assert.deepEqual(ids(healed), ['n1', 'n2']);
    healed.close();
  });

  it('a journal without its project file says so instead of offering a new project over its saves', async () => {
    const file = path.join(dir, 'j.pyops');
    const p = await Project.create(file);
    addNote(p, 'n1');
    const journal = fs.readFileSync(journalPath(file));
    p.close();
    for (const f of fs.readdirSync(dir)) fs.rmSync(path.join(dir, f), { recursive: true });
    fs.writeFileSync(journalPath(file), journal);
    await assert.rejects(Project.open(file), (e: unknown) => e instanceof ProjectError && e.code === 'missing' && /j\.pyops\.journal is beside it: saves of a project that was here/.test(e.message));
    await assert.rejects(Project.create(file), (e: unknown) => e instanceof ProjectError && e.code === 'exists');
  });

  it('refuses to create a project on a dangling symlink', async () => {
    const link = path.join(dir, 'dangling.pyops');
    fs.symlinkSync(path.join(dir, 'nowhere', 'x.pyops'), link);
    await assert.rejects(Project.create(link), (e: unknown) => e instanceof ProjectError && e.code === 'exists');
    assert.ok(fs.lstatSync(link).isSymbolicLink());
  });

  it('dangling symlinks planted on the ".damaged-<time>" names do not stop recovery', async () => {
    const live = path.join(dir, 'live.pyops');
    const p = await Project.create(live);
    addNote(p, 'n1');
    addNote(p, 'n2');
    // The files as a crash leaves them; then the last save's length word gets a flipped bit, which
    // recovery repairs without loss.
    const file = path.join(dir, 'd.pyops');
    for (const suffix of ['', '.journal', '.acked']) fs.copyFileSync(live + suffix, file + suffix);
    p.close();
    const j = fs.readFileSync(journalPath(file));
    j[j.lastIndexOf('{"changes":') - 8 + 1] ^= 0x02;
    fs.writeFileSync(journalPath(file), j);
    const now = new Date('2026-01-02T03:04:05Z');
    const stamp = '2026-01-02T03-04-05';
    fs.symlinkSync(path.join(dir, 'nowhere'), `${file}.damaged-${stamp}`);
    fs.symlinkSync(path.join(dir, 'also-nowhere', 'deeper'), `${file}.damaged-${stamp}-2`);
    fs.writeFileSync(`${file}.damaged-${stamp}-3`, 'a file, not a folder');
    const r = await recoverProject(file, { apply: true, now });
    assert.equal(r.keptIn, `${file}.damaged-${stamp}-4`);
    assert.ok(fs.statSync(r.keptIn!).isDirectory());
    assert.ok(!fs.existsSync(path.join(dir, 'nowhere')), 'nothing was created through the planted links');
    assert.ok(!fs.existsSync(path.join(dir, 'also-nowhere')));
    const healed = await Project.open(file);
    assert.deepEqual(ids(healed), ['n1', 'n2']);
    healed.close();
  });
});
