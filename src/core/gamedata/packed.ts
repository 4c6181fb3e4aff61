// Child tables stored in their parent's row. A recipe's ingredients, products and categories, a
// machine's crafting and fuel categories, a technology's prerequisites, unlocks and research packs
// were one SQL row each: 71% of full Py's rows, each repeating its parent's name in the table and in
// its primary key's index. Nothing queries them by their own columns (the game index reads them
// whole, per parent), so each list is a JSON column of its parent instead: the model (GameData) keeps
// them as rows, the writer packs them and the game index unpacks them (`packedRows`), both from the
// declarations below. An element is the tuple of `fields` in that order, or the bare value when there
// is one field; `order` is the field that gives a child's place in its list (numbered again from 0
// when read).
import type { Database } from '../db/sqlite';
import { all } from '../db/sqlite';
import type {
  GameData, IngredientRow, MachineCategoryRow, MachineFuelCategoryRow, ProductRow, RecipeCategoryRow, TechIngredientRow, TechPrerequisiteRow, TechUnlockRow,
} from './model';

export interface PackedChild {
  /** The model's table whose rows are packed. */
  readonly table: keyof GameData;
  /** The table whose rows hold them, by `name`. */
  readonly parent: keyof GameData;
  /** The child's field naming its parent row. */
  readonly key: string;
  /** The parent's column holding the JSON list. */
  readonly column: string;
  readonly fields: readonly string[];
  readonly order?: string;
  /**
   * A row's parent, place and element, as plain property reads: reading the fields by name from their
   * list made packing full Py's 60k rows cost as much as the inserts it saves (tested to agree with
   * `key`, `order` and `fields`).
   */
  readonly parentOf: (r: never) => string;
  readonly placeOf?: (r: never) => number;
  readonly element: (r: never) => unknown;
}

// What SQL would have stored: no undefined, and a non-finite number as NULL.
const v = (x: unknown) => (x === undefined || (typeof x === 'number' && !Number.isFinite(x)) ? null : x);

export const PACKED_CHILDREN: readonly PackedChild[] = [
  {
    table: 'recipe_ingredients', parent: 'recipes', key: 'recipe', column: 'ingredients', order: 'idx', fields: ['kind', 'name', 'amount', 'min_temp', 'max_temp'],
    parentOf: (r: IngredientRow) => r.recipe, placeOf: (r: IngredientRow) => r.idx,
    element: (r: IngredientRow) => [v(r.kind), v(r.name), v(r.amount), v(r.min_temp), v(r.max_temp)],
  },
  {
    table: 'recipe_products', parent: 'recipes', key: 'recipe', column: 'products', order: 'idx',
    fields: ['kind', 'name', 'amount', 'amount_min', 'amount_max', 'probability', 'temperature', 'ignored_by_productivity'],
    parentOf: (r: ProductRow) => r.recipe, placeOf: (r: ProductRow) => r.idx,
    element: (r: ProductRow) => [v(r.kind), v(r.name), v(r.amount), v(r.amount_min), v(r.amount_max), v(r.probability), v(r.temperature), v(r.ignored_by_productivity)],
  },
  { table: 'recipe_categories', parent: 'recipes', key: 'recipe', column: 'categories', fields: ['category'], parentOf: (r: RecipeCategoryRow) => r.recipe, element: (r: RecipeCategoryRow) => v(r.category) },
  { table: 'machine_categories', parent: 'crafting_machines', key: 'machine', column: 'categories', fields: ['category'], parentOf: (r: MachineCategoryRow) => r.machine, element: (r: MachineCategoryRow) => v(r.category) },
  {
    table: 'machine_fuel_categories', parent: 'crafting_machines', key: 'machine', column: 'fuel_categories', fields: ['fuel_category'],
    parentOf: (r: MachineFuelCategoryRow) => r.machine, element: (r: MachineFuelCategoryRow) => v(r.fuel_category),
  },
  { table: 'tech_prerequisites', parent: 'technologies', key: 'tech', column: 'prerequisites', fields: ['prerequisite'], parentOf: (r: TechPrerequisiteRow) => r.tech, element: (r: TechPrerequisiteRow) => v(r.prerequisite) },
  { table: 'tech_unlocks', parent: 'technologies', key: 'tech', column: 'unlocks', fields: ['recipe'], parentOf: (r: TechUnlockRow) => r.tech, element: (r: TechUnlockRow) => v(r.recipe) },
  {
    table: 'tech_ingredients', parent: 'technologies', key: 'tech', column: 'ingredients', fields: ['pack', 'amount'],
    parentOf: (r: TechIngredientRow) => r.tech, element: (r: TechIngredientRow) => [v(r.pack), v(r.amount)],
  },
];

