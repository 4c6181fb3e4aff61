// Module auto-fill (domain A): a suggestion for one row's machine modules, never an implicit solve
// input. Pool: placeable (not hidden or excluded), unlocked under the horizon (Now buildable, Target
// available, Future producible at all) and fitting. Productivity allowed and a productivity module in
// the pool ⇒ every slot gets the best one. Otherwise speed modules only where they save a whole
// building: count(k) = base·bs/(bs + k·speed) with base/bs from the row without machine modules
// (beacons and TURD kept); the floor is ⌈count(slots)·0.99⌉ and k is the smallest with
// count(k) ≤ floor·1.01 (1 % hysteresis); the other slots get the best efficiency module.
import type { Availability } from './availability';
import type { BeaconConfig, ModuleCount } from './effects';
import { computeEffects, moduleMisfit } from './effects';
import type { GameIndex, Machine, Module, Recipe } from './gameIndex';

export interface ModuleFillInput {
  recipe: Recipe;
  machine: Machine;
  beacons?: BeaconConfig[];
  turdModules?: string[];
  researchProductivity?: number;
  /** Executions per second the row runs; absent or 0 = an idle row. */
  craftsPerSec?: number;
}

export type FillStrategy = 'productivity' | 'speed+efficiency' | 'efficiency' | 'none';

export interface ModuleFill {
  modules: ModuleCount[];
  strategy: FillStrategy;
  /** Why, in words. */
  reason: string;
  /** Buildings the row needs without machine modules and with the suggestion (speed branch only). */
  buildingsWithout?: number;
  buildingsWith?: number;
}

/** Modules the player could put into this machine for this recipe under the horizon. */
export function modulePool(g: GameIndex, a: Availability, recipe: Recipe, machine: Machine): Module[] {
  return [...g.modules.values()].filter((m) => !m.hidden && !a.isExcluded(m.name) && moduleUnlocked(g, a, m) && !moduleMisfit(m, machine, recipe));
}

function moduleUnlocked(g: GameIndex, a: Availability, m: Module): boolean {
  const makers = g.producersOf(m.name).filter((r) => !g.recipes.get(r)!.synthetic);
  if (a.mode === 'future') return makers.some((r) => {
    const rec = g.recipes.get(r)!;
    const av = a.researchGate(r);
    return (rec.enabled || rec.unlockedBy.length > 0) && (!av.turd || av.turd.state === 'active');
  });
  // The module's recipe gates alone, like any placed item (the verdict on block recipes also asks for a machine).
  return makers.some((r) => (a.mode === 'now' ? a.researchGate(r).buildableNow : a.researchGate(r).availableNow));
}

const byName = (x: Module, y: Module) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0);

export function bestProductivity(pool: Module[]): Module | undefined {
  return pool
    .filter((m) => m.effects.productivity > 0)
    .sort((x, y) => y.effects.productivity - x.effects.productivity || y.effects.speed - x.effects.speed || byName(x, y))[0];
}

export function bestSpeed(pool: Module[]): Module | undefined {
  return pool.filter((m) => m.effects.speed > 0 && m.effects.productivity >= 0).sort((x, y) => y.effects.speed - x.effects.speed || x.effects.consumption - y.effects.consumption || byName(x, y))[0];
}

export function bestEfficiency(pool: Module[]): Module | undefined {
  return pool
    .filter((m) => m.effects.consumption < 0 && m.effects.speed >= 0 && m.effects.productivity >= 0)
    .sort((x, y) => x.effects.consumption - y.effects.consumption || byName(x, y))[0];
}

export function suggestModules(g: GameIndex, a: Availability, input: ModuleFillInput): ModuleFill {
  const { recipe, machine } = input;
  const slots = machine.moduleSlots;
  if (slots <= 0 || !machine.usesModuleEffects) return { modules: [], strategy: 'none', reason: `${machine.display} takes no modules` };
  if (recipe.kind === 'mining' && !a.state.settings.autofill_miners) return { modules: [], strategy: 'none', reason: 'mining rows are not auto-filled; name modules on the row to use them' };
  const pool = modulePool(g, a, recipe, machine);
  if (!pool.length) return { modules: [], strategy: 'none', reason: 'no unlocked module fits this machine and recipe' };

  const prod = recipe.allowProductivity ? bestProductivity(pool) : undefined;
  if (prod) return { modules: [{ name: prod.name, count: slots }], strategy: 'productivity', reason: `productivity is allowed: every slot gets ${prod.display}` };

  const eff = bestEfficiency(pool);
  const fillEff = (k: number): ModuleCount[] => (eff && slots - k > 0 ? [{ name: eff.name, count: slots - k }] : []);
  const speed = bestSpeed(pool);
  const crafts = input.craftsPerSec ?? 0;
  if (!speed || !(crafts > 0)) {
    const why = !speed ? 'no speed module is unlocked' : 'the row is idle (no rate)';
    return eff
      ? { modules: fillEff(0), strategy: 'efficiency', reason: `${why}: every slot gets ${eff.display}` }
      : { modules: [], strategy: 'none', reason: `${why} and no efficiency module is unlocked` };
  }

  const bare = computeEffects(g, { recipe, machine, modules: [], beacons: input.beacons, turdModules: input.turdModules, researchProductivity: input.researchProductivity });
  const bs = bare.speedMult;
  const base = (crafts * Math.max(recipe.energy, 1e-9)) / (machine.speed * bs);
  const s = speed.effects.speed;
  const count = (k: number) => (base * bs) / (bs + k * s);
  const floor = Math.ceil(count(slots) * 0.99);
  let k = slots;
  for (let i = 0; i <= slots; i++) {
    if (count(i) <= floor * 1.01) {
      k = i;
      break;
    }
  }
  const modules: ModuleCount[] = [...(k > 0 ? [{ name: speed.name, count: k }] : []), ...fillEff(k)];
  const strategy: FillStrategy = k > 0 ? 'speed+efficiency' : eff ? 'efficiency' : 'none';
  const reason =
    k > 0
      ? `${k} × ${speed.display} bring the row to ${floor} building${floor === 1 ? '' : 's'} (from ${fmt(base)}); ${eff && slots - k > 0 ? `the other slots get ${eff.display}` : 'no slot left for efficiency'}`
      : `speed modules would not save a whole building (${fmt(base)} needed)${eff ? `: every slot gets ${eff.display}` : ''}`;
  return { modules, strategy, reason, buildingsWithout: round(base), buildingsWith: round(count(k)) };
}

const round = (x: number) => Number(x.toPrecision(4));
const fmt = (x: number) => String(round(x));
