// Reference tables: everything an import of game data produces. They live in their own database
// (the project's `.gamedata` sidecar, attached as schema `gd`) so that saving a chat message or a
// block never re-exports tens of megabytes of recipes. Only an import writes here.
import type { Migration } from '../migrate';

export const GAMEDATA_KIND = 'pyops-gamedata';
/**
 * Bumped when the normalizer's output changes; an older sidecar still opens (status `outdated`) and a
 * re-import brings it up to date. 2: beacon_counter; electric drain defaulted for crafting machines only.
 * 3: icon specs (what the game draws for each good, recipe, entity and technology).
 * 4: a product's ignored_by_productivity defaults to its ignored_by_stats (2.0); the character's
 *    hand-crafting categories in gd_meta (HAND_CRAFTING_META).
 */
export const DATA_FORMAT_VERSION = 4;

/** gd_meta key: JSON list of the recipe categories the player character crafts by hand. */
export const HAND_CRAFTING_META = 'hand_crafting_categories';

const V1 = `
CREATE TABLE gd_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE item_groups (name TEXT PRIMARY KEY, display TEXT, order_key TEXT);
CREATE TABLE item_subgroups (name TEXT PRIMARY KEY, group_name TEXT, order_key TEXT);

CREATE TABLE items (
  name TEXT PRIMARY KEY, type TEXT NOT NULL, display TEXT, subgroup TEXT, order_key TEXT,
  stack_size INTEGER, weight REAL, fuel_value_j REAL, fuel_category TEXT,
  spoil_result TEXT, spoil_ticks REAL, burnt_result TEXT, plant_result TEXT, place_result TEXT,
  hidden INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX items_display ON items(display COLLATE NOCASE);

CREATE TABLE fluids (
  name TEXT PRIMARY KEY, display TEXT, subgroup TEXT, order_key TEXT,
  default_temperature REAL NOT NULL, max_temperature REAL, fuel_value_j REAL, heat_capacity_j REAL,
  synthetic INTEGER NOT NULL DEFAULT 0, hidden INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE recipes (
  name TEXT PRIMARY KEY, display TEXT, kind TEXT NOT NULL, category TEXT NOT NULL,
  energy_required REAL NOT NULL, enabled INTEGER NOT NULL, hidden INTEGER NOT NULL,
  allow_productivity INTEGER NOT NULL, maximum_productivity REAL,
  allowed_effects TEXT, allowed_module_categories TEXT, main_product TEXT,
  source_entity TEXT, synthetic INTEGER NOT NULL DEFAULT 0, subgroup TEXT, order_key TEXT
);
CREATE INDEX recipes_category ON recipes(category);
CREATE TABLE recipe_categories (recipe TEXT NOT NULL, category TEXT NOT NULL, PRIMARY KEY (recipe, category));
CREATE INDEX recipe_categories_cat ON recipe_categories(category);

CREATE TABLE recipe_ingredients (
  recipe TEXT NOT NULL, idx INTEGER NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, amount REAL NOT NULL,
  min_temp REAL, max_temp REAL, PRIMARY KEY (recipe, idx)
);
CREATE INDEX recipe_ingredients_name ON recipe_ingredients(name);
CREATE TABLE recipe_products (
  recipe TEXT NOT NULL, idx INTEGER NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL,
  amount REAL, amount_min REAL, amount_max REAL, probability REAL NOT NULL, temperature REAL,
  ignored_by_productivity REAL NOT NULL DEFAULT 0, PRIMARY KEY (recipe, idx)
);
CREATE INDEX recipe_products_name ON recipe_products(name);

CREATE TABLE crafting_machines (
  name TEXT PRIMARY KEY, display TEXT, kind TEXT NOT NULL, prototype_type TEXT NOT NULL,
  crafting_speed REAL NOT NULL, width REAL, height REAL, module_slots INTEGER NOT NULL DEFAULT 0,
  energy_usage_w REAL NOT NULL DEFAULT 0, drain_w REAL NOT NULL DEFAULT 0, energy_source TEXT,
  effectivity REAL NOT NULL DEFAULT 1, pollution_per_min REAL NOT NULL DEFAULT 0,
  allowed_effects TEXT, allowed_module_categories TEXT, base_effect TEXT,
  uses_module_effects INTEGER NOT NULL DEFAULT 1, uses_beacon_effects INTEGER NOT NULL DEFAULT 1,
  neighbour_bonus REAL, burns_fluid INTEGER NOT NULL DEFAULT 0, fluid_fuel_filter TEXT,
  fluid_fuel_per_sec REAL, heat_max_temperature REAL, item TEXT, fixed_recipe TEXT, hidden INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE machine_categories (machine TEXT NOT NULL, category TEXT NOT NULL, PRIMARY KEY (machine, category));
CREATE INDEX machine_categories_cat ON machine_categories(category);
CREATE TABLE machine_fuel_categories (machine TEXT NOT NULL, fuel_category TEXT NOT NULL, PRIMARY KEY (machine, fuel_category));

CREATE TABLE resources (
  name TEXT PRIMARY KEY, display TEXT, category TEXT NOT NULL, mining_time REAL NOT NULL,
  required_fluid TEXT, fluid_amount REAL, infinite INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE labs (name TEXT PRIMARY KEY, researching_speed REAL NOT NULL, inputs TEXT NOT NULL);

CREATE TABLE modules (
  name TEXT PRIMARY KEY, category TEXT NOT NULL, tier INTEGER, hidden INTEGER NOT NULL DEFAULT 0,
  speed REAL NOT NULL DEFAULT 0, productivity REAL NOT NULL DEFAULT 0, consumption REAL NOT NULL DEFAULT 0,
  pollution REAL NOT NULL DEFAULT 0, quality REAL NOT NULL DEFAULT 0
);
CREATE TABLE module_limitations (module TEXT NOT NULL, recipe TEXT NOT NULL, PRIMARY KEY (module, recipe));
CREATE TABLE beacons (
  name TEXT PRIMARY KEY, display TEXT, effectivity REAL NOT NULL, module_slots INTEGER NOT NULL,
  energy_usage_w REAL NOT NULL, allowed_effects TEXT, allowed_module_categories TEXT, profile TEXT,
  supply_area_distance REAL, width REAL, height REAL, item TEXT, hidden INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE belts (name TEXT PRIMARY KEY, display TEXT, speed REAL NOT NULL, items_per_second REAL NOT NULL, item TEXT);
CREATE TABLE loaders (name TEXT PRIMARY KEY, display TEXT, speed REAL NOT NULL, items_per_second REAL NOT NULL, item TEXT);
CREATE TABLE inserters (
  name TEXT PRIMARY KEY, display TEXT, rotation_speed REAL NOT NULL, extension_speed REAL NOT NULL,
  pickup TEXT, dropoff TEXT, bulk INTEGER NOT NULL DEFAULT 0, stack_size_bonus REAL NOT NULL DEFAULT 0,
  energy_per_movement_j REAL, item TEXT
);

CREATE TABLE technologies (
  name TEXT PRIMARY KEY, display TEXT, unit_count REAL, unit_count_formula TEXT, unit_time REAL,
  research_trigger TEXT, enabled INTEGER NOT NULL DEFAULT 1, hidden INTEGER NOT NULL DEFAULT 0,
  upgrade INTEGER NOT NULL DEFAULT 0, max_level TEXT, is_turd INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE tech_prerequisites (tech TEXT NOT NULL, prerequisite TEXT NOT NULL, PRIMARY KEY (tech, prerequisite));
CREATE INDEX tech_prerequisites_pre ON tech_prerequisites(prerequisite);
CREATE TABLE tech_unlocks (tech TEXT NOT NULL, recipe TEXT NOT NULL, PRIMARY KEY (tech, recipe));
CREATE INDEX tech_unlocks_recipe ON tech_unlocks(recipe);
CREATE TABLE tech_ingredients (tech TEXT NOT NULL, pack TEXT NOT NULL, amount REAL NOT NULL, PRIMARY KEY (tech, pack));
CREATE TABLE tech_bonuses (tech TEXT NOT NULL, idx INTEGER NOT NULL, type TEXT NOT NULL, modifier REAL, PRIMARY KEY (tech, idx));
-- recipe '' means mining productivity
CREATE TABLE tech_productivity_bonuses (tech TEXT NOT NULL, recipe TEXT NOT NULL, modifier REAL NOT NULL, PRIMARY KEY (tech, recipe));

CREATE TABLE turd_masters (name TEXT PRIMARY KEY);
CREATE TABLE turd_branches (name TEXT PRIMARY KEY, master TEXT NOT NULL, gate TEXT NOT NULL);
CREATE TABLE turd_branch_modules (branch TEXT NOT NULL, module TEXT NOT NULL, PRIMARY KEY (branch, module));
CREATE TABLE turd_replacements (branch TEXT NOT NULL, old TEXT NOT NULL, new TEXT NOT NULL, source TEXT NOT NULL, PRIMARY KEY (branch, old));

CREATE TABLE cost_analysis (scope TEXT NOT NULL, name TEXT NOT NULL, cost REAL NOT NULL, PRIMARY KEY (scope, name));
`;

