// Damage, with real files and real processes: a child process saves 30 tasks (checkpointing after
// the 10th and 20th, so the project file, `.bak`, `.journal.bak` and `.journal` all hold some, and
// the save record counts the journal's) and is SIGKILLed. Then each file is flipped and truncated at many offsets. Every acknowledged save must be
// served, or the damage reported (and then recovery must bring back all it can and list the rest).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { build } from 'esbuild';
import { Project } from '../../../../src/core/db/project';
import { ProjectError } from '../../../../src/core/db/errors';
import { journalPath, parseJournal } from '../../../../src/core/db/journal';
import { readAckRecord } from '../../../../src/core/db/ackRecord';
import { planRecovery, recoverProject, describeRecovery } from '../../../../src/core/db/recover';
import { all } from '../../../../src/core/db/sqlite';
import { run } from '../../../../src/cli/main';
import { REPO, tempDir } from '../../../helpers/paths';
import { eachLine } from '../../../helpers/childLines';
import { framesEnd } from '../../../helpers/journalBytes';

const SAVES = 30;
const ACKED = Array.from({ length: SAVES }, (_, i) => `t${i + 1}`);

async function bundle(dir: string, entry: string): Promise<string> {
  const out = path.join(dir, path.basename(entry, '.ts') + '.cjs');
  await build({ entryPoints: [path.join(REPO, entry)], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: out, logLevel: 'silent' });
  return out;
}

/** Run the writer until it has acknowledged every save, then SIGKILL it. Returns the acknowledged ids. */
function writeAndKill(script: string, file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, file, String(SAVES), '10', '20'], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    const acked: string[] = [];
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    eachLine(child.stdout, (line) => {
      if (line.startsWith('ack ')) acked.push(`t${line.slice(4)}`);
      if (line === 'done') child.kill('SIGKILL');
    });
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve(acked) : reject(new Error(`writer exited with ${code}: ${err}`))));
  });
}

const FILES = ['p.pyops', 'p.pyops.bak', 'p.pyops.journal', 'p.pyops.journal.bak', 'p.pyops.acked'];

function copyFixture(from: string, to: string): string {
  fs.mkdirSync(to, { recursive: true });
  for (const f of FILES) if (fs.existsSync(path.join(from, f))) fs.copyFileSync(path.join(from, f), path.join(to, f));
  return path.join(to, 'p.pyops');
}

/** Offsets spread over the bytes that hold data (a journal's zero-filled reserve is mostly skipped). */
function offsets(buf: Buffer, n: number): number[] {
  const end = Math.min(buf.length, framesEnd(buf) + 64);
  const out = new Set<number>();
  for (let i = 0; i < n; i++) out.add(Math.floor((i * end) / n + ((i * 7919) % Math.max(1, Math.floor(end / n)))));
  return [...out].filter((o) => o < buf.length).sort((a, b) => a - b);
}

const taskIds = (p: Project) => p.query<{ id: string }>('SELECT id FROM tasks').map((r) => r.id);

