// Module auto-fill (domain A): a suggestion for one row's machine modules, never an implicit solve
// input. Pool: placeable (not hidden or excluded), unlocked under the horizon (Now buildable, Target
// available, Future producible at all) and fitting. A farm (a machine whose speed comes from its own
// family of modules: Py's plants and animals) ⇒ every slot gets the fastest farm module. Productivity
// allowed and a productivity module in the pool ⇒ every slot gets the best one. Otherwise speed
// modules only where they save a whole building: count(k) = base·bs/(bs + k·speed) with base/bs from
// the row without machine modules (beacons and TURD kept); the floor is ⌈count(slots)·0.99⌉ and k is
// the smallest with count(k) ≤ floor·1.01 (1 % hysteresis); the other slots get the best efficiency
// module.
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

export type FillStrategy = 'farm' | 'productivity' | 'speed+efficiency' | 'efficiency' | 'none';

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

/** Module categories of the game's own modules, which any building family may take. */
const GENERAL_CATEGORIES = new Set(['speed', 'productivity', 'efficiency', 'effectivity', 'quality']);

/**
 * A farm module: it adds speed and belongs to one building family (its own category, as Py's moss,
 * bhoddos or auog are), where the game's speed modules are general. Such a building is designed to
 * run on them — a moss farm makes 1/16 of its speed without its moss.
 */
export function isFarmModule(m: Module): boolean {
  return !m.hidden && m.effects.speed > 0 && !GENERAL_CATEGORIES.has(m.category);
}

const fastestFirst = (x: Module, y: Module) => y.effects.speed - x.effects.speed || x.effects.consumption - y.effects.consumption || byName(x, y);
const farmCache = new WeakMap<GameIndex, Map<string, Module[]>>();

/** The farm modules that fit this machine running this recipe, whatever their unlock state, fastest first. */
export function farmModules(g: GameIndex, recipe: Recipe, machine: Machine): Module[] {
  if (machine.moduleSlots <= 0 || !machine.usesModuleEffects) return [];
  let memo = farmCache.get(g);
  if (!memo) farmCache.set(g, (memo = new Map()));
  const key = `${recipe.name}\u0000${machine.name}`;
  let hit = memo.get(key);
  if (!hit) memo.set(key, (hit = [...g.modules.values()].filter((m) => isFarmModule(m) && !moduleMisfit(m, machine, recipe)).sort(fastestFirst)));
  return hit;
}

/**
 * Said on a farm row that holds none of its farm modules: it is solved at the machine's bare speed,
 * which for a Py farm is a small fraction of what it is built for. With the horizon given, a farm
 * whose modules are all still locked is told what it waits for instead of being told to place them.
 */
export function bareFarmWarning(g: GameIndex, recipe: Recipe, machine: Machine, placed: ModuleCount[], a?: Availability): string | undefined {
  const farm = farmModules(g, recipe, machine);
  if (!farm.length || placed.some((p) => farm.some((m) => m.name === p.name))) return undefined;
  const bare = `${recipe.display}: ${machine.display} holds none of its farm modules (${farmNames(farm)}), so it runs at its bare speed ${fmt(machine.speed)}`;
  if (a && !farm.some((m) => !a.isExcluded(m.name) && moduleUnlocked(g, a, m))) return `${bare}; none of them is unlocked under the ${a.mode} horizon yet.`;
  return `${bare}; put them in its ${machine.moduleSlots} module slot${machine.moduleSlots === 1 ? '' : 's'}.`;
}

const farmNames = (farm: Module[]) => farm.slice(0, 3).map((m) => m.display).join(', ') + (farm.length > 3 ? ', …' : '');

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
  const farm = farmModules(g, recipe, machine);
  const bestFarm = farm.find((m) => pool.includes(m));
  if (bestFarm) return { modules: [{ name: bestFarm.name, count: slots }], strategy: 'farm', reason: `${machine.display} takes its speed from farm modules: every slot gets ${bestFarm.display}` };
  // A farm with none of its modules unlocked still gets what else fits, and says what it lacks.
  const bare = farm.length ? `; none of the farm modules of ${machine.display} (${farmNames(farm)}) is unlocked, so it runs at its bare speed ${fmt(machine.speed)}` : '';
  const fill = suggestFrom(g, a, input, pool);
  return bare ? { ...fill, reason: fill.reason + bare } : fill;
}

function suggestFrom(g: GameIndex, a: Availability, input: ModuleFillInput, pool: Module[]): ModuleFill {
  const { recipe, machine } = input;
  const slots = machine.moduleSlots;
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
