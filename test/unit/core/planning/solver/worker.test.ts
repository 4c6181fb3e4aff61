// Solves off the main thread: the worker gives the same answers as the inline path, from source
// (worker.ts under tsx) and from an esbuild CJS bundle that starts itself as the worker; a worker
// that cannot start falls back to solving inline.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';
import { configureSolverWorker, solverWorkerJobs, solverWorkerProblem, stopSolverWorker } from '../../../../../src/core/planning/solver/pool';
import type { World } from './helpers';
import { loadWorld } from './helpers';
import { REPO, tempDir } from '../../../../helpers/paths';

const strip = (r: object) => ({ ...r, timing: undefined, warnings: undefined });

describe('block solver: worker thread', function () {
  let w: World;
  before(async () => {
    w = await loadWorld();
  });
  after(async () => {
    configureSolverWorker({ enabled: false, entry: undefined, minSize: 400 });
    await stopSolverWorker();
  });

  const feasible = {
    goals: [{ good: 'naphtha', rate: 20 }, { good: 'fresh-resin', rate: 1 }],
    recipes: [{ recipe: 'refine-brine' }, { recipe: 'reclaim-tailings' }, { recipe: 'mine-brine-spring' }, { recipe: 'resin' }, { recipe: 'boil-steam-165' }, { recipe: 'superheat-steam' }],
    made: ['brine', 'steam'],
    drains: ['tailings'],
  };
  const infeasible = { goals: [{ good: 'gear', rate: 2 }], recipes: [{ recipe: 'gear', machine: 'press' }], pins: [{ kind: 'cap' as const, recipe: 'gear', buildings: 0.5 }] };

  it('gives the worker the same answers as the inline path (source worker under tsx)', async () => {
    const before = solverWorkerJobs();
    for (const doc of [feasible, infeasible]) {
      const inline = await w.solve(doc, { thread: 'inline' });
      const worker = await w.solve(doc, { thread: 'worker' });
      assert.equal(solverWorkerProblem(), undefined);
      assert.deepEqual(strip(worker), strip(inline));
    }
    assert.equal(solverWorkerJobs() - before, 2);
  });

  it("sends 'auto' solves to the worker only when enabled and the LP is large enough", async () => {
    const before = solverWorkerJobs();
    await w.solve(feasible);
    assert.equal(solverWorkerJobs(), before, 'workers are off by default');
    configureSolverWorker({ enabled: true, minSize: 1000 });
    await w.solve(feasible);
    assert.equal(solverWorkerJobs(), before, 'small LPs stay inline');
    configureSolverWorker({ enabled: true, minSize: 0 });
    const r = await w.solve(feasible);
    assert.equal(r.status, 'optimal');
    assert.equal(solverWorkerJobs(), before + 1);
    configureSolverWorker({ enabled: false, minSize: 400 });
  });

  it('falls back to solving inline when the worker cannot start', async () => {
    await stopSolverWorker();
    configureSolverWorker({ entry: path.join(tempDir(), 'missing-worker.cjs') });
    const r = await w.solve(feasible, { thread: 'worker' });
    assert.equal(r.status, 'optimal');
    assert.ok(solverWorkerProblem());
    assert.ok(r.warnings.some((x) => /solver worker is unavailable/.test(x)), r.warnings.join('\n'));
    configureSolverWorker({ entry: undefined });
    await stopSolverWorker();
    assert.equal(solverWorkerProblem(), undefined);
  });

  it('runs inline and in a worker started from the bundle file itself (esbuild CJS)', async function () {
    this.timeout(120_000);
    const dir = tempDir('pyops-bundle-');
    try {
      const entry = path.join(dir, 'entry.ts');
      // The entry is loaded again inside the worker, so its own work is guarded like a real entry.
      fs.writeFileSync(
        entry,
        `import { isSolverWorkerThread } from ${JSON.stringify(path.join(REPO, 'src/core/planning/solver/worker.ts'))};
         import { runJob, solverWorkerJobs, solverWorkerProblem, stopSolverWorker } from ${JSON.stringify(path.join(REPO, 'src/core/planning/solver/pool.ts'))};
         import { ProgramBuilder } from ${JSON.stringify(path.join(REPO, 'src/core/planning/solver/program.ts'))};
         if (!isSolverWorkerThread()) {
           // minimize x + y subject to x + 2y ≥ 4, 3x + y ≥ 6 (optimum x = 1.6, y = 1.2), as a block program.
           const b = new ProgramBuilder();
           b.addCol(1); b.addCol(1);
           b.addRow([0, 1], [1, 2], 4, Infinity);
           b.addRow([0, 1], [3, 1], 6, Infinity);
           const goal = (rhs: number) => ({ kind: 'goal', ref: 'g', display: 'G', sense: 'ge', rhs, scale: 1, unit: '/s', label: 'g' });
           const program = { lp: b.build(), constraints: [goal(4), goal(6)], recipeCols: 2 };
           (async () => {
             const inline = await runJob({ program }, 'inline');
             const worker = await runJob({ program }, 'worker');
             const out = { inline: [...inline.x], worker: [...worker.x], jobs: solverWorkerJobs(), problem: solverWorkerProblem() ?? null };
             await stopSolverWorker();
             process.stdout.write(JSON.stringify(out));
           })();
         }`,
      );
      await build({
        entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: path.join(dir, 'entry.cjs'), logLevel: 'error',
        define: { 'import.meta.url': 'importMetaUrl' }, banner: { js: "const importMetaUrl = require('url').pathToFileURL(__filename).href;" },
      });
      fs.copyFileSync(createRequire(import.meta.url).resolve('highs/runtime'), path.join(dir, 'highs.wasm'));
      // Run where no node_modules can be found: the bundle must stand alone with its wasm.
      const out = JSON.parse(execFileSync(process.execPath, [path.join(dir, 'entry.cjs')], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH } }));
      assert.equal(out.problem, null);
      assert.equal(out.jobs, 1);
      for (const x of [out.inline, out.worker]) {
        assert.ok(Math.abs(x[0] - 1.6) < 1e-9 && Math.abs(x[1] - 1.2) < 1e-9, JSON.stringify(out));
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
