// Solving one block: prepare rows (C.1), build the LP with temperature expansion (C.2, C.5), run the
// objective stages and, if infeasible, the diagnosis (C.3, C.6) — inline or in the solver worker —
// and report (C.4). The solver sizes the block's recipes; it never adds one.
import type { Availability } from '../availability';
import type { BlockDoc } from '../block/document';
import { campaignGoals, campaignReport } from '../block/campaign';
import type { GameIndex } from '../gameIndex';
import type { Highs } from './highs';
import { loadHighs } from './highs';
import type { JobResult, SolveJob } from './job';
import { runSolveJob } from './job';
import type { BlockModel } from './lp';
import { buildBlockModel, normalizeGoals } from './lp';
import { runJob, type SolveThread } from './pool';
import { buildReport } from './report';
import type { SolveResult } from './result';
import type { PreparedRow } from './rows';
import { prepareRows } from './rows';
import type { Module } from './compose';
import { composeGroups, expandModules, moduleFailure, syntheticRow } from './compose';
import type { StageOptions } from './stages';
import { solveScience } from '../science/labBank';

export interface SolveOptions {
  /** Where HiGHS runs: 'auto' (the worker for large blocks when workers are enabled), 'inline' or 'worker'. */
  thread?: SolveThread;
  /** Explain an infeasible block (default true). */
  diagnose?: boolean;
  /** HiGHS time limit for the solve (default 20 s, shared by its stages or its diagnosis); reaching it is an `error` result. */
  timeLimitSec?: number;
  /** Test seam: sees and may replace each objective stage's result (forces inline solving). */
  intercept?: StageOptions['intercept'];
}

const DEFAULT_TIME_LIMIT_SEC = 20;

type Prepared = { done: SolveResult } | { model: BlockModel; job: SolveJob; t0: number };

function emptyResult(status: SolveResult['status'], message: string | undefined, warnings: string[]): SolveResult {
  return {
    status, ...(message ? { message } : {}), rows: [], goods: [], imports: [], exports: [], byproducts: [], goals: [], unmade: [], goalSuperseded: [],
    powerW: 0, drainW: 0, heatW: 0, fuel: [], pollutionPerMinute: 0, warnings,
  };
}

function prepare(g: GameIndex, availability: Availability, doc: BlockDoc, opts: SolveOptions, modules: PreparedRow[] = []): Prepared {
  const t0 = performance.now();
  const prepared = prepareRows(g, availability, doc.recipes);
  for (const m of modules) prepared.rows.push(m);
  const warnings = prepared.warnings;
  if (doc.campaign?.completedAt) warnings.push(`The campaign was completed (${doc.campaign.completedAt}): its quantities no longer size the block.`);
  const missingGoods = [...new Set([...doc.goals.map((x) => x.good), ...campaignGoals(doc.campaign).map((x) => x.good)])].filter((x) => !g.goods.has(x));
  if (prepared.missingRecipes.length || missingGoods.length) {
    const parts = [
      prepared.missingRecipes.length ? `unknown recipe${prepared.missingRecipes.length > 1 ? 's' : ''} ${prepared.missingRecipes.join(', ')}` : '',
      missingGoods.length ? `unknown goal good${missingGoods.length > 1 ? 's' : ''} ${missingGoods.join(', ')}` : '',
    ].filter(Boolean);
    return { done: { ...emptyResult('error', `The block is broken (${parts.join('; ')}): it was not solved.`, warnings), timing: { totalMs: performance.now() - t0, highsMs: 0 } } };
  }
  if (!prepared.rows.length) {
    const r = emptyResult('optimal', undefined, warnings);
    r.unmade = normalizeGoals(g, doc, warnings).map((x) => ({ good: x.good, reason: `the block has no enabled recipes` }));
    r.timing = { totalMs: performance.now() - t0, highsMs: 0 };
    return { done: r };
  }
  const model = buildBlockModel(g, prepared.rows, doc, warnings);
  if (model.missingGoods.length) {
    return { done: { ...emptyResult('error', `The block is broken (unknown good ${[...new Set(model.missingGoods)].join(', ')}): it was not solved.`, warnings), timing: { totalMs: performance.now() - t0, highsMs: 0 } } };
  }
  return { model, job: { program: model.program, diagnose: opts.diagnose, timeLimitSec: opts.timeLimitSec ?? DEFAULT_TIME_LIMIT_SEC }, t0 };
}

