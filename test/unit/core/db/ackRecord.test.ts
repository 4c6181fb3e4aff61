// The save record proves acknowledged saves without the journal's own bytes: a deleted journal, a
// journal cut back to fewer saves, or an acknowledged last save that now looks like a torn tail is
// reported (read-only, recovery offered and honest about the loss) — never taken for "no saves".
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project } from '../../../../src/core/db/project';
import { journalPath } from '../../../../src/core/db/journal';
import { AckRecorder, ackRecordPath, readAckRecord } from '../../../../src/core/db/ackRecord';
import { planRecovery, recoverProject, describeRecovery } from '../../../../src/core/db/recover';
import { backupProject, restoreBackup } from '../../../../src/core/db/bundle';
import { run } from '../../../../src/cli/main';
import { tempDir } from '../../../helpers/paths';
import { framesEnd } from '../../../helpers/journalBytes';

const SECTOR = 512;
const ids = (p: Project) => p.query<{ id: string }>('SELECT id FROM notes ORDER BY id').map((r) => r.id);
const addNote = (p: Project, id: string, body = '') =>
  p.write((db) => db.run('INSERT INTO notes(id, title, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [id, `Note ${id}`, body, 't', 't']));

describe('the save record', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /**
   * The files of a project as a crash would leave them: saves acknowledged, never folded. The writer
   * keeps running while they are copied, then closes its own copy.
   */
  async function crashedWith(saves: number, body = (i: number) => `body ${i}`): Promise<{ file: string; id: string; starts: number[] }> {
    const live = path.join(dir, 'live', 'p.pyops');
    const p = await Project.create(live);
    const starts: number[] = [];
    for (let i = 1; i <= saves; i++) {
      starts.push(framesEnd(fs.existsSync(journalPath(live)) ? fs.readFileSync(journalPath(live)) : Buffer.alloc(0)));
      addNote(p, `n${i}`, body(i));
    }
    const file = path.join(dir, 'crashed', 'p.pyops');
    fs.mkdirSync(path.dirname(file));
    for (const f of [live, journalPath(live), ackRecordPath(live)]) fs.copyFileSync(f, path.join(path.dirname(file), path.basename(f)));
    const id = p.id;
    p.close();
    // The first save started the journal; its start is the header's end.
    starts[0] = 12;
    return { file, id, starts };
  }

  it('counts every acknowledged save of the current journal generation', async () => {
    const { file, id } = await crashedWith(3);
    assert.deepEqual(readAckRecord(file, id), { projectId: id, generation: 0, saves: 3 });
    assert.equal(readAckRecord(file, 'another-project'), undefined, "another project's record proves nothing here");
    const p = await Project.open(file);
    assert.equal(p.damage, undefined);
    assert.deepEqual(ids(p), ['n1', 'n2', 'n3']);
    p.close();
  });

  it('a deleted journal is reported: read-only, recovery offered, and recovery names the lost saves', async () => {
    const { file } = await crashedWith(3);
    fs.rmSync(journalPath(file));
    const p = await Project.open(file);
    assert.equal(p.readOnly, true);
    assert.match(p.damage!, /p\.pyops\.journal is missing, but p\.pyops\.acked records 3 saves confirmed since p\.pyops was last written/);
    assert.match(p.damage!, /pyops project recover p\.pyops/);
    p.close();

    const { report, db } = await planRecovery(file);
    db.close();
    assert.equal(report.healthy, false, 'not "nothing to recover"');
    assert.match(report.lost.join('\n'), /The 3 confirmed saves of journal generation 0 are in no file here/);
    const lines: string[] = [];
    assert.equal(await run(['project', 'recover', file], { out: (t) => lines.push(t), err: () => {} }), 0);
    assert.match(lines.join('\n'), /Lost: The 3 confirmed saves/);

    // Applying keeps the originals aside and leaves a project that opens for editing again.
    const applied = await recoverProject(file, { apply: true });
    assert.ok(fs.existsSync(path.join(applied.keptIn!, 'p.pyops.acked')), 'the record is kept with the other originals');
    assert.ok(!fs.existsSync(ackRecordPath(file)));
    const healed = await Project.open(file);
    assert.equal(healed.readOnly, false);
    healed.close();
  });

  it('an acknowledged last save whose final sector was lost is damage, not a torn tail', async () => {
    const { file } = await crashedWith(3, (i) => (i === 3 ? 'z'.repeat(1500) : `body ${i}`));
    const j = fs.readFileSync(journalPath(file));
    const end = framesEnd(j);
    j.fill(0, Math.floor((end - 1) / SECTOR) * SECTOR, end);
    fs.writeFileSync(journalPath(file), j);

    const p = await Project.open(file);
    assert.equal(p.readOnly, true);
    assert.match(p.damage!, /p\.pyops\.journal is damaged .*2 saves are intact and shown here; 1 confirmed save in the damaged bytes cannot be read/);
    assert.deepEqual(ids(p), ['n1', 'n2']);
    p.close();
    assert.deepEqual(fs.readFileSync(journalPath(file)), j, 'the next writable open does not zero it: there is none');
    const again = await Project.open(file);
    assert.equal(again.readOnly, true);
    again.close();
    assert.deepEqual(fs.readFileSync(journalPath(file)), j);

    const { report, db } = await planRecovery(file);
    db.close();
    assert.equal(report.healthy, false);
    assert.match(report.lost.join('\n'), /1 confirmed save of p\.pyops\.journal is not among its intact saves/);
  });

  it('the same shape after a save that was never acknowledged is a torn tail, dropped without a report', async () => {
    const { file, id } = await crashedWith(3, (i) => (i === 3 ? 'z'.repeat(1500) : `body ${i}`));
    const j = fs.readFileSync(journalPath(file));
    const end = framesEnd(j);
    j.fill(0, Math.floor((end - 1) / SECTOR) * SECTOR, end);
    fs.writeFileSync(journalPath(file), j);
    // The crash came mid-append: the record still says two.
    new AckRecorder(file, id).note(0, 2);
    const p = await Project.open(file);
    assert.equal(p.damage, undefined);
    assert.equal(p.readOnly, false);
    assert.deepEqual(ids(p), ['n1', 'n2']);
    p.close();
  });

  it('a grown length word on the last save is reported, and every save is served and recovered', async () => {
    const { file, starts } = await crashedWith(3);
    const j = fs.readFileSync(journalPath(file));
    j[starts[2] + 1] ^= 0x02; // the length grows by 512: one more sector of zeros
    fs.writeFileSync(journalPath(file), j);
    const p = await Project.open(file);
    assert.equal(p.readOnly, true);
    assert.match(p.damage!, /4 bytes at offset \d+\): 3 saves are intact and shown here; every save p\.pyops\.acked records as confirmed \(3\) is among them/);
    assert.deepEqual(ids(p), ['n1', 'n2', 'n3']);
    p.close();
    const r = await recoverProject(file, { apply: true });
    assert.deepEqual(r.lost, []);
    const healed = await Project.open(file);
    assert.deepEqual(ids(healed), ['n1', 'n2', 'n3']);
    healed.close();
  });

  it('a flipped bit in the zero padding after the last save is no lost save: the project opens for editing with every save', async () => {
    const { file } = await crashedWith(3);
    const j = fs.readFileSync(journalPath(file));
    j[framesEnd(j) + 700] ^= 0x10;
    fs.writeFileSync(journalPath(file), j);
    const { report, db } = await planRecovery(file);
    db.close();
    assert.deepEqual(report.lost, []);
    assert.doesNotMatch(describeRecovery(report, false).join('\n'), /at least 1/);
    const p = await Project.open(file);
    assert.equal(p.damage, undefined);
    assert.equal(p.readOnly, false);
    assert.deepEqual(ids(p), ['n1', 'n2', 'n3']);
    addNote(p, 'n4');
    p.close();
    const again = await Project.open(file, { readOnly: true });
    assert.deepEqual(ids(again), ['n1', 'n2', 'n3', 'n4']);
    again.close();
  });

  it('a project file replaced by an older copy, with its journal gone too, is reported', async () => {
    const file = path.join(dir, 'old', 'p.pyops');
    const p = await Project.create(file);
    addNote(p, 'n1');
    p.checkpoint();
    addNote(p, 'n2');
    const older = fs.readFileSync(file + '.bak');
    p.close();
    fs.writeFileSync(file, older);
    for (const f of [journalPath(file), journalPath(file) + '.bak']) fs.rmSync(f, { force: true });
    const again = await Project.open(file);
    assert.equal(again.readOnly, true);
    assert.match(again.damage!, /older than its own saves: .* so it was replaced by an older copy/);
    again.close();
  });

  it('restoring a backup over the project leaves no record that would call the restored file old', async () => {
    const file = path.join(dir, 'r', 'p.pyops');
    const p = await Project.create(file);
    addNote(p, 'n1');
    const backup = await backupProject(p, path.join(dir, 'r.pyops-backup'));
    p.checkpoint();
    addNote(p, 'n2');
    p.close();
    await restoreBackup(backup, file);
    const restored = await Project.open(file);
    assert.equal(restored.damage, undefined);
    assert.equal(restored.readOnly, false);
    assert.deepEqual(ids(restored), ['n1']);
    restored.close();
  });
});
