// Judging an answer with the planner itself: the final draft solves, uses nothing outside the
// horizon, runs every row it lists, leaves no shortfall between blocks, routes (or names) every
// byproduct, tells the user the research its rows still wait for, and every number in the answer
// comes from a tool result (or the question). Pure functions over a captured run.
import type { PlanningContext } from '../src/core/planning/context';
import { ENERGY_GOODS } from '../src/core/planning/factory/ledger';
import type { CaseKind } from './cases';

export interface CapturedCall {
  name: string;
  input: unknown;
  ok: boolean;
  /** What the model read back (the result, or the error text). */
  result: unknown;
  /** Characters of that, as the model received it. */
  chars: number;
  /** The whole result (a proposal as the user would apply it), when the call succeeded. */
  full?: unknown;
}

/** A factory answer after its Balance Factory was applied (the harness applies it as the user would). */
export interface FactoryAfter {
  applied: boolean;
  error?: string;
  /** Enabled blocks that did not solve, "name: status". */
  notSolved: string[];
  /** Goods the blocks take more of than the blocks make. */
  short: Array<{ good: string; shortBy: number }>;
  /** The pins the answer balanced toward (rate > 0), and each final product's delivered rate. */
  pins: Array<{ good: string; rate: number }>;
  delivered: Record<string, number>;
}

export interface CheckResult {
  pass: boolean;
  /** Why it failed (empty when it passed); `na` when the check does not apply to the case. */
  detail: string;
  na?: boolean;
}

export type CheckName = 'solved' | 'horizon' | 'idle' | 'shortfall' | 'byproducts' | 'research' | 'numbers' | 'mentions';
export const CHECKS: CheckName[] = ['solved', 'horizon', 'idle', 'shortfall', 'byproducts', 'research', 'numbers', 'mentions'];

interface DraftLike {
  name: string;
  status: string;
  invalid?: string[];
  /** `research`: the technologies the row waits for, as the draft names them (not researched yet). */
  rows?: Array<{ recipe: string; machine: string | null; buildings?: number; research?: { recipe?: string; machine?: string; modules?: string[] } }>;
  /** The model's view of a draft has only the split lists. */
  imports?: Array<{ good: string; rate: number }>;
  importsFromBlocks?: Array<{ good: string; rate: number }>;
  importsExternal?: Array<{ good: string; rate: number }>;
  byproducts?: Array<{ good: string; display?: string; rate: number }>;
}
interface PlanLike {
  kind: 'plan';
  blocks: DraftLike[];
  updates: DraftLike[];
  balance?: { underSupplied: Array<{ good: string; display?: string; shortBy: number }> };
}

const DRAFT_TOOLS = new Set(['submitBlock', 'reviseBlock', 'submitPlan']);
const pass = (): CheckResult => ({ pass: true, detail: '' });
const fail = (detail: string): CheckResult => ({ pass: false, detail });
const na = (): CheckResult => ({ pass: true, detail: '', na: true });

/** The drafts of the last successful proposal call (a plan's blocks and updates, or one block). */
export function finalDrafts(calls: CapturedCall[]): { drafts: DraftLike[]; plan?: PlanLike } | undefined {
  const last = [...calls].reverse().find((c) => c.ok && DRAFT_TOOLS.has(c.name));
  if (!last) return undefined;
  const r = last.result as PlanLike | DraftLike;
  if ((r as PlanLike).kind === 'plan') return { drafts: [...(r as PlanLike).blocks, ...(r as PlanLike).updates], plan: r as PlanLike };
  return { drafts: [r as DraftLike] };
}

