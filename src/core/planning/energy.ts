// How a building is powered and what that costs per second at full activity: electricity (with
// drain), solid fuel (burnt results), fluid fuel (a pooled MJ good or one filtered fluid), hot fluid
// fed by temperature, or heat. The solver turns these into LP coefficients or post-solve totals.
import type { GameIndex, Good, Machine } from './gameIndex';
import { FLUID_FUEL, HEAT } from '../gamedata/model';

export type EnergyDemand =
  | { kind: 'electric'; watts: number; drainW: number }
  | { kind: 'burner'; fuel: string | null; itemsPerSec: number; burntResult: string | null; watts: number }
  | { kind: 'fluid-fuel'; good: typeof FLUID_FUEL; mjPerSec: number; watts: number }
  | {
      kind: 'fluid-filtered';
      fluid: string;
      /** Units burnt per second (at most the source's fluid_usage_per_tick × 60). */
      perSec: number;
      /** Energy the fluid delivers (W). */
      watts: number;
      /** The fuel is too weak for full speed: the building runs at `speedFactor` of its speed. */
      throttled?: { needPerSec: number; maxPerSec: number; speedFactor: number };
    }
  | { kind: 'fluid-heat'; fluid: string | null; perSec: number; watts: number }
  | { kind: 'heat'; good: typeof HEAT; mjPerSec: number; watts: number }
  | { kind: 'none' };

/** Preferred default fuels, in order; otherwise the median-energy allowed fuel. */
export const PREFERRED_FUELS = ['coal', 'coke', 'solid-fuel', 'charcoal', 'wood', 'biomass', 'petroleum-gas', 'natural-gas'];

const fuelLists = new WeakMap<GameIndex, Map<string, Good[]>>();

/** Solid fuels the machine's burner accepts, by fuel value (per game index and machine: every solve asks). */
export function fuelsFor(g: GameIndex, machine: Machine): Good[] {
  if (machine.energySource !== 'burner') return [];
  let m = fuelLists.get(g);
  if (!m) fuelLists.set(g, (m = new Map()));
  const key = `${machine.name}\u0000${machine.fuelCategories.join('\u0000')}`;
  let out = m.get(key);
  if (!out) {
    const cats = new Set(machine.fuelCategories);
    out = [...g.goods.values()]
      .filter((x) => x.kind === 'item' && x.fuelCategory && cats.has(x.fuelCategory) && (x.fuelValueJ ?? 0) > 0)
      .sort((a, b) => (a.fuelValueJ ?? 0) - (b.fuelValueJ ?? 0) || a.name.localeCompare(b.name));
    m.set(key, out);
  }
  return out;
}

export type FuelRule = 'picked' | 'favorite' | 'made-here' | 'preferred' | 'median' | 'none';

/** Of some fuels: the first in PREFERRED_FUELS, else the median by fuel value. */
function preferred(pool: Good[]): { fuel: string | null; rule: 'preferred' | 'median' | 'none' } {
  for (const name of PREFERRED_FUELS) if (pool.some((f) => f.name === name)) return { fuel: name, rule: 'preferred' };
  if (!pool.length) return { fuel: null, rule: 'none' };
  return { fuel: pool[Math.floor((pool.length - 1) / 2)].name, rule: 'median' };
}

/**
 * The one solid-fuel choice of a burner row, shared by the solver, drafts, chainStatus and
 * calcRecipe: the row's own pick, else the favourite fuel, else a fuel the block itself makes for
 * burning (`madeHere`: made by a row and no row's ingredient, so a chain that lists its fuel recipe
 * burns what it makes), else the preferred list, else the median.
 */
export function chooseFuel(
  g: GameIndex,
  machine: Machine,
  opts: { picked?: string | null; favorite?: string | null; madeHere?: (fuel: string) => boolean } = {},
): { fuel: string | null; rule: FuelRule } {
  const all = fuelsFor(g, machine);
  if (opts.picked && all.some((f) => f.name === opts.picked)) return { fuel: opts.picked, rule: 'picked' };
  if (opts.favorite && all.some((f) => f.name === opts.favorite)) return { fuel: opts.favorite, rule: 'favorite' };
  const made = opts.madeHere ? all.filter((f) => opts.madeHere!(f.name)) : [];
  if (made.length) return { fuel: preferred(made).fuel, rule: 'made-here' };
  return preferred(all);
}

/** Fluids with a fuel value (what a fluid-burning machine without a filter can burn), highest value first. */
export function burnableFluids(g: GameIndex): Good[] {
  return [...g.goods.values()]
    .filter((x) => x.kind === 'fluid' && !x.synthetic && (x.fuelValueJ ?? 0) > 0)
    .sort((a, b) => (b.fuelValueJ ?? 0) - (a.fuelValueJ ?? 0) || a.name.localeCompare(b.name));
}

