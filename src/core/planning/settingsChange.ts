// Changing the planning settings from one validated request — the assistant's settings tool. Every
// name is checked against the game data first (unknown ones get a "did you mean"), then everything
// is written as ONE undoable action, so a request that touches the horizon, favourites and research
// is undone in one step. Research follows the game's tree: marking a technology researched marks its
// prerequisites too, and unmarking one unmarks what requires it. TURD branches are chosen, not
// researched, so they are never marked here. Module presets are created, renamed and removed through
// the same core functions the block editor uses, inside the same undoable action.
import { z } from 'zod';
import type { Project } from '../db/project';
import type { GameIndex } from './gameIndex';
import type { PlanningContext } from './context';
import { globToRegExp } from './availability';
import { sciencePacks } from './makeClosure';
import { burnableFluids } from './energy';
import { QueryError, suggest } from './queries/errors';
import { findNames, normalizeName, type NameEntry } from './queries/names';
import { readPlanningState, RESEARCH_MODES, setResearched, TARGET_SCOPES, writeSettings, type PlanningSettings, type TargetScope } from './settings';
import { planningContext } from './context';
import { beaconConfigSchema, moduleCountSchema } from './block/document';
import { checkedPresetData, createPreset, deletePreset, findPresetByName, listPresets, presetNameSchema, PresetError, renamePreset, type ModulePreset } from './modulePresets';

const name = z.string().trim().min(1, 'must be a non-empty internal name').max(200);
const addRemove = (what: string) =>
  z.object({ add: z.array(name).max(200).default([]).describe(`${what} to add`), remove: z.array(name).max(200).default([]).describe(`${what} to remove`) });

export const changeSettingsInput = z
  .object({
    horizon: z
      .enum(RESEARCH_MODES)
      .optional()
      .describe('planning horizon: now = researched + researchable with the packs the user produces; target = up to horizonTarget; future = everything'),
    horizonTarget: name.optional().describe('good or technology to plan up to (horizon "target"); required with horizon "target" when none is set yet'),
    horizonScope: z
      .enum(TARGET_SCOPES)
      .optional()
      .describe('what horizon "target" covers: "make" = "able to make X": the research to research the target AND make it (its ingredient chains and their machines) — the default for a science pack; "research" = only the prerequisite closure of the technology that unlocks the target (the default otherwise). A new horizonTarget without it takes the default'),
    sciencePacks: z.array(name).max(50).optional().describe('science packs the user produces continuously — replaces the list (horizon "now" uses it)'),
    researched: addRemove('technologies')
      .optional()
      .describe('completed research: add also marks every prerequisite researched; remove also unmarks what requires it. A game sync replaces this list.'),
    favoriteMachines: z
      .array(
        z.object({
          machine: name.nullable().describe('machine to prefer; null clears the favourite of the category'),
          category: name.optional().describe('crafting category; omitted = every category the machine crafts'),
        }),
      )
      .max(50)
      .optional()
      .describe('favourite machine per crafting category: drafts use it when buildable instead of the fastest buildable machine'),
    favoriteFuel: name.nullable().optional().describe('solid fuel burner machines use when they can burn it (null = the default choice)'),
    favoriteFluidFuel: name.nullable().optional().describe('fluid that fluid-burning machines burn by its fuel value when a row names none (null = the pooled fluid fuel, counted in MJ)'),
    excludedRecipes: addRemove('recipe names, or globs like "ee-*" over recipe name, category or subgroup,')
      .optional()
      .describe('recipes hidden from searches, options and drafts'),
    miningProductivity: z
      .union([z.number().min(0).max(100_000), z.literal('research')])
      .optional()
      .describe('mining productivity bonus in percent (20 = +20 %), or "research" to take it from researched technologies'),
    modulePresets: z
      .object({
        add: z
          .array(
            z.object({
              name: presetNameSchema,
              modules: z.array(moduleCountSchema).max(16).default([]).describe('machine modules, e.g. [{name:"speed-module-2",count:2}]'),
              beacons: z.array(beaconConfigSchema).max(4).default([]).describe('beacons per machine with the modules in each'),
            }),
          )
          .max(20)
          .default([]),
        rename: z.array(z.object({ from: name, to: presetNameSchema })).max(20).default([]),
        remove: z.array(name).max(50).default([]).describe('preset names'),
      })
      .optional()
      .describe('named sets of machine modules and beacons (drafts use one by name as a row\'s or block\'s "preset"); removed first, then renamed, then added'),
  })
  .refine((i) => Object.values(i).some((v) => v !== undefined), { message: 'give at least one setting to change' })
  .refine((i) => (i.favoriteMachines ?? []).every((f) => f.machine !== null || f.category), { message: 'favoriteMachines: a null machine needs its category', path: ['favoriteMachines'] });

