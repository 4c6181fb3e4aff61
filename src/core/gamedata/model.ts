// The normalized game data, one array per reference table. Row keys are the table's column names,
// so the writer needs no mapping and a reader of the database sees the same shape.
import type { IconKind } from './icons/spec';

export type GoodKind = 'item' | 'fluid';
export type RecipeKind =
  | 'real' | 'mining' | 'pumping' | 'boiling' | 'burning' | 'generating' | 'launch' | 'planting' | 'research' | 'spoiling';
export type MachineKind =
  | 'assembler' | 'furnace' | 'rocket-silo' | 'drill' | 'pump' | 'boiler' | 'generator' | 'reactor' | 'lab' | 'agricultural-tower';
export type EnergySourceType = 'electric' | 'burner' | 'fluid' | 'heat' | 'void';

export interface ItemGroupRow { name: string; display: string; order_key: string | null }
export interface ItemSubgroupRow { name: string; group_name: string | null; order_key: string | null }
export interface ItemRow {
  name: string; type: string; display: string; subgroup: string | null; order_key: string | null;
  stack_size: number | null; weight: number | null; fuel_value_j: number | null; fuel_category: string | null;
  spoil_result: string | null; spoil_ticks: number | null; burnt_result: string | null; plant_result: string | null;
  place_result: string | null; hidden: number;
}
export interface FluidRow {
  name: string; display: string; subgroup: string | null; order_key: string | null; default_temperature: number;
  max_temperature: number | null; fuel_value_j: number | null; heat_capacity_j: number | null; synthetic: number; hidden: number;
}
export interface RecipeRow {
  name: string; display: string; kind: RecipeKind; category: string; energy_required: number; enabled: number;
  hidden: number; allow_productivity: number; maximum_productivity: number | null; allowed_effects: string | null;
  allowed_module_categories: string | null; main_product: string | null; source_entity: string | null;
  synthetic: number; subgroup: string | null; order_key: string | null;
}
export interface RecipeCategoryRow { recipe: string; category: string }
export interface IngredientRow {
  recipe: string; idx: number; kind: GoodKind; name: string; amount: number; min_temp: number | null; max_temp: number | null;
}
export interface ProductRow {
  recipe: string; idx: number; kind: GoodKind; name: string; amount: number | null; amount_min: number | null;
  amount_max: number | null; probability: number; temperature: number | null; ignored_by_productivity: number;
}
export interface MachineRow {
  name: string; display: string; kind: MachineKind; prototype_type: string; crafting_speed: number;
  width: number | null; height: number | null; module_slots: number; energy_usage_w: number; drain_w: number;
  energy_source: EnergySourceType | null; effectivity: number; pollution_per_min: number; allowed_effects: string | null;
  allowed_module_categories: string | null; base_effect: string | null; uses_module_effects: number;
  uses_beacon_effects: number; neighbour_bonus: number | null; burns_fluid: number; fluid_fuel_filter: string | null;
  fluid_fuel_per_sec: number | null; heat_max_temperature: number | null; item: string | null; fixed_recipe: string | null;
  hidden: number;
}
export interface MachineCategoryRow { machine: string; category: string }
export interface MachineFuelCategoryRow { machine: string; fuel_category: string }
export interface ResourceRow {
  name: string; display: string; category: string; mining_time: number; required_fluid: string | null;
  fluid_amount: number | null; infinite: number;
}
export interface LabRow { name: string; researching_speed: number; inputs: string }
export interface ModuleRow {
  name: string; category: string; tier: number | null; hidden: number; speed: number; productivity: number;
  consumption: number; pollution: number; quality: number;
  /** The `limitation_lists` row naming the recipes it may be used on; null = any recipe. */
  limitation: string | null;
}
/**
 * A module limitation, stored once however many modules share it: Py's speed and efficiency modules
 * each list ~5,000 recipes, which as one row per module and recipe was a third of the full-Py file.
 */
