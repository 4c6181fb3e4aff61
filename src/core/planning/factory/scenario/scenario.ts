// The factory scenario: one solve over the enabled blocks toward the factory's pins. Each block's
// changeable goals are variables (its flows follow from them through its model, see model.ts); goods
// move between blocks by temperature-compatible transport (flows.ts). The objective is lexicographic,
// each stage capped at its optimum before the next:
//  1. meet every demand a block could grow to meet (pins and the blocks' own imports);
//  2. let blocks whose goal is to consume a good (sinks) absorb what is left of it;
//  3. keep every produce goal as small as that allows — so a block is never grown for one of its
//     own byproducts, and a coproduct another block needs counts as supply before anything grows;
//  4. supply priorities: for each good, lower-priority suppliers as small as possible, tier by tier;
//  5. fewest buildings.
// Shares are equalities. Demand no block can meet is reported: raw inputs (resources), goods no
// enabled block makes (what a new block would have to make), and goods short because their only
// suppliers make them as a byproduct or are pinned. Residuals under 1 % of a good's throughput count
// as balanced. Linearized blocks are re-solved at the goals picked and re-linearized until the
// prediction holds.
import type { Project } from '../../../db/project';
import type { SolveResult } from '../../solver/result';
import { parseBlockDoc, type Science } from '../../block/document';
import type { PlanningContext } from '../../context';
import { loadHighs } from '../../solver/highs';
import { LpSession, ProgramBuilder, type LpSolution } from '../../solver/program';
import { listBlocks, type BlockRecord, type BlockSolver } from '../blocks';
import { factorySnapshot } from '../fresh';
import { BALANCE_TOLERANCE } from '../ledger';
import { byBlock } from '../blocks';
import { compatible, demandKey, ENERGY_GOODS, flowSpace, keyLabel, supplyKey, vectorOf, type DemandKey, type FlowKey, type SupplyKey } from '../flowKeys';
import { ELECTRICITY, HEAT } from '../../../gamedata/model';
import { modelBlock, pointOf, predict, withGoals, type BlockModel, type ExcludedBlock } from './model';
import { readFactoryPins, readSupplyPriorities, type FactoryPin, type SupplyPriority } from './inputs';
import { inputsFingerprint } from './fingerprint';

export interface ScenarioPin {
  good: string;
  display: string;
  rate: number;
  temperature?: number;
  /** `pin`: set by the player; `science`: the science block's pack demand; `final-product`: a goal
   *  good nothing consumes, kept at its current rate until pinned. */
  source: 'pin' | 'science' | 'final-product';
}

export interface GoalChange {
  blockId: string;
  block: string;
  goalIndex: number;
  good: string;
  display: string;
  direction: 'produce' | 'consume';
  current: number;
  next: number;
  /** The block's updatedAt the change was computed from (Balance Factory refuses a block changed since). */
  updatedAt: string;
}

export interface ScenarioGood {
  good: string;
  display: string;
  /** The good with its temperature, when that tells supplies apart. */
  label: string;
  rate: number;
  blocks: string[];
}

export interface ScenarioResult {
  status: 'optimal' | 'infeasible' | 'error' | 'cancelled';
  message?: string;
  /** Inputs it was computed from; a different current fingerprint means the result is stale. */
  fingerprint: string;
  computedAt: string;
  pins: ScenarioPin[];
  /** Every changeable goal whose rate changes (by more than 0.1 %), largest change first. */
  goalChanges: GoalChange[];
  /** Goals that keep their rate. */
  unchanged: number;
  /** Resources the factory takes from outside (ores, water, …), at the scenario's rates. */
  rawInputs: ScenarioGood[];
  /** Goods no enabled block can supply (enough of): what a new block would have to make. */
  unsupplied: Array<ScenarioGood & { reason: 'no-block' | 'byproduct-only' | 'limited'; newBlock: string }>;
  /** Goods made beyond every demand and pin. */
  overproduced: ScenarioGood[];
  /** Nothing unsupplied or overproduced beyond 1 % of its throughput. */
  balanced: boolean;
  /** Blocks left out (not solved, broken, infeasible at their goals) — their goals are not changed. */
  excluded: ExcludedBlock[];
  /** What the scenario assumed beyond the stored inputs (Balance Factory writes these too). */
  assumed?: {
    pins?: FactoryPin[];
    /** The science block as assumed: its id (null = a new one) and lab bank. */
    science?: { blockId: string | null; name: string; spec: Science; labs: number; packs: Array<{ pack: string; display: string; rate: number }>; powerW: number; updatedAt?: string };
  };
  warnings: string[];
  stats: { blocks: number; goals: number; linearized: number; iterations: number; solves: number; totalMs: number; lpMs: number };
}