export type ChangeSettingsInput = z.output<typeof changeSettingsInput>;

export interface SettingChange {
  setting: string;
  before: unknown;
  after: unknown;
}

/** A target horizon as it now stands: what it covers, and what "able to make" added. */
export interface HorizonReport {
  target: string;
  /** The technology that unlocks the target (null: made from the start, nothing to research). */
  targetTech: string | null;
  scope: TargetScope;
  /** Scope "make": the technologies added to the target technology's prerequisite closure so the target can be made, in prerequisite order. */
  addedTechnologies?: string[];
  /** Scope "make": goods on the target's chains no research makes (imports). */
  unmakeable?: string[];
  /** Technologies the horizon reaches beyond the completed research. */
  technologies: number;
}

export interface ChangeSettingsResult {
  ok: true;
  changes: SettingChange[];
  /** Set when the horizon or its target changed and the horizon is "target". */
  horizon?: HorizonReport;
  /** Prerequisites marked researched with the ones asked for, and dependants unmarked with them. */
  research?: { added: string[]; alsoAddedPrerequisites: string[]; removed: string[]; alsoRemovedDependants: string[] };
  settings: SettingsView;
  note: string;
}

export interface SettingsView {
  horizon: PlanningSettings['research_mode'];
  horizonTarget: string | null;
  /** What horizon "target" covers (effective: the automatic default resolved). */
  horizonScope: TargetScope | null;
  sciencePacks: string[];
  researchedCount: number;
  favoriteMachines: Record<string, string>;
  favoriteFuel: string | null;
  favoriteFluidFuel: string | null;
  excludedRecipes: string[];
  miningProductivity: PlanningSettings['mining_productivity'];
  /** Named sets of machine modules and beacons the user applies to block rows (made in the block editor). */
  modulePresets: Array<Pick<ModulePreset, 'name' | 'modules' | 'beacons'>>;
  modulePresetsTruncated?: true;
}

const PRESETS_SHOWN = 20;

export function settingsView(p: Project): SettingsView {
  const { settings: s, researched } = readPlanningState(p);
  const presets = listPresets(p);
  return {
    horizon: s.research_mode,
    horizonTarget: s.horizon_target,
    horizonScope: s.research_mode === 'target' ? scopeOf(p, s) : null,
    sciencePacks: s.available_science_packs,
    researchedCount: researched.size,
    favoriteMachines: s.favorite_machines,
    favoriteFuel: s.favorite_fuel,
    favoriteFluidFuel: s.favorite_fluid_fuel,
    excludedRecipes: s.exclusions,
    miningProductivity: s.mining_productivity,
    modulePresets: presets.slice(0, PRESETS_SHOWN).map(({ name, modules, beacons }) => ({ name, modules, beacons })),
    ...(presets.length > PRESETS_SHOWN ? { modulePresetsTruncated: true as const } : {}),
  };
}

export { sciencePacks };

/**
 * Solid fuels: items with a fuel value whose category some burner machine of the game data burns
 * (Space Age antimatter or a Py drill head is "fuel" only for a machine that takes its category).
 */
