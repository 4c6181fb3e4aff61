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

/** A parent's list as JSON text, made when asked; undefined for a parent without children. */
export type ListText = (parent: string) => string | undefined;

/**
 * For each parent table, its packed columns' lists as JSON text by parent name. Throws when a child
 * names a parent the data does not have: written, it would be lost without a word. Only where each
 * parent's rows are is kept; its text is made when the writer asks for it, and is gone once bound:
 * made all up front, full Py's 45,000 lists lived through the whole write and cost more in fresh
 * memory than in making them.
 */
export function packChildren(data: GameData): Map<string, Map<string, ListText>> {
  const byParent = new Map<string, Map<string, ListText>>();
  const names = new Map<string, Set<string>>();
  for (const spec of PACKED_CHILDREN) {
    let parents = names.get(spec.parent);
    if (!parents) names.set(spec.parent, (parents = new Set((data[spec.parent] as unknown as Array<{ name: string }>).map((p) => p.name))));
    const rows = data[spec.table] as unknown as Array<Record<string, unknown>>;
    const lists = listsOf(rows, spec);
    for (const parent of lists.keys()) {
      if (!parents.has(parent)) {
        throw new Error(`the importer made a ${spec.table} row for "${parent}", which is not among the ${spec.parent}: a fault in PyOps's importer (please report it with the data set); nothing was written`);
      }
    }
    const element = elementOf(spec.fields);
    const text: ListText = (parent) => {
      const at = lists.get(parent);
      if (at === undefined) return undefined;
      if (typeof at !== 'number') return JSON.stringify(at.map(element));
      const l: unknown[] = [];
      for (let k = at; k < rows.length && rows[k][spec.key] === parent; k++) l.push(element(rows[k]));
      return JSON.stringify(l);
    };
    const columns = byParent.get(spec.parent) ?? new Map<string, ListText>();
    columns.set(spec.column, text);
    byParent.set(spec.parent, columns);
  }
  return byParent;
}

function elementOf(fields: readonly string[]): (r: Record<string, unknown>) => unknown {
  if (fields.length === 1) {
    const [f] = fields;
    return (r) => sqlValue(r[f]);
  }
  return (r) => {
    const t = new Array<unknown>(fields.length);
    for (let k = 0; k < fields.length; k++) t[k] = sqlValue(r[fields[k]]);
    return t;
  };
}

/**
 * Where each parent's rows are. The normalizers write a parent's children together and in order,
 * so a parent's rows are one run, kept as the index of its first row; when a parent comes back later
 * or a run is out of order, the rows are grouped and sorted instead (stably: rows of the same place
 * keep theirs).
 */
function listsOf(rows: Array<Record<string, unknown>>, spec: PackedChild): Map<string, number | Array<Record<string, unknown>>> {
  const { key, order } = spec;
  const lists = new Map<string, number | Array<Record<string, unknown>>>();
  for (let i = 0; i < rows.length; ) {
    const parent = rows[i][key] as string;
    let end = i + 1;
    while (end < rows.length && rows[end][key] === parent) {
      if (order && (rows[end - 1][order] as number) > (rows[end][order] as number)) return sortedLists(rows, spec);
      end++;
    }
    if (lists.has(parent)) return sortedLists(rows, spec);
    lists.set(parent, i);
    i = end;
  }
  return lists;
}

function sortedLists(rows: Array<Record<string, unknown>>, { key, order }: PackedChild): Map<string, Array<Record<string, unknown>>> {
  const grouped = new Map<string, Array<Record<string, unknown>>>();
  for (const r of rows) {
    const l = grouped.get(r[key] as string);
    if (l) l.push(r);
    else grouped.set(r[key] as string, [r]);
  }
  if (order) for (const l of grouped.values()) l.sort((a, b) => (a[order] as number) - (b[order] as number));
  return grouped;
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