// v2: which beacons count toward a beacon's profile index. Sidecars imported before it get the
// Factorio 2.0 default, so they keep opening (as `outdated`) until the next import.
const V2 = `
ALTER TABLE beacons ADD COLUMN beacon_counter TEXT NOT NULL DEFAULT 'same_type';
`;

// v3: the icon each prototype shows, as the dump declares it (layers with file paths into the game's
// and mods' folders, resolved scale, shift and tint). The pictures themselves are not game data: they
// are extracted into a cache beside the project from these specs. Older sidecars get an empty table,
// so they show no icons until the next import.
const V3 = `
CREATE TABLE icons (kind TEXT NOT NULL, name TEXT NOT NULL, spec TEXT NOT NULL, PRIMARY KEY (kind, name));
`;

// v4: a module limitation is stored once per list, however many modules share it (Py's speed and
// efficiency modules each list ~5,000 recipes: as one row per module and recipe that was 42k rows and a
// third of the full-Py file). Older sidecars are converted here, one list per module, so nothing is
// lost and no re-import is needed. The secondary indexes go: nothing reads game data by those columns
// (the game index is built from whole-table scans, lookups are by primary key), and keeping them up
// cost a fifth of an import's inserts and 2 MB of every full-Py file.
const V4 = `
CREATE TABLE limitation_lists (name TEXT PRIMARY KEY, recipes TEXT NOT NULL);
ALTER TABLE modules ADD COLUMN limitation TEXT;
INSERT INTO limitation_lists (name, recipes)
  SELECT module, json_group_array(recipe) FROM (SELECT module, recipe FROM module_limitations ORDER BY rowid) GROUP BY module;
UPDATE modules SET limitation = name WHERE name IN (SELECT name FROM limitation_lists);
DROP TABLE module_limitations;
DROP INDEX items_display;
DROP INDEX recipes_category;
DROP INDEX recipe_categories_cat;
DROP INDEX recipe_ingredients_name;
DROP INDEX recipe_products_name;
DROP INDEX machine_categories_cat;
DROP INDEX tech_prerequisites_pre;
DROP INDEX tech_unlocks_recipe;
`;

