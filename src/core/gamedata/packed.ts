// Child tables stored in their parent's row. A recipe's ingredients, products and categories, a
// machine's crafting and fuel categories, a technology's prerequisites, unlocks and research packs
// were one SQL row each: four fifths of full Py's rows, each repeating its parent's name in the table
// and in its primary key's index. Nothing queries them by their own columns (the game index reads
// them whole, per parent), so each list is a JSON column of its parent instead: the model (GameData)
// keeps them as rows, the writer packs them and the game index unpacks them (`packedRows`), both from
// the declarations below. An element is the tuple of `fields` in that order, or the bare value when
// there is one field; `order` is the field that gives a child's place in its list (numbered again
// from 0 when read).
import type { GameData } from './model';

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
}

export const PACKED_CHILDREN: readonly PackedChild[] = [
  { table: 'recipe_ingredients', parent: 'recipes', key: 'recipe', column: 'ingredients', order: 'idx', fields: ['kind', 'name', 'amount', 'min_temp', 'max_temp'] },
  {
    table: 'recipe_products', parent: 'recipes', key: 'recipe', column: 'products', order: 'idx',
    fields: ['kind', 'name', 'amount', 'amount_min', 'amount_max', 'probability', 'temperature', 'ignored_by_productivity'],
  },
  { table: 'recipe_categories', parent: 'recipes', key: 'recipe', column: 'categories', fields: ['category'] },
  { table: 'machine_categories', parent: 'crafting_machines', key: 'machine', column: 'categories', fields: ['category'] },
  { table: 'machine_fuel_categories', parent: 'crafting_machines', key: 'machine', column: 'fuel_categories', fields: ['fuel_category'] },
  { table: 'tech_prerequisites', parent: 'technologies', key: 'tech', column: 'prerequisites', fields: ['prerequisite'] },
  { table: 'tech_unlocks', parent: 'technologies', key: 'tech', column: 'unlocks', fields: ['recipe'] },
  { table: 'tech_ingredients', parent: 'technologies', key: 'tech', column: 'ingredients', fields: ['pack', 'amount'] },
];

// What SQL would have stored: no undefined, and a non-finite number as NULL.
const sqlValue = (x: unknown) => (x === undefined || (typeof x === 'number' && !Number.isFinite(x)) ? null : x);

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
    for (const [parent, l] of listsOf(data[spec.table] as unknown as Array<Record<string, unknown>>, spec)) {
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
function listsOf(rows: Array<Record<string, unknown>>, spec: PackedChild): Map<string, unknown[]> {
  const { key, order, fields } = spec;
  const element = fields.length === 1 ? (r: Record<string, unknown>) => sqlValue(r[fields[0]]) : (r: Record<string, unknown>) => fields.map((f) => sqlValue(r[f]));
  const lists = new Map<string, unknown[]>();
  for (let i = 0; i < rows.length; ) {
    const parent = rows[i][key] as string;
    let end = i + 1;
    while (end < rows.length && rows[end][key] === parent) {
      if (order && (rows[end - 1][order] as number) > (rows[end][order] as number)) return sortedLists(rows, spec, element);
      end++;
    }
    if (lists.has(parent)) return sortedLists(rows, spec, element);
    const l = new Array<unknown>(end - i);
    for (let k = i; k < end; k++) l[k - i] = element(rows[k]);
    lists.set(parent, l);
    i = end;
  }
  return lists;
}

function sortedLists(rows: Array<Record<string, unknown>>, { key, order }: PackedChild, element: (r: Record<string, unknown>) => unknown): Map<string, unknown[]> {
  const grouped = new Map<string, Array<Record<string, unknown>>>();
  for (const r of rows) {
    const l = grouped.get(r[key] as string);
    if (l) l.push(r);
    else grouped.set(r[key] as string, [r]);
  }
  const lists = new Map<string, unknown[]>();
  for (const [parent, l] of grouped) {
    if (order) l.sort((a, b) => (a[order] as number) - (b[order] as number));
    lists.set(parent, l.map(element));
  }
  return lists;
}

/**
 * The rows of a packed table, unpacked from its parents' rows as read from the database (each holding
 * the table's column): in the parents' order and each list's. The caller reads a parent table once
 * for its own columns and its children.
 */
export function packedRows<T>(parents: ReadonlyArray<Record<string, unknown>>, table: keyof GameData): T[] {
  const spec = PACKED_CHILDREN.find((c) => c.table === table);
  if (!spec) throw new Error(`${table} is not a packed game-data table`);
  const out: Array<Record<string, unknown>> = [];
  const single = spec.fields.length === 1;
  for (const p of parents) {
    const items = JSON.parse(p[spec.column] as string) as unknown[];
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
