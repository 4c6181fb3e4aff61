// Factory-scenario benchmark: a modular Py factory of N single-recipe blocks built from the real
// py-hightech-2.0 data (one block per good in the recipe trees of late-game targets, each importing
// its ingredients from the blocks that make them, so goods, coproducts and fluids link the blocks as
// a Py player's modules do), every goal at 1/s, then the whole-factory scenario toward a pin on the
// first target — the work "resize my factory for 1 science/s" costs — at 25, 100 and 300 blocks;
// and Balance Factory (scenario + one undoable save of every resized block) at 100.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Project } from '../src/core/db/project';
import { importGameData } from '../src/core/gamedata/import';
import { planningContext } from '../src/core/planning/context';
import { writeSettings } from '../src/core/planning/settings';
import { solverFor } from '../src/core/assistant/tools/context';
import { createBlock } from '../src/core/planning/factory/blocks';
import type { GameIndex } from '../src/core/planning/gameIndex';
import { factoryScenario } from '../src/core/planning/factory/scenario/scenario';
import { balanceFactory } from '../src/core/planning/factory/scenario/apply';
import { buildChain } from './solve';
import { PY_DATA } from './data';
import { median, round } from './stats';

const TARGETS = ['chemical-science-pack', 'logistic-science-pack', 'processing-unit', 'nexelit-plate', 'titanium-plate', 'super-alloy', 'low-density-structure', 'intelligent-unit', 'utility-science-pack', 'production-science-pack'];

/** Up to `n` (good, recipe) modules from the targets' chains, each good once. */
export function modules(g: GameIndex, n: number): Array<{ good: string; recipe: string }> {
  const out: Array<{ good: string; recipe: string }> = [];
  const goods = new Set<string>();
  for (const target of TARGETS) {
    const doc = buildChain(g, target, { size: 400 });
    const wanted = new Set([target, ...(doc.made ?? [])]);
    for (const { recipe } of doc.recipes ?? []) {
      const r = g.recipes.get(recipe)!;
      const good = [r.mainProduct, ...r.products.map((p) => p.name)].find((x): x is string => !!x && wanted.has(x) && !goods.has(x));
      if (!good) continue;
      goods.add(good);
      out.push({ good, recipe });
      if (out.length >= n) return out;
    }
  }
  return out;
}

export interface ScenarioBench {
  /** Median ms of one factoryScenario per factory size. */
  ms: Record<string, number>;
  /** What each size solved: goal variables, blocks linearized, scenario iterations, goals changed. */
  shape: Record<string, { blocks: number; goals: number; linearized: number; iterations: number; changed: number; unsupplied: number; status: string }>;
  /** ms per block from 25 to 300 blocks (how it grows: flat = linear). */
  msPerBlock: Record<string, number>;
  /** Balance Factory at 100 blocks: scenario + one undoable save of every changed block. */
  balanceMs: number;
  balanceUpdated: number;
}

async function factory(dir: string, n: number) {
  const p = await Project.create(path.join(dir, `f${n}.pyops`));
  await importGameData(p, PY_DATA);
  writeSettings(p, { research_mode: 'future' });
  const pc = planningContext(p);
  const solve = solverFor(pc);
  const mods = modules(pc.g, n);
  for (const m of mods) await createBlock(p, solve, { name: `${m.good}`, doc: { goals: [{ good: m.good, rate: 1 }], recipes: [{ recipe: m.recipe }] } });
  return { p, pc, solve, pin: mods[0].good };
}

export async function benchScenario(sizes = [25, 100, 300], runs = 3): Promise<ScenarioBench> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pyops-bench-scenario-'));
  const out: ScenarioBench = { ms: {}, shape: {}, msPerBlock: {}, balanceMs: 0, balanceUpdated: 0 };
  try {
    for (const n of sizes) {
      const { p, pc, solve, pin } = await factory(dir, n);
      const pins = [{ good: pin, rate: 2 }];
      const times: number[] = [];
      let last;
      for (let i = 0; i < runs + 1; i++) {
        const t0 = performance.now();
        last = await factoryScenario(p, pc, solve, { pins });
        if (i > 0) times.push(performance.now() - t0); // the first run warms HiGHS and the JIT
      }
      const r = last!;
      out.ms[n] = round(median(times));
      out.msPerBlock[n] = round(median(times) / n);
      out.shape[n] = { blocks: r.stats.blocks, goals: r.stats.goals, linearized: r.stats.linearized, iterations: r.stats.iterations, changed: r.goalChanges.length, unsupplied: r.unsupplied.length, status: r.status };
      if (n === 100) {
        const t0 = performance.now();
        const fresh = await factoryScenario(p, pc, solve, { pins });
        const done = await balanceFactory(p, solve, fresh);
        out.balanceMs = round(performance.now() - t0);
        out.balanceUpdated = done.updated.length;
      }
      p.close();
    }
    return out;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// `node --import tsx bench/scenario.ts` prints the figures on their own.
if (process.argv[1] && /bench[\\/]scenario\.ts$/.test(process.argv[1])) {
  benchScenario().then((r) => console.log(JSON.stringify(r)));
}
