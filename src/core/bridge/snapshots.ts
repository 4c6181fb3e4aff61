// Shapes of the mod's state snapshots (research, TURD, built machines, production stats) and their
// normalization into the canonical form the project stores. Pure: validation and normalization
// only; writing them is state.ts's job. Canonical means sorted, de-duplicated and rounded, so that
// "did the stored state change?" is a plain comparison.
import { z } from 'zod';
import { luaArray, luaRecord } from './protocol';

const name = z.string().min(1).max(200);
/** JSON has no NaN; 1e999 parses as Infinity. Any number is accepted here and cleaned below. */
const anyNumber = z.custom<number>((v) => typeof v === 'number', 'expected a number');
const finite = (v: number) => (Number.isFinite(v) ? v : 0);
/** Flow rates below this are float dust, not production. */
export const DUST = 1e-6;
/** Stats are kept to six significant digits so a re-send of the same numbers compares equal. */
const round6 = (v: number) => (v === 0 ? 0 : Number(v.toPrecision(6)));

export const STATE_KINDS = ['research', 'turd', 'built', 'stats'] as const;
export type StateKind = (typeof STATE_KINDS)[number];

// --- research -------------------------------------------------------------------------------

export const researchPayload = z.object({
  force: z.string().max(200).optional(),
  researched: luaArray(name, 20_000),
  mining_productivity_bonus: anyNumber.optional(),
  recipe_productivity_bonuses: luaRecord(anyNumber).optional(),
});

export interface ResearchState {
  researched: string[];
  /** Only a bonus above zero is kept (null otherwise), as the planner treats null as "not synced". */
  miningProductivity: number | null;
  /** recipe → bonus, non-zero entries only, keys sorted. */
  recipeProductivity: Record<string, number>;
}

export function normalizeResearch(p: z.infer<typeof researchPayload>): ResearchState {
  const mining = finite(p.mining_productivity_bonus ?? 0);
  const bonuses: Record<string, number> = {};
  for (const k of Object.keys(p.recipe_productivity_bonuses ?? {}).sort()) {
    const v = round6(finite(p.recipe_productivity_bonuses![k]));
    if (Math.abs(v) > DUST && k.length <= 200) bonuses[k] = v;
  }
  return {
    researched: [...new Set(p.researched)].sort(),
    miningProductivity: mining > DUST ? round6(mining) : null,
    recipeProductivity: bonuses,
  };
}

// --- TURD -----------------------------------------------------------------------------------

/** Py's interface returns master → branch; values that are not strings are skipped, not fatal. */
export const turdPayload = z.object({
  force: z.string().max(200).optional(),
  selections: luaRecord(z.unknown()),
});

export interface TurdPush {
  /** [master, branch] pairs, sorted by master. */
  pairs: Array<[string, string]>;
  skipped: number;
}

export function normalizeTurd(p: z.infer<typeof turdPayload>): TurdPush {
  const pairs: Array<[string, string]> = [];
  let skipped = 0;
  for (const master of Object.keys(p.selections).sort()) {
    const v = p.selections[master];
    if (typeof v === 'string' && v.length > 0 && v.length <= 200 && master.length > 0) pairs.push([master, v]);
    else skipped++;
  }
  return { pairs, skipped };
}

// --- built machines -------------------------------------------------------------------------

export const builtPayload = z.object({
  force: z.string().max(200).optional(),
  machines: luaArray(
    z.object({
      machine: name,
      // "" when the machine has no recipe, "mine-<resource>" for drills
      recipe: z.string().max(200),
      count: anyNumber,
    }),
    20_000,
  ),
});

export interface BuiltRow {
  machine: string;
  recipe: string;
  count: number;
}

export function normalizeBuilt(p: z.infer<typeof builtPayload>): BuiltRow[] {
  const merged = new Map<string, BuiltRow>();
  for (const m of p.machines) {
    const key = `${m.machine}\u0000${m.recipe}`;
    const row = merged.get(key) ?? { machine: m.machine, recipe: m.recipe, count: 0 };
    row.count += Math.max(0, finite(m.count));
    merged.set(key, row);
  }
  return [...merged.values()]
    .map((r) => ({ ...r, count: Math.round(r.count) }))
    .filter((r) => r.count > 0)
    .sort((a, b) => cmp(a.machine, b.machine) || cmp(a.recipe, b.recipe));
}

// --- production stats -----------------------------------------------------------------------

export const statsPayload = z.object({
  force: z.string().max(200).optional(),
  items: luaArray(
    z.object({
      name,
      kind: z.enum(['item', 'fluid']),
      produced: anyNumber,
      consumed: anyNumber,
    }),
    50_000,
  ),
});

export interface StatsRow {
  name: string;
  kind: 'item' | 'fluid';
  /** Per second. */
  produced: number;
  consumed: number;
}

export function normalizeStats(p: z.infer<typeof statsPayload>): StatsRow[] {
  const merged = new Map<string, StatsRow>();
  for (const s of p.items) {
    const key = `${s.kind}\u0000${s.name}`;
    const row = merged.get(key) ?? { name: s.name, kind: s.kind, produced: 0, consumed: 0 };
    row.produced += Math.max(0, finite(s.produced));
    row.consumed += Math.max(0, finite(s.consumed));
    merged.set(key, row);
  }
  const out: StatsRow[] = [];
  for (const r of merged.values()) {
    const produced = r.produced > DUST ? round6(r.produced) : 0;
    const consumed = r.consumed > DUST ? round6(r.consumed) : 0;
    if (produced === 0 && consumed === 0) continue;
    out.push({ ...r, produced, consumed });
  }
  return out.sort((a, b) => cmp(a.name, b.name) || cmp(a.kind, b.kind));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
