// Factory benchmark: a 50-block Py factory (linked chains from the run's data set, one block per
// intermediate of a late-game target, each solved and stored), then the coherence audit over all of
// them — the work an "is my factory consistent?" question costs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Project } from '../src/core/db/project';
import { importGameData } from '../src/core/gamedata/import';
import { planningContext } from '../src/core/planning/context';
import { writeSettings } from '../src/core/planning/settings';
import { solverFor } from '../src/core/assistant/tools/context';
import { createBlock, getBlock } from '../src/core/planning/factory/blocks';
import { editBlock } from '../src/core/planning/factory/blockEdit';
import { blockEditorView } from '../src/extension/blockEditor/viewModel';
import { factorySnapshot } from '../src/core/planning/factory/fresh';
import { coherenceAudit } from '../src/core/planning/factory/audit';
import { buildChain } from './solve';
import { BENCH_DATA } from './data';
import { median, round } from './stats';

export interface AuditBench {
  ms: number;
  blocks: number;
  goods: number;
  /** Blocks whose solve was optimal (the rest still feed the audit with what they have). */
  optimalBlocks: number;
  runs: number;
}

const TARGETS = BENCH_DATA.factoryTargets;

/** A project with the Py data imported, planning under the Future horizon, and its block solver. */
async function pyProject(file: string) {
  const p = await Project.create(file);
  await importGameData(p, BENCH_DATA.source);
  writeSettings(p, { research_mode: 'future' });
  const ctx = planningContext(p);
  return { p, ctx, solve: solverFor(ctx) };
}

export async function benchAudit(blocks = 50, runs = 7): Promise<AuditBench> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pyops-bench-audit-'));
  try {
    const { p, ctx, solve } = await pyProject(path.join(dir, 'factory.pyops'));
    let made = 0;
    for (let i = 0; made < blocks; i++) {
      const target = TARGETS[i % TARGETS.length];
      const chain = buildChain(ctx.g, target, { size: 6 + (i % 9), rate: 0.5 + (i % 5) });
      await createBlock(p, solve, { name: `${target} #${i}`, doc: chain });
      made++;
    }
    const snap = await factorySnapshot(p, solve);
    const times: number[] = [];
    let goods = 0;
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const a = coherenceAudit(p, ctx.g, ctx.availability, await factorySnapshot(p, solve));
      times.push(performance.now() - t0);
      goods = a.balancedLinks.length + a.underSupplied.length + a.overProduced.length + a.unsourcedImports.length + a.danglingByproducts.length + a.finalProducts.length;
    }
    const optimal = [...snap.power.values()].filter((x) => x.status === 'optimal').length;
    p.close();
    return { ms: round(median(times)), blocks, goods, optimalBlocks: optimal, runs };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface BlockEditBench {
  /** Median ms of one block-editor edit (a goal's rate) on a 100-recipe Py block: solve + undoable save. */
  ms: number;
  /** The first edit after opening (cold solver and statements), for comparison. */
  firstMs: number;
  /** Median ms to build what the editor tab shows after an edit (rows with their module and beacon
   *  choices, the flow graph): the rest of an edit's cost in the extension. */
  viewMs: number;
  recipes: number;
  runs: number;
}

/**
 * The block editor's path for one change — `editBlock`: solve the edited document once, save it as
 * one undoable action with its projection — on a 100-recipe chain from the Py data, in a fresh
 * project as a VS Code window would have it (the solver on its default thread).
 */
export async function benchBlockEdit(runs = 9): Promise<BlockEditBench> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pyops-bench-edit-'));
  try {
    const { p, ctx, solve } = await pyProject(path.join(dir, 'edit.pyops'));
    const chain = buildChain(ctx.g, BENCH_DATA.chainTarget, { size: 100 });
    const id = await createBlock(p, solve, { name: 'Utility science', doc: chain });
    const times: number[] = [];
    const viewTimes: number[] = [];
    let base = getBlock(p, id).updatedAt;
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const r = await editBlock(p, solve, id, { kind: 'goal-rate', index: 0, rate: 0.5 + (i % 4) * 0.25 }, base, ctx);
      times.push(performance.now() - t0);
      if (r.result?.status !== 'optimal') throw new Error(`the edited bench block did not solve: ${r.result?.status ?? r.broken}`);
      base = r.block.updatedAt;
      const t1 = performance.now();
      blockEditorView(ctx, r.block, r.result);
      viewTimes.push(performance.now() - t1);
    }
    const recipes = getBlock(p, id).doc.recipes.length;
    p.close();
    return { ms: round(median(times.slice(1))), firstMs: round(times[0]), viewMs: round(median(viewTimes.slice(1))), recipes, runs };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