export interface ScenarioOptions {
  /** Pins to use instead of the stored ones (what-if questions; Balance Factory saves them). */
  pins?: FactoryPin[];
  /** The science block's lab bank as it would be (its research or packs); Balance Factory saves it. */
  science?: Science;
  priorities?: SupplyPriority[];
  signal?: AbortSignal;
  onProgress?: (message: string, fraction: number) => void;
}

const MAX_ROUNDS = 5;
const CHANGE_TOL = 1e-3;

class Cancelled extends Error {}

/** Runs the scenario over the project's enabled blocks. Changes nothing. */
export async function factoryScenario(p: Project, pc: PlanningContext, solve: BlockSolver, opts: ScenarioOptions = {}): Promise<ScenarioResult> {
  const t0 = performance.now();
  const g = pc.g;
  const blocks = listBlocks(p, { enabledOnly: true });
  const storedPins = opts.pins ?? readFactoryPins(p);
  const priorities = opts.priorities ?? readSupplyPriorities(p);
  // Staleness is about the project: what-if pins and priorities are carried in the result instead.
  const fingerprint = inputsFingerprint(p, blocks);
  const base: ScenarioResult = {
    status: 'optimal', fingerprint, computedAt: new Date().toISOString(), pins: [], goalChanges: [], unchanged: 0, rawInputs: [], unsupplied: [], overproduced: [],
    balanced: true, excluded: [], warnings: [], stats: { blocks: 0, goals: 0, linearized: 0, iterations: 0, solves: 0, totalMs: 0, lpMs: 0 },
  };
  let solves = 0;
  const counted: BlockSolver = async (doc) => {
    if (opts.signal?.aborted) throw new Cancelled();
    solves++;
    return solve(doc);
  };
  const progress = (m: string, f: number) => opts.onProgress?.(m, Math.min(1, Math.max(0, f)));
  try {
    progress('Reading the factory', 0);
    const snap = await factorySnapshot(p, counted, blocks);
    const rows = byBlock(snap.flows);
    const machines = byBlock(snap.machines);
    const science = blocks.filter((b) => b.doc.science);
    const planned = blocks.filter((b) => !b.doc.science);
    // Power is traded when the factory has power blocks: they then grow with the factory's draw.
    // Without one, electricity stays out (a player who does not plan power is not told to).
    const powered = planned.some((b) => b.doc.goals.some((x) => x.good === ELECTRICITY));
    const space = flowSpace(powered ? new Set([HEAT]) : ENERGY_GOODS);
    const keys = space.keys;
    if (opts.pins) base.assumed = { pins: opts.pins };

    // The science block's pack demand pins the factory (a player's pin on the same good overrides it).
    const pins: ScenarioPin[] = storedPins.map((x) => ({ good: x.good, display: g.displayOf(x.good), rate: x.rate, ...(x.temperature !== undefined ? { temperature: x.temperature } : {}), source: 'pin' as const }));
    const pinned = new Set(storedPins.map((x) => x.good));
    const sciencePacks: Array<{ item: string; rate: number }> = [];
    if (opts.science) {
      const r = await counted({ ...parseBlockDoc({}), science: opts.science });
      if (r.status !== 'optimal') return finish({ ...base, status: 'error', message: `The science block as assumed cannot be sized: ${r.message ?? r.status}` });
      const had = science[0];
      base.assumed = {
        ...base.assumed,
        science: {
          blockId: had?.id ?? null, name: had?.name ?? 'Science', spec: opts.science, labs: r.science?.labs ?? 0, powerW: r.powerW,
          packs: (r.science?.packs ?? []).map((x) => ({ pack: x.pack, display: x.display, rate: x.rate })), ...(had ? { updatedAt: had.updatedAt } : {}),
        },
      };
      for (const f of r.imports) sciencePacks.push({ item: f.good, rate: f.rate });
    } else for (const s of science) for (const f of rows.get(s.id) ?? []) if (f.role === 'import') sciencePacks.push({ item: f.item, rate: f.rate });
    for (const f of sciencePacks) {
      if (pinned.has(f.item) || !g.goods.has(f.item) || g.goods.get(f.item)!.synthetic) continue;
      const had = pins.find((x) => x.good === f.item && x.source === 'science');
      if (had) had.rate += f.rate;
      else pins.push({ good: f.item, display: g.displayOf(f.item), rate: f.rate, source: 'science' });
    }

    // Models: exact from the snapshot where the block is homogeneous, else linearized by solving.
    const models: BlockModel[] = [];
    for (const [i, b] of planned.entries()) {
      progress(`Modelling ${b.name}`, 0.05 + (0.45 * i) / Math.max(1, planned.length));
      const status = snap.power.get(b.id)?.status ?? b.cache.status;
      if (status !== 'optimal') {
        base.excluded.push({ blockId: b.id, name: b.name, reason: status === 'broken' ? 'broken (a recipe or good it names is missing)' : status === 'infeasible' ? 'infeasible at its current goals (open it to see the diagnosis)' : `not solved (${status ?? 'stale'})` });
        continue;
      }
      const now = { flows: vectorOf(rows.get(b.id) ?? [], space), buildings: (machines.get(b.id) ?? []).reduce((s, m) => s + m.count, 0) };
      const m = await modelBlock(b, counted, space, now);
      if ('reason' in m) base.excluded.push({ blockId: b.id, name: b.name, reason: m.reason });
      else models.push(m);
    }

    // Goal goods nothing consumes are final products: they keep their current rate unless pinned.
    const consumed = new Set<string>();
    const supplyNow = new Map<string, number>();
    for (const m of models) {
      for (const [id, v] of predict(m, m.goals.map((x) => x.current))) {
        const k = keys.get(id)!;
        if (k.side === 'demand' && v < 0) consumed.add(k.good);
        if (k.side === 'supply' && v > 0) supplyNow.set(k.good, (supplyNow.get(k.good) ?? 0) + v);
      }
    }
    for (const pin of pins) if (pin.rate > 0) consumed.add(pin.good);
    for (const m of models) {
      for (const v of m.goals) {
        if (v.direction !== 'produce' || consumed.has(v.good) || pinned.has(v.good)) continue;
        consumed.add(v.good);
        pins.push({ good: v.good, display: g.displayOf(v.good), rate: supplyNow.get(v.good) ?? v.current, source: 'final-product' });
      }
    }
    base.pins = pins;

    let mags = models.map((m) => m.goals.map((x) => x.current));
    let lp: ScenarioLp | undefined;
    let round = 0;
    for (; round < MAX_ROUNDS; round++) {
      progress(round ? `Settling linearized blocks (round ${round + 1})` : 'Solving the factory', 0.5 + 0.1 * round);
      lp = await solveScenarioLp(g, models, keys, pins, priorities, blocks);
      base.stats.lpMs += lp.ms;
      if (lp.status !== 'optimal') return finish({ ...base, status: lp.status, message: lp.message });
      mags = lp.mags;
      // Re-solve each linearized block at its new goals; re-linearize those whose answer differs.
      let moved = false;
      for (const [i, m] of models.entries()) {
        if (m.exact) continue;
        const r = await counted(withGoals(m.block.doc, m.goals, mags[i]));
        if (r.status === 'infeasible') {
          // Its pins or caps stop it short of these goals: bound each goal by what it can reach.
          const bounded = reachable(m, mags[i], r.diagnosis ?? []);
          if (bounded) {
            m.upper = bounded;
            moved = true;
            continue;
          }
        }
        if (r.status !== 'optimal') {
          base.warnings.push(`${m.block.name} cannot be solved at the goals the scenario picked (${r.status}); its goals are left as they are.`);
          lp.mags[i] = m.goals.map((x) => x.current);
          continue;
        }
        const actual = pointOf(m.block, r, space).flows;
        if (!closeEnough(predict(m, mags[i]), actual)) {
          const again = await modelBlock(m.block, counted, space, undefined, mags[i]);
          if ('reason' in again) continue;
          again.upper = m.upper;
          models[i] = again;
          moved = true;
        }
      }
      if (!moved) break;
    }
    base.stats = { ...base.stats, blocks: models.length, goals: models.reduce((s, m) => s + m.goals.length, 0), linearized: models.filter((m) => !m.exact).length, iterations: round + 1 };
    if (round === MAX_ROUNDS) base.warnings.push(`Some blocks' answers still move after ${MAX_ROUNDS} rounds; their new goals are close but not exact — recalculate after applying.`);
    progress('Reporting', 0.95);
    return finish(report(g, base, models, keys, lp!, pins));
  } catch (err) {
    if (err instanceof Cancelled) return finish({ ...base, status: 'cancelled', message: 'The scenario was cancelled.' });
    throw err;
  }

  function finish(r: ScenarioResult): ScenarioResult {
    r.stats.solves = solves;
    r.stats.totalMs = performance.now() - t0;
    return r;
  }
}

