// The imported game data as in-memory lookups: goods, recipes with their ingredients and products,
// machines by category, modules, beacons, technologies and the TURD structure. Every planning
// query and the solver read this instead of SQL; it is built once per project and game-data
// fingerprint (tens of milliseconds for a Py dump) and cached.
import type { Database } from '../db/sqlite';
import { all, scalar } from '../db/sqlite';
import { HAND_CRAFTING_META } from '../db/schema/gamedata';
import type { Project } from '../db/project';
import { codecSource, indexCacheKey, readIndexCache, writeIndexCache } from './indexCache';
import { indexLoaderHash } from './indexLoaderHash';
import type { EnergySourceType, GoodKind, MachineKind, RecipeKind } from '../gamedata/model';
import { packedRows } from '../gamedata/packed';

export interface Good {
  name: string;
  kind: GoodKind;
  /** Prototype type for items (item, tool, module, …); 'fluid' for fluids. */
  type: string;
  display: string;
  subgroup: string | null;
  order: string | null;
  stackSize: number | null;
  fuelValueJ: number | null;
  fuelCategory: string | null;
  burntResult: string | null;
  spoilResult: string | null;
  spoilTicks: number | null;
  placeResult: string | null;
  defaultTemperature: number | null;
  maxTemperature: number | null;
  heatCapacityJ: number | null;
  hidden: boolean;
  /** Energy pseudo-goods (electricity, heat, fluid fuel). */
  synthetic: boolean;
}

export interface Ingredient {
  kind: GoodKind;
  name: string;
  amount: number;
  minTemp: number | null;
  maxTemp: number | null;
}

export interface Product {
  kind: GoodKind;
  name: string;
  /** Expected amount per craft before probability: fixed amount or the mean of min/max. */
  amount: number;
  probability: number;
  temperature: number | null;
  ignoredByProductivity: number;
}

export interface Recipe {
  name: string;
  display: string;
  kind: RecipeKind;
  category: string;
  categories: string[];
  energy: number;
  enabled: boolean;
  hidden: boolean;
  allowProductivity: boolean;
  maxProductivity: number | null;
  allowedEffects: string[] | null;
  allowedModuleCategories: string[] | null;
  mainProduct: string | null;
  sourceEntity: string | null;
  synthetic: boolean;
  subgroup: string | null;
  order: string | null;
  ingredients: Ingredient[];
  products: Product[];
  /** Technologies that unlock it. */
  unlockedBy: string[];
}

export interface Machine {
  name: string;
  display: string;
  kind: MachineKind;
  prototypeType: string;
  speed: number;
  width: number | null;
  height: number | null;
  moduleSlots: number;
  /** W at full speed; already divided by effectivity for burner and fluid sources. */
  energyUsageW: number;
  drainW: number;
  energySource: EnergySourceType | null;
  effectivity: number;
  pollutionPerMin: number;
  allowedEffects: string[] | null;
  allowedModuleCategories: string[] | null;
  baseEffect: Partial<Record<EffectName, number>> | null;
  usesModuleEffects: boolean;
  usesBeaconEffects: boolean;
  neighbourBonus: number | null;
  burnsFluid: boolean;
  fluidFuelFilter: string | null;
  fluidFuelPerSec: number | null;
  heatMaxTemperature: number | null;
  item: string | null;
  fixedRecipe: string | null;
  hidden: boolean;
  categories: string[];
  fuelCategories: string[];
}

export type EffectName = 'speed' | 'productivity' | 'consumption' | 'pollution' | 'quality';
export const EFFECTS: readonly EffectName[] = ['speed', 'productivity', 'consumption', 'pollution', 'quality'];

export interface Module {
  name: string;
  display: string;
  category: string;
  tier: number | null;
  hidden: boolean;
  effects: Record<EffectName, number>;
  /** Recipes it is limited to (1.x style); null = no limitation. */
  limitation: Set<string> | null;
}

