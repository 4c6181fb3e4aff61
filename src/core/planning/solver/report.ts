// Outputs of a solved block (domain C.4): per row crafts/s, fractional and whole buildings, power,
// pollution and fuel; per good the LP's net and gross flow, folded back to bare fluids, and the
// boundary (net minus produce-goal rates) after netting what stays outside the LP — incidental
// spoilage and the block's own electricity (fuel and burnt results are LP flows). A boundary beyond the dust floor
// max(1e-9, 1e-5·gross) is an import or an export; exports that are not goals are byproducts. Rows
// left idle (or burning with no building) get their advice (./advice.ts).
import type { BlockDoc } from '../block/document';
import type { GameIndex } from '../gameIndex';
import { beaconsPlaced, beaconsPowerW, wholeBuildings } from '../effects';
import { ELECTRICITY, FLUID_FUEL } from '../../gamedata/model';
import type { BlockModel, NormalizedGoal } from './lp';
import type { Flow, GoodBalance, RowFlow, SolvedRow, SolveResult } from './result';
import type { Term } from './rows';
import { foldFluid } from './temperatures';
import { rowAdvice } from './advice';

type Report = Pick<
  SolveResult,
  'rows' | 'goods' | 'imports' | 'exports' | 'byproducts' | 'goals' | 'unmade' | 'goalSuperseded' | 'powerW' | 'drainW' | 'heatW' | 'fuel' | 'pollutionPerMinute' | 'warnings' | 'advice'
>;

/** Marks a goal flow carries: set by a stock goal, by the campaign. */
const goalMarks = (goal: NormalizedGoal): Pick<Flow, 'stock' | 'campaign'> => ({ ...(goal.stock ? { stock: true } : {}), ...(goal.campaign ? { campaign: true } : {}) });

export { wholeBuildings } from '../effects';

const FUEL_KINDS = new Set(['burner', 'fluid-fuel', 'fluid-filtered', 'fluid-heat']);

/** A row's terms per second: one entry per good and direction (temperatures summed). */
export function rowFlows(terms: Term[], crafts: number): RowFlow[] {
  const out: RowFlow[] = [];
  for (const t of terms) {
    const rate = t.amount * crafts;
    if (!rate) continue;
    const same = out.find((f) => f.good === t.good && f.rate > 0 === rate > 0);
    if (same) {
      same.rate += rate;
      if (!t.energy) delete same.fuel;
    } else out.push({ good: t.good, rate, ...(t.energy ? { fuel: true as const } : {}) });
  }
  return out;
}

