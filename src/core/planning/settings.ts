// Per-project planning settings (table planning_settings, one JSON value per key), validated on
// read so a hand-edited or older project gives defaults instead of errors. The researched set and
// TURD selections have tables of their own (bridge syncs replace them wholesale).
import { z } from 'zod';
import type { Project } from '../db/project';

export const RESEARCH_MODES = ['now', 'target', 'future'] as const;
export type ResearchMode = (typeof RESEARCH_MODES)[number];

/** What "up to a target" covers: the target technology's prerequisite closure (`research`), or also
 *  what making the target takes (`make`: "able to make X"). null = automatic: `make` for a science pack. */
export const TARGET_SCOPES = ['research', 'make'] as const;
export type TargetScope = (typeof TARGET_SCOPES)[number];

export const DEFAULT_EXCLUSIONS = ['ee-*', 'ee-testing-tool', 'hidden-beacon-turd'];

const schemas = {
  research_mode: z.enum(RESEARCH_MODES).default('now'),
  available_science_packs: z.array(z.string()).default([]),
  horizon_target: z.string().nullable().default(null),
  horizon_target_scope: z.enum(TARGET_SCOPES).nullable().default(null),
  mining_productivity: z.object({ source: z.enum(['research', 'manual']), percent: z.number().min(0).max(100_000) }).default({ source: 'research', percent: 0 }),
  favorite_machines: z.record(z.string(), z.string()).default({}),
  /** Solid fuel for burner machines that can burn it, unless a block row picks one. */
  favorite_fuel: z.string().nullable().default(null),
  /** Fluid that fluid-burning machines (without a filter) burn, unless a block row picks one; null = the pooled fluid fuel. */
  favorite_fluid_fuel: z.string().nullable().default(null),
  exclusions: z.array(z.string()).default(DEFAULT_EXCLUSIONS),
  spoil_import_cutoff_sec: z.number().min(0).default(300),
  autofill: z.boolean().default(true),
  autofill_miners: z.boolean().default(false),
  logistics: z.object({ belt: z.string().optional(), inserter: z.string().optional(), stackBonus: z.number().optional() }).default({}),
  /** Bumped whenever something every solve depends on changes (horizon, TURD, research). */
  solve_generation: z.number().int().default(0),
  synced_mining_productivity: z.number().nullable().default(null),
  synced_recipe_productivity: z.record(z.string(), z.number()).nullable().default(null),
} as const;

export type PlanningSettings = { [K in keyof typeof schemas]: z.output<(typeof schemas)[K]> };
export type SettingKey = keyof PlanningSettings;

export function readSettings(p: Project): PlanningSettings {
  const rows = new Map(p.query<{ key: string; value: string }>('SELECT key, value FROM main.planning_settings').map((r) => [r.key, r.value]));
  const out: Record<string, unknown> = {};
  for (const [k, schema] of Object.entries(schemas)) {
    let raw: unknown = undefined;
    const text = rows.get(k);
    if (text !== undefined) {
      try {
        raw = JSON.parse(text);
      } catch {
        raw = undefined;
      }
    }
    const r = (schema as z.ZodType).safeParse(raw);
    out[k] = r.success ? r.data : (schema as z.ZodType).parse(undefined);
  }
  return out as PlanningSettings;
}