export function judge(ctx: PlanningContext, kind: CaseKind, prompt: string, calls: CapturedCall[], answer: string, after?: FactoryAfter): Record<CheckName, CheckResult> {
  const wantsDraft = kind === 'block' || kind === 'plan';
  const final = finalDrafts(calls);
  const out = {} as Record<CheckName, CheckResult>;
  if (kind === 'factory') {
    Object.assign(out, factoryChecks(after, prompt));
  } else if (!wantsDraft) {
    out.solved = out.horizon = out.idle = out.shortfall = out.byproducts = out.research = na();
  } else if (!final) {
    out.solved = fail('no draft was proposed');
    out.horizon = out.idle = out.shortfall = out.byproducts = out.research = fail('no draft');
  } else {
    const bad = final.drafts.filter((d) => d.status !== 'optimal' || (d.invalid?.length ?? 0) > 0);
    out.solved = bad.length ? fail(bad.map((d) => `${d.name}: ${d.status}${d.invalid?.length ? ` (${d.invalid.join('; ')})` : ''}`).join(', ')) : pass();
    out.horizon = horizonCheck(ctx, final.drafts);
    out.idle = idleCheck(final.drafts);
    out.shortfall = final.plan
      ? final.plan.balance
        ? final.plan.balance.underSupplied.length ? fail(final.plan.balance.underSupplied.map((u) => `${u.good} short by ${u.shortBy}`).join(', ')) : pass()
        : fail('the plan reports no balance')
      : na();
    out.byproducts = byproductCheck(ctx, final.drafts, answer);
    out.research = researchCheck(ctx, final.drafts, answer);
  }
  out.numbers = numbersCheck(prompt, calls, answer);
  out.mentions = kind === 'research' || kind === 'turd' ? mentionsCheck(calls, kind === 'research' ? 'researchPath' : 'turdChoices', answer) : na();
  return out;
}

/** Share of a pin's rate the factory may miss it by and still count as delivered (the scenario's 1 %). */
const PIN_TOLERANCE = 0.01;

/**
 * A factory answer passes when its Balance Factory, applied, leaves every block solved (`solved`),
 * nothing short between blocks and each pinned good delivered at its rate (`shortfall`). It adds no
 * recipe or byproduct of its own, so those checks do not apply.
 */
function factoryChecks(after: FactoryAfter | undefined, prompt: string): Pick<Record<CheckName, CheckResult>, 'solved' | 'horizon' | 'idle' | 'shortfall' | 'byproducts' | 'research'> {
  const rest = { horizon: na(), idle: na(), byproducts: na(), research: na() };
  if (!after?.applied) {
    const why = after?.error ?? 'no factory result';
    return { ...rest, solved: fail(why), shortfall: fail(why) };
  }
  const missed = after.pins
    .map((p) => ({ ...p, got: after.delivered[p.good] ?? 0 }))
    .filter((p) => Math.abs(p.got - p.rate) > PIN_TOLERANCE * p.rate)
    .map((p) => `${p.good} delivered at ${p.got} instead of ${p.rate}`);
  const short = after.short.map((s) => `${s.good} short by ${s.shortBy}`);
  // A pin at a rate the question never names (per second, minute or hour) answers another question.
  const asked = answerNumbers(prompt).map((n) => n.value);
  const unasked = after.pins.filter((p) => !asked.some((v) => [1, 60, 3600].some((k) => Math.abs(p.rate * k - v) <= 1e-6 * Math.max(1, v)))).map((p) => `${p.good} pinned at ${p.rate}/s, a rate the question does not ask`);
  return {
    ...rest,
    solved: after.notSolved.length ? fail(`after Balance Factory: ${after.notSolved.join(', ')}`) : pass(),
    shortfall: after.pins.length === 0 ? fail('the answer balanced toward no pin') : missed.length || short.length || unasked.length ? fail([...unasked, ...missed, ...short].join(', ')) : pass(),
  };
}

function horizonCheck(ctx: PlanningContext, drafts: DraftLike[]): CheckResult {
  const a = ctx.availability;
  const off: string[] = [];
  for (const d of drafts) {
    for (const r of d.rows ?? []) {
      if ((r.buildings ?? 1) <= 1e-9) continue;
      if (ctx.g.recipes.has(r.recipe) && !a.recipe(r.recipe).buildableNow) off.push(`recipe ${r.recipe}`);
      if (r.machine && !a.machine(r.machine).buildableNow) off.push(`machine ${r.machine} (${r.recipe})`);
    }
  }
  return off.length ? fail(`not buildable under the horizon: ${[...new Set(off)].join(', ')}`) : pass();
}

/** A row the plan lists but runs at zero: a cheaper path won, or its good is neither needed nor drained. */
function idleCheck(drafts: DraftLike[]): CheckResult {
  const idle = drafts.flatMap((d) => (d.rows ?? []).filter((r) => (r.buildings ?? 1) <= 1e-9).map((r) => `${d.name} / ${r.recipe}`));
  return idle.length ? fail(`rows that run at zero: ${idle.join(', ')}`) : pass();
}