/**
 * Upper bounds for a linearized block's goals from its diagnosis at goals it cannot reach: each goal
 * the diagnosis names short by s can reach its rate − s. Undefined when no goal is named (the conflict
 * is elsewhere) or nothing would change.
 */
function reachable(m: BlockModel, at: number[], cards: NonNullable<SolveResult['diagnosis']>): number[] | undefined {
  const next = [...m.upper];
  let changed = false;
  m.goals.forEach((v, k) => {
    const short = cards.flatMap((c) => c.members).filter((x) => x.kind === 'goal' && x.ref === v.good).reduce((s, x) => Math.max(s, x.shortBy), 0);
    if (!(short > 0)) return;
    const ub = Math.max(0, at[k] - short * (1 + 1e-9));
    if (ub < next[k]) {
      next[k] = ub;
      changed = true;
    }
  });
  return changed ? next : undefined;
}

function closeEnough(predicted: Map<string, number>, actual: Map<string, number>): boolean {
  const ids = new Set([...predicted.keys(), ...actual.keys()]);
  for (const id of ids) {
    const a = actual.get(id) ?? 0;
    const b = predicted.get(id) ?? 0;
    if (Math.abs(a - b) > 1e-6 + 1e-3 * Math.max(Math.abs(a), Math.abs(b))) return false;
  }
  return true;
}

