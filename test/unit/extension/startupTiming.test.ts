import assert from 'node:assert/strict';
import { StartupClock } from '../../../src/extension/startupTiming';

/** A clock whose time the test sets. */
function clock() {
  let t = 1000;
  const c = new StartupClock(() => t);
  return { c, at: (ms: number) => (t = 1000 + ms) };
}

describe('StartupClock', () => {
  it('reports nothing before activation began', () => {
    const { c } = clock();
    c.mark('panelReady');
    assert.equal(c.snapshot(), undefined);
  });

  it('is ready when the startup project opened, if the side panel never resolved', () => {
    const { c, at } = clock();
    c.begin();
    at(40);
    assert.equal(c.snapshot()!.activationToReadyMs, undefined);
    c.projectSettled('/p/a.pyops');
    assert.deepEqual(c.snapshot(), { project: '/p/a.pyops', marks: { projectOpen: 40 }, activationToReadyMs: 40 });
  });

  it('waits for a resolved side panel to show the project, and takes the later of the two', () => {
    const { c, at } = clock();
    c.begin();
    at(10);
    c.mark('panelResolved');
    at(30);
    c.projectSettled('/p/a.pyops');
    assert.equal(c.snapshot()!.activationToReadyMs, undefined, 'the panel has not shown the project yet');
    at(55);
    c.mark('panelReady');
    at(70);
    c.mark('panelShowsProject');
    const s = c.snapshot()!;
    assert.equal(s.activationToReadyMs, 70);
    assert.deepEqual(s.marks, { panelResolved: 10, projectOpen: 30, panelReady: 55, panelShowsProject: 70 });
  });

  it('says how the code was loaded, beside the marks it does not count in', () => {
    const { c, at } = clock();
    c.codeLoaded('used', 31.5);
    c.begin();
    at(25);
    c.projectSettled('/p/a.pyops');
    assert.deepEqual(c.snapshot(), { project: '/p/a.pyops', marks: { projectOpen: 25 }, activationToReadyMs: 25, codeCache: 'used', codeLoadMs: 31.5 });
  });

  it('keeps the first mark of each kind and the first settled project', () => {
    const { c, at } = clock();
    c.begin();
    at(20);
    c.projectSettled('/p/a.pyops');
    at(90);
    c.projectSettled('/p/b.pyops');
    c.mark('projectOpen');
    c.begin();
    assert.deepEqual(c.snapshot(), { project: '/p/a.pyops', marks: { projectOpen: 20 }, activationToReadyMs: 20 });
  });

  it('is never ready when no project opened at startup', () => {
    const { c, at } = clock();
    c.begin();
    at(15);
    c.projectSettled(null);
    assert.deepEqual(c.snapshot(), { project: null, marks: {} });
  });
});
