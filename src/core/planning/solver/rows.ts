// Row preparation (domain C.1): for each enabled row of a block, the machine (the document's pick or
// the one default-machine rule), module/beacon/TURD/research effects, the building speed, and the
// per-execution coefficients the LP uses — ingredients, products under productivity, and the energy
// the building draws as goods of the block (solid fuel and its burnt result, fluid fuel, a filtered or
// temperature-fed fluid, heat). Electricity stays outside the LP: it is kept per building for the
// post-solve totals.
import { isUsable, NO_RESEARCH, notBuildableSuffix, unlockedBy, type Availability, type CandidateVerdict, type DefaultMachine } from '../availability';
import type { MachineChoice } from './result';
import type { Row } from '../block/document';
import type { Effects } from '../effects';
import { computeEffects, productAmount } from '../effects';
import type { EnergyDemand } from '../energy';
import { checkFluidFuel, chooseFuel, energyDemand, pollutionPerMinute, type FuelRule } from '../energy';
import { bareFarmWarning } from '../moduleFill';
import type { GameIndex, Machine, Recipe } from '../gameIndex';
import { FLUID_FUEL, HEAT, VIRTUAL_CATEGORY } from '../../gamedata/model';

/** One coefficient of a row per execution. Fluids carry a temperature (products) or a range (ingredients). */
export interface Term {
  good: string;
  /** Positive = produced, negative = consumed, per execution. */
  amount: number;
  /** Product of a fluid: its exact temperature. */
  temperature?: number;
  /** Ingredient of a fluid: the accepted range (lo may be the fluid's default, hi may be Infinity). */
  lo?: number;
  hi?: number;
  /** Injected by the building's energy source rather than listed by the recipe. */
  energy?: boolean;
}

export interface PreparedRow extends Omit<StaticRow, 'warnings'> {
  docIndex: number;
  row: Row;
  /** Some row of the block makes this row's fuel (it is then not listed as bought fuel). */
  fuelMadeHere: boolean;
  /** Beacon W per building (already divided by sharing). */
  beaconW: number;
}

export interface PreparedBlock {
  rows: PreparedRow[];
  warnings: string[];
  /** Recipes the document names that the game data does not have (a broken block). */
  missingRecipes: string[];
}

// Pure lookups repeated on every solve: the machine per recipe and named machine (fixed for one
// Availability, i.e. one planning state).
const chosenMachines = new WeakMap<Availability, Map<string, DefaultMachine>>();

function chooseMachineOf(availability: Availability, recipe: Recipe, named: string | undefined): DefaultMachine {
  let m = chosenMachines.get(availability);
  if (!m) chosenMachines.set(availability, (m = new Map()));
  const key = `${recipe.name}\u0000${named ?? ''}`;
  let d = m.get(key);
  if (!d) m.set(key, (d = availability.chooseMachine(recipe, named)));
  return d;
}

/** The solid fuel a burner row burns (the one choice, see chooseFuel); null for other machines. */
function rowFuel(g: GameIndex, availability: Availability, row: Row, recipe: Recipe, madeHere: ReadonlySet<string>): { fuel: string | null; rule: FuelRule } | null {
  if (recipe.categories.includes(VIRTUAL_CATEGORY)) return null;
  const machine = chooseMachineOf(availability, recipe, row.machine).machine;
  if (machine?.energySource !== 'burner') return null;
  return chooseFuel(g, machine, { picked: row.fuel, favorite: availability.state.settings.favorite_fuel, madeHere: (f) => madeHere.has(f) });
}

/** A number in solver messages: whole from 100 up, else three significant digits. */
export const fmt3 = (x: number): string => (Math.abs(x) >= 100 ? x.toFixed(0) : Number(x.toPrecision(3)).toString());

/** The reactor neighbour bonus of an x×y layout: 1 + b·(4 − 2/x − 2/y). */
export function reactorMultiplier(bonus: number, layout: { x: number; y: number } | undefined): number {
  if (!layout || !(bonus > 0)) return 1;
  return 1 + bonus * (4 - 2 / layout.x - 2 / layout.y);
}

function fluidRange(g: GameIndex, name: string, minTemp: number | null, maxTemp: number | null): { lo: number; hi: number } {
  const f = g.goods.get(name);
  return { lo: minTemp ?? f?.defaultTemperature ?? -Infinity, hi: maxTemp ?? Infinity };
}