interface ScenarioLp {
  status: 'optimal' | 'infeasible' | 'error';
  message?: string;
  mags: number[][];
  /** Per key id: the model's net at the solution (supplies +, demands −). */
  net: Map<string, number>;
  over: Map<string, number>;
  short: Map<string, number>;
  ms: number;
}

/** Builds and runs the staged LP over the current models. */
async function solveScenarioLp(
  g: PlanningContext['g'], models: BlockModel[], keys: Map<string, FlowKey>, pins: ScenarioPin[], priorities: SupplyPriority[], blocks: BlockRecord[],
): Promise<ScenarioLp> {
  const t0 = performance.now();
  const b = new ProgramBuilder();
  // Goal columns.
  const goalCol: number[][] = models.map((m) => m.goals.map((_v, k) => b.addCol(0, 0, Math.min(1e9, m.upper[k] ?? Infinity))));
  // Pins as keys: a positive pin is a demand (exact temperature or any), a negative one a supply.
  const pinDemand = new Map<string, number>();
  const pinSupply = new Map<string, number>();
  for (const pin of pins) {
    const kind = g.goods.get(pin.good)?.kind === 'fluid' ? 'fluid' : 'item';
    if (pin.rate >= 0) {
      const k = demandKey(pin.good, kind, pin.temperature ?? null, pin.temperature ?? null);
      keys.set(k.id, k);
      pinDemand.set(k.id, (pinDemand.get(k.id) ?? 0) + pin.rate);
    } else {
      const k = supplyKey(pin.good, kind, pin.temperature ?? null);
      keys.set(k.id, k);
      pinSupply.set(k.id, (pinSupply.get(k.id) ?? 0) - pin.rate);
    }
  }
  // Which keys appear, per good.
  const supplies = new Map<string, SupplyKey[]>();
  const demands = new Map<string, DemandKey[]>();
  const used = new Set<string>([...pinDemand.keys(), ...pinSupply.keys()]);
  for (const m of models) {
    for (const v of [m.base, ...m.perUnit]) for (const id of v.keys()) used.add(id);
  }
  for (const id of used) {
    const k = keys.get(id)!;
    const map = k.side === 'supply' ? supplies : demands;
    const l = (map.get(k.good) ?? []) as FlowKey[];
    l.push(k);
    map.set(k.good, l as never);
  }
  // Terms of each key's block net: Σ_models (base + Σ perUnit·G).
  const terms = new Map<string, { cols: number[]; vals: number[]; constant: number }>();
  const term = (id: string) => {
    let t = terms.get(id);
    if (!t) terms.set(id, (t = { cols: [], vals: [], constant: 0 }));
    return t;
  };
  models.forEach((m, i) => {
    for (const [id, v] of m.base) term(id).constant += v;
    m.perUnit.forEach((d, k) => {
      for (const [id, v] of d) {
        if (v === 0) continue;
        const t = term(id);
        t.cols.push(goalCol[i][k]);
        t.vals.push(v);
      }
    });
  });
  const growable = growableKeys(models, keys);
  const sinkGoods = new Set<string>();
  for (const m of models) for (const v of m.goals) if (v.direction === 'consume') sinkGoods.add(v.good);

  // Throughput per good, for weights and the 1 % rule.
  const throughput = new Map<string, number>();
  const bump = (good: string, v: number) => throughput.set(good, Math.max(throughput.get(good) ?? 0, Math.abs(v)));
  for (const m of models) {
    const now = predict(m, m.goals.map((x) => x.current));
    for (const [id, v] of now) bump(keys.get(id)!.good, v);
  }
  for (const pin of pins) bump(pin.good, pin.rate);
  const weight = (good: string) => 1 / Math.max(1, throughput.get(good) ?? 0);

  const overCol = new Map<string, number>();
  const shortCol = new Map<string, number>();
  const transport: Array<{ col: number; s: string; d: string }> = [];
  const supplyRow = new Map<string, { cols: number[]; vals: number[] }>();
  for (const [, ss] of supplies) for (const s of ss) supplyRow.set(s.id, { cols: [], vals: [] });
  const demandRow = new Map<string, { cols: number[]; vals: number[] }>();
  for (const [, ds] of demands) for (const d of ds) demandRow.set(d.id, { cols: [], vals: [] });
  for (const [good, ds] of demands) {
    for (const d of ds) {
      for (const s of supplies.get(good) ?? []) {
        if (!compatible(s, d)) continue;
        const c = b.addCol(0, 0, Infinity);
        transport.push({ col: c, s: s.id, d: d.id });
        supplyRow.get(s.id)!.cols.push(c);
        supplyRow.get(s.id)!.vals.push(-1);
        demandRow.get(d.id)!.cols.push(c);
        demandRow.get(d.id)!.vals.push(1);
      }
    }
  }
  for (const [id, r] of supplyRow) {
    const c = b.addCol(0, 0, Infinity);
    overCol.set(id, c);
    r.cols.push(c);
    r.vals.push(-1);
    const t = terms.get(id) ?? { cols: [], vals: [], constant: 0 };
    // block supply + pin supply − transports − over = 0
    const rhs = -(t.constant + (pinSupply.get(id) ?? 0));
    b.addRow([...t.cols, ...r.cols], [...t.vals, ...r.vals], rhs, rhs);
  }
  for (const [id, r] of demandRow) {
    const c = b.addCol(0, 0, Infinity);
    shortCol.set(id, c);
    r.cols.push(c);
    r.vals.push(1);
    const t = terms.get(id) ?? { cols: [], vals: [], constant: 0 };
    // transports + short + block net (negative: consumption) = pin demand
    const rhs = (pinDemand.get(id) ?? 0) - t.constant;
    b.addRow([...t.cols, ...r.cols], [...t.vals, ...r.vals], rhs, rhs);
  }
  // A linearized block cannot turn an import into an export (or the reverse).
  models.forEach((m, i) => {
    if (m.exact) return;
    const ids = new Set([...m.base.keys(), ...m.perUnit.flatMap((d) => [...d.keys()])]);
    for (const id of ids) {
      const cols: number[] = [];
      const vals: number[] = [];
      m.perUnit.forEach((d, k) => {
        const v = d.get(id) ?? 0;
        if (v) {
          cols.push(goalCol[i][k]);
          vals.push(v);
        }
      });
      const c0 = m.base.get(id) ?? 0;
      if (keys.get(id)!.side === 'supply') b.addRow(cols, vals, -c0, Infinity);
      else b.addRow(cols, vals, -Infinity, -c0);
    }
  });
  // Shares: a supplier's production of the good = its share of everything the good is needed for.
  const modelOf = new Map(models.map((m, i) => [m.block.id, i]));
  for (const pr of priorities) {
    if (!pr.shares) continue;
    const demandCols: number[] = [];
    const demandVals: number[] = [];
    let demandConst = 0;
    for (const d of demands.get(pr.good) ?? []) {
      const t = terms.get(d.id);
      if (t) {
        t.cols.forEach((c, j) => {
          demandCols.push(c);
          demandVals.push(-t.vals[j]);
        });
        demandConst -= t.constant;
      }
      demandConst += pinDemand.get(d.id) ?? 0;
    }
    for (const [blockId, share] of Object.entries(pr.shares)) {
      const i = modelOf.get(blockId);
      if (i === undefined) continue;
      const m = models[i];
      const cols: number[] = [];
      const vals: number[] = [];
      let constant = 0;
      for (const s of supplies.get(pr.good) ?? []) {
        constant += m.base.get(s.id) ?? 0;
        m.perUnit.forEach((d, k) => {
          const v = d.get(s.id) ?? 0;
          if (v) {
            cols.push(goalCol[i][k]);
            vals.push(v);
          }
        });
      }
      demandCols.forEach((c, j) => {
        cols.push(c);
        vals.push(-share * demandVals[j]);
      });
      const rhs = share * demandConst - constant;
      b.addRow(cols, vals, rhs, rhs);
    }
  }

  // Stage objectives.
  const n = b.numCols;
  const stages: Array<{ name: string; cost: Float64Array }> = [];
  const cost = () => new Float64Array(n);
  // Pins first: a pin the factory could meet is met, and what it then lacks upstream is what the
  // player needs to hear about (a shortage of plates, not a quietly smaller gear block).
  const canGrowInto = (d: DemandKey) => (supplies.get(d.good) ?? []).some((s) => growable.has(s.id) && compatible(s, d));
  for (const [name, keep] of [['pins', (d: DemandKey) => pinDemand.has(d.id)], ['demand', () => true]] as const) {
    const c = cost();
    let any = false;
    for (const ds of demands.values()) {
      for (const d of ds) {
        if (!keep(d) || !canGrowInto(d)) continue;
        c[shortCol.get(d.id)!] = weight(d.good);
        any = true;
      }
    }
    if (any) stages.push({ name, cost: c });
  }
  {
    const c = cost();
    let any = false;
    for (const [good, ss] of supplies) {
      if (!sinkGoods.has(good)) continue;
      for (const s of ss) c[overCol.get(s.id)!] = weight(good);
      any = true;
    }
    if (any) stages.push({ name: 'absorb', cost: c });
  }
  {
    const c = cost();
    models.forEach((m, i) => m.goals.forEach((v, k) => (v.direction === 'produce' ? (c[goalCol[i][k]] = weight(v.good)) : 0)));
    stages.push({ name: 'goals', cost: c });
  }
  // Priority tiers per good: the player's order, then the rest in the Factory view's order.
  const order = new Map(blocks.map((x, i) => [x.id, i]));
  const tiers = new Map<string, number>(); // `${model}:${goal}` → tier (1 = first)
  const byGood = new Map<string, Array<{ i: number; k: number }>>();
  models.forEach((m, i) => m.goals.forEach((v, k) => v.direction === 'produce' && byGood.set(v.good, [...(byGood.get(v.good) ?? []), { i, k }])));
  let maxTier = 1;
  for (const [good, list] of byGood) {
    const pr = priorities.find((x) => x.good === good && !x.shares);
    const rank = (i: number) => {
      const id = models[i].block.id;
      const at = pr?.order.indexOf(id) ?? -1;
      return at >= 0 ? at : 1000 + (order.get(id) ?? 0);
    };
    const sorted = [...new Set(list.map((x) => x.i))].sort((x, y) => rank(x) - rank(y));
    for (const x of list) {
      const t = sorted.indexOf(x.i) + 1;
      tiers.set(`${x.i}:${x.k}`, t);
      maxTier = Math.max(maxTier, t);
    }
  }
  for (let t = maxTier; t >= 2; t--) {
    const c = cost();
    models.forEach((m, i) => m.goals.forEach((v, k) => (tiers.get(`${i}:${k}`) === t ? (c[goalCol[i][k]] = weight(v.good)) : 0)));
    stages.push({ name: `priority ${t}`, cost: c });
  }
  {
    const c = cost();
    models.forEach((m, i) => m.goals.forEach((_v, k) => (c[goalCol[i][k]] = m.buildingsPerUnit[k] + 1e-6)));
    // Tiny costs so nothing circulates: an unused transport or a slack that cancels another.
    for (const x of transport) c[x.col] = 1e-7;
    for (const col of overCol.values()) c[col] = 1e-6;
    for (const [id, col] of shortCol) c[col] = Math.max(c[col], 1e-5 * weight(keys.get(id)!.good));
    stages.push({ name: 'buildings', cost: c });
  }

  const highs = await loadHighs();
  const session = new LpSession(highs, b.build(), { timeLimitSec: 30 });
  let sol: LpSolution | undefined;
  try {
    for (const [si, st] of stages.entries()) {
      session.setCosts(st.cost);
      sol = session.run();
      if (sol.status !== 'optimal') {
        return { status: sol.status === 'infeasible' ? 'infeasible' : 'error', message: `The factory LP is ${sol.status} at its ${st.name} stage${sol.message ? `: ${sol.message}` : ''}.`, mags: [], net: new Map(), over: new Map(), short: new Map(), ms: performance.now() - t0 };
      }
      if (si < stages.length - 1) {
        const cols: number[] = [];
        const vals: number[] = [];
        st.cost.forEach((v, j) => {
          if (v) {
            cols.push(j);
            vals.push(v);
          }
        });
        if (cols.length) session.addRow(-Infinity, sol.objective + 1e-9 + 1e-7 * Math.abs(sol.objective), cols, vals);
      }
    }
  } finally {
    session.dispose();
  }
  const x = sol!.x;
  const mags = goalCol.map((cs) => cs.map((c) => (Math.abs(x[c]) < 1e-9 ? 0 : x[c])));
  const net = new Map<string, number>();
  for (const [id, t] of terms) net.set(id, t.constant + t.cols.reduce((s, c, j) => s + t.vals[j] * x[c], 0));
  const over = new Map([...overCol].map(([id, c]) => [id, x[c]]));
  const short = new Map([...shortCol].map(([id, c]) => [id, x[c]]));
  return { status: 'optimal', mags, net, over, short, ms: performance.now() - t0 };
}