/** Change settings (one undoable action); `solve_generation` is bumped for solve-relevant keys. */
export function writeSettings(p: Project, patch: Partial<PlanningSettings>, label = 'Change planning settings'): PlanningSettings {
  const current = readSettings(p);
  const next = { ...current, ...patch } as Record<string, unknown>;
  for (const k of Object.keys(patch)) {
    const r = (schemas as Record<string, z.ZodType>)[k]?.safeParse(next[k]);
    if (!r) throw new Error(`Unknown planning setting "${k}".`);
    if (!r.success) throw new Error(`Invalid value for planning setting "${k}": ${r.error.issues[0]?.message}`);
    next[k] = r.data;
  }
  const bumps = Object.keys(patch).some((k) => SOLVE_RELEVANT.has(k as SettingKey));
  if (bumps && patch.solve_generation === undefined) next.solve_generation = current.solve_generation + 1;
  p.write(
    (db) => {
      for (const k of new Set([...Object.keys(patch), ...(bumps ? ['solve_generation'] : [])])) {
        db.run('INSERT INTO main.planning_settings(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [k, JSON.stringify(next[k])]);
      }
    },
    { undo: label },
  );
  return next as PlanningSettings;
}

const SOLVE_RELEVANT = new Set<SettingKey>([
  'research_mode', 'available_science_packs', 'horizon_target', 'horizon_target_scope', 'mining_productivity', 'favorite_machines', 'favorite_fuel', 'favorite_fluid_fuel', 'exclusions',
  'synced_mining_productivity', 'synced_recipe_productivity',
]);

/** Planning state read from the project: settings plus the researched set and TURD selections. */
export interface PlanningState {
  settings: PlanningSettings;
  researched: Set<string>;
  /** master → { branch, source } */
  turd: Map<string, { branch: string; source: 'manual' | 'synced' }>;
  researchSyncedAt: string | null;
}

export function readPlanningState(p: Project): PlanningState {
  const researched = new Set(p.query<{ name: string }>('SELECT name FROM main.researched_techs').map((r) => r.name));
  const turd = new Map(
    p.query<{ master: string; branch: string; source: 'manual' | 'synced' }>('SELECT master, branch, source FROM main.turd_selections').map((r) => [r.master, { branch: r.branch, source: r.source }]),
  );
  const sync = p.query<{ synced_at: string }>("SELECT synced_at FROM main.live_sync WHERE kind = 'research'")[0];
  return { settings: readSettings(p), researched, turd, researchSyncedAt: sync?.synced_at ?? null };
}

/** Replace the manual "completed research" list (a bridge sync also replaces it). */
export function setResearched(p: Project, techs: string[], label = 'Set completed research'): void {
  p.write(
    (db) => {
      db.run('DELETE FROM main.researched_techs');
      for (const t of new Set(techs)) db.run('INSERT INTO main.researched_techs(name) VALUES (?)', [t]);
      bumpGeneration(db);
    },
    { undo: label },
  );
}

/** Select (or clear, with branch null) the TURD branch of a master. */
export function setTurdSelection(p: Project, master: string, branch: string | null, source: 'manual' | 'synced' = 'manual'): void {
  p.write(
    (db) => {
      if (branch === null) db.run('DELETE FROM main.turd_selections WHERE master = ?', [master]);
      else {
        db.run(
          'INSERT INTO main.turd_selections(master, branch, source, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT(master) DO UPDATE SET branch = excluded.branch, source = excluded.source, updated_at = excluded.updated_at',
          [master, branch, source, new Date().toISOString()],
        );
      }
      bumpGeneration(db);
    },
    { undo: branch ? `Select TURD branch ${branch}` : `Clear TURD choice for ${master}` },
  );
}

const GENERATION_SQL = "SELECT value FROM main.planning_settings WHERE key = 'solve_generation'";

/** A missing or hand-mangled row counts as generation 0, so a bad value cannot block every read. */
function parseGeneration(raw: unknown): number {
  if (typeof raw !== 'string') return 0;
  try {
    return Number(JSON.parse(raw)) || 0;
  } catch {
    return 0;
  }
}

/** The planning state's solve generation: stored projections stamped with another one are stale. */
export function readSolveGeneration(p: Project): number {
  return parseGeneration(p.query<{ value: string }>(GENERATION_SQL)[0]?.value);
}

// Takes the write transaction's database, not the project: it runs inside `p.write`.
export function bumpGeneration(db: import('../db/sqlite').Database): void {
  const n = parseGeneration(db.exec(GENERATION_SQL)[0]?.values[0]?.[0]) + 1;
  db.run("INSERT INTO main.planning_settings(key, value) VALUES ('solve_generation', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", [JSON.stringify(n)]);
}
