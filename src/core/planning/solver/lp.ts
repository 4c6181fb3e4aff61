// The block's linear program (domain C.2). Columns: executions per second of each prepared row, then
// the temperature selectors. Rows exist only for goods something constrains, each tagged with the
// user gesture it comes from (goal floor or consume ceiling, made net ≥ 0, drain net = 0, pin as a
// rate, cap or share), so a conflict can be explained in those terms. Constants are row bounds.
import type { BlockDoc, Pin } from '../block/document';
import { drainGood, goalRate } from '../block/document';
import { campaignGoals } from '../block/campaign';
import type { GameIndex } from '../gameIndex';
import { HEAT } from '../../gamedata/model';
import type { LinearProgram } from './program';
import { ProgramBuilder } from './program';
import type { PreparedRow } from './rows';
import { fmt3, isTemperatureFluid } from './rows';
import type { TemperaturePlan } from './temperatures';
import { formatRange, planTemperatures } from './temperatures';

export type GestureKind = 'goal' | 'made' | 'drain' | 'pin-count' | 'pin-cap' | 'pin-share';
export type ConstraintKind = GestureKind | 'structural';

/** Why an LP row exists, in the user's terms. */
export interface ConstraintInfo {
  kind: ConstraintKind;
  /** Good (goal, made, drain) or recipe (pins). */
  ref: string;
  /** Display name of ref. */
  display: string;
  /** Share pins: the shared good. */
  good?: string;
  sense: 'ge' | 'le' | 'eq';
  rhs: number;
  /** Multiply a violation of the row by this to get the user's unit (pins: buildings). */
  scale: number;
  unit: '/s' | 'buildings';
  /** Goal rows: the goal's index and stage-2 weight 1 / max(1, |rate|). */
  goal?: number;
  weight?: number;
  /** Implied by another gesture (a goal's own use, local heat) rather than stated. */
  implicit?: boolean;
  /** "the goal of 10/s Iron gear wheel", "the cap of 2 buildings on Gear assembly". */
  label: string;
  /** The user's number: goal rate, pin buildings, share fraction. */
  value?: number;
}

/** Plain data that fully describes the optimisation; it is what a worker thread receives. */
export interface BlockProgram {
  lp: LinearProgram;
  constraints: ConstraintInfo[];
  /** Columns [0, recipeCols) are rows of the block; the rest are temperature selectors. */
  recipeCols: number;
}

export interface NormalizedGoal {
  index: number;
  good: string;
  display: string;
  /** Rate the solver uses (0 when count pins supersede the goal). */
  rate: number;
  requested: number;
  direction: 'produce' | 'consume';
  temperature?: number;
  stock: boolean;
  /** Set by the block's campaign (quantity over its duration). */
  campaign?: boolean;
  weight: number;
  unmade?: string;
  superseded?: { pinnedBuildings: number; perBuilding: number };
}

/** Column c holds good[start[c]..start[c+1]) with coef[…] (flat, one allocation for the block). */
export interface ColumnTerms {
  start: Int32Array;
  good: Int32Array;
  coef: Float64Array;
}

/** Everything the report needs besides the solution. */
export interface BlockModel {
  program: BlockProgram;
  rows: PreparedRow[];
  plan: TemperaturePlan;
  goals: NormalizedGoal[];
  /** Per column: LP goods and coefficients per execution (terms unmerged, so gross flows stay exact). */
  columns: ColumnTerms;
  warnings: string[];
  /** Good names the document mentions that the game data lacks. */
  missingGoods: string[];
}

const TIE = 1e-6;

