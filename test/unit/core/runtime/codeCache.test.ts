// The command line's and the extension's bundles run from a V8 code cache: stored at the end of the
// first run (or when the extension's start is done), used by the next, never used for a changed bundle
// or damaged data, and the bundle runs the same either way.
// Each run is its own process, as each `pyops` call is (V8 also keeps compiled code in memory, which
// would hide what the file does).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { codeCacheFile } from '../../../../src/core/runtime/codeCache';
import { REPO, tempDir } from '../../../helpers/paths';

const DRIVER = `
const { runWithCodeCache } = require(${JSON.stringify(path.join(REPO, 'src', 'core', 'runtime', 'codeCache.ts'))});
const { use } = runWithCodeCache(process.argv[1], { cacheDir: process.argv[2] || undefined, storeAtExit: true });
process.stdout.write(JSON.stringify({ use, ran: globalThis.__ran }));
`;

describe('bundle code cache', function () {
  this.timeout(60_000);
  let dir: string;
  let bundle: string;
  let cacheDir: string;
  beforeEach(() => {
    dir = tempDir();
    cacheDir = path.join(dir, 'cache');
    bundle = path.join(dir, 'bundle.cjs');
    // What a bundle relies on: module.exports, require relative to itself, __filename and __dirname.
    fs.writeFileSync(path.join(dir, 'dep.cjs'), 'module.exports = 41;');
    fs.writeFileSync(bundle, "globalThis.__ran = { value: require('./dep.cjs') + 1, file: __filename, dir: __dirname, self: module.exports === exports };\n");
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function runOnce(cache: string | undefined = cacheDir): { use: string; ran: { value: number; file: string; dir: string; self: boolean } } {
    const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', DRIVER, bundle, cache ?? ''], { cwd: REPO, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout);
  }

  it('stores the code at the end of the first run and starts from it on the next', () => {
    const first = runOnce();
    assert.deepEqual(first, { use: 'stored', ran: { value: 42, file: bundle, dir, self: true } });
    const file = codeCacheFile(bundle, cacheDir);
    assert.ok(fs.statSync(file).size > 0);
    if (process.platform !== 'win32') assert.equal((fs.statSync(file).mode & 0o777).toString(8), '600', 'only the user reads it');
    assert.deepEqual(runOnce(), { ...first, use: 'used' });
  });

  it('never runs stored code for a rebuilt bundle, and replaces damaged data', () => {
    runOnce();
    const before = codeCacheFile(bundle, cacheDir);
    fs.writeFileSync(bundle, "globalThis.__ran = { value: require('./dep.cjs') + 2, file: __filename, dir: __dirname, self: true };\n");
    assert.notEqual(codeCacheFile(bundle, cacheDir), before, 'another file for another bundle');
    const rebuilt = runOnce();
    assert.equal(rebuilt.use, 'stored');
    assert.equal(rebuilt.ran.value, 43, 'the new code ran');
    const file = codeCacheFile(bundle, cacheDir);
    fs.writeFileSync(file, Buffer.alloc(fs.statSync(file).size, 7));
    const damaged = runOnce();
    assert.deepEqual([damaged.use, damaged.ran.value], ['stored', 43], 'damaged data is rejected and written again');
    assert.equal(runOnce().use, 'used');
  });

  it('keeps one file per bundle: a rebuild replaces the earlier build\'s, a bundle elsewhere keeps its own', () => {
    const other = path.join(dir, 'other', 'bundle.cjs');
    fs.mkdirSync(path.dirname(other));
    fs.copyFileSync(bundle, other);
    fs.copyFileSync(path.join(dir, 'dep.cjs'), path.join(dir, 'other', 'dep.cjs'));
    runOnce();
    const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', DRIVER, other, cacheDir], { cwd: REPO, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    // A file of the naming before this one (no place in the name): nothing reads it any more.
    fs.writeFileSync(path.join(cacheDir, `bundle-${'a'.repeat(24)}.v8cache`), 'old');
    fs.writeFileSync(path.join(cacheDir, 'unrelated.txt'), 'keep');
    const first = codeCacheFile(bundle, cacheDir);
    fs.writeFileSync(bundle, "globalThis.__ran = { value: 7, file: __filename, dir: __dirname, self: true };\n");
    assert.equal(runOnce().use, 'stored');
    assert.deepEqual(fs.readdirSync(cacheDir).sort(), [path.basename(codeCacheFile(bundle, cacheDir)), path.basename(codeCacheFile(other, cacheDir)), 'unrelated.txt'].sort());
    assert.equal(fs.existsSync(first), false, 'the earlier build\'s code is gone');
  });

  it('runs without a cache when told to, or when its folder cannot be written', () => {
    assert.deepEqual([runOnce('').use, runOnce('').ran.value], ['off', 42]);
    fs.writeFileSync(path.join(dir, 'file'), '');
    const blocked = path.join(dir, 'file', 'cache');
    assert.deepEqual([runOnce(blocked).use, runOnce(blocked).ran.value], ['stored', 42]);
    assert.equal(fs.existsSync(blocked), false);
  });

  it('stores for a host that does not exit when it says its start is done, once, and hands back the exports', () => {
    fs.writeFileSync(bundle, "module.exports = { twice: (n) => 2 * n };\n");
    const host = `
const { runWithCodeCache } = require(${JSON.stringify(path.join(REPO, 'src', 'core', 'runtime', 'codeCache.ts'))});
const fs = require('node:fs');
const run = runWithCodeCache(process.argv[1], { cacheDir: process.argv[2] });
const before = fs.existsSync(process.argv[3]);
run.store();
const after = fs.statSync(process.argv[3], { throwIfNoEntry: false })?.mtimeMs;
run.store();
process.stdout.write(JSON.stringify({ use: run.use, value: run.exports.twice(21), before, stored: after !== undefined }));
`;
    const runHost = () => {
      const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', host, bundle, cacheDir, codeCacheFile(bundle, cacheDir)], { cwd: REPO, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      return JSON.parse(r.stdout);
    };
    assert.deepEqual(runHost(), { use: 'stored', value: 42, before: false, stored: true }, 'nothing is written before store()');
    const mtime = fs.statSync(codeCacheFile(bundle, cacheDir)).mtimeMs;
    assert.deepEqual(runHost(), { use: 'used', value: 42, before: true, stored: true });
    assert.equal(fs.statSync(codeCacheFile(bundle, cacheDir)).mtimeMs, mtime, 'a run that used the code does not write it again');
  });

  it('calls beforeRun after reading the stored code and before the bundle runs', () => {
    fs.writeFileSync(bundle, "module.exports = globalThis.__before;\n");
    const host = `
const { runWithCodeCache } = require(${JSON.stringify(path.join(REPO, 'src', 'core', 'runtime', 'codeCache.ts'))});
const run = runWithCodeCache(process.argv[1], { cacheDir: process.argv[2], storeAtExit: true, beforeRun: () => (globalThis.__before = 'before') });
process.stdout.write(JSON.stringify({ use: run.use, saw: run.exports }));
`;
    const runHost = () => {
      const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', host, bundle, cacheDir], { cwd: REPO, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      return JSON.parse(r.stdout);
    };
    assert.deepEqual(runHost(), { use: 'stored', saw: 'before' });
    assert.deepEqual(runHost(), { use: 'used', saw: 'before' });
  });

  it('keeps one file per set of V8 flags a process sets for itself, each replaced only by its own rebuilds', () => {
    const plain = codeCacheFile(bundle, cacheDir);
    const liftoff = codeCacheFile(bundle, cacheDir, 'liftoff');
    assert.notEqual(plain, liftoff);
    assert.match(path.basename(liftoff), /^bundle\.liftoff-[0-9a-f]{12}-[0-9a-f]{12}\.v8cache$/);
    const host = (variant: string) => `
const { runWithCodeCache } = require(${JSON.stringify(path.join(REPO, 'src', 'core', 'runtime', 'codeCache.ts'))});
const run = runWithCodeCache(process.argv[1], { cacheDir: process.argv[2], storeAtExit: true, variant: ${JSON.stringify(variant)} || undefined });
process.stdout.write(run.use);
`;
    const runAs = (variant: string) => {
      const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', host(variant), bundle, cacheDir], { cwd: REPO, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout;
    };
    assert.deepEqual([runAs(''), runAs('liftoff'), runAs(''), runAs('liftoff')], ['stored', 'stored', 'used', 'used'], 'neither replaces the other');
    fs.writeFileSync(bundle, "globalThis.__ran = { value: 8, file: __filename, dir: __dirname, self: true };\n");
    assert.equal(runAs('liftoff'), 'stored');
    assert.deepEqual(fs.readdirSync(cacheDir).sort(), [path.basename(plain), path.basename(codeCacheFile(bundle, cacheDir, 'liftoff'))].sort(), 'the rebuild replaced its own variant only');
  });
});