/** Real (non-pseudo) fluids carry temperatures; energy pseudo-goods never do. */
export function isTemperatureFluid(g: GameIndex, name: string): boolean {
  const f = g.goods.get(name);
  return !!f && f.kind === 'fluid' && !f.synthetic;
}

function addTerm(terms: Term[], t: Term): void {
  const same = terms.find((x) => x.good === t.good && x.temperature === t.temperature && x.lo === t.lo && x.hi === t.hi && (x.amount > 0) === (t.amount > 0));
  if (same) same.amount += t.amount;
  else terms.push(t);
}

/** What a row is regardless of the rest of the block (memoised per planning state and row config). */
interface StaticRow {
  recipe: Recipe;
  machine: Machine | null;
  machineChoice: MachineChoice;
  effects: Effects | null;
  /** Crafting speed of one building after modules and beacons (0 without a building). */
  speed: number;
  /** Executions per second of one building (speed / craft time); 0 when the row has no building. */
  perBuilding: number;
  /** Ingredients and products per execution, before energy. */
  terms: Term[];
  energy: EnergyDemand;
  fuel: string | null;
  /** Electric W per building (active use incl. consumption effects, plus drain), and drain alone. */
  electricW: number;
  drainW: number;
  /** Heat W per building (heat machines). */
  heatW: number;
  pollutionPerMin: number;
  /** Fuel burnt per building and second (solid or fluid units; MJ for the fluid-fuel pool). */
  fuelPerBuilding: number;
  warnings: string[];
}

// Row preparation is a pure function of (game index, planning state, row): one Availability stands
// for one planning state, so a re-solve after an edit re-prepares only the rows that changed.
const staticRows = new WeakMap<Availability, Map<string, StaticRow>>();
const STATIC_ROWS_MAX = 5000;