export interface Beacon {
  name: string;
  display: string;
  effectivity: number;
  moduleSlots: number;
  energyUsageW: number;
  allowedEffects: string[] | null;
  allowedModuleCategories: string[] | null;
  profile: number[] | null;
  /** Which beacons count toward the profile index: this prototype's (`same_type`) or all (`total`). */
  counter: BeaconCounter;
  item: string | null;
  hidden: boolean;
}

export type BeaconCounter = 'same_type' | 'total';

export interface Technology {
  name: string;
  display: string;
  unitCount: number | null;
  unitFormula: string | null;
  unitTime: number | null;
  trigger: Record<string, unknown> | null;
  enabled: boolean;
  hidden: boolean;
  upgrade: boolean;
  maxLevel: string | null;
  isTurd: boolean;
  prerequisites: string[];
  unlocks: string[];
  ingredients: Array<{ pack: string; amount: number }>;
  /** Recipe productivity research ('' = mining productivity). */
  productivity: Array<{ recipe: string; modifier: number }>;
  bonuses: Array<{ type: string; modifier: number | null }>;
}

export interface TurdBranch {
  name: string;
  master: string;
  gate: string;
  modules: string[];
  /** Recipes the branch grants, without its hidden module recipes. */
  grants: string[];
  /** old recipe → new recipe */
  replacements: Map<string, string>;
}

export interface Belt { name: string; display: string; itemsPerSecond: number; item: string | null; kind: 'belt' | 'loader' }
export interface Inserter {
  name: string; display: string; rotationSpeed: number; extensionSpeed: number; pickup: [number, number] | null;
  dropoff: [number, number] | null; bulk: boolean; stackSizeBonus: number; item: string | null;
}

export class GameIndex {
  readonly goods = new Map<string, Good>();
  readonly recipes = new Map<string, Recipe>();
  readonly machines = new Map<string, Machine>();
  readonly modules = new Map<string, Module>();
  readonly beacons = new Map<string, Beacon>();
  readonly technologies = new Map<string, Technology>();
  readonly turdMasters = new Map<string, string[]>();
  readonly turdBranches = new Map<string, TurdBranch>();
  readonly belts: Belt[] = [];
  readonly inserters: Inserter[] = [];
  readonly labs = new Map<string, { researchingSpeed: number; inputs: string[] }>();
  readonly resources = new Map<string, { name: string; display: string; category: string; miningTime: number; requiredFluid: string | null; fluidAmount: number | null; infinite: boolean }>();

  /** good → recipes producing it (positive expected output) / consuming it. */
  readonly producers = new Map<string, string[]>();
  readonly consumers = new Map<string, string[]>();
  /** crafting category → machines */
  readonly machinesByCategory = new Map<string, string[]>();
  /** recipe → TURD branch that grants it */
  readonly recipeBranch = new Map<string, string>();
  /** old recipe → [{branch, new}] */
  readonly replacedBy = new Map<string, Array<{ branch: string; recipe: string }>>();
  /** item → machine or beacon it places */
  readonly placedBy = new Map<string, string>();
  /** Recipe categories the player character crafts by hand (empty when the data does not say). */
  readonly handCrafting = new Set<string>();
  /**
   * recipe → its category and subgroup (those it has): what an exclusion glob matches besides the
   * name. A field of its own, so a search over goods (each name also checked as a recipe's) reads
   * this instead of decoding every recipe from the snapshot.
   */
  readonly recipeTags = new Map<string, string[]>();

  constructor(readonly fingerprint: string) {}

  good(name: string): Good | undefined {
    return this.goods.get(name);
  }

  displayOf(name: string): string {
    return this.goods.get(name)?.display ?? this.recipes.get(name)?.display ?? this.machines.get(name)?.display ?? this.technologies.get(name)?.display ?? name;
  }

  producersOf(good: string): string[] {
    return this.producers.get(good) ?? [];
  }

  consumersOf(good: string): string[] {
    return this.consumers.get(good) ?? [];
  }

  /** Machines able to run a recipe (by any of its categories), fixed-recipe machines respected. */
  machinesFor(recipe: Recipe): Machine[] {
    const out = new Map<string, Machine>();
    for (const c of recipe.categories) {
      for (const m of this.machinesByCategory.get(c) ?? []) {
        const mm = this.machines.get(m)!;
        if (mm.fixedRecipe && mm.fixedRecipe !== recipe.name) continue;
        out.set(m, mm);
      }
    }
    return [...out.values()];
  }

