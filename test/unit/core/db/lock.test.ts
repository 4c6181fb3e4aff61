import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { acquireLock, lockPath, takeOverStaleLock, type LockOwner } from '../../../../src/core/db/lock';
import { tempDir } from '../../../helpers/paths';

describe('project lock', () => {
  let dir: string;
  let project: string;
  beforeEach(() => {
    dir = tempDir();
    project = path.join(dir, 'p.pyops');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const owner = (pid: number, since = '2026-01-01T00:00:00.000Z'): LockOwner => ({ pid, host: os.hostname(), app: 'test', since });
  const deadPid = () => {
    for (let pid = 4_000_000; ; pid--) {
      try {
        process.kill(pid, 0);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ESRCH') return pid;
      }
    }
  };

  it('writes the lock whole, with its owner, and removes it on release', () => {
    const l = acquireLock(project, 'test');
    assert.equal(l.acquired, true);
    const onDisk = JSON.parse(fs.readFileSync(lockPath(project), 'utf8'));
    assert.equal(onDisk.pid, process.pid);
    assert.deepEqual(fs.readdirSync(dir), ['p.pyops.lock'], 'no temp file left beside it');
    l.release();
    assert.ok(!fs.existsSync(lockPath(project)));
  });

  it('takes over the lock of a process that is gone', () => {
    fs.writeFileSync(lockPath(project), JSON.stringify(owner(deadPid())));
    const l = acquireLock(project, 'test');
    assert.equal(l.acquired, true);
    assert.equal(JSON.parse(fs.readFileSync(lockPath(project), 'utf8')).pid, process.pid);
    l.release();
  });

  it('leaves an unreadable lock alone while it may still be being written, and takes it over once old', () => {
    fs.writeFileSync(lockPath(project), '');
    const young = acquireLock(project, 'test');
    assert.equal(young.acquired, false);
    assert.equal(young.owner, undefined);
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lockPath(project), old, old);
    const l = acquireLock(project, 'test');
    assert.equal(l.acquired, true);
    l.release();
  });

  it('puts back a fresh lock that a slower takeover moved aside', () => {
    // Two processes saw the same dead owner; the faster one already holds a new lock.
    const stale = owner(deadPid());
    const winner = owner(process.pid, new Date().toISOString());
    fs.writeFileSync(lockPath(project), JSON.stringify(winner));
    takeOverStaleLock(lockPath(project), stale);
    assert.deepEqual(JSON.parse(fs.readFileSync(lockPath(project), 'utf8')), winner);
    assert.deepEqual(fs.readdirSync(dir), ['p.pyops.lock']);
  });

  it('removes the stale lock it read', () => {
    const stale = owner(deadPid());
    fs.writeFileSync(lockPath(project), JSON.stringify(stale));
    takeOverStaleLock(lockPath(project), stale);
    assert.deepEqual(fs.readdirSync(dir), []);
  });
});