function staticRow(g: GameIndex, availability: Availability, row: Row, recipe: Recipe, turd: string[], fuelPick: ReturnType<typeof rowFuel>): StaticRow {
  let memo = staticRows.get(availability);
  if (!memo) staticRows.set(availability, (memo = new Map()));
  const key = `${JSON.stringify(row)}\u0000${fuelPick?.fuel ?? ''}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const out = prepareStatic(g, availability, row, recipe, turd, fuelPick);
  if (memo.size >= STATIC_ROWS_MAX) memo.clear();
  memo.set(key, out);
  return out;
}

function prepareStatic(g: GameIndex, availability: Availability, row: Row, recipe: Recipe, turd: string[], fuelPick: ReturnType<typeof rowFuel>): StaticRow {
  const warnings: string[] = [];
  const virtual = recipe.categories.includes(VIRTUAL_CATEGORY);
  let machine: Machine | null = null;
  let choice: MachineChoice;
  if (virtual) choice = { rule: 'not-needed', explanation: 'needs no building', buildable: true };
  else {
    const d = chooseMachineOf(availability, recipe, row.machine);
    machine = d.machine;
    choice = { rule: d.rule, explanation: d.explanation + notBuildableSuffix(d), buildable: d.buildable, ...(d.needs ? { needs: d.needs.technology } : {}) };
    if (row.machine && d.rule !== 'user') {
      const m = g.machines.get(row.machine);
      warnings.push(
        m
          ? `${m.display} cannot run ${recipe.display}; using ${machine?.display ?? 'no machine'} (${d.explanation}).`
          : `Unknown machine ${row.machine} for ${recipe.display}; using ${machine?.display ?? 'no machine'} (${d.explanation}).`,
      );
    }
    if (d.warning) warnings.push(`${recipe.display}: ${d.warning}`);
    if (!machine) {
      warnings.push(
        d.rule === 'by-hand'
          ? `${recipe.display} is crafted by hand only (no building can run it): the block counts no building for it.`
          : `No machine can run ${recipe.display}; it is solved as if it needed none.`,
      );
    }
  }

  let effects: Effects | null = null;
  let speed = 0;
  let perBuilding = 0;
  if (machine) {
    effects = computeEffects(g, {
      recipe, machine, modules: row.modules, beacons: row.beacons, turdModules: turd, researchProductivity: availability.productivityBonus(recipe),
    });
    for (const r of effects.rejected) {
      warnings.push(r.used !== undefined ? `${recipe.display}: ${r.used} of ${r.asked} ${r.name} used — ${r.reason}.` : `${recipe.display}: ${r.name} ignored — ${r.reason}.`);
    }
    const bareFarm = bareFarmWarning(g, recipe, machine, effects.modulesPlaced, availability);
    if (bareFarm) warnings.push(bareFarm);
    const locked = lockedPlacements(g, availability, row);
    if (locked) warnings.push(`${recipe.display}: ${locked}`);
    speed = machine.speed * effects.speedMult;
    perBuilding = recipe.energy > 0 ? speed / recipe.energy : 0;
  } else if ((row.modules?.length ?? 0) > 0 || (row.beacons?.length ?? 0) > 0) {
    warnings.push(`${recipe.display} has no building; its modules and beacons are ignored.`);
  }
  const prodMult = effects?.prodMult ?? 1;
  const consMult = effects?.consMult ?? 1;

  const terms: Term[] = [];
  for (const ing of recipe.ingredients) {
    if (!(ing.amount > 0)) continue;
    if (isTemperatureFluid(g, ing.name)) {
      let { lo, hi } = fluidRange(g, ing.name, ing.minTemp, ing.maxTemp);
      const pick = row.fluidTemperatures?.[ing.name];
      if (pick !== undefined) {
        if (pick >= lo && pick <= hi) lo = hi = pick;
        else warnings.push(`${recipe.display}: ${ing.name} at ${fmt3(pick)}° is outside its accepted range; the range is kept.`);
      }
      addTerm(terms, { good: ing.name, amount: -ing.amount, lo, hi });
    } else addTerm(terms, { good: ing.name, amount: -ing.amount });
  }
  const heatMult = machine ? reactorMultiplier(machine.neighbourBonus ?? 0, row.reactorLayout) : 1;
  if (row.reactorLayout && !(machine?.neighbourBonus && machine.neighbourBonus > 0)) {
    warnings.push(`${recipe.display}: the reactor layout is ignored (${machine?.display ?? 'no machine'} has no neighbour bonus).`);
  }
  for (const p of recipe.products) {
    let amount = productAmount(p, prodMult);
    if (p.name === HEAT) amount *= heatMult;
    if (!(amount > 0)) continue;
    if (isTemperatureFluid(g, p.name)) {
      const t = p.temperature ?? g.goods.get(p.name)?.defaultTemperature ?? 0;
      addTerm(terms, { good: p.name, amount, temperature: t });
    } else addTerm(terms, { good: p.name, amount });
  }

  let fuel: string | null = null;
  let energy: EnergyDemand = { kind: 'none' };
  let electricW = 0;
  let drainW = 0;
  let heatW = 0;
  let fuelPerBuilding = 0;
  if (machine && perBuilding > 0) {
    if (machine.energySource === 'burner') {
      const picked = fuelPick ?? { fuel: null, rule: 'none' as const };
      if (row.fuel && picked.rule !== 'picked') warnings.push(`${machine.display} cannot burn ${row.fuel}; using ${picked.fuel ?? 'no fuel'}.`);
      fuel = picked.fuel;
      if (!fuel) warnings.push(`${machine.display} has no fuel it can burn; its fuel is not counted.`);
    } else if (row.fuel) {
      const c = checkFluidFuel(g, machine, row.fuel);
      if ('fluid' in c) fuel = c.fluid;
      else warnings.push(`${recipe.display}: ${c.error}; the fuel ${row.fuel} is ignored.`);
    } else if (machine.energySource === 'fluid' && machine.burnsFluid && !machine.fluidFuelFilter) {
      // A fluid burner without a fuel of its own burns the favourite fluid, when the player set one.
      const favourite = availability.state.settings.favorite_fluid_fuel;
      const c = favourite ? checkFluidFuel(g, machine, favourite) : undefined;
      if (c && 'fluid' in c) fuel = c.fluid;
    }
    energy = energyDemand(g, machine, consMult, fuel);
    switch (energy.kind) {
      case 'electric':
        electricW = energy.watts + energy.drainW;
        drainW = energy.drainW;
        break;
      case 'burner':
        fuelPerBuilding = energy.itemsPerSec;
        break;
      case 'fluid-fuel':
        fuelPerBuilding = energy.mjPerSec;
        fuel = FLUID_FUEL;
        break;
      case 'fluid-filtered':
        fuelPerBuilding = energy.perSec;
        fuel = energy.fluid;
        if (energy.throttled) {
          // The fuel cannot feed full speed: fewer crafts per building, so the LP counts more buildings.
          const t = energy.throttled;
          speed *= t.speedFactor;
          perBuilding *= t.speedFactor;
          warnings.push(
            `${recipe.display}: ${machine.display} would need ${fmt3(t.needPerSec)}/s of ${energy.fluid} but burns at most ${fmt3(t.maxPerSec)}/s, so it runs at ${fmt3(100 * t.speedFactor)}% speed (more buildings are counted) — pick a fluid with a higher fuel value, or fewer speed modules.`,
          );
        }
        break;
      case 'fluid-heat':
        fuelPerBuilding = energy.perSec;
        fuel = energy.fluid;
        if (!energy.fluid) warnings.push(`${machine.display} is heated by a fluid the data does not name; its feed is not counted.`);
        break;
      case 'heat':
        heatW = energy.watts;
        break;
      default:
        break;
    }
  }
  return {
    recipe, machine, machineChoice: choice, effects, speed, perBuilding, terms, energy, fuel, electricW, drainW, heatW,
    // Emissions follow the energy a building uses: a throttled fluid burner pollutes in proportion.
    pollutionPerMin: machine ? pollutionPerMinute(machine, 1, consMult, effects?.pollutionMult ?? 1) * (energy.kind === 'fluid-filtered' ? (energy.throttled?.speedFactor ?? 1) : 1) : 0, fuelPerBuilding, warnings,
  };
}

/** A fluid drawn as energy: with its full range when the fluid carries temperatures. */
function fluidEnergyTerm(g: GameIndex, fluid: string, amount: number): Term {
  if (!isTemperatureFluid(g, fluid)) return { good: fluid, amount, energy: true };
  const { lo, hi } = fluidRange(g, fluid, null, null);
  return { good: fluid, amount, lo, hi, energy: true };
}

export function prepareRows(g: GameIndex, availability: Availability, docRows: Row[]): PreparedBlock {
  const warnings: string[] = [];
  const missingRecipes: string[] = [];
  const seen = new Set<string>();
  const enabled: Array<{ row: Row; docIndex: number; recipe: Recipe }> = [];
  docRows.forEach((row, docIndex) => {
    if (row.disabled) return;
    const recipe = g.recipes.get(row.recipe);
    if (!recipe) {
      missingRecipes.push(row.recipe);
      return;
    }
    if (seen.has(recipe.name)) {
      warnings.push(`Recipe ${recipe.name} is listed twice; only its first row is used.`);
      return;
    }
    seen.add(recipe.name);
    enabled.push({ row, docIndex, recipe });
  });

  // Goods some row's recipe makes: solid fuel the block makes is not reported as bought.
  const madeHere = new Set<string>();
  for (const { recipe } of enabled) for (const p of recipe.products) if (p.amount * p.probability > 0) madeHere.add(p.name);
  // A fuel the block makes for its burners: made by a row and no row's ingredient. A chain that lists
  // a fuel recipe burns what it makes; an intermediate made for another row (Py's wood for treated
  // wood) is not scaled up to feed the burners too — that would change what the chain takes in.
  const taken = new Set<string>();
  for (const { recipe } of enabled) for (const i of recipe.ingredients) taken.add(i.name);
  const madeToBurn = new Set([...madeHere].filter((x) => !taken.has(x)));

  const turd = availability.activeTurdModules();
  const rows: PreparedRow[] = [];
  for (const { row, docIndex, recipe } of enabled) {
    const st = staticRow(g, availability, row, recipe, turd, rowFuel(g, availability, row, recipe, madeToBurn));
    for (const w of st.warnings) warnings.push(w);
    // The memoised terms are shared while no energy term joins them (terms are read-only downstream).
    let terms = st.terms;
    let copied = false;
    const add = (t: Term) => {
      if (!copied) {
        terms = st.terms.map((x) => ({ ...x }));
        copied = true;
      }
      addTerm(terms, t);
    };
    // Energy the LP sizes, per execution (a building works 1 / perBuilding seconds per execution).
    const perExec = st.perBuilding > 0 ? 1 / st.perBuilding : 0;
    const e = st.energy;
    switch (e.kind) {
      case 'burner':
        // Bought or made, the fuel and its burnt result are flows of the LP like any ingredient and
        // product: the burnt result counts toward goals, made goods and drains, and a fuel nothing
        // makes shows as an import (domain C.1; the game burns 1 fuel into 1 burnt result).
        if (e.fuel && e.itemsPerSec > 0) {
          add({ good: e.fuel, amount: -e.itemsPerSec * perExec, energy: true });
          if (e.burntResult) add({ good: e.burntResult, amount: e.itemsPerSec * perExec, energy: true });
        }
        break;
      case 'fluid-fuel':
        if (e.mjPerSec > 0) add({ good: FLUID_FUEL, amount: -e.mjPerSec * perExec, energy: true });
        break;
      case 'fluid-filtered':
        if (e.perSec > 0) add(fluidEnergyTerm(g, e.fluid, -e.perSec * perExec));
        break;
      case 'fluid-heat':
        if (e.fluid && e.perSec > 0) {
          add(fluidEnergyTerm(g, e.fluid, -e.perSec * perExec));
        }
        break;
      case 'heat':
        if (e.mjPerSec > 0) add({ good: HEAT, amount: -e.mjPerSec * perExec, energy: true });
        break;
      default:
        break;
    }
    rows.push({
      docIndex, row, recipe, machine: st.machine, machineChoice: st.machineChoice, effects: st.effects, speed: st.speed, perBuilding: st.perBuilding,
      terms, energy: e, fuel: st.fuel, fuelMadeHere: !!st.fuel && madeHere.has(st.fuel), electricW: st.electricW, drainW: st.drainW, beaconW: st.effects?.beaconPowerW ?? 0, heatW: st.heatW,
      pollutionPerMin: st.pollutionPerMin, fuelPerBuilding: st.fuelPerBuilding,
    });
  }
  return { rows, warnings, missingRecipes };
}

/**
 * Goods the rows burn or draw as energy, as the solver prepares them: a burner's solid fuel (the one
 * fuel choice), a named or filtered fluid, a heating fluid. A block that makes one of them covers it
 * inside, like an ingredient another row makes.
 */
export function energyInputs(g: GameIndex, availability: Availability, docRows: Row[]): string[] {
  const out = new Set<string>();
  for (const r of prepareRows(g, availability, docRows).rows) for (const t of r.terms) if (t.energy && t.amount < 0) out.add(t.good);
  return [...out].sort();
}

/** What a locked verdict waits for, in the words the machine warnings use. */
function unlockWords(g: GameIndex, v: CandidateVerdict): string {
  const n = v.needs;
  if (n?.turd) return `it needs the TURD branch ${g.displayOf(n.turd.branch)} [${n.turd.branch}]`;
  const tech = n?.research?.[0];
  return tech ? unlockedBy(g.displayOf(tech), tech, n?.packs) : NO_RESEARCH;
}

/**
 * The row's modules and beacons that cannot be built under the horizon, said once for the row: a
 * draft or an edit may name them (a preset, the model, the player), and the player must not learn
 * it only when the factory is built.
 */
function lockedPlacements(g: GameIndex, a: Availability, row: Pick<Row, 'modules' | 'beacons'>): string | undefined {
  const items = new Set<string>();
  for (const m of row.modules ?? []) items.add(m.name);
  for (const b of row.beacons ?? []) {
    const beacon = g.beacons.get(b.beacon);
    if (beacon?.item) items.add(beacon.item);
    for (const m of b.modules) items.add(m.name);
  }
  const locked = [...items].map((item) => ({ item, v: a.itemVerdict(item) })).filter(({ v }) => !isUsable(v));
  if (!locked.length) return undefined;
  return `${locked.map(({ item, v }) => `${g.displayOf(item)} [${item}] (${unlockWords(g, v)})`).join('; ')} ${locked.length === 1 ? 'is' : 'are'} not buildable under the ${a.mode} horizon.`;
}
