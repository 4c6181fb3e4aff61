// Which modules and beacons one block row can take — for the editor's pickers, for the edits that
// set them and for a module preset applied to a row. The row's machine is the one the solver uses
// (its named machine, else the default rule); a module fits by the rules effects.ts applies
// (categories, beneficial effects allowed, productivity, slots), so nothing offered here is later
// dropped by the solve. Refusals are sentences a player can act on.
import { isUsable, type Availability, type CandidateVerdict } from './availability';
import type { Beacon, GameIndex, Machine, Module, Recipe } from './gameIndex';
import { beaconMisfit, moduleMisfit, type BeaconConfig, type ModuleCount } from './effects';

export interface RowTarget {
  recipe: Recipe;
  machine: Machine;
}

/** The recipe and machine of a row, or why modules cannot be set on it. */
export function rowTarget(g: GameIndex, a: Availability, row: { recipe: string; machine?: string }): RowTarget | string {
  const recipe = g.recipes.get(row.recipe);
  if (!recipe) return `the game data has no recipe ${row.recipe}`;
  const machine = a.chooseMachine(recipe, row.machine).machine;
  if (!machine) return `no machine can run ${recipe.display}, so it takes no modules`;
  return { recipe, machine };
}

export interface ModuleOption {
  module: Module;
  verdict: CandidateVerdict;
}

export interface BeaconOption {
  beacon: Beacon;
  verdict: CandidateVerdict;
  /** Modules this beacon takes (its categories, the effects it transmits). */
  modules: ModuleOption[];
}

/** Player-placeable modules: TURD effects are hidden modules applied by the solve, never chosen. */
function placeable(g: GameIndex, a: Availability): Module[] {
  return [...g.modules.values()].filter((m) => !m.hidden && !a.isExcluded(m.name));
}

function ranked<T extends { verdict: CandidateVerdict }>(xs: T[], key: (x: T) => [string, number, string]): T[] {
  return xs.sort((x, y) => {
    const [cx, tx, nx] = key(x);
    const [cy, ty, ny] = key(y);
    return Number(isUsable(y.verdict)) - Number(isUsable(x.verdict)) || cx.localeCompare(cy) || tx - ty || nx.localeCompare(ny);
  });
}

const moduleKey = (o: ModuleOption): [string, number, string] => [o.module.category, o.module.tier ?? 0, o.module.display];

/** Modules that fit the row's machine and recipe, usable under the horizon first, then by category and tier. */
export function moduleOptions(g: GameIndex, a: Availability, t: RowTarget): ModuleOption[] {
  if (t.machine.moduleSlots <= 0 || !t.machine.usesModuleEffects) return [];
  const fits = placeable(g, a).filter((m) => !moduleMisfit(m, t.machine, t.recipe));
  return ranked(fits.map((module) => ({ module, verdict: a.itemVerdict(module.name) })), moduleKey);
}

/** Beacons that can affect the row's machine, each with the modules it takes. */
export function beaconOptions(g: GameIndex, a: Availability, t: RowTarget): BeaconOption[] {
  if (!t.machine.usesBeaconEffects) return [];
  const modules = placeable(g, a);
  const out = [...g.beacons.values()]
    .filter((b) => !b.hidden && !a.isExcluded(b.name))
    .map((beacon) => ({
      beacon,
      verdict: a.itemVerdict(beacon.item),
      modules: ranked(modules.filter((m) => !beaconMisfit(m, beacon)).map((module) => ({ module, verdict: a.itemVerdict(module.name) })), moduleKey),
    }));
  return ranked(out, (o) => ['', 0, o.beacon.display]);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Why these machine modules cannot go into the row (undefined = they all fit, within the slots). */
export function rowModulesMisfit(g: GameIndex, t: RowTarget, modules: ModuleCount[]): string | undefined {
  if (!modules.length) return undefined;
  const m = t.machine;
  if (m.moduleSlots <= 0 || !m.usesModuleEffects) return `${m.display} takes no modules`;
  for (const mc of modules) {
    const mod = g.modules.get(mc.name);
    if (!mod) return `the game data has no module ${mc.name}`;
    const why = moduleMisfit(mod, m, t.recipe);
    if (why) return `${mod.display} does not fit ${m.display} running ${t.recipe.display}: ${why}`;
  }
  const used = modules.reduce((s, x) => s + x.count, 0);
  if (used > m.moduleSlots) return `${m.display} has ${plural(m.moduleSlots, 'module slot')}, not ${used}`;
  return undefined;
}

/** Why these beacon configurations cannot affect the row (undefined = they can). */
export function rowBeaconsMisfit(g: GameIndex, t: RowTarget, beacons: BeaconConfig[]): string | undefined {
  if (!beacons.length) return undefined;
  if (!t.machine.usesBeaconEffects) return `${t.machine.display} is not affected by beacons`;
  for (const bc of beacons) {
    const b = g.beacons.get(bc.beacon);
    if (!b || b.hidden) return `the game data has no beacon ${bc.beacon} to place`;
    for (const mc of bc.modules) {
      const mod = g.modules.get(mc.name);
      if (!mod || mod.hidden) return `the game data has no module ${mc.name} to put into ${b.display}`;
      const why = beaconMisfit(mod, b);
      if (why) return `${mod.display} cannot go into ${b.display}: ${why}`;
    }
    const used = bc.modules.reduce((s, x) => s + x.count, 0);
    if (used > b.moduleSlots) return `${b.display} has ${plural(b.moduleSlots, 'module slot')}, not ${used}`;
  }
  return undefined;
}

/** The same module named twice becomes one entry with the counts added (a list the editor rebuilt). */
export function mergeModules(modules: ModuleCount[]): ModuleCount[] {
  const out = new Map<string, number>();
  for (const m of modules) if (m.count > 0) out.set(m.name, (out.get(m.name) ?? 0) + m.count);
  return [...out].map(([name, count]) => ({ name, count }));
}