function finish(g: GameIndex, doc: BlockDoc, model: BlockModel, r: JobResult, t0: number): SolveResult {
  const lpSize = { columns: model.program.lp.numCols, rows: model.program.lp.numRows, selectors: model.plan.selectors.length };
  if (r.status !== 'optimal') {
    const out = emptyResult(r.status, r.message ?? r.status, model.warnings);
    if (r.diagnosis) out.diagnosis = r.diagnosis;
    out.unmade = model.goals.filter((x) => x.unmade).map((x) => ({ good: x.good, reason: x.unmade! }));
    out.lp = lpSize;
    out.timing = { totalMs: performance.now() - t0, highsMs: r.highsMs };
    return out;
  }
  const report = buildReport(g, model, r.x, doc);
  for (const note of r.notes) report.warnings.push(`Solver: ${note}.`);
  return { status: 'optimal', ...report, stage: r.stage, lp: lpSize, timing: { totalMs: performance.now() - t0, highsMs: r.highsMs } };
}

type Solved = Array<{ module: Module; result: SolveResult }>;

/** The synthetic rows of the solved modules, or the result that stops the block (a module that failed). */
function moduleRows(g: GameIndex, solved: Solved): { rows: PreparedRow[] } | { done: SolveResult } {
  for (const { module, result } of solved) {
    const bad = moduleFailure(module, result);
    if (!bad) continue;
    const out = emptyResult(bad.status, bad.message, result.warnings.map((w) => `Group "${module.group.name}": ${w}`));
    if (result.diagnosis) out.diagnosis = result.diagnosis;
    return { done: out };
  }
  return { rows: solved.map(({ module, result }) => syntheticRow(g, module, result)) };
}

const broken = (errors: string[]) => emptyResult('error', `The block is broken (${errors.join('; ')}): it was not solved.`, []);

/** Solves a block on an already loaded HiGHS runtime, in this thread. */
export function solveBlockSync(highs: Highs, g: GameIndex, availability: Availability, doc: BlockDoc, opts: SolveOptions = {}): SolveResult {
  if (doc.science) return solveScience(g, availability, doc.science);
  const c = composeGroups(g, doc);
  if (c.errors.length) return withCampaign(doc, broken(c.errors));
  const nestedOpts = { ...opts, intercept: undefined };
  const solved: Solved = c.modules.map((module) => ({ module, result: solveBlockSync(highs, g, availability, module.doc, nestedOpts) }));
  const m = moduleRows(g, solved);
  if ('done' in m) return withCampaign(doc, m.done);
  const p = prepare(g, availability, c.parent, opts, m.rows);
  if ('done' in p) return withCampaign(doc, expandModules(g, p.done, solved, doc));
  return withCampaign(doc, expandModules(g, finish(g, c.parent, p.model, runSolveJob(highs, p.job, opts.intercept), p.t0), solved, doc));
}

function withCampaign(doc: BlockDoc, r: SolveResult): SolveResult {
  const c = campaignReport(doc.campaign);
  return c ? { ...r, campaign: c } : r;
}

/** Solves a block. Loads HiGHS on first use; large blocks run in the solver worker when enabled. */
export async function solveBlock(g: GameIndex, availability: Availability, doc: BlockDoc, opts: SolveOptions = {}): Promise<SolveResult> {
  // The science block is sized by its lab bank, not by an LP over recipes.
  if (doc.science) return solveScience(g, availability, doc.science);
  return withCampaign(doc, await solveDoc(g, availability, doc, opts));
}

async function solveDoc(g: GameIndex, availability: Availability, doc: BlockDoc, opts: SolveOptions): Promise<SolveResult> {
  const c = composeGroups(g, doc);
  if (c.errors.length) return broken(c.errors);
  // Modules first: the block needs their solved flows. The test seam watches the block's own stages only.
  const nestedOpts = { ...opts, intercept: undefined };
  const solved: Solved = [];
  for (const module of c.modules) solved.push({ module, result: await solveBlock(g, availability, module.doc, nestedOpts) });
  const m = moduleRows(g, solved);
  if ('done' in m) return m.done;
  return expandModules(g, await solveParent(g, availability, c.parent, opts, m.rows), solved, doc);
}

async function solveParent(g: GameIndex, availability: Availability, doc: BlockDoc, opts: SolveOptions, modules: PreparedRow[]): Promise<SolveResult> {
  const p = prepare(g, availability, doc, opts, modules);
  if ('done' in p) return p.done;
  let r: JobResult;
  try {
    r = opts.intercept ? runSolveJob(await loadHighs(), p.job, opts.intercept) : await runJob(p.job, opts.thread ?? 'auto');
  } catch (err) {
    // HiGHS could not load or run: an answer, not an exception.
    const message = `The solver failed: ${err instanceof Error ? err.message : String(err)}`;
    return { ...emptyResult('error', message, p.model.warnings), timing: { totalMs: performance.now() - p.t0, highsMs: 0 } };
  }
  return finish(g, doc, p.model, r, p.t0);
}