/** Every technology a row still waits for (its recipe's, machine's, modules') is named to the user. */
function researchCheck(ctx: PlanningContext, drafts: DraftLike[], answer: string): CheckResult {
  const text = answer.toLowerCase();
  const said = (t: string) => text.includes(t.toLowerCase()) || text.includes((ctx.g.technologies.get(t)?.display ?? t).toLowerCase());
  const techs = new Set(drafts.flatMap((d) => (d.rows ?? []).flatMap((r) => [r.research?.recipe, r.research?.machine, ...(r.research?.modules ?? [])])).filter((t): t is string => !!t));
  const unsaid = [...techs].filter((t) => !said(t)).sort();
  return unsaid.length ? fail(`research the rows wait for but the answer never names: ${unsaid.join(', ')}`) : pass();
}

const importsOf = (d: DraftLike) => d.imports ?? [...(d.importsFromBlocks ?? []), ...(d.importsExternal ?? [])];

/** A byproduct is routed when another draft of the proposal takes it, or the answer tells the user about it. */
function byproductCheck(ctx: PlanningContext, drafts: DraftLike[], answer: string): CheckResult {
  const text = answer.toLowerCase();
  const unrouted: string[] = [];
  for (const d of drafts) {
    for (const b of d.byproducts ?? []) {
      if (ENERGY_GOODS.has(b.good) || b.rate <= 1e-9) continue;
      const taken = drafts.some((o) => o !== d && importsOf(o).some((i) => i.good === b.good));
      const named = text.includes(b.good.toLowerCase()) || text.includes((b.display ?? ctx.g.displayOf(b.good)).toLowerCase());
      if (!taken && !named) unrouted.push(b.good);
    }
  }
  return unrouted.length ? fail(`byproducts neither routed nor mentioned: ${[...new Set(unrouted)].join(', ')}`) : pass();
}

/** Numbers written in the answer (not part of a name like mk02 or small-parts-01). */
export function answerNumbers(text: string): Array<{ raw: string; value: number; decimals: number }> {
  const out: Array<{ raw: string; value: number; decimals: number }> = [];
  for (const m of text.matchAll(/(?<![\p{L}\d_.\-])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?/gu)) {
    const raw = m[0];
    out.push({ raw, value: Number(raw.replace(/,/g, '')), decimals: m[2] ? m[2].length - 1 : 0 });
  }
  return out;
}

function toolNumbers(v: unknown, into: number[] = []): number[] {
  if (typeof v === 'number' && Number.isFinite(v)) into.push(v);
  else if (Array.isArray(v)) for (const x of v) toolNumbers(x, into);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) toolNumbers(x, into);
  return into;
}

/** Unit changes a good answer makes: per second → per minute/hour, W → kW/MW, fraction → percent. */
const SCALES = [1, 60, 3600, 1e-3, 1e-6, 100];

/**
 * Every number in the answer is a rounding of a tool number (possibly in another unit, or rounded up to
 * whole buildings) or appears in the question. Small counts (0–12: "2 blocks", list markers) are not judged.
 */
export function numbersCheck(prompt: string, calls: CapturedCall[], answer: string): CheckResult {
  const known = calls.flatMap((c) => (c.ok ? toolNumbers(c.result) : []));
  const asked = new Set(answerNumbers(prompt).map((n) => n.value));
  const unexplained: string[] = [];
  for (const n of answerNumbers(answer)) {
    if (n.decimals === 0 && n.value <= 12) continue;
    if (asked.has(n.value)) continue;
    const tol = 0.5 * 10 ** -n.decimals + 1e-9;
    const ok = known.some((v) => SCALES.some((s) => Math.abs(v * s - n.value) <= tol || (n.decimals === 0 && Math.ceil(v * s - 1e-6) === n.value)));
    if (!ok) unexplained.push(n.raw);
  }
  return unexplained.length ? fail(`numbers not found in any tool result: ${[...new Set(unexplained)].slice(0, 8).join(', ')}`) : pass();
}

function strings(v: unknown, into: string[] = []): string[] {
  if (typeof v === 'string') into.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, into);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) strings(x, into);
  return into;
}

/** A research or TURD answer names at least one thing the tool returned (a technology, a branch). */
function mentionsCheck(calls: CapturedCall[], tool: string, answer: string): CheckResult {
  const results = calls.filter((c) => c.ok && c.name === tool);
  if (!results.length) return fail(`${tool} was never called`);
  const text = answer.toLowerCase();
  const names = new Set(results.flatMap((c) => strings(c.result)).filter((s) => s.length >= 4 && s.length <= 80));
  return [...names].some((s) => text.includes(s.toLowerCase())) ? pass() : fail(`the answer names nothing ${tool} returned`);
}