/**
 * Checks a fuel a row names for a machine with a fluid energy source. Only a fluid burner can be
 * given one (its fuel value sets the flow); a filtered burner accepts its filter fluid only; a fluid
 * without a fuel value cannot be burnt. `error` says what to do instead.
 */
export function checkFluidFuel(g: GameIndex, machine: Machine, named: string): { fluid: string } | { error: string } {
  const unset = 'leave fuel unset to use the pooled fluid fuel (pyops-fluid-fuel)';
  if (machine.energySource !== 'fluid' || !machine.burnsFluid) return { error: `${machine.display} does not burn fluid fuel; remove the fuel` };
  if (machine.fluidFuelFilter) {
    return named === machine.fluidFuelFilter ? { fluid: named } : { error: `${machine.display} burns only ${machine.fluidFuelFilter}; remove the fuel or name ${machine.fluidFuelFilter}` };
  }
  const f = g.goods.get(named);
  if (f?.kind === 'fluid' && !f.synthetic && (f.fuelValueJ ?? 0) > 0) return { fluid: f.name };
  const some = burnableFluids(g).slice(0, 4).map((x) => x.name);
  const what = !f ? `${named} is not a good` : f.kind !== 'fluid' ? `${named} is not a fluid` : `${named} has no fuel value`;
  return { error: `${machine.display} burns fluids by their fuel value and ${what}; name a fluid with a fuel value${some.length ? ` (e.g. ${some.join(', ')})` : ''} or ${unset}` };
}

/** Energy use of one building at full activity with the given consumption multiplier; `fuel` is the
 *  solid fuel of a burner, or the fluid a fluid burner burns (checked with checkFluidFuel). */
export function energyDemand(g: GameIndex, machine: Machine, consMult: number, fuel?: string | null): EnergyDemand {
  const watts = machine.energyUsageW * consMult;
  switch (machine.energySource) {
    case 'electric':
      return { kind: 'electric', watts, drainW: machine.drainW };
    case 'burner': {
      const f = fuel ? g.goods.get(fuel) : undefined;
      const fv = f?.fuelValueJ ?? 0;
      return { kind: 'burner', fuel: f ? f.name : null, itemsPerSec: fv > 0 ? watts / fv : 0, burntResult: f?.burntResult ?? null, watts };
    }
    case 'fluid': {
      if (machine.burnsFluid && !machine.fluidFuelFilter) {
        // A named fluid is burnt by its own fuel value (any temperature); otherwise the MJ pool.
        const named = fuel ? g.goods.get(fuel) : undefined;
        const fv = named?.kind === 'fluid' ? (named.fuelValueJ ?? 0) : 0;
        if (named && fv > 0) return burnt(machine, named.name, fv, watts);
        return { kind: 'fluid-fuel', good: FLUID_FUEL, mjPerSec: watts / 1e6, watts };
      }
      if (machine.burnsFluid && machine.fluidFuelFilter) {
        const fv = g.goods.get(machine.fluidFuelFilter)?.fuelValueJ ?? 0;
        return fv > 0 ? burnt(machine, machine.fluidFuelFilter, fv, watts) : { kind: 'fluid-filtered', fluid: machine.fluidFuelFilter, perSec: 0, watts };
      }
      // Heated by the fluid's temperature: a fixed flow at full speed.
      return { kind: 'fluid-heat', fluid: machine.fluidFuelFilter, perSec: (machine.fluidFuelPerSec ?? 0) * consMult, watts };
    }
    case 'heat':
      return { kind: 'heat', good: HEAT, mjPerSec: watts / 1e6, watts };
    default:
      return { kind: 'none' };
  }
}

/**
 * A fluid burnt by its fuel value. With scale_fluid_usage the source draws what the machine needs,
 * but never more than fluid_usage_per_tick: a fuel too weak to deliver the machine's power at that
 * flow slows the machine down in the same ratio (2.0 FluidEnergySource). The data keeps the cap only
 * for fluid sources; every burning one in the supported dumps scales its usage.
 */
function burnt(machine: Machine, fluid: string, fuelValueJ: number, watts: number): EnergyDemand {
  const need = watts / fuelValueJ;
  const max = machine.fluidFuelPerSec;
  if (max && need > max * (1 + 1e-9)) {
    return { kind: 'fluid-filtered', fluid, perSec: max, watts: max * fuelValueJ, throttled: { needPerSec: need, maxPerSec: max, speedFactor: max / need } };
  }
  return { kind: 'fluid-filtered', fluid, perSec: need, watts };
}

/** Pollution per minute of `count` buildings (fuel emission multipliers taken as 1). */
export function pollutionPerMinute(machine: Machine, count: number, consMult: number, pollutionMult: number): number {
  return machine.pollutionPerMin * count * consMult * pollutionMult;
}
