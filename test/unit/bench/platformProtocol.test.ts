import assert from 'node:assert/strict';
import { activationFigure, memoryFigure, parseHostResult, startupProblem, type HostResult } from '../../../bench/platform/protocol';

const launch = (n: number, ready: number, project = '/g/sample/sample.pyops', extra: Partial<HostResult['startup'] & object> = {}): HostResult => ({
  launch: n,
  kind: 'activation',
  startup: { project, marks: { projectOpen: ready - 10, panelResolved: 5, panelReady: ready - 20, panelShowsProject: ready }, activationToReadyMs: ready, ...extra },
});
const isSample = (f: string) => f.endsWith('/sample.pyops');

describe('platform bench protocol', () => {
  it('takes the median of the launches and of their parts', () => {
    const f = activationFigure([launch(1, 300), launch(2, 120), launch(3, 200), launch(4, 180), launch(5, 150)], isSample);
    assert.equal(f.ms, 180);
    assert.deepEqual(f.runsMs, [300, 120, 200, 180, 150]);
    assert.equal(f.projectOpenMs, 170);
    assert.equal(f.panelShowsProjectMs, 180);
    assert.equal(f.codeLoadMs, null, 'no launch said how long its code took to load');
  });

  it('reports the code load apart, with how many launches ran from the code cache', () => {
    const f = activationFigure([launch(1, 300, undefined, { codeCache: 'stored', codeLoadMs: 140 }), launch(2, 120, undefined, { codeCache: 'used', codeLoadMs: 30 }), launch(3, 200, undefined, { codeCache: 'used', codeLoadMs: 35 })], isSample);
    assert.deepEqual([f.ms, f.codeLoadMs, f.codeCacheUsed], [200, 35, 2]);
  });

  it('refuses a launch that opened another project or never got ready', () => {
    assert.match(startupProblem(launch(1, 100, '/x/py.pyops'), isSample)!, /startup project was \/x\/py\.pyops/);
    const never = launch(3, 100);
    delete never.startup!.activationToReadyMs;
    assert.match(startupProblem(never, isSample)!, /never ready/);
    assert.match(startupProblem({ launch: 4, kind: 'activation', error: 'timed out' }, isSample)!, /launch 4: timed out/);
    assert.equal(startupProblem(launch(5, 100), isSample), undefined);
    assert.throws(() => activationFigure([launch(1, 100), launch(2, 100, '/x/py.pyops')], isSample), /launch 2/);
  });

  it('reports the panel part only when the panel was on screen in every launch', () => {
    const hidden = launch(2, 100);
    delete hidden.startup!.marks.panelShowsProject;
    assert.equal(activationFigure([launch(1, 100), hidden], isSample).panelShowsProjectMs, null);
  });

  it('reports memory as the resident growth in MiB, and refuses it when a tool failed', () => {
    const mib = 1024 * 1024;
    const ok: HostResult = {
      launch: 6,
      kind: 'memory',
      memory: { rssBeforeBytes: 200 * mib, rssAfterBytes: 287.5 * mib, tools: [{ role: 'search', tool: 'searchGoods', ms: 12.34, ok: true }] },
    };
    assert.deepEqual(memoryFigure(ok), { mb: 87.5, beforeMb: 200, afterMb: 287.5, tools: [{ role: 'search', tool: 'searchGoods', ms: 12.3 }] });
    const failed: HostResult = { ...ok, memory: { ...ok.memory!, tools: [{ role: 'draft', tool: 'submitBlock', ms: 1, ok: false, error: 'too large' }] } };
    assert.throws(() => memoryFigure(failed), /submitBlock failed: too large/);
    assert.throws(() => memoryFigure({ launch: 6, kind: 'memory' }), /no memory figures/);
  });

  it('parses result files strictly and names the file when one is broken', () => {
    assert.equal(parseHostResult(JSON.stringify(launch(1, 90)), 'r.json').startup!.activationToReadyMs, 90);
    assert.throws(() => parseHostResult('{"launch":1', 'r.json'), /r\.json is not JSON/);
    assert.throws(() => parseHostResult('{"launch":1,"kind":"warm"}', 'r.json'), /r\.json is not a platform bench result: kind/);
  });
});