describe('damaged projects: every acknowledged save is served or reported', function () {
  this.timeout(300_000);
  let dir: string;
  let fixture: string;
  let writer: string;
  let recoverer: string;
  let acked: string[];

  before(async () => {
    dir = tempDir('pyops-damage-');
    writer = await bundle(dir, 'test/helpers/ackWriter.ts');
    recoverer = await bundle(dir, 'test/helpers/recoverOnce.ts');
    fixture = path.join(dir, 'fixture');
    fs.mkdirSync(fixture);
    acked = await writeAndKill(writer, path.join(fixture, 'p.pyops'));
    assert.deepEqual(acked, ACKED);
    for (const f of FILES) assert.ok(fs.existsSync(path.join(fixture, f)), `${f} exists after the writer was killed`);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('the undamaged fixture serves all 30 saves', async () => {
    const p = await Project.open(copyFixture(fixture, path.join(dir, 'clean')));
    assert.equal(p.readOnly, false);
    assert.deepEqual(taskIds(p).sort(), [...ACKED].sort());
    p.close();
  });

  it('one flipped byte in the middle of the journal: read-only, named, journal kept byte for byte; recovery brings back every intact save', async () => {
    const file = copyFixture(fixture, path.join(dir, 'mid'));
    const j = fs.readFileSync(journalPath(file));
    const at = j.indexOf('Task number 24');
    j[at + 5] ^= 0x01;
    fs.writeFileSync(journalPath(file), j);

    const p = await Project.open(file);
    assert.equal(p.readOnly, true);
    assert.match(p.readOnlyReason!, /p\.pyops\.journal is damaged .* 9 saves are intact .*1 confirmed save in the damaged bytes cannot be read.*Recover Project/);
    assert.deepEqual(taskIds(p).sort(), ACKED.filter((t) => t !== 't24').sort(), 'the intact saves after the bad one are shown too');
    assert.throws(() => p.write((db) => db.run("DELETE FROM tasks")), (e: unknown) => e instanceof ProjectError && e.code === 'read-only');
    p.close();
    assert.deepEqual(fs.readFileSync(journalPath(file)), j, 'the damaged journal is neither truncated nor rewritten');
    // Opening again (the next session) still does not build on it.
    const again = await Project.open(file);
    assert.equal(again.readOnly, true);
    again.close();
    assert.deepEqual(fs.readFileSync(journalPath(file)), j);

    const dry = await recoverProject(file, { apply: false });
    assert.equal(dry.healthy, false);
    assert.equal(dry.savesReplayed, 9);
    assert.equal(dry.counts.tasks, 29);
    assert.equal(dry.lost.length, 1);
    assert.deepEqual(fs.readFileSync(journalPath(file)), j, 'the dry run changes nothing');

    const code = await run(['project', 'recover', file, '--yes'], { out: () => {}, err: () => {} });
    assert.equal(code, 0);
    const kept = fs.readdirSync(path.dirname(file)).find((n) => n.startsWith('p.pyops.damaged-'))!;
    assert.deepEqual(fs.readFileSync(path.join(path.dirname(file), kept, 'p.pyops.journal')), j, 'the damaged journal is kept aside');
    const healed = await Project.open(file);
    assert.equal(healed.readOnly, false);
    assert.deepEqual(taskIds(healed).sort(), ACKED.filter((t) => t !== 't24').sort());
    healed.write((db) => db.run("INSERT INTO tasks(id, title, created_at, updated_at) VALUES ('after', 'after recovery', 't', 't')"));
    healed.close();
    const reread = await Project.open(file, { readOnly: true });
    assert.equal(taskIds(reread).length, 30);
    reread.close();
  });

  it('a damaged project file: renaming .bak would lose saves; recovery replays .journal.bak and .journal onto .bak and loses none', async () => {
    const file = copyFixture(fixture, path.join(dir, 'file'));
    const b = fs.readFileSync(file);
    const at = b.indexOf('Task number 7');
    b[at + 12] ^= 0x02; // "Task number 7" -> "Task number 5": quick_check passes, the seal does not
    fs.writeFileSync(file, b);
    await assert.rejects(Project.open(file), (e: unknown) => e instanceof ProjectError && e.code === 'damaged' && /checksum/.test(e.message) && /pyops project recover p\.pyops/.test(e.message));

    const lines: string[] = [];
    assert.equal(await run(['project', 'recover', file], { out: (t) => lines.push(t), err: () => {} }), 0);
    assert.match(lines.join('\n'), /Recovered project: p\.pyops\.bak .*20 saves replayed/);
    assert.match(lines.join('\n'), /Lost: nothing that was saved is lost/);
    assert.match(lines.join('\n'), /Nothing was changed/);
    assert.deepEqual(fs.readFileSync(file), b);

    const r = await recoverProject(file, { apply: true });
    assert.deepEqual(r.lost, []);
    const p = await Project.open(file);
    assert.deepEqual(taskIds(p).sort(), [...ACKED].sort());
    assert.equal(p.query<{ title: string }>("SELECT title FROM tasks WHERE id = 't7'")[0].title, 'Task number 7');
    p.close();
  });

  it('an emptied project file points at recovery (and .bak), not "not a PyOps project"', async () => {
    const file = copyFixture(fixture, path.join(dir, 'empty'));
    fs.writeFileSync(file, '');
    await assert.rejects(Project.open(file), (e: unknown) => e instanceof ProjectError && e.code === 'damaged' && /empty/.test(e.message) && /p\.pyops\.bak/.test(e.message) && /Recover Project/.test(e.message));
    const r = await recoverProject(file, { apply: true });
    assert.deepEqual(r.lost, []);
    const p = await Project.open(file);
    assert.equal(taskIds(p).length, SAVES);
    p.close();
  });

  it('killed at random moments during recovery, the project always recovers to every intact save', async function () {
    const KILLS = 12;
    let killedMidway = 0;
    // How long one uninterrupted recovery takes on this machine, so the kills land inside it however
    // fast or busy the machine is.
    const runOnce = (file: string, killAfterMs?: number) =>
      new Promise<{ out: string; ms: number }>((resolve) => {
        const t0 = Date.now();
        const child = spawn(process.execPath, [recoverer, file], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
        let s = '';
        child.stdout.on('data', (d) => (s += d));
        if (killAfterMs !== undefined) setTimeout(() => child.kill('SIGKILL'), killAfterMs);
        child.on('exit', () => resolve({ out: s, ms: Date.now() - t0 }));
      });
    const damage = (file: string) => {
      const j = fs.readFileSync(journalPath(file));
      j[j.indexOf('Task number 22') + 3] ^= 0x10;
      fs.writeFileSync(journalPath(file), j);
    };
    const probe = copyFixture(fixture, path.join(dir, 'kill-probe'));
    damage(probe);
    const full = await runOnce(probe);
    assert.ok(full.out.startsWith('recovered'), full.out);
    for (let k = 0; k < KILLS; k++) {
      const file = copyFixture(fixture, path.join(dir, `kill${k}`));
      damage(file);
      // Spread over the whole run (the first part is loading sql.js; the rest is the recovery itself).
      const { out } = await runOnce(file, Math.random() * full.ms);
      if (!out.startsWith('recovered')) killedMidway++;
      // Whatever state the kill left, recovering (again) ends with every intact save and nothing else lost.
      await recoverProject(file, { apply: true });
      const p = await Project.open(file);
      assert.equal(p.readOnly, false, `after kill ${k}: ${p.readOnlyReason}`);
      assert.deepEqual(taskIds(p).sort(), ACKED.filter((t) => t !== 't22').sort(), `after kill ${k}`);
      p.close();
    }
    console.log(`      (${killedMidway} of ${KILLS} recoveries were killed before they finished)`);
    assert.ok(killedMidway > 0, 'some recoveries were interrupted');
  });

  it('flipped and truncated at many offsets in every file: no acknowledged save is silently dropped', async function () {
    const stats = { damagedFiles: 0, served: 0, reported: 0, recoveredWrites: 0, reportedLost: 0, silentlyDropped: 0 };
    let trial = 0;
    for (const target of FILES) {
      const original = fs.readFileSync(path.join(fixture, target));
      const cases: Array<{ label: string; bytes: Buffer }> = [];
      for (const o of offsets(original, 40)) {
        const b = Buffer.from(original);
        b[o] ^= 0x01 << (o % 8);
        cases.push({ label: `${target} bit flipped at ${o}`, bytes: b });
      }
      for (const o of offsets(original, 12)) cases.push({ label: `${target} truncated at ${o}`, bytes: original.subarray(0, o) });
      for (const c of cases) {
        const file = copyFixture(fixture, path.join(dir, 'fuzz', String(trial++)));
        fs.writeFileSync(path.join(path.dirname(file), target), c.bytes);
        stats.damagedFiles++;
        let served: string[] | undefined;
        let reported = false;
        try {
          const p = await Project.open(file);
          served = taskIds(p);
          reported = !!p.damage;
          p.close();
        } catch (err) {
          assert.ok(err instanceof ProjectError && err.code === 'damaged', `${c.label}: ${(err as Error).message}`);
          assert.match(err.message, /Recover Project/, c.label);
          reported = true;
        }
        if (!reported) {
          const missing = ACKED.filter((t) => !served!.includes(t));
          if (missing.length) stats.silentlyDropped += missing.length;
          assert.deepEqual(missing, [], `${c.label}: opened without a report but ${missing.join(', ')} are gone`);
          stats.served++;
          stats.recoveredWrites += SAVES;
          continue;
        }
        stats.reported++;
        const { report, db } = await planRecovery(file);
        const got = all<{ id: string }>(db, 'SELECT id FROM tasks').map((r) => r.id);
        db.close();
        const missing = ACKED.filter((t) => !got.includes(t));
        stats.recoveredWrites += SAVES - missing.length;
        stats.reportedLost += missing.length;
        assert.ok(!missing.length || report.lost.length, `${c.label}: recovery would drop ${missing.join(', ')} without saying so:\n${describeRecovery(report, false).join('\n')}`);
      }
    }
    console.log(`      (damaged files tried ${stats.damagedFiles}: ${stats.served} opened whole, ${stats.reported} reported; writes recovered ${stats.recoveredWrites}, reported lost ${stats.reportedLost}, silently dropped ${stats.silentlyDropped})`);
    assert.equal(stats.silentlyDropped, 0);
  });

  it('a journal newer than the project file (an old copy put in its place) opens read-only and recovery keeps its saves', async () => {
    const file = copyFixture(fixture, path.join(dir, 'renamed'));
    // The old advice: rename .bak over the damaged file.
    fs.copyFileSync(file + '.bak', file);
    const p = await Project.open(file);
    assert.equal(p.readOnly, true);
    assert.match(p.readOnlyReason!, /replaced by an older copy/);
    p.close();
    const r = await recoverProject(file, { apply: true });
    assert.deepEqual(r.lost, []);
    const healed = await Project.open(file);
    assert.equal(taskIds(healed).length, SAVES);
    healed.close();
  });

  it('every single-bit flip of both journals, the journal header, the seal and the save record: served whole or reported, never silently dropped', async function () {
    const opened = await Project.open(path.join(fixture, 'p.pyops'), { readOnly: true });
    const id = opened.id;
    opened.close();
    const record = readAckRecord(path.join(fixture, 'p.pyops'), id)!;
    assert.deepEqual([record.generation, record.saves], [2, 10], 'the fixture records the 10 saves of its current journal');
    const tally = { journalFlips: 0, reported: 0, harmless: 0, silentlyDropped: 0, headerSealRecordFlips: 0, opened: 0 };
    // The journals, bit by bit, as the reader judges them against the record (Project.open takes its
    // verdict from exactly this read).
    for (const name of ['p.pyops.journal', 'p.pyops.journal.bak']) {
      const whole = fs.readFileSync(path.join(fixture, name));
      const end = framesEnd(whole);
      const buf = Buffer.from(whole.subarray(0, end + 1024));
      const clean = parseJournal(buf, undefined, record);
      const want = clean.frames.map((f) => JSON.stringify(f)).join('\n');
      for (let byte = 0; byte < end + 256; byte++) {
        for (let bit = 0; bit < 8; bit++) {
          buf[byte] ^= 1 << bit;
          const r = parseJournal(buf, undefined, record);
          buf[byte] ^= 1 << bit;
          tally.journalFlips++;
          if (r.headerDamaged || r.damage.length || r.missing) tally.reported++;
          else if (r.frames.map((f) => JSON.stringify(f)).join('\n') === want) tally.harmless++;
          else tally.silentlyDropped++;
        }
      }
    }
    // The 12-byte journal header, the project file's 40-byte seal and the 64-byte save record, each
    // bit flipped in a real project: opened with every save, or reported.
    const file0 = path.join(fixture, 'p.pyops');
    const targets: Array<{ name: string; from: number; to: number }> = [
      { name: 'p.pyops.journal', from: 0, to: 12 },
      { name: 'p.pyops', from: fs.statSync(file0).size - 40, to: fs.statSync(file0).size },
      { name: 'p.pyops.acked', from: 0, to: 64 },
    ];
    const work = copyFixture(fixture, path.join(dir, 'bits'));
    for (const t of targets) {
      const target = path.join(path.dirname(work), t.name);
      const original = fs.readFileSync(target);
      for (let byte = t.from; byte < t.to; byte++) {
        for (let bit = 0; bit < 8; bit++) {
          const b = Buffer.from(original);
          b[byte] ^= 1 << bit;
          fs.writeFileSync(target, b);
          tally.headerSealRecordFlips++;
          try {
            const p = await Project.open(work, { readOnly: true });
            const served = taskIds(p);
            const reported = !!p.damage;
            p.close();
            if (reported) tally.reported++;
            else if (ACKED.every((a) => served.includes(a))) tally.opened++;
            else tally.silentlyDropped++;
          } catch (err) {
            assert.ok(err instanceof ProjectError && err.code === 'damaged', `${t.name} bit ${bit} of byte ${byte}: ${(err as Error).message}`);
            tally.reported++;
          }
        }
      }
      fs.writeFileSync(target, original);
    }
    console.log(`      (${tally.journalFlips} journal bit flips and ${tally.headerSealRecordFlips} header/seal/record flips: ${tally.reported} reported, ${tally.harmless} in padding and ${tally.opened} in the record opened whole, ${tally.silentlyDropped} silently dropped)`);
    assert.equal(tally.silentlyDropped, 0);
  });

  it('pyops project recover on a healthy project says so and changes nothing', async () => {
    const file = copyFixture(fixture, path.join(dir, 'healthy'));
    const before = fs.readFileSync(file);
    const lines: string[] = [];
    assert.equal(await run(['project', 'recover', file, '--yes'], { out: (t) => lines.push(t), err: () => {} }), 0);
    assert.match(lines.join('\n'), /not damaged: nothing to recover/);
    assert.deepEqual(fs.readFileSync(file), before);
  });
});
