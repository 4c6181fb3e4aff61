// Shared set-up for the solver tests: a game index per world (imported once per test process), an
// Availability under the default "now" horizon (no research, so no research productivity), a solve
// helper taking the document's input form, and the balance check every solved block must pass.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project } from '../../../../../src/core/db/project';
import { importGameData } from '../../../../../src/core/gamedata/import';
import { Availability } from '../../../../../src/core/planning/availability';
import type { BlockDocInput } from '../../../../../src/core/planning/block/document';
import { parseBlockDoc } from '../../../../../src/core/planning/block/document';
import type { GameIndex } from '../../../../../src/core/planning/gameIndex';
import { gameIndex } from '../../../../../src/core/planning/gameIndex';
import { readPlanningState } from '../../../../../src/core/planning/settings';
import type { PlanningState } from '../../../../../src/core/planning/settings';
import type { SolveResult } from '../../../../../src/core/planning/solver/result';
import type { SolveOptions } from '../../../../../src/core/planning/solver/solve';
import { solveBlock } from '../../../../../src/core/planning/solver/solve';
import { SAMPLE_DUMP, tempDir } from '../../../../helpers/paths';

export interface World {
  project: Project;
  g: GameIndex;
  state: PlanningState;
  availability: Availability;
  solve(doc: BlockDocInput, opts?: SolveOptions): Promise<SolveResult>;
}

const worlds = new Map<string, Promise<World>>();

/** A world of its own, for tests that add machines or recipes to the game index. */
export function freshWorld(source: string = SAMPLE_DUMP): Promise<World> {
  return createWorld(source);
}

export function loadWorld(source: string = SAMPLE_DUMP): Promise<World> {
  let w = worlds.get(source);
  if (!w) {
    w = createWorld(source);
    worlds.set(source, w);
  }
  return w;
}

// One exit handler for every world's folder (one each passed Node's limit of ten listeners).
const worldDirs: string[] = [];
process.once('exit', () => {
  for (const d of worldDirs) fs.rmSync(d, { recursive: true, force: true });
});

async function createWorld(source: string): Promise<World> {
  const tmp = tempDir('pyops-solver-');
  const project = await Project.create(path.join(tmp, 'w.pyops'));
  await importGameData(project, source);
  const g = gameIndex(project);
  const state = readPlanningState(project);
  const availability = new Availability(g, state);
  worldDirs.push(tmp);
  return { project, g, state, availability, solve: (doc, opts) => solveBlock(g, availability, parseBlockDoc(doc), opts) };
}

export const near = (actual: number, expected: number, tol = 1e-6, what = '') =>
  assert.ok(Math.abs(actual - expected) <= tol * Math.max(1, Math.abs(expected)), `${what} expected ≈ ${expected}, got ${actual}`);

export function row(r: SolveResult, recipe: string) {
  const x = r.rows.find((y) => y.recipe === recipe);
  assert.ok(x, `no row ${recipe} in ${r.rows.map((y) => y.recipe).join(', ')}`);
  return x;
}

/** Sum of flows of a good in a list (all temperatures). */
export function rate(list: SolveResult['imports'], good: string): number {
  return list.filter((f) => f.good === good).reduce((s, f) => s + f.rate, 0);
}

/** Every good's net flow equals its goals plus exports minus imports (tolerance relative to throughput). */
export function assertBalanced(r: SolveResult): void {
  assert.equal(r.status, 'optimal', r.message);
  const goods = new Set([...r.goods.map((x) => x.good), ...r.imports.map((x) => x.good), ...r.exports.map((x) => x.good)]);
  for (const good of goods) {
    const b = r.goods.find((x) => x.good === good);
    const net = b?.net ?? 0;
    const gross = (b?.produced ?? 0) + (b?.consumed ?? 0);
    const boundary = rate(r.goals, good) + rate(r.exports, good) - rate(r.imports, good);
    assert.ok(Math.abs(net - boundary) <= 1e-6 + 2e-5 * gross, `${good}: net ${net} but goals + exports − imports = ${boundary}`);
  }
}
