// Composed row groups (domain C.1): a group of rows is solved first as a block of its own — a module
// making its goal at a reference rate, with everything its rows make covered inside unless it says
// otherwise and the block's pins on its rows applied inside — and then enters the block as one
// synthetic recipe per unit of that reference rate: ingredients = the module's net imports,
// products = its net exports including the goal, cost = its machine-seconds. The block's LP scales
// the unit like any recipe (the module is linear in its rate), and the block makes the module's goal
// (it joins the made set). Afterwards the module's rows, scaled, replace the synthetic one, so
// building counts, power, pollution and fuel stay those of real machines.
import type { BlockDoc, Goal, RowGroup } from '../block/document';
import type { GameIndex, Recipe } from '../gameIndex';
import { FLUID_FUEL } from '../../gamedata/model';
import type { PreparedRow, Term } from './rows';
import { fmt3, isTemperatureFluid } from './rows';
import type { SolvedRow, SolveResult } from './result';
import { wholeBuildings } from './report';
import { beaconsPlaced, beaconsPowerW } from '../effects';

/** The name a composed group's synthetic recipe carries in the block's LP and diagnosis. */
export const groupRecipeName = (group: string) => `pyops-group:${group}`;

export type ComposedGroup = RowGroup & { composed: NonNullable<RowGroup['composed']> };

export interface Module {
  group: ComposedGroup;
  /** The module as a block document of its own. */
  doc: BlockDoc;
}

export interface Composition {
  /** The block without its composed groups' rows and pins; their goals joined its made set. */
  parent: BlockDoc;
  modules: Module[];
  /** Why the groups cannot be composed: the block is broken until they are fixed. */
  errors: string[];
}

export function composeGroups(g: GameIndex, doc: BlockDoc): Composition {
  const composed = (doc.groups ?? []).filter((x): x is ComposedGroup => !!x.composed);
  if (!composed.length) return { parent: doc, modules: [], errors: [] };
  const errors: string[] = [];
  const rowsByRecipe = new Map(doc.recipes.map((r) => [r.recipe, r]));
  const owner = new Map<string, string>();
  const names = new Set<string>();
  for (const grp of composed) {
    if (names.has(grp.name)) errors.push(`two composed groups are named "${grp.name}"`);
    names.add(grp.name);
    for (const recipe of grp.recipes) {
      if (!rowsByRecipe.has(recipe)) errors.push(`composed group "${grp.name}" lists ${recipe}, which is not a row of the block`);
      const other = owner.get(recipe);
      if (other !== undefined && other !== grp.name) errors.push(`${recipe} is in two composed groups ("${other}" and "${grp.name}")`);
      owner.set(recipe, grp.name);
    }
  }
  const modules = composed.map((grp): Module => {
    const members = new Set(grp.recipes);
    const recipes = doc.recipes.filter((r) => members.has(r.recipe));
    const made = grp.composed.made ?? [...new Set(recipes.filter((r) => !r.disabled).flatMap((r) => (g.recipes.get(r.recipe)?.products ?? []).map((p) => p.name)))].sort();
    const goal: Goal = { good: grp.composed.goal.good, rate: grp.composed.goal.rate, ...(grp.composed.goal.temperature !== undefined ? { temperature: grp.composed.goal.temperature } : {}) };
    return {
      group: grp,
      doc: { version: 1, goals: [goal], recipes, made, drains: grp.composed.drains ?? [], pins: doc.pins.filter((p) => members.has(p.recipe)) },
    };
  });
  const parent: BlockDoc = {
    ...doc,
    recipes: doc.recipes.filter((r) => !owner.has(r.recipe)),
    pins: doc.pins.filter((p) => !owner.has(p.recipe)),
    made: [...new Set([...doc.made, ...composed.map((x) => x.composed.goal.good)])],
  };
  return { parent, modules, errors };
}