export function solidFuels(g: GameIndex): string[] {
  const burnt = new Set<string>();
  for (const m of g.machines.values()) if (m.energySource === 'burner' && !(m.hidden && !m.item)) for (const c of m.fuelCategories) burnt.add(c);
  return [...g.goods.values()].filter((x) => x.kind === 'item' && x.fuelCategory && burnt.has(x.fuelCategory) && (x.fuelValueJ ?? 0) > 0).map((x) => x.name);
}

/** The target scope in effect: the stored one, else the default for the target (needs the game data). */
function scopeOf(p: Project, s: PlanningSettings): TargetScope {
  if (s.horizon_target_scope) return s.horizon_target_scope;
  try {
    return planningContext(p).availability.targetScope ?? 'research';
  } catch {
    return 'research';
  }
}

/** The target horizon after a change, read from the planning context the next tool call uses. */
function horizonReport(p: Project): HorizonReport | undefined {
  const a = planningContext(p).availability;
  const target = a.state.settings.horizon_target;
  if (a.mode !== 'target' || !target) return undefined;
  const scope = a.targetScope ?? 'research';
  const techs = [...(a.targetClosure ?? [])].filter((t) => !a.state.researched.has(t)).length;
  return {
    target, targetTech: a.targetTech, scope,
    ...(scope === 'make' ? { addedTechnologies: a.targetAdded.techs } : {}),
    ...(a.targetAdded.unmakeable.length ? { unmakeable: a.targetAdded.unmakeable } : {}),
    technologies: techs,
  };
}

/** Technologies of a target horizon's `make` scope named to the model; the rest are counted. */
const ADDED_SHOWN = 25;

/**
 * The result as the model reads it: a full-Py science pack's `make` scope adds hundreds of technologies,
 * so the model reads the first ones (prerequisite order) and how many more; a draft's or plan's
 * `research` lists every technology still to research for what it plans, in order.
 */
export function changeSettingsForModel(r: ChangeSettingsResult): unknown {
  const added = r.horizon?.addedTechnologies;
  if (!r.horizon || !added || added.length <= ADDED_SHOWN) return r;
  return {
    ...r,
    horizon: {
      ...r.horizon,
      addedTechnologies: added.slice(0, ADDED_SHOWN),
      addedTechnologiesMore: added.length - ADDED_SHOWN,
      addedTechnologiesNote: `the first ${ADDED_SHOWN} of ${added.length} in prerequisite order; a draft's or plan's research lists the ones its blocks need`,
    },
  };
}

/** Up to 3 of `names` closest to `query`. */
function closest(names: Iterable<string>, query: string): string[] {
  const entries: NameEntry[] = [...names].map((n) => ({ name: n, display: n, kind: 'name', hidden: false, weight: 0, nName: normalizeName(n), nDisplay: normalizeName(n), words: n.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean) }));
  return findNames(entries, query)
    .slice(0, 3)
    .map((h) => h.entry.name);
}

const didYouMean = (s: string[]) => (s.length ? ` Did you mean ${s.join(', ')}?` : '');
const list = (xs: string[], n = 12) => `${xs.slice(0, n).join(', ')}${xs.length > n ? ', …' : ''}`;

function requireTechnology(pc: PlanningContext, t: string): void {
  if (pc.g.technologies.has(t)) return;
  const s = suggest(pc, 'technology', t);
  throw new QueryError(`no technology named '${t}'.${didYouMean(s)} researchPath takes a good or recipe and names the technology that unlocks it.`, s);
}

type PresetsInput = NonNullable<ChangeSettingsInput['modulePresets']>;

/**
 * Module preset changes checked against the presets as they will be after the earlier steps of the
 * same request (remove, then rename, then add) and against the game data; `apply` writes them
 * (inside the caller's undoable write). Nothing is written when a check fails.
 */