/** Supply keys some block makes as a goal it may grow (not only as a byproduct of another goal). */
function growableKeys(models: BlockModel[], keys: Map<string, FlowKey>): Set<string> {
  const out = new Set<string>();
  for (const m of models) {
    m.goals.forEach((v, k) => {
      if (v.direction !== 'produce') return;
      for (const [id, x] of m.perUnit[k]) {
        const key = keys.get(id)!;
        if (key.side === 'supply' && key.good === v.good && x > 0) out.add(id);
      }
    });
  }
  return out;
}

/** Resources come from outside: nothing but mining or pumping makes them. */
function isRaw(g: PlanningContext['g'], good: string): boolean {
  return g.producersOf(good).every((r) => {
    const k = g.recipes.get(r)?.kind;
    return k === 'mining' || k === 'pumping';
  });
}

function report(g: PlanningContext['g'], out: ScenarioResult, models: BlockModel[], keys: Map<string, FlowKey>, lp: ScenarioLp, pins: ScenarioPin[]): ScenarioResult {
  const display = (good: string) => g.displayOf(good);
  // Goal changes.
  models.forEach((m, i) => {
    m.goals.forEach((v, k) => {
      // Six significant digits: the LP's last digits are noise, and the goal is what the player reads.
      const next = Number(lp.mags[i][k].toPrecision(6));
      if (Math.abs(next - v.current) <= CHANGE_TOL * Math.max(v.current, next, 1e-3)) {
        out.unchanged++;
        return;
      }
      out.goalChanges.push({ blockId: m.block.id, block: m.block.name, goalIndex: v.index, good: v.good, display: display(v.good), direction: v.direction, current: v.current, next, updatedAt: m.block.updatedAt });
    });
  });
  out.goalChanges.sort((a, b) => Math.abs(b.next - b.current) - Math.abs(a.next - a.current));

  // Who supplies and takes each key, at the solution.
  const blocksAt = new Map<string, string[]>();
  models.forEach((m, i) => {
    for (const [id, v] of predict(m, lp.mags[i])) if (Math.abs(v) > 1e-9) blocksAt.set(id, [...(blocksAt.get(id) ?? []), m.block.name]);
  });
  const throughput = new Map<string, number>();
  for (const [id, v] of lp.net) {
    const k = keys.get(id)!;
    throughput.set(k.good, (throughput.get(k.good) ?? 0) + Math.abs(v) / 2);
  }
  for (const pin of pins) throughput.set(pin.good, (throughput.get(pin.good) ?? 0) + Math.abs(pin.rate));
  const significant = (good: string, v: number) => v > 1e-6 && v >= BALANCE_TOLERANCE * (throughput.get(good) ?? 0);
  const supplyOf = new Map<string, SupplyKey[]>();
  for (const k of keys.values()) if (k.side === 'supply' && (lp.over.has(k.id) || lp.net.has(k.id))) supplyOf.set(k.good, [...(supplyOf.get(k.good) ?? []), k]);
  const growable = growableKeys(models, keys);
  const fmt = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 1 ? v.toFixed(2) : v.toPrecision(3));

  const merge = (list: ScenarioGood[], x: ScenarioGood) => {
    const had = list.find((y) => y.label === x.label);
    if (had) {
      had.rate += x.rate;
      had.blocks = [...new Set([...had.blocks, ...x.blocks])];
    } else list.push(x);
  };
  for (const [id, v] of lp.short) {
    const k = keys.get(id) as DemandKey;
    if (!significant(k.good, v)) continue;
    const item: ScenarioGood = { good: k.good, display: display(k.good), label: keyLabel(k, display(k.good)), rate: v, blocks: blocksAt.get(id) ?? [] };
    const suppliers = (supplyOf.get(k.good) ?? []).filter((s) => compatible(s, k));
    if (!suppliers.length && isRaw(g, k.good)) merge(out.rawInputs, item);
    else {
      const reason = !suppliers.length ? 'no-block' : suppliers.some((x) => growable.has(x.id)) ? 'limited' : 'byproduct-only';
      out.unsupplied.push({ ...item, reason, newBlock: `a block making ${item.label} at ${fmt(v)}/s` });
    }
  }
  for (const [id, v] of lp.over) {
    const k = keys.get(id)!;
    if (!significant(k.good, v)) continue;
    merge(out.overproduced, { good: k.good, display: display(k.good), label: keyLabel(k, display(k.good)), rate: v, blocks: blocksAt.get(id) ?? [] });
  }
  out.rawInputs.sort((a, b) => b.rate - a.rate);
  out.unsupplied.sort((a, b) => b.rate - a.rate);
  out.overproduced.sort((a, b) => b.rate - a.rate);
  out.balanced = out.unsupplied.length === 0 && out.overproduced.length === 0;
  return out;
}