/** Why a module's solve cannot stand in for its rows (undefined when it can). */
export function moduleFailure(m: Module, r: SolveResult): { status: SolveResult['status']; message: string } | undefined {
  const name = m.group.name;
  if (r.status !== 'optimal') return { status: r.status, message: `The composed group "${name}" cannot be solved on its own: ${r.message ?? r.status}` };
  const unmade = r.unmade.find((u) => u.good === m.group.composed.goal.good);
  if (unmade) return { status: 'error', message: `The composed group "${name}" does not make its goal: ${unmade.reason}.` };
  return undefined;
}

/** The synthetic recipe of a solved module: one execution = the module at its reference rate for a second. */
export function syntheticRow(g: GameIndex, m: Module, r: SolveResult): PreparedRow {
  const terms: Term[] = [];
  const add = (t: Term) => {
    const same = terms.find((x) => x.good === t.good && x.temperature === t.temperature && x.lo === t.lo && x.hi === t.hi && x.amount > 0 === t.amount > 0);
    if (same) same.amount += t.amount;
    else terms.push(t);
  };
  for (const f of r.imports) {
    if (!(f.rate > 0)) continue;
    if (!isTemperatureFluid(g, f.good)) add({ good: f.good, amount: -f.rate });
    else add({ good: f.good, amount: -f.rate, lo: f.minTemperature ?? g.goods.get(f.good)?.defaultTemperature ?? -Infinity, hi: f.maxTemperature ?? Infinity });
  }
  for (const f of [...r.goals, ...r.exports]) {
    if (!(f.rate > 0)) continue;
    if (!isTemperatureFluid(g, f.good)) add({ good: f.good, amount: f.rate });
    else add({ good: f.good, amount: f.rate, temperature: f.temperature ?? g.goods.get(f.good)?.defaultTemperature ?? 0 });
  }
  // Machine-seconds, the LP's cost unit: Σ energy_required × executions per second over the rows.
  const machineSeconds = r.rows.reduce((s, x) => s + Math.max(0, g.recipes.get(x.recipe)?.energy ?? 0) * x.craftsPerSecond, 0);
  const name = groupRecipeName(m.group.name);
  const goal = m.group.composed.goal;
  const recipe: Recipe = {
    name, display: m.group.name, kind: 'real', category: 'pyops-composed-group', categories: ['pyops-composed-group'], energy: machineSeconds,
    enabled: true, hidden: true, allowProductivity: false, maxProductivity: null, allowedEffects: null, allowedModuleCategories: null,
    mainProduct: goal.good, sourceEntity: null, synthetic: true, subgroup: null, order: null, ingredients: [], products: [], unlockedBy: [],
  };
  return {
    docIndex: -1, row: { recipe: name }, recipe, machine: null,
    machineChoice: { rule: 'not-needed', buildable: true, explanation: `composed group: ${m.group.recipes.length} rows solved as one module per ${fmt3(goal.rate)}/s of ${g.displayOf(goal.good)}` },
    effects: null, speed: 0, perBuilding: 0, terms, energy: { kind: 'none' }, fuel: null, fuelMadeHere: false,
    electricW: 0, drainW: 0, beaconW: 0, heatW: 0, pollutionPerMin: 0, fuelPerBuilding: 0,
  };
}

/** A module's row at the block's scale; its beacons are placed (and draw power) whole at that scale. */
function scaleRow(g: GameIndex, x: SolvedRow, s: number, group: string): SolvedRow {
  const buildings = x.buildings * s;
  const beaconPowerW = beaconsPowerW(g, x.beacons, buildings);
  return {
    ...x, group, craftsPerSecond: x.craftsPerSecond * s, buildings, wholeBuildings: wholeBuildings(buildings),
    beaconBuildings: x.beacons.reduce((n, b) => n + beaconsPlaced(b, buildings), 0), beaconPowerW,
    ...(x.fuelPerSecond !== undefined ? { fuelPerSecond: x.fuelPerSecond * s } : {}),
    ...(x.fuelW !== undefined ? { fuelW: x.fuelW * s } : {}),
    ...(x.flows ? { flows: x.flows.map((f) => ({ ...f, rate: f.rate * s })) } : {}),
    powerW: (x.powerW - (x.beaconPowerW ?? 0)) * s + beaconPowerW, pollutionPerMinute: x.pollutionPerMinute * s, ...(x.buffer !== undefined ? { buffer: x.buffer * s } : {}),
  };
}