// v5: a recipe's ingredients, products and categories, a machine's crafting and fuel categories and
// a technology's prerequisites, unlocks and packs are JSON lists in their parent's row
// (gamedata/packed.ts says why and in what layout: this conversion writes that layout). Full Py:
// 71k rows → 13k. Older sidecars are converted in place, each list in its old key order.
const V5 = `
ALTER TABLE recipes ADD COLUMN ingredients TEXT NOT NULL DEFAULT '[]';
ALTER TABLE recipes ADD COLUMN products TEXT NOT NULL DEFAULT '[]';
ALTER TABLE recipes ADD COLUMN categories TEXT NOT NULL DEFAULT '[]';
UPDATE recipes SET ingredients = c.list FROM (
  SELECT recipe, json_group_array(json_array(kind, name, amount, min_temp, max_temp) ORDER BY idx) AS list FROM recipe_ingredients GROUP BY recipe
) AS c WHERE c.recipe = recipes.name;
UPDATE recipes SET products = c.list FROM (
  SELECT recipe, json_group_array(json_array(kind, name, amount, amount_min, amount_max, probability, temperature, ignored_by_productivity) ORDER BY idx) AS list
  FROM recipe_products GROUP BY recipe
) AS c WHERE c.recipe = recipes.name;
UPDATE recipes SET categories = c.list FROM (
  SELECT recipe, json_group_array(category ORDER BY rowid) AS list FROM recipe_categories GROUP BY recipe
) AS c WHERE c.recipe = recipes.name;
ALTER TABLE crafting_machines ADD COLUMN categories TEXT NOT NULL DEFAULT '[]';
ALTER TABLE crafting_machines ADD COLUMN fuel_categories TEXT NOT NULL DEFAULT '[]';
UPDATE crafting_machines SET categories = c.list FROM (
  SELECT machine, json_group_array(category ORDER BY rowid) AS list FROM machine_categories GROUP BY machine
) AS c WHERE c.machine = crafting_machines.name;
UPDATE crafting_machines SET fuel_categories = c.list FROM (
  SELECT machine, json_group_array(fuel_category ORDER BY rowid) AS list FROM machine_fuel_categories GROUP BY machine
) AS c WHERE c.machine = crafting_machines.name;
ALTER TABLE technologies ADD COLUMN prerequisites TEXT NOT NULL DEFAULT '[]';
ALTER TABLE technologies ADD COLUMN unlocks TEXT NOT NULL DEFAULT '[]';
ALTER TABLE technologies ADD COLUMN ingredients TEXT NOT NULL DEFAULT '[]';
UPDATE technologies SET prerequisites = c.list FROM (
  SELECT tech, json_group_array(prerequisite ORDER BY rowid) AS list FROM tech_prerequisites GROUP BY tech
) AS c WHERE c.tech = technologies.name;
UPDATE technologies SET unlocks = c.list FROM (
  SELECT tech, json_group_array(recipe ORDER BY rowid) AS list FROM tech_unlocks GROUP BY tech
) AS c WHERE c.tech = technologies.name;
UPDATE technologies SET ingredients = c.list FROM (
  SELECT tech, json_group_array(json_array(pack, amount) ORDER BY rowid) AS list FROM tech_ingredients GROUP BY tech
) AS c WHERE c.tech = technologies.name;
DROP TABLE recipe_ingredients;
DROP TABLE recipe_products;
DROP TABLE recipe_categories;
DROP TABLE machine_categories;
DROP TABLE machine_fuel_categories;
DROP TABLE tech_prerequisites;
DROP TABLE tech_unlocks;
DROP TABLE tech_ingredients;
`;

export const GAMEDATA_MIGRATIONS: Migration[] = [
  { version: 1, sql: V1 },
  { version: 2, sql: V2 },
  { version: 3, sql: V3 },
  { version: 4, sql: V4 },
  { version: 5, sql: V5 },
];

/** Game-data tables of earlier schemas, which a backup written then may still hold (v4 and v5 convert them). */
export const RETIRED_GAMEDATA_TABLES = [
  'module_limitations', 'recipe_ingredients', 'recipe_products', 'recipe_categories', 'machine_categories',
  'machine_fuel_categories', 'tech_prerequisites', 'tech_unlocks', 'tech_ingredients',
] as const;

/** Every table the import replaces, in an order safe for deletes. */
export const GAMEDATA_TABLES = [
  'item_groups', 'item_subgroups', 'items', 'fluids', 'recipes', 'crafting_machines', 'resources', 'labs',
  'modules', 'limitation_lists', 'beacons', 'belts', 'loaders', 'inserters', 'technologies',
  'tech_bonuses', 'tech_productivity_bonuses',
  'turd_masters', 'turd_branches', 'turd_branch_modules', 'turd_replacements', 'cost_analysis', 'icons',
] as const;