function presetPlan(pc: PlanningContext, p: Project, input: PresetsInput): { change?: SettingChange; apply: () => void } {
  const { g } = pc;
  const before = listPresets(p);
  let names = before.map((x) => x.name);
  const known = () => (names.length ? `the project's presets: ${list(names.map((n) => `"${n}"`))}` : 'the project has no module presets');
  const existing = (n: string, what: string) => {
    const hit = findPresetByName(before, n);
    if (!hit || !names.includes(hit.name)) throw new QueryError(`no module preset named "${n}" to ${what}; ${known()}.`);
    return hit;
  };
  const free = (n: string) => {
    const clash = names.find((x) => x.toLowerCase() === n.toLowerCase());
    if (clash) throw new QueryError(`a module preset named "${clash}" exists already; choose another name (or remove or rename it in the same call).`);
  };
  const steps: Array<() => void> = [];
  for (const n of input.remove) {
    const hit = existing(n, 'remove');
    names = names.filter((x) => x !== hit.name);
    steps.push(() => deletePreset(p, hit.id));
  }
  for (const r of input.rename) {
    const hit = existing(r.from, 'rename');
    names = names.filter((x) => x !== hit.name);
    free(r.to);
    names.push(r.to);
    steps.push(() => void renamePreset(p, hit.id, r.to));
  }
  for (const a of input.add) {
    free(a.name);
    try {
      checkedPresetData(g, a);
    } catch (err) {
      if (!(err instanceof PresetError)) throw err;
      throw new QueryError(`module preset "${a.name}": ${err.message}${presetHint(pc, a)}`);
    }
    names.push(a.name);
    steps.push(() => void createPreset(p, g, a));
  }
  const after = [...names].sort((x, y) => x.localeCompare(y));
  const was = before.map((x) => x.name);
  const same = steps.length === 0 || (input.add.length === 0 && input.remove.length === 0 && input.rename.every((r) => findPresetByName(before, r.from)!.name === r.to));
  return { ...(same ? {} : { change: { setting: 'modulePresets', before: was, after } }), apply: () => steps.forEach((s) => s()) };
}

/** "Did you mean" for the module and beacon names of a refused preset. */
function presetHint(pc: PlanningContext, a: PresetsInput['add'][number]): string {
  const { g } = pc;
  const unknownModule = [...a.modules, ...a.beacons.flatMap((b) => b.modules)].map((m) => m.name).find((m) => !g.modules.get(m) || g.modules.get(m)!.hidden);
  if (unknownModule) return `${didYouMean(suggest(pc, 'module', unknownModule))} Module names are internal names (recipeInfo lists the modules a recipe takes).`;
  const unknownBeacon = a.beacons.map((b) => b.beacon).find((b) => !g.beacons.get(b) || g.beacons.get(b)!.hidden);
  if (unknownBeacon) return didYouMean(suggest(pc, 'beacon', unknownBeacon));
  return '';
}

/**
 * Validate `input` against the game data and the current settings, then write it as one undoable
 * action. Throws a QueryError (nothing written) for the first unknown or impossible value.
 */