export function normalizeGoals(g: GameIndex, doc: BlockDoc, warnings: string[]): NormalizedGoal[] {
  const out: NormalizedGoal[] = [];
  const add = (good: string, temperature: number | undefined, r: { rate: number; direction: 'produce' | 'consume'; stock: boolean }, campaign: boolean) => {
    const same = out.find((x) => x.good === good && x.direction === r.direction && x.temperature === temperature);
    if (same) {
      warnings.push(`${same.display} has two goals${campaign || same.campaign ? ' (a goal and a campaign quantity)' : ''}; their rates are added.`);
      same.requested += r.rate;
      same.rate = same.requested;
      same.weight = 1 / Math.max(1, Math.abs(same.rate));
      if (campaign) same.campaign = true;
      return;
    }
    out.push({
      index: out.length, good, display: g.displayOf(good), rate: r.rate, requested: r.rate, direction: r.direction,
      temperature, stock: r.stock, ...(campaign ? { campaign: true } : {}), weight: 1 / Math.max(1, Math.abs(r.rate)),
    });
  };
  for (const goal of doc.goals) add(goal.good, goal.temperature, goalRate(goal), false);
  for (const c of campaignGoals(doc.campaign)) add(c.good, c.temperature, { rate: c.rate, direction: c.rate < 0 ? 'consume' : 'produce', stock: false }, true);
  return out;
}

function goalLabel(goal: NormalizedGoal, qualifier = ''): string {
  const q = qualifier ? ` at ${qualifier}` : '';
  return goal.direction === 'consume'
    ? `the goal of consuming ${fmt3(-goal.requested)}/s ${goal.display}${q}`
    : `the goal of ${fmt3(goal.requested)}/s ${goal.display}${q}`;
}