const packedTables = new Set<string>(PACKED_CHILDREN.map((c) => c.table));

export function isPackedTable(table: string): boolean {
  return packedTables.has(table);
}

/**
 * For each parent table, its packed columns' JSON text by parent name. Throws when a child names a
 * parent the data does not have: written, it would be lost without a word.
 */
export function packChildren(data: GameData): Map<string, Map<string, Map<string, string>>> {
  const byParent = new Map<string, Map<string, Map<string, string>>>();
  const names = new Map<string, Set<string>>();
  for (const spec of PACKED_CHILDREN) {
    let parents = names.get(spec.parent);
    if (!parents) names.set(spec.parent, (parents = new Set((data[spec.parent] as unknown as Array<{ name: string }>).map((p) => p.name))));
    const texts = new Map<string, string>();
    for (const [parent, l] of listsOf(data[spec.table] as unknown[], spec)) {
      if (!parents.has(parent)) {
        throw new Error(`the importer made a ${spec.table} row for "${parent}", which is not among the ${spec.parent}: a fault in PyOps's importer (please report it with the data set); nothing was written`);
      }
      texts.set(parent, JSON.stringify(l));
    }
    const columns = byParent.get(spec.parent) ?? new Map<string, Map<string, string>>();
    columns.set(spec.column, texts);
    byParent.set(spec.parent, columns);
  }
  return byParent;
}

/**
 * Each parent's elements, in their order. The normalizers write a parent's children together and in
 * order, so the rows are taken in runs; when a parent comes back later or a run is out of order, the
 * rows are grouped and sorted instead (stably: rows of the same place keep theirs).
 */
function listsOf(rows: unknown[], spec: PackedChild): Map<string, unknown[]> {
  const parentOf = spec.parentOf as (r: unknown) => string;
  const placeOf = spec.placeOf as ((r: unknown) => number) | undefined;
  const element = spec.element as (r: unknown) => unknown;
  const lists = new Map<string, unknown[]>();
  for (let i = 0; i < rows.length; ) {
    const parent = parentOf(rows[i]);
    let end = i + 1;
    while (end < rows.length && parentOf(rows[end]) === parent) {
      if (placeOf && placeOf(rows[end - 1]) > placeOf(rows[end])) return sortedLists(rows, parentOf, placeOf, element);
      end++;
    }
    if (lists.has(parent)) return sortedLists(rows, parentOf, placeOf, element);
    const l = new Array<unknown>(end - i);
    for (let k = i; k < end; k++) l[k - i] = element(rows[k]);
    lists.set(parent, l);
    i = end;
  }
  return lists;
}

function sortedLists(rows: unknown[], parentOf: (r: unknown) => string, placeOf: ((r: unknown) => number) | undefined, element: (r: unknown) => unknown): Map<string, unknown[]> {
  const grouped = new Map<string, unknown[]>();
  for (const r of rows) {
    const l = grouped.get(parentOf(r));
    if (l) l.push(r);
    else grouped.set(parentOf(r), [r]);
  }
  const lists = new Map<string, unknown[]>();
  for (const [parent, l] of grouped) {
    if (placeOf) l.sort((a, b) => placeOf(a) - placeOf(b));
    lists.set(parent, l.map(element));
  }
  return lists;
}

/** The rows of a packed table, read back from its parent's column, in the parent's order and each list's. */
export function packedRows<T>(db: Database, table: keyof GameData, schema = 'gd'): T[] {
  const spec = PACKED_CHILDREN.find((c) => c.table === table);
  if (!spec) throw new Error(`${table} is not a packed game-data table`);
  const out: Array<Record<string, unknown>> = [];
  const single = spec.fields.length === 1;
  for (const p of all<{ name: string; list: string }>(db, `SELECT name, ${spec.column} AS list FROM ${schema}.${spec.parent}`)) {
    const items = JSON.parse(p.list) as unknown[];
    for (let i = 0; i < items.length; i++) {
      const row: Record<string, unknown> = { [spec.key]: p.name };
      if (spec.order) row[spec.order] = i;
      if (single) row[spec.fields[0]] = items[i];
      else {
        const t = items[i] as unknown[];
        for (let f = 0; f < spec.fields.length; f++) row[spec.fields[f]] = t[f];
      }
      out.push(row);
    }
  }
  return out as T[];
}