export function changePlanningSettings(pc: PlanningContext, p: Project, input: ChangeSettingsInput): ChangeSettingsResult {
  const { g } = pc;
  const state = readPlanningState(p);
  const cur = state.settings;
  const patch: Partial<PlanningSettings> = {};
  const changes: SettingChange[] = [];
  const change = <K extends keyof PlanningSettings>(key: K, setting: string, after: PlanningSettings[K]) => {
    patch[key] = after;
    if (JSON.stringify(cur[key]) !== JSON.stringify(after)) changes.push({ setting, before: cur[key], after });
  };

  if (input.horizonTarget !== undefined) {
    const t = input.horizonTarget;
    if (!g.goods.has(t) && !g.technologies.has(t)) {
      const s = suggest(pc, 'good', t);
      throw new QueryError(`no good or technology named '${t}' for horizonTarget.${didYouMean(s)} Call searchGoods for the good's internal name.`, s);
    }
    change('horizon_target', 'horizonTarget', t);
    // A new target takes its own default scope unless one is given with it.
    if (t !== cur.horizon_target && input.horizonScope === undefined) change('horizon_target_scope', 'horizonScope', null);
  }
  if (input.horizonScope !== undefined) change('horizon_target_scope', 'horizonScope', input.horizonScope);
  if (input.horizon !== undefined) {
    if (input.horizon === 'target' && !(patch.horizon_target ?? cur.horizon_target)) {
      throw new QueryError(`horizon "target" needs a horizonTarget: the good (or technology) to plan up to.`);
    }
    change('research_mode', 'horizon', input.horizon);
  }
  if (input.sciencePacks !== undefined) {
    const packs = sciencePacks(g);
    for (const x of input.sciencePacks) {
      if (!packs.includes(x)) throw new QueryError(`'${x}' is not a science pack of this game data.${didYouMean(closest(packs, x))} Its packs: ${list(packs)}.`, closest(packs, x));
    }
    change('available_science_packs', 'sciencePacks', [...new Set(input.sciencePacks)]);
  }

  const fav = { ...cur.favorite_machines };
  for (const f of input.favoriteMachines ?? []) {
    if (f.category !== undefined && !g.machinesByCategory.has(f.category)) {
      const s = closest(g.machinesByCategory.keys(), f.category);
      throw new QueryError(`no crafting category named '${f.category}'.${didYouMean(s)} recipeInfo shows a recipe's category; or omit category to favour the machine for all it crafts.`, s);
    }
    if (f.machine === null) {
      delete fav[f.category!];
      continue;
    }
    const m = g.machines.get(f.machine);
    if (!m) {
      const s = suggest(pc, 'machine', f.machine);
      throw new QueryError(`no machine named '${f.machine}'.${didYouMean(s)} recipeInfo lists the machines of a recipe.`, s);
    }
    if (f.category !== undefined && !m.categories.includes(f.category)) {
      const able = g.machinesByCategory.get(f.category) ?? [];
      throw new QueryError(`${m.display} [${m.name}] does not craft category '${f.category}' (it crafts ${list(m.categories)}); machines for ${f.category}: ${list(able)}.`, able.slice(0, 3));
    }
    if (!m.categories.length) throw new QueryError(`${m.display} [${m.name}] has no crafting categories, so it cannot be a favourite.`);
    for (const c of f.category !== undefined ? [f.category] : m.categories) fav[c] = m.name;
  }
  if (input.favoriteMachines !== undefined) change('favorite_machines', 'favoriteMachines', fav);

  if (input.favoriteFuel !== undefined) {
    const f = input.favoriteFuel;
    if (f !== null) {
      const fuels = solidFuels(g);
      if (!fuels.includes(f)) {
        const s = closest(fuels, f);
        const what = g.goods.has(f) ? `'${f}' is not a solid fuel` : `no item named '${f}'`;
        throw new QueryError(`${what}; favoriteFuel takes a solid fuel burner machines can burn.${didYouMean(s)} Fuels: ${list(fuels)}.`, s);
      }
    }
    change('favorite_fuel', 'favoriteFuel', f);
  }

  if (input.favoriteFluidFuel !== undefined) {
    const f = input.favoriteFluidFuel;
    if (f !== null) {
      const fluids = burnableFluids(g).map((x) => x.name);
      if (!fluids.includes(f)) {
        const s = closest(fluids, f);
        const what = g.goods.has(f) ? `'${f}' is not a fluid with a fuel value` : `no fluid named '${f}'`;
        throw new QueryError(`${what}; favoriteFluidFuel takes a fluid that fluid-burning machines can burn.${didYouMean(s)} Fluids: ${list(fluids)}.`, s);
      }
    }
    change('favorite_fluid_fuel', 'favoriteFluidFuel', f);
  }

  if (input.excludedRecipes !== undefined) {
    const { add, remove } = input.excludedRecipes;
    let next = [...cur.exclusions];
    for (const x of remove) {
      if (!next.includes(x)) throw new QueryError(`'${x}' is not in the excluded list (${list(next) || 'empty'}); nothing to remove.`);
      next = next.filter((e) => e !== x);
    }
    for (const x of add) {
      if (x.includes('*') || x.includes('?')) {
        const re = globToRegExp(x);
        const hit = [...g.recipes.values()].some((r) => [r.name, r.category, r.subgroup].some((k) => k && re.test(k)));
        if (!hit) throw new QueryError(`the pattern '${x}' matches no recipe name, category or subgroup; check it with searchGoods/recipeOptions.`);
      } else if (!g.recipes.has(x)) {
        const s = suggest(pc, 'recipe', x);
        throw new QueryError(`no recipe named '${x}'.${didYouMean(s)} Use a recipe's internal name (from recipeOptions), or a glob with *.`, s);
      }
      if (!next.includes(x)) next.push(x);
    }
    change('exclusions', 'excludedRecipes', next);
  }

  if (input.miningProductivity !== undefined) {
    const mp = input.miningProductivity;
    change('mining_productivity', 'miningProductivity', mp === 'research' ? { source: 'research', percent: cur.mining_productivity.percent } : { source: 'manual', percent: mp });
  }

  let research: ChangeSettingsResult['research'];
  let researched: Set<string> | undefined;
  if (input.researched !== undefined) {
    const { add, remove } = input.researched;
    for (const t of [...add, ...remove]) requireTechnology(pc, t);
    // TURD branches are chosen, not researched (a branch is a factory-wide commitment of its own).
    const turd = add.filter((t) => g.technologies.get(t)!.isTurd);
    if (turd.length) throw new QueryError(`${turd.join(', ')} ${turd.length === 1 ? 'is a TURD choice' : 'are TURD choices'}, not research: the user selects a branch with "PyOps: Select TURD Branch…" (turdChoices lists them). Mark its master researched instead.`);
    const both = add.filter((t) => remove.includes(t));
    if (both.length) throw new QueryError(`researched: ${both.join(', ')} is both added and removed; give it once.`);
    researched = new Set(state.researched);
    const before = new Set(researched);
    for (const t of add) for (const x of pc.availability.closure(t)) if (!g.technologies.get(x)?.isTurd) researched.add(x);
    // Whatever requires a removed technology cannot stay researched (the game has no such state).
    const gone = new Set(remove);
    for (const t of researched) if ([...pc.availability.closure(t)].some((x) => gone.has(x))) gone.add(t);
    for (const t of gone) researched.delete(t);
    const added = [...researched].filter((t) => !before.has(t));
    const removed = [...before].filter((t) => !researched!.has(t));
    research = {
      added: added.filter((t) => add.includes(t)).sort(),
      alsoAddedPrerequisites: added.filter((t) => !add.includes(t)).sort(),
      removed: removed.filter((t) => remove.includes(t)).sort(),
      alsoRemovedDependants: removed.filter((t) => !remove.includes(t)).sort(),
    };
    if (added.length || removed.length) changes.push({ setting: 'researched', before: before.size, after: researched.size });
  }

  const presets = input.modulePresets ? presetPlan(pc, p, input.modulePresets) : undefined;
  if (presets?.change) changes.push(presets.change);

  if (changes.length) {
    const label = `Change planning settings (${changes.map((c) => c.setting).join(', ')})`;
    p.write(
      () => {
        if (Object.keys(patch).length) writeSettings(p, patch, label);
        if (researched) setResearched(p, [...researched], label);
        if (presets) presets.apply();
      },
      { undo: label },
    );
  }
  const horizonChanged = changes.some((c) => c.setting === 'horizon' || c.setting === 'horizonTarget' || c.setting === 'horizonScope');
  const horizon = horizonChanged ? horizonReport(p) : undefined;
  return {
    ok: true,
    changes,
    ...(horizon ? { horizon } : {}),
    ...(research ? { research } : {}),
    settings: settingsView(p),
    note: changes.length ? 'Saved as one undoable change; blocks re-solve under the new settings.' : 'Nothing changed: every value was already set.',
  };
}