/**
 * Replaces each module's synthetic row of a solved block by the module's rows at the scale the block
 * runs it (in the document's row order), and adds the module's power, drain, heat, pollution and bought fuel at that scale. The
 * electricity boundary is already right: the module's net draw is a term of its synthetic recipe.
 */
export function expandModules(g: GameIndex, r: SolveResult, solved: Array<{ module: Module; result: SolveResult }>, doc: BlockDoc): SolveResult {
  if (!solved.length) return r;
  const warnings = [...r.warnings];
  for (const { module, result } of solved) for (const w of result.warnings) warnings.push(`Group "${module.group.name}": ${w}`);
  if (r.status !== 'optimal') return { ...r, warnings };
  const byName = new Map(solved.map((x) => [groupRecipeName(x.module.group.name), x]));
  const rows: SolvedRow[] = [];
  const groups: NonNullable<SolveResult['groups']> = [];
  const fuel = new Map(r.fuel.map((f) => [f.fuel, f.rate]));
  // Gross flows: the synthetic recipe's boundary flows give way to the module's own, scaled.
  const goods = new Map(r.goods.map((x) => [x.good, { ...x }]));
  const balance = (good: string) => {
    let b = goods.get(good);
    if (!b) goods.set(good, (b = { good, produced: 0, consumed: 0, net: 0 }));
    return b;
  };
  let { powerW, drainW, heatW, pollutionPerMinute } = r;
  for (const row of r.rows) {
    const hit = byName.get(row.recipe);
    if (!hit) {
      rows.push(row);
      continue;
    }
    const s = row.craftsPerSecond;
    const { module, result } = hit;
    // The module's power is its rows' at this scale (beacons whole), so the rows add up to the block.
    for (const x of result.rows) {
      const scaled = scaleRow(g, x, s, module.group.name);
      rows.push(scaled);
      powerW += scaled.powerW;
    }
    drainW += result.drainW * s;
    heatW += result.heatW * s;
    pollutionPerMinute += result.pollutionPerMinute * s;
    for (const f of result.fuel) fuel.set(f.fuel, (fuel.get(f.fuel) ?? 0) + f.rate * s);
    for (const f of result.imports) balance(f.good).consumed -= f.rate * s;
    for (const f of [...result.goals, ...result.exports]) balance(f.good).produced -= f.rate * s;
    for (const x of result.goods) {
      const b = balance(x.good);
      b.produced += x.produced * s;
      b.consumed += x.consumed * s;
    }
    const goal = module.group.composed.goal;
    groups.push({ name: module.group.name, good: goal.good, referenceRate: goal.rate, scale: s, rate: goal.rate * s });
  }
  // Rows in the document's order, wherever the block's LP placed the module.
  const order = new Map(doc.recipes.map((x, i) => [x.recipe, i]));
  const at = (x: SolvedRow) => order.get(x.recipe) ?? Infinity;
  rows.sort((a, b) => at(a) - at(b));
  const balances = [...goods.values()]
    .map((b) => {
      // Cancelled flows leave rounding dust, never a real negative.
      const produced = Math.max(0, b.produced);
      const consumed = Math.max(0, b.consumed);
      return { good: b.good, produced, consumed, net: produced - consumed };
    })
    .filter((b) => b.produced + b.consumed > 1e-12);
  return {
    ...r, rows, groups, goods: balances, powerW, drainW, heatW, pollutionPerMinute, warnings,
    fuel: [...fuel].map(([f, rate]) => ({ fuel: f, rate })).sort((a, b) => Number(a.fuel === FLUID_FUEL) - Number(b.fuel === FLUID_FUEL) || b.rate - a.rate),
  };
}
