// A process saving in a loop is killed with SIGKILL at random moments, 200 times. Afterwards the
// project must always open, pass SQLite's integrity check, and hold at least its last completed save.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { build } from 'esbuild';
import { Project } from '../../../../src/core/db/project';
import { scalar } from '../../../../src/core/db/sqlite';
import { REPO, tempDir } from '../../../helpers/paths';
import { eachLine } from '../../../helpers/childLines';

const KILLS = 200;
const PARALLEL = 2;

function runOnce(script: string, file: string, killAfterMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, file], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let last = -1;
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    eachLine(child.stdout, (line) => {
      if (line === 'ready') setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      else if (line.startsWith('saved ')) last = Number(line.slice(6));
    });
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(last);
      else reject(new Error(`save loop exited with ${code}: ${err}`));
    });
  });
}

describe('crash safety', function () {
  // 200 process starts: on a busy shared machine that alone can take minutes (about nine with a
  // load of 20 on two cores).
  this.timeout(900_000);
  let dir: string;
  let script: string;

  before(async () => {
    dir = tempDir('pyops-crash-');
    script = path.join(dir, 'saveLoop.cjs');
    await build({
      entryPoints: [path.join(REPO, 'test/helpers/saveLoop.ts')],
      bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: script, logLevel: 'silent',
    });
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it(`survives ${KILLS} SIGKILLs at random moments without losing a completed save`, async () => {
    const lanes = Array.from({ length: PARALLEL }, (_, i) => path.join(dir, `lane${i}.pyops`));
    let opened = 0;
    await Promise.all(
      lanes.map(async (file) => {
        let lastCompleted = 0;
        for (let k = 0; k < KILLS / PARALLEL; k++) {
          const last = await runOnce(script, file, Math.random() * 40);
          if (last > lastCompleted) lastCompleted = last;
          const p = await Project.open(file, { readOnly: true });
          try {
            assert.equal(String(scalar(p.db, 'PRAGMA quick_check')), 'ok');
            const counter = Number(p.meta('counter') ?? 0);
            assert.ok(counter >= lastCompleted, `after kill ${k}: counter ${counter} < last completed save ${lastCompleted}`);
            const note = Number(scalar(p.db, `SELECT count(*) FROM notes WHERE id = 'n' || ?`, [String(counter)]));
            assert.equal(note, counter > 0 ? 1 : 0, 'the note written with the counter is in the same save');
            opened++;
          } finally {
            p.close();
          }
        }
        assert.ok(lastCompleted > 0, 'some saves completed');
      }),
    );
    assert.equal(opened, KILLS);
  });
});