  /** Crafted by the player's hand: one of its categories is a hand-crafting one. */
  handCraftable(recipe: Recipe): boolean {
    return recipe.categories.some((c) => this.handCrafting.has(c));
  }

  get isEmpty(): boolean {
    // recipeTags first: the loader fills it for every recipe, and it is a small section to decode.
    return this.recipeTags.size === 0 && this.recipes.size === 0;
  }
}

const list = <T>(s: string | null): T | null => (s ? (JSON.parse(s) as T) : null);

export function loadGameIndex(db: Database, fingerprint: string): GameIndex {
  const g = new GameIndex(fingerprint);
  for (const r of all<Record<string, any>>(db, 'SELECT * FROM gd.items')) {
    g.goods.set(r.name, {
      name: r.name, kind: 'item', type: r.type, display: r.display ?? r.name, subgroup: r.subgroup, order: r.order_key,
      stackSize: r.stack_size, fuelValueJ: r.fuel_value_j, fuelCategory: r.fuel_category, burntResult: r.burnt_result,
      spoilResult: r.spoil_result, spoilTicks: r.spoil_ticks, placeResult: r.place_result, defaultTemperature: null,
      maxTemperature: null, heatCapacityJ: null, hidden: !!r.hidden, synthetic: false,
    });
  }
  for (const r of all<Record<string, any>>(db, 'SELECT * FROM gd.fluids')) {
    g.goods.set(r.name, {
      name: r.name, kind: 'fluid', type: 'fluid', display: r.display ?? r.name, subgroup: r.subgroup, order: r.order_key,
      stackSize: null, fuelValueJ: r.fuel_value_j, fuelCategory: null, burntResult: null, spoilResult: null, spoilTicks: null,
      placeResult: null, defaultTemperature: r.default_temperature, maxTemperature: r.max_temperature, heatCapacityJ: r.heat_capacity_j,
      hidden: !!r.hidden, synthetic: !!r.synthetic,
    });
  }
  // Each parent table is read once, for its own columns and for the lists packed into them.
  const recipeRows = all<Record<string, any>>(db, 'SELECT * FROM gd.recipes');
  const machineRows = all<Record<string, any>>(db, 'SELECT * FROM gd.crafting_machines');
  const techRows = all<Record<string, any>>(db, 'SELECT * FROM gd.technologies');
  const ingredients = new Map<string, Ingredient[]>();
  for (const r of packedRows<Record<string, any>>(recipeRows, 'recipe_ingredients')) {
    const l = ingredients.get(r.recipe) ?? [];
    l.push({ kind: r.kind, name: r.name, amount: r.amount, minTemp: r.min_temp, maxTemp: r.max_temp });
    ingredients.set(r.recipe, l);
  }
  const products = new Map<string, Product[]>();
  for (const r of packedRows<Record<string, any>>(recipeRows, 'recipe_products')) {
    const l = products.get(r.recipe) ?? [];
    const amount = r.amount ?? ((r.amount_min ?? 0) + (r.amount_max ?? 0)) / 2;
    l.push({ kind: r.kind, name: r.name, amount, probability: r.probability, temperature: r.temperature, ignoredByProductivity: r.ignored_by_productivity ?? 0 });
    products.set(r.recipe, l);
  }
  const categories = new Map<string, string[]>();
  for (const r of packedRows<{ recipe: string; category: string }>(recipeRows, 'recipe_categories')) {
    const l = categories.get(r.recipe) ?? [];
    l.push(r.category);
    categories.set(r.recipe, l);
  }
  const techUnlocks = packedRows<{ tech: string; recipe: string }>(techRows, 'tech_unlocks');
  const unlockedBy = new Map<string, string[]>();
  for (const r of techUnlocks) push(unlockedBy, r.recipe, r.tech);
  for (const r of recipeRows) {
    const rec: Recipe = {
      name: r.name, display: r.display ?? r.name, kind: r.kind, category: r.category, categories: categories.get(r.name) ?? [r.category],
      energy: r.energy_required, enabled: !!r.enabled, hidden: !!r.hidden, allowProductivity: !!r.allow_productivity,
      maxProductivity: r.maximum_productivity, allowedEffects: list(r.allowed_effects), allowedModuleCategories: list(r.allowed_module_categories),
      mainProduct: r.main_product, sourceEntity: r.source_entity, synthetic: !!r.synthetic, subgroup: r.subgroup, order: r.order_key,
      ingredients: ingredients.get(r.name) ?? [], products: products.get(r.name) ?? [], unlockedBy: unlockedBy.get(r.name) ?? [],
    };
    g.recipes.set(r.name, rec);
    g.recipeTags.set(rec.name, rec.subgroup ? [rec.category, rec.subgroup] : [rec.category]);
    for (const p of rec.products) if (p.amount * p.probability > 0) push(g.producers, p.name, rec.name);
    for (const i of rec.ingredients) if (i.amount > 0) push(g.consumers, i.name, rec.name);
  }
  for (const l of g.producers.values()) dedupe(l);
  for (const l of g.consumers.values()) dedupe(l);

  const mcats = new Map<string, string[]>();
  for (const r of packedRows<{ machine: string; category: string }>(machineRows, 'machine_categories')) push(mcats, r.machine, r.category);
  const fcats = new Map<string, string[]>();
  for (const r of packedRows<{ machine: string; fuel_category: string }>(machineRows, 'machine_fuel_categories')) push(fcats, r.machine, r.fuel_category);
  for (const r of machineRows) {
    const m: Machine = {
      name: r.name, display: r.display ?? r.name, kind: r.kind, prototypeType: r.prototype_type, speed: r.crafting_speed,
      width: r.width, height: r.height, moduleSlots: r.module_slots, energyUsageW: r.energy_usage_w, drainW: r.drain_w,
      energySource: r.energy_source, effectivity: r.effectivity, pollutionPerMin: r.pollution_per_min,
      allowedEffects: list(r.allowed_effects), allowedModuleCategories: list(r.allowed_module_categories), baseEffect: list(r.base_effect),
      usesModuleEffects: !!r.uses_module_effects, usesBeaconEffects: !!r.uses_beacon_effects, neighbourBonus: r.neighbour_bonus,
      burnsFluid: !!r.burns_fluid, fluidFuelFilter: r.fluid_fuel_filter, fluidFuelPerSec: r.fluid_fuel_per_sec,
      heatMaxTemperature: r.heat_max_temperature, item: r.item, fixedRecipe: r.fixed_recipe, hidden: !!r.hidden,
      categories: mcats.get(r.name) ?? [], fuelCategories: fcats.get(r.name) ?? [],
    };
    g.machines.set(m.name, m);
    for (const c of m.categories) push(g.machinesByCategory, c, m.name);
    if (m.item) g.placedBy.set(m.item, m.name);
  }
  for (const it of g.goods.values()) if (it.placeResult && !g.placedBy.has(it.name) && g.machines.has(it.placeResult)) g.placedBy.set(it.name, it.placeResult);
  // Of several items placing one machine, the last in good order names it.
  const placingItem = new Map<string, string>();
  for (const it of g.goods.values()) if (it.placeResult) placingItem.set(it.placeResult, it.name);
  for (const m of g.machines.values()) if (!m.item && placingItem.has(m.name)) m.item = placingItem.get(m.name)!;

  // Modules sharing a limitation list share its Set.
  const limits = new Map<string, Set<string>>();
  for (const r of all<{ name: string; recipes: string }>(db, 'SELECT name, recipes FROM gd.limitation_lists')) {
    limits.set(r.name, new Set(JSON.parse(r.recipes) as string[]));
  }
  for (const r of all<Record<string, any>>(db, 'SELECT * FROM gd.modules')) {
    g.modules.set(r.name, {
      name: r.name, display: g.goods.get(r.name)?.display ?? r.name, category: r.category, tier: r.tier, hidden: !!r.hidden,
      effects: { speed: r.speed, productivity: r.productivity, consumption: r.consumption, pollution: r.pollution, quality: r.quality },
      limitation: limits.get(r.limitation) ?? null,
    });
  }
  for (const r of all<Record<string, any>>(db, 'SELECT * FROM gd.beacons')) {
    g.beacons.set(r.name, {
      name: r.name, display: r.display ?? r.name, effectivity: r.effectivity, moduleSlots: r.module_slots, energyUsageW: r.energy_usage_w,
      allowedEffects: list(r.allowed_effects), allowedModuleCategories: list(r.allowed_module_categories), profile: list(r.profile),
      counter: r.beacon_counter === 'total' ? 'total' : 'same_type', item: r.item, hidden: !!r.hidden,
    });
    if (r.item) g.placedBy.set(r.item, r.name);
  }

  const prereqs = new Map<string, string[]>();
  for (const r of packedRows<{ tech: string; prerequisite: string }>(techRows, 'tech_prerequisites')) push(prereqs, r.tech, r.prerequisite);
  const unlocks = new Map<string, string[]>();
  for (const r of techUnlocks) push(unlocks, r.tech, r.recipe);
  const packs = new Map<string, Array<{ pack: string; amount: number }>>();
  for (const r of packedRows<{ tech: string; pack: string; amount: number }>(techRows, 'tech_ingredients')) {
    const l = packs.get(r.tech) ?? [];
    l.push({ pack: r.pack, amount: r.amount });
    packs.set(r.tech, l);
  }
  const prod = new Map<string, Array<{ recipe: string; modifier: number }>>();
  for (const r of all<{ tech: string; recipe: string; modifier: number }>(db, 'SELECT tech, recipe, modifier FROM gd.tech_productivity_bonuses')) {
    const l = prod.get(r.tech) ?? [];
    l.push({ recipe: r.recipe, modifier: r.modifier });
    prod.set(r.tech, l);
  }
  const bonuses = new Map<string, Array<{ type: string; modifier: number | null }>>();
  for (const r of all<{ tech: string; type: string; modifier: number | null }>(db, 'SELECT tech, type, modifier FROM gd.tech_bonuses ORDER BY tech, idx')) {
    const l = bonuses.get(r.tech) ?? [];
    l.push({ type: r.type, modifier: r.modifier });
    bonuses.set(r.tech, l);
  }
  for (const r of techRows) {
    g.technologies.set(r.name, {
      name: r.name, display: r.display ?? r.name, unitCount: r.unit_count, unitFormula: r.unit_count_formula, unitTime: r.unit_time,
      trigger: list(r.research_trigger), enabled: !!r.enabled, hidden: !!r.hidden, upgrade: !!r.upgrade, maxLevel: r.max_level,
      isTurd: !!r.is_turd, prerequisites: prereqs.get(r.name) ?? [], unlocks: unlocks.get(r.name) ?? [], ingredients: packs.get(r.name) ?? [],
      productivity: prod.get(r.name) ?? [], bonuses: bonuses.get(r.name) ?? [],
    });
  }

  const branchModules = new Map<string, string[]>();
  for (const r of all<{ branch: string; module: string }>(db, 'SELECT branch, module FROM gd.turd_branch_modules')) push(branchModules, r.branch, r.module);
  const repl = new Map<string, Map<string, string>>();
  for (const r of all<{ branch: string; old: string; new: string }>(db, 'SELECT branch, old, new FROM gd.turd_replacements')) {
    const m = repl.get(r.branch) ?? new Map<string, string>();
    m.set(r.old, r.new);
    repl.set(r.branch, m);
    const l = g.replacedBy.get(r.old) ?? [];
    l.push({ branch: r.branch, recipe: r.new });
    g.replacedBy.set(r.old, l);
  }
  for (const r of all<{ name: string; master: string; gate: string }>(db, 'SELECT name, master, gate FROM gd.turd_branches ORDER BY name')) {
    const modules = branchModules.get(r.name) ?? [];
    const moduleRecipes = new Set((unlocks.get(r.name) ?? []).filter((rc) => g.recipes.get(rc)?.products.some((p) => modules.includes(p.name))));
    const grants = (unlocks.get(r.name) ?? []).filter((rc) => !moduleRecipes.has(rc));
    g.turdBranches.set(r.name, { name: r.name, master: r.master, gate: r.gate, modules, grants, replacements: repl.get(r.name) ?? new Map() });
    push(g.turdMasters, r.master, r.name);
    for (const rc of grants) g.recipeBranch.set(rc, r.name);
  }

  for (const r of all<Record<string, any>>(db, 'SELECT * FROM gd.belts')) g.belts.push({ name: r.name, display: r.display ?? r.name, itemsPerSecond: r.items_per_second, item: r.item, kind: 'belt' });
  for (const r of all<Record<string, any>>(db, 'SELECT * FROM gd.loaders')) g.belts.push({ name: r.name, display: r.display ?? r.name, itemsPerSecond: r.items_per_second, item: r.item, kind: 'loader' });
  for (const r of all<Record<string, any>>(db, 'SELECT * FROM gd.inserters')) {
    g.inserters.push({
      name: r.name, display: r.display ?? r.name, rotationSpeed: r.rotation_speed, extensionSpeed: r.extension_speed,
      pickup: list(r.pickup), dropoff: list(r.dropoff), bulk: !!r.bulk, stackSizeBonus: r.stack_size_bonus, item: r.item,
    });
  }
  for (const r of all<Record<string, any>>(db, 'SELECT * FROM gd.labs')) g.labs.set(r.name, { researchingSpeed: r.researching_speed, inputs: JSON.parse(r.inputs) });
  const hand = scalar<string>(db, 'SELECT value FROM gd.gd_meta WHERE key = ?', [HAND_CRAFTING_META]);
  if (hand) for (const c of JSON.parse(hand) as string[]) g.handCrafting.add(c);
  for (const r of all<Record<string, any>>(db, 'SELECT * FROM gd.resources')) {
    g.resources.set(r.name, { name: r.name, display: r.display ?? r.name, category: r.category, miningTime: r.mining_time, requiredFluid: r.required_fluid, fluidAmount: r.fluid_amount, infinite: !!r.infinite });
  }
  return g;
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
}