export interface LimitationListRow { name: string; /** JSON list of recipe names. */ recipes: string }
export interface BeaconRow {
  name: string; display: string; effectivity: number; module_slots: number; energy_usage_w: number;
  allowed_effects: string | null; allowed_module_categories: string | null; profile: string | null;
  beacon_counter: 'same_type' | 'total'; supply_area_distance: number | null; width: number | null; height: number | null; item: string | null; hidden: number;
}
export interface BeltRow { name: string; display: string; speed: number; items_per_second: number; item: string | null }
export interface InserterRow {
  name: string; display: string; rotation_speed: number; extension_speed: number; pickup: string | null;
  dropoff: string | null; bulk: number; stack_size_bonus: number; energy_per_movement_j: number | null; item: string | null;
}
export interface TechnologyRow {
  name: string; display: string; unit_count: number | null; unit_count_formula: string | null; unit_time: number | null;
  research_trigger: string | null; enabled: number; hidden: number; upgrade: number; max_level: string | null; is_turd: number;
}
export interface TechPrerequisiteRow { tech: string; prerequisite: string }
export interface TechUnlockRow { tech: string; recipe: string }
export interface TechIngredientRow { tech: string; pack: string; amount: number }
export interface TechBonusRow { tech: string; idx: number; type: string; modifier: number | null }
export interface TechProductivityRow { tech: string; recipe: string; modifier: number }
export interface TurdMasterRow { name: string }
export interface TurdBranchRow { name: string; master: string; gate: string }
export interface TurdBranchModuleRow { branch: string; module: string }
export interface TurdReplacementRow { branch: string; old: string; new: string; source: 'helper' | 'inferred' }
/** `spec`: an IconSpec as JSON (see icons/spec.ts). */
export interface IconRow { kind: IconKind; name: string; spec: string }

export interface GameData {
  item_groups: ItemGroupRow[];
  item_subgroups: ItemSubgroupRow[];
  items: ItemRow[];
  fluids: FluidRow[];
  recipes: RecipeRow[];
  recipe_categories: RecipeCategoryRow[];
  recipe_ingredients: IngredientRow[];
  recipe_products: ProductRow[];
  crafting_machines: MachineRow[];
  machine_categories: MachineCategoryRow[];
  machine_fuel_categories: MachineFuelCategoryRow[];
  resources: ResourceRow[];
  labs: LabRow[];
  modules: ModuleRow[];
  limitation_lists: LimitationListRow[];
  beacons: BeaconRow[];
  belts: BeltRow[];
  loaders: BeltRow[];
  inserters: InserterRow[];
  technologies: TechnologyRow[];
  tech_prerequisites: TechPrerequisiteRow[];
  tech_unlocks: TechUnlockRow[];
  tech_ingredients: TechIngredientRow[];
  tech_bonuses: TechBonusRow[];
  tech_productivity_bonuses: TechProductivityRow[];
  turd_masters: TurdMasterRow[];
  turd_branches: TurdBranchRow[];
  turd_branch_modules: TurdBranchModuleRow[];
  turd_replacements: TurdReplacementRow[];
  icons: IconRow[];
}

export function emptyGameData(): GameData {
  return {
    item_groups: [], item_subgroups: [], items: [], fluids: [], recipes: [], recipe_categories: [],
    recipe_ingredients: [], recipe_products: [], crafting_machines: [], machine_categories: [],
    machine_fuel_categories: [], resources: [], labs: [], modules: [], limitation_lists: [], beacons: [],
    belts: [], loaders: [], inserters: [], technologies: [], tech_prerequisites: [], tech_unlocks: [],
    tech_ingredients: [], tech_bonuses: [], tech_productivity_bonuses: [], turd_masters: [], turd_branches: [],
    turd_branch_modules: [], turd_replacements: [], icons: [],
  };
}

/** Synthetic goods the planner uses for energy flows (1 unit = 1 MJ). */
export const ELECTRICITY = 'pyops-electricity';
export const HEAT = 'pyops-heat';
export const FLUID_FUEL = 'pyops-fluid-fuel';
/** Category of synthetic recipes that need no building (burning, spoiling, fluid-fuel conversion). */
export const VIRTUAL_CATEGORY = 'pyops-virtual';
