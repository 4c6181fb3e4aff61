import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { run } from '../../../src/cli/main';
import type { CliIO } from '../../../src/cli/io';
import { REPO, SAMPLE_WORLD, tempDir } from '../../helpers/paths';

function capture(): CliIO & { stdout: string; stderr: string } {
  const io = { stdout: '', stderr: '', out: (t: string) => void (io.stdout += t + '\n'), err: (t: string) => void (io.stderr += t + '\n') };
  return io;
}

describe('pyops command line', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('creates a project and imports a dump with --json counts', async () => {
    const file = path.join(dir, 'cli.pyops');
    const io = capture();
    assert.equal(await run(['project', 'create', file, '--name', 'CLI factory'], io), 0);
    assert.match(io.stdout, /Created project "CLI factory"/);
    const io2 = capture();
    assert.equal(await run(['import', file, SAMPLE_WORLD, '--json'], io2), 0, io2.stderr);
    const out = JSON.parse(io2.stdout);
    for (const k of ['items', 'fluids', 'recipes', 'synthesizedRecipes', 'machines', 'modules', 'beacons', 'technologies', 'turdMasters']) {
      assert.equal(typeof out[k], 'number', `--json has ${k}`);
    }
    assert.deepEqual([out.items, out.fluids, out.recipes, out.synthesizedRecipes, out.modules, out.beacons, out.technologies, out.turdMasters], [42, 6, 47, 11, 6, 1, 16, 1]);
  });

  it('fails with exit code 1 and a one-line reason', async () => {
    const file = path.join(dir, 'x.pyops');
    await run(['project', 'create', file], capture());
    const io = capture();
    fs.writeFileSync(path.join(dir, 'data-raw-dump.json'), '{"recipe": {"a": {"name": "a", "ingredients": [{"name": "nope", "amount": 1}]}}, "item": {}, "fluid": {}}');
    assert.equal(await run(['import', file, dir], io), 1);
    assert.equal(io.stderr.trim().split('\n').length, 1);
    assert.match(io.stderr, /^pyops: .*unknown item "nope"/);
    const io2 = capture();
    assert.equal(await run(['import', path.join(dir, 'missing.pyops'), SAMPLE_WORLD], io2), 1);
    assert.match(io2.stderr, /does not exist/);
  });

  it('fails with exit code 2 and the usage on a usage error', async () => {
    for (const argv of [[], ['frobnicate'], ['import', 'only-one'], ['project', 'create'], ['project', 'create', 'a', '--bogus']]) {
      const io = capture();
      assert.equal(await run(argv, io), 2, argv.join(' '));
      assert.match(io.stderr, /Usage:/);
    }
  });

  it('backs up and restores from the command line', async () => {
    const file = path.join(dir, 'b.pyops');
    await run(['project', 'create', file], capture());
    await run(['import', file, SAMPLE_WORLD], capture());
    const backup = path.join(dir, 'b.pyops-backup');
    assert.equal(await run(['project', 'backup', file, '--out', backup], capture()), 0);
    assert.equal(await run(['project', 'restore', backup, path.join(dir, 'r.pyops')], capture()), 0);
    assert.ok(fs.existsSync(path.join(dir, 'r.pyops.gamedata')));
  });

  it('runs as a process with the documented exit codes', () => {
    const cli = ['--import', 'tsx', path.join(REPO, 'src', 'cli', 'index.ts')];
    const ok = spawnSync(process.execPath, [...cli, 'project', 'create', path.join(dir, 'p.pyops')], { cwd: REPO, encoding: 'utf8' });
    assert.equal(ok.status, 0, ok.stderr);
    const usage = spawnSync(process.execPath, [...cli, 'nonsense'], { cwd: REPO, encoding: 'utf8' });
    assert.equal(usage.status, 2);
    const fail = spawnSync(process.execPath, [...cli, 'import', path.join(dir, 'p.pyops'), path.join(dir, 'nowhere')], { cwd: REPO, encoding: 'utf8' });
    assert.equal(fail.status, 1);
    assert.match(fail.stderr, /^pyops: .*does not exist/);
  });
});