function dedupe(l: string[]): void {
  const s = new Set(l);
  l.length = 0;
  // A loop, not push(...s): a spread passes every element as an argument, and a list this long (a
  // good used by a million recipes) overflows the stack.
  for (const x of s) l.push(x);
}

const cache = new WeakMap<Project, { key: string; g: GameIndex }>();

/**
 * The key of the snapshot for one import (`<fingerprint>@<imported_at>`): the import and the loader's
 * source files (indexLoaderHash.ts), so a change to either never reads an old snapshot.
 */
export function snapshotKey(importKey: string): string {
  return indexCacheKey(importKey, indexLoaderHash(() => loadGameIndex.toString() + packedRows.toString() + codecSource()));
}

/**
 * The game index of a project, rebuilt when its game data changes: any re-import, including one of
 * the same dump by a newer normalizer (same fingerprint, new tables).
 */
export function gameIndex(project: Project): GameIndex {
  const fp = project.gamedataMeta('fingerprint') ?? '';
  const key = `${fp}@${project.gamedataMeta('imported_at') ?? ''}`;
  const hit = cache.get(project);
  if (hit && hit.key === key) return hit.g;
  let g: GameIndex | undefined;
  if (fp && project.gamedataStatus !== 'empty') {
    const file = `${project.gamedataFile}.index`;
    const diskKey = snapshotKey(key);
    // A section found damaged when first read is taken from the database instead (the database, not
    // the project: an index kept after its project closed does not keep the project).
    const db = project.db;
    g = readIndexCache(file, diskKey, GameIndex.prototype, () => loadGameIndex(db, fp));
    if (!g) {
      g = loadGameIndex(project.db, fp);
      writeIndexCache(file, diskKey, g);
    }
  }
  g ??= loadGameIndex(project.db, fp);
  cache.set(project, { key, g });
  return g;
}