export function buildBlockModel(g: GameIndex, rows: PreparedRow[], doc: BlockDoc, warnings: string[]): BlockModel {
  const missingGoods: string[] = [];
  const goals = normalizeGoals(g, doc, warnings);
  for (const goal of goals) if (!g.goods.has(goal.good)) missingGoods.push(goal.good);
  const plan = planTemperatures(g, rows, goals.map((x) => ({ index: x.index, good: x.good, direction: x.direction, temperature: x.temperature })));
  const b = new ProgramBuilder();
  const constraints: ConstraintInfo[] = [];
  const n = rows.length;

  // Columns. A tiny cost by recipe-name rank breaks ties the same way whatever the row order.
  const rank = new Int32Array(n);
  const byName = rows.map((_, c) => c).sort((a, c) => (rows[a].recipe.name < rows[c].recipe.name ? -1 : rows[a].recipe.name > rows[c].recipe.name ? 1 : 0));
  for (let i = 0; i < n; i++) rank[byName[i]] = i;
  const numCols = n + plan.selectors.length;
  const nnz = rows.reduce((a, r) => a + r.terms.length, 0) + 2 * plan.selectors.length;
  const columns: ColumnTerms = { start: new Int32Array(numCols + 1), good: new Int32Array(nnz), coef: new Float64Array(nnz) };
  let at = 0;
  rows.forEach((r, c) => {
    b.addCol(Math.max(0, r.recipe.energy) + TIE * (1 + rank[c] / Math.max(1, n)));
    columns.start[c] = at;
    for (const t of r.terms) {
      columns.good[at] = plan.keyFor(t);
      columns.coef[at++] = t.amount;
    }
  });
  plan.selectors.forEach((s, i) => {
    b.addCol(0);
    columns.start[n + i] = at;
    columns.good[at] = s.from;
    columns.coef[at++] = -1;
    columns.good[at] = s.to;
    columns.coef[at++] = 1;
  });
  columns.start[numCols] = at;
  const colGoods = (c: number) => columns.good.subarray(columns.start[c], columns.start[c + 1]);
  const colCoefs = (c: number) => columns.coef.subarray(columns.start[c], columns.start[c + 1]);

  // Transpose: good key → (column, coefficient), in column order; and which recipe columns produce it.
  const numGoods = plan.goods.length;
  const gStart = new Int32Array(numGoods + 1);
  for (let k = 0; k < nnz; k++) gStart[columns.good[k] + 1]++;
  for (let i = 0; i < numGoods; i++) gStart[i + 1] += gStart[i];
  const gCol = new Int32Array(nnz);
  const gCoef = new Float64Array(nnz);
  const fill = gStart.slice(0, numGoods);
  for (let c = 0; c < numCols; c++) {
    for (let k = columns.start[c]; k < columns.start[c + 1]; k++) {
      const at2 = fill[columns.good[k]]++;
      gCol[at2] = c;
      gCoef[at2] = columns.coef[k];
    }
  }
  const byGood = (k: number) => ({ cols: gCol.subarray(gStart[k], gStart[k + 1]), vals: gCoef.subarray(gStart[k], gStart[k + 1]) });
  const producedBy = (k: number): number[] => {
    const out: number[] = [];
    for (let j = gStart[k]; j < gStart[k + 1]; j++) if (gCol[j] < n && gCoef[j] > 0 && out[out.length - 1] !== gCol[j]) out.push(gCol[j]);
    return out;
  };
  const keysOf = (good: string) => plan.keysOf.get(good) ?? [];
  const touched = (good: string) => keysOf(good).some((k) => gStart[k + 1] > gStart[k]);
  /** Recipe columns that make a good (within a goal pool's range for expanded fluids). */
  const producersOf = (good: string, pool?: number): number[] => {
    if (!plan.expanded.has(good)) {
      const k = plan.plain(good);
      return k === undefined ? [] : producedBy(k);
    }
    const vs = pool !== undefined ? plan.inRange(pool) : plan.variants(good);
    return [...new Set(vs.flatMap((v) => producedBy(v)))];
  };
  const addRow = (keys: number[], lo: number, hi: number, info: ConstraintInfo) => {
    if (keys.length === 1) {
      const e = byGood(keys[0]);
      b.addRow(e.cols, e.vals, lo, hi);
    } else {
      const cols: number[] = [];
      const vals: number[] = [];
      for (const k of keys) {
        const e = byGood(k);
        for (let j = 0; j < e.cols.length; j++) {
          cols.push(e.cols[j]);
          vals.push(e.vals[j]);
        }
      }
      b.addRow(cols, vals, lo, hi);
    }
    constraints.push(info);
  };

  // Pins, looked up by recipe.
  const rowOf = new Map(rows.map((r, i) => [r.recipe.name, i]));
  const pins: Array<{ pin: Pin; col: number }> = [];
  for (const pin of doc.pins) {
    const col = rowOf.get(pin.recipe);
    if (col === undefined) {
      warnings.push(`A ${pin.kind} pin names ${pin.recipe}, which is not an enabled row of this block; it is ignored.`);
      continue;
    }
    if (pin.kind !== 'share' && !(rows[col].perBuilding > 0)) {
      warnings.push(`The ${pin.kind} pin on ${rows[col].recipe.display} is ignored: the row has no building to count.`);
      continue;
    }
    pins.push({ pin, col });
  }
  const countPinned = new Map<number, number>();
  for (const { pin, col } of pins) if (pin.kind === 'count') countPinned.set(col, pin.buildings);

  // Goals: unmade, superseded by count pins, then their rows.
  for (const goal of goals) {
    if (missingGoods.includes(goal.good)) continue;
    const pool = plan.goalPools.get(goal.index);
    const prods = producersOf(goal.good, pool);
    const q = goal.temperature !== undefined && isTemperatureFluid(g, goal.good) ? formatRange(goal.temperature, goal.temperature) : '';
    if (!touched(goal.good)) {
      goal.unmade = goal.direction === 'produce' ? `nothing in the block makes ${goal.display}${q ? ` at ${q}` : ''}` : `nothing in the block uses ${goal.display}`;
      continue;
    }
    if (goal.direction === 'produce' && prods.length === 0) {
      goal.unmade = `nothing in the block makes ${goal.display}${q ? ` at ${q}` : ''}`;
      continue;
    }
    if (goal.direction === 'produce' && prods.every((c) => countPinned.has(c))) {
      const pinnedBuildings = prods.reduce((s, c) => s + countPinned.get(c)!, 0);
      // Output of one pinned building, averaged over the pinned producers.
      const per = prods.map((c) => {
        const k = colGoods(c).findIndex((gk, j) => plan.goods[gk].good === goal.good && colCoefs(c)[j] > 0);
        return k < 0 ? 0 : colCoefs(c)[k] * rows[c].perBuilding;
      });
      goal.superseded = { pinnedBuildings, perBuilding: per.reduce((a, x) => a + x, 0) / per.length };
      goal.rate = 0;
    }
    const label = goalLabel(goal, q);
    const info: ConstraintInfo = { kind: 'goal', ref: goal.good, display: goal.display, sense: goal.direction === 'produce' ? 'ge' : 'le', rhs: goal.rate, scale: 1, unit: '/s', goal: goal.index, weight: goal.weight, label, value: goal.requested };
    if (goal.direction === 'produce') addRow(pool !== undefined ? [pool] : [plan.plain(goal.good)!], goal.rate, Infinity, info);
    else addRow(keysOf(goal.good), -Infinity, goal.rate, info);
  }

  // Made (stated, implied by produce goals, local heat) and drains.
  const drains = new Set(doc.drains.map(drainGood));
  for (const d of doc.drains) {
    if (typeof d === 'string' || !d.recipe) continue;
    const col = rowOf.get(d.recipe);
    if (col === undefined || !rows[col].terms.some((t) => t.good === d.good && t.amount < 0)) {
      warnings.push(`The drain of ${g.displayOf(d.good)} names ${d.recipe}, which does not consume it in this block; the drain still balances the good.`);
    }
  }
  const stated = new Set(doc.made);
  const made = new Map<string, { kind: 'goal' | 'made'; implicit: boolean; label: string }>();
  for (const m of doc.made) made.set(m, { kind: 'made', implicit: false, label: `${g.displayOf(m)} marked as made in the block` });
  for (const goal of goals) {
    if (goal.direction === 'produce' && !goal.unmade && !stated.has(goal.good)) {
      made.set(goal.good, { kind: 'goal', implicit: true, label: `the block's own use of ${goal.display} (implied by its goal)` });
    }
  }
  // Heat does not travel between blocks: heat machines draw on the block's own reactors.
  if (!stated.has(HEAT) && producersOf(HEAT).length) made.set(HEAT, { kind: 'made', implicit: true, label: "heat coming only from the block's own reactors" });
  const goalPlain = new Set(goals.filter((x) => x.direction === 'produce' && !x.unmade && !plan.expanded.has(x.good)).map((x) => x.good));
  for (const [good, m] of made) {
    if (drains.has(good) || !touched(good)) continue;
    const display = g.displayOf(good);
    if (!plan.expanded.has(good)) {
      // A made mark without a producer is ignored: the good is simply imported.
      if (goalPlain.has(good) || producersOf(good).length === 0) continue;
      addRow([plan.plain(good)!], 0, Infinity, { kind: m.kind, ref: good, display, sense: 'ge', rhs: 0, scale: 1, unit: '/s', implicit: m.implicit, label: m.label });
      continue;
    }
    for (const p of plan.pools(good)) {
      if (!plan.inRange(p).length) continue;
      addRow([p], 0, Infinity, { kind: m.kind, ref: good, display, sense: 'ge', rhs: 0, scale: 1, unit: '/s', implicit: m.implicit, label: `${m.label} (${plan.qualifier(p)})` });
    }
  }
  const drained = new Set<number>();
  for (const good of drains) {
    if (!g.goods.has(good)) {
      missingGoods.push(good);
      continue;
    }
    if (!touched(good)) {
      warnings.push(`The drain of ${g.displayOf(good)} has no effect: no row of the block touches it.`);
      continue;
    }
    const display = g.displayOf(good);
    const label = `the drain of ${display}`;
    if (!plan.expanded.has(good)) {
      addRow([plan.plain(good)!], 0, 0, { kind: 'drain', ref: good, display, sense: 'eq', rhs: 0, scale: 1, unit: '/s', label });
      continue;
    }
    for (const v of plan.variants(good)) {
      drained.add(v);
      addRow([v], 0, 0, { kind: 'drain', ref: good, display, sense: 'eq', rhs: 0, scale: 1, unit: '/s', label: `${label} (${plan.qualifier(v)})` });
    }
    for (const p of plan.pools(good)) {
      if (!plan.inRange(p).length) continue;
      addRow([p], 0, 0, { kind: 'drain', ref: good, display, sense: 'eq', rhs: 0, scale: 1, unit: '/s', label: `${label} (${plan.qualifier(p)})` });
    }
  }
  // A temperature variant exists only as production: it can be exported, never bought.
  for (const f of plan.expanded) {
    for (const v of plan.variants(f)) {
      if (drained.has(v)) continue;
      addRow([v], 0, Infinity, { kind: 'structural', ref: f, display: g.displayOf(f), sense: 'ge', rhs: 0, scale: 1, unit: '/s', label: `${g.displayOf(f)} at ${plan.qualifier(v)} cannot be imported` });
    }
  }

  // Pins as rates: count x = N·perBuilding, cap x ≤ N·perBuilding, share intake = s·(production − fixed).
  for (const { pin, col } of pins) {
    const r = rows[col];
    if (pin.kind === 'count' || pin.kind === 'cap') {
      const rate = pin.buildings * r.perBuilding;
      const label = pin.kind === 'count' ? `the pin of ${fmt3(pin.buildings)} buildings on ${r.recipe.display}` : `the cap of ${fmt3(pin.buildings)} buildings on ${r.recipe.display}`;
      b.addRow([col], [1], pin.kind === 'count' ? rate : -Infinity, rate);
      constraints.push({ kind: pin.kind === 'count' ? 'pin-count' : 'pin-cap', ref: r.recipe.name, display: r.recipe.display, sense: pin.kind === 'count' ? 'eq' : 'le', rhs: rate, scale: 1 / r.perBuilding, unit: 'buildings', label, value: pin.buildings });
      continue;
    }
    const good = pin.good;
    const k = colGoods(col).findIndex((gk, j) => plan.goods[gk].good === good && colCoefs(col)[j] < 0);
    if (k < 0) {
      warnings.push(`The share pin on ${r.recipe.display} is ignored: it does not consume ${g.displayOf(good)}.`);
      continue;
    }
    const intakeKey = colGoods(col)[k];
    const intake = -colCoefs(col)[k];
    const sources = plan.goods[intakeKey].kind === 'pool' ? plan.inRange(intakeKey) : [intakeKey];
    const srcSet = new Set(sources);
    const cols: number[] = [col];
    const vals: number[] = [intake];
    for (const v of sources) {
      const e = byGood(v);
      for (let j = 0; j < e.cols.length; j++) {
        const c = e.cols[j];
        if (c >= n || c === col || e.vals[j] <= 0) continue;
        cols.push(c);
        vals.push(-pin.share * e.vals[j]);
      }
    }
    let fixed = 0;
    if (pin.base === 'remaining') {
      for (const [c, buildings] of countPinned) {
        if (c === col) continue;
        const cc = colCoefs(c);
        colGoods(c).forEach((gk, j) => {
          if (cc[j] >= 0 || plan.goods[gk].good !== good) return;
          const feeds = plan.goods[gk].kind === 'pool' ? plan.inRange(gk).some((v) => srcSet.has(v)) : srcSet.has(gk);
          if (feeds) fixed += -cc[j] * buildings * rows[c].perBuilding;
        });
      }
    }
    b.addRow(cols, vals, -pin.share * fixed, -pin.share * fixed);
    const q = plan.goods[intakeKey].kind === 'pool' ? ` (${plan.qualifier(intakeKey)})` : '';
    constraints.push({
      kind: 'pin-share', ref: r.recipe.name, display: r.recipe.display, good, sense: 'eq', rhs: -pin.share * fixed, scale: 1, unit: '/s', value: pin.share,
      label: `the share pin giving ${r.recipe.display} ${fmt3(pin.share * 100)}% of the ${pin.base === 'total' ? 'total' : 'remaining'} ${g.displayOf(good)}${q}`,
    });
  }

  const program: BlockProgram = { lp: b.build(), constraints, recipeCols: n };
  return { program, rows, plan, goals, columns, warnings, missingGoods };
}