export function buildReport(g: GameIndex, model: BlockModel, x: Float64Array, doc: BlockDoc): Report {
  const { rows, plan, goals } = model;
  const warnings = [...model.warnings];
  const n = rows.length;

  // Rows and what they draw from outside the LP.
  const post = new Map<string, { plus: number; minus: number }>();
  const addPost = (good: string, v: number) => {
    if (!v) return;
    const e = post.get(good) ?? { plus: 0, minus: 0 };
    if (v > 0) e.plus += v;
    else e.minus -= v;
    post.set(good, e);
  };
  const fuel = new Map<string, number>();
  let powerW = 0;
  let drainW = 0;
  let heatW = 0;
  let pollution = 0;
  const solvedRows: SolvedRow[] = rows.map((r, i) => {
    const crafts = x[i];
    const buildings = r.perBuilding > 0 ? crafts / r.perBuilding : 0;
    // Machines draw by their (average) activity; a beacon building draws its full usage, so beacons
    // count whole, as placed.
    const beaconW = r.beaconW > 0 ? beaconsPowerW(g, r.row.beacons ?? [], buildings) : 0;
    const rowPower = buildings * r.electricW + beaconW;
    powerW += rowPower;
    drainW += buildings * r.drainW;
    heatW += buildings * r.heatW;
    const rowPollution = buildings * r.pollutionPerMin;
    pollution += rowPollution;
    const fuelRate = buildings * r.fuelPerBuilding;
    if (r.fuel && fuelRate > 0 && !(r.energy.kind === 'burner' && r.fuelMadeHere)) fuel.set(r.fuel, (fuel.get(r.fuel) ?? 0) + fuelRate);
    // The beacons as applied (modules beyond a beacon's slots dropped), not as the document asks.
    const beacons = r.effects?.beaconsPlaced ?? r.row.beacons ?? [];
    const beaconBuildings = beacons.reduce((s, b) => s + beaconsPlaced(b, buildings), 0);
    const e = r.effects?.sum;
    const out: SolvedRow = {
      recipe: r.recipe.name, display: r.recipe.display, machine: r.machine?.name ?? null, machineDisplay: r.machine?.display ?? null,
      machineRule: r.machineChoice.explanation, machineChoice: r.machineChoice, craftsPerSecond: crafts, buildings, wholeBuildings: wholeBuildings(buildings),
      modules: r.effects?.modulesPlaced ?? [], beacons, beaconBuildings, fuel: r.fuel, fuelPerSecond: fuelRate,
      fuelW: FUEL_KINDS.has(r.energy.kind) && 'watts' in r.energy ? buildings * r.energy.watts : 0, flows: rowFlows(r.terms, crafts),
      powerW: rowPower, beaconPowerW: beaconW, pollutionPerMinute: rowPollution, speed: r.speed,
      effects: { speed: e?.speed ?? 0, productivity: e?.productivity ?? 0, consumption: e?.consumption ?? 0, pollution: e?.pollution ?? 0 },
    };
    if (r.recipe.kind === 'spoiling') out.buffer = crafts * r.recipe.energy;
    return out;
  });
  addPost(ELECTRICITY, -powerW / 1e6);

  // Incidental spoilage stays outside the LP: the rot rate of an item comes back 1:1 as its spoil
  // result, a byproduct. The rotting item itself is not charged again — its rate is the user's
  // estimate of what already rots in the flows the LP sized.
  for (const [item, rate] of Object.entries(doc.spoilRates ?? {})) {
    if (!(rate > 0)) continue;
    const good = g.goods.get(item);
    if (!good?.spoilResult) {
      warnings.push(`${g.displayOf(item)} does not spoil; its spoil rate is ignored.`);
      continue;
    }
    addPost(good.spoilResult, rate);
  }

  // LP nets per key, and gross/produced/consumed per bare good over the rows (selectors excluded).
  const net = new Float64Array(plan.goods.length);
  const producedK = new Float64Array(plan.goods.length);
  const consumedK = new Float64Array(plan.goods.length);
  const { start, good: colGood, coef } = model.columns;
  for (let c = 0; c + 1 < start.length; c++) {
    const v = x[c];
    if (!v) continue;
    for (let k = start[c]; k < start[c + 1]; k++) {
      const f = coef[k] * v;
      net[colGood[k]] += f;
      if (c >= n) continue;
      if (f > 0) producedK[colGood[k]] += f;
      else consumedK[colGood[k]] -= f;
    }
  }
  const sumKeys = (good: string, per: Float64Array) => {
    let s = 0;
    for (const k of plan.keysOf.get(good) ?? []) s += per[k];
    return s;
  };
  const flow = new Float64Array(plan.selectors.length);
  for (let s = 0; s < flow.length; s++) flow[s] = x[n + s];

  const imports: Flow[] = [];
  const exports: Flow[] = [];
  const byproducts: Flow[] = [];
  const goalFlows: Flow[] = [];
  const goalSuperseded: Report['goalSuperseded'] = [];
  const display = (good: string) => g.displayOf(good);
  const kind = (good: string): 'item' | 'fluid' => (g.goods.get(good)?.kind === 'fluid' ? 'fluid' : 'item');
  // An import's accepted range; a bound at the fluid's default temperature (or open) is no bound.
  const rangeOf = (good: string, lo: number, hi: number) => {
    const d = g.goods.get(good)?.defaultTemperature ?? -Infinity;
    return { minTemperature: Number.isFinite(lo) && lo > d ? lo : null, maxTemperature: Number.isFinite(hi) ? hi : null };
  };
  const produceGoals = goals.filter((x) => x.direction === 'produce' && !x.unmade);
  const goalRateOf = (i: number) => goals[i].rate;

  const supersession = (goal: NormalizedGoal, actualRate: number) => ({
    good: goal.good, goalRate: goal.requested, actualRate, pinnedBuildings: goal.superseded!.pinnedBuildings,
    buildingsForGoal: goal.superseded!.perBuilding > 0 ? Math.ceil(goal.requested / goal.superseded!.perBuilding - 1e-9) : 0,
  });
  const goalsOf = new Map<string, NormalizedGoal[]>();
  for (const x of produceGoals) goalsOf.set(x.good, [...(goalsOf.get(x.good) ?? []), x]);
  const NONE: NormalizedGoal[] = [];
  const NO_POST = { plus: 0, minus: 0 };
  const allGoods = [...plan.keysOf.keys()];
  for (const k of post.keys()) if (!plan.keysOf.has(k)) allGoods.push(k);
  const balances: GoodBalance[] = [];
  for (const good of allGoods) {
    const p = post.get(good) ?? NO_POST;
    const prod = sumKeys(good, producedK) + p.plus;
    const cons = sumKeys(good, consumedK) + p.minus;
    const gross = prod + cons;
    if (gross > 0) balances.push({ good, produced: prod, consumed: cons, net: prod - cons });
    const eps = Math.max(1e-9, 1e-5 * gross);
    const postNet = p.plus - p.minus;
    const myGoals = goalsOf.get(good) ?? NONE;
    const isGoal = myGoals.length > 0;

    if (plan.expanded.has(good)) {
      const folded = foldFluid(plan, good, net, flow, goalRateOf);
      const inRange = (goal: NormalizedGoal, t: number) => goal.temperature === undefined || goal.temperature === t;
      for (const goal of myGoals) {
        if (goal.superseded) {
          // The pins decide: what leaves in the goal's range is the goal's output.
          let actual = 0;
          for (const e of folded.exports) {
            if (!inRange(goal, e.temperature) || !(e.rate > eps)) continue;
            goalFlows.push({ good, display: display(good), kind: 'fluid', rate: e.rate, temperature: e.temperature, ...goalMarks(goal) });
            actual += e.rate;
            e.rate = 0;
          }
          goalSuperseded.push(supersession(goal, actual));
          continue;
        }
        const split = folded.goalSplit.get(goal.index) ?? [];
        for (const s of split) if (s.rate > eps) goalFlows.push({ good, display: display(good), kind: 'fluid', rate: s.rate, temperature: s.temperature, ...goalMarks(goal) });
      }
      for (const e of folded.exports) {
        if (!(e.rate > eps)) continue;
        const fl: Flow = { good, display: display(good), kind: 'fluid', rate: e.rate, temperature: e.temperature };
        exports.push(fl);
        if (!myGoals.some((x) => inRange(x, e.temperature))) byproducts.push(fl);
      }
      for (const im of folded.imports) {
        if (!(im.rate > eps)) continue;
        imports.push({ good, display: display(good), kind: 'fluid', rate: im.rate, ...rangeOf(good, im.lo, im.hi) });
      }
      // Post-solve flows of a real fluid are never expected; keep them honest anyway.
      if (Math.abs(postNet) > eps) (postNet > 0 ? exports : imports).push({ good, display: display(good), kind: 'fluid', rate: Math.abs(postNet) });
      continue;
    }

    const key = plan.plain(good);
    const lpNet = key === undefined ? 0 : net[key];
    let boundary = lpNet + postNet;
    const info = key === undefined ? undefined : plan.goods[key];
    for (const goal of myGoals) {
      let rate = goal.rate;
      if (goal.superseded) {
        rate = Math.max(0, boundary);
        goalSuperseded.push(supersession(goal, rate));
      }
      boundary -= rate;
      goalFlows.push({ good, display: display(good), kind: kind(good), rate, ...(info?.temperature !== undefined ? { temperature: info.temperature } : {}), ...goalMarks(goal) });
    }
    if (boundary > eps) {
      const fl: Flow = { good, display: display(good), kind: kind(good), rate: boundary, ...(info?.temperature !== undefined ? { temperature: info.temperature } : {}) };
      exports.push(fl);
      if (!isGoal) byproducts.push(fl);
    } else if (boundary < -eps) {
      const fl: Flow = { good, display: display(good), kind: kind(good), rate: -boundary };
      if (info?.lo !== undefined) Object.assign(fl, rangeOf(good, info.lo, info.hi!));
      imports.push(fl);
    }
  }

  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const byRate = (a: Flow, b: Flow) => b.rate - a.rate || byName(a.good, b.good) || (a.temperature ?? 0) - (b.temperature ?? 0);
  imports.sort((a, b) => Number(b.good === ELECTRICITY) - Number(a.good === ELECTRICITY) || byRate(a, b));
  exports.sort(byRate);
  byproducts.sort(byRate);

  const fuelList = [...fuel].map(([f, rate]) => ({ fuel: f, rate })).sort((a, b) => Number(a.fuel === FLUID_FUEL) - Number(b.fuel === FLUID_FUEL) || b.rate - a.rate);
  const unmade = goals.filter((x) => x.unmade).map((x) => ({ good: x.good, reason: x.unmade! }));
  const advice = rowAdvice(g, rows, x, doc, goals, imports, byproducts);
  for (const a of advice) warnings.push(a.message);
  return {
    rows: solvedRows, goods: balances, imports, exports, byproducts, goals: goalFlows, unmade, goalSuperseded,
    powerW, drainW, heatW, fuel: fuelList, pollutionPerMinute: pollution, warnings, ...(advice.length ? { advice } : {}),
  };
}
