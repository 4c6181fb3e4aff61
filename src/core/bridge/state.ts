// Writing normalized game snapshots into the project. Each snapshot replaces the stored set of its
// kind; the write happens only when the canonical content differs, so a re-sent identical
// snapshot changes nothing but its `live_sync` timestamp and never triggers a re-solve.
// Research and TURD changes bump the planning solve generation (solves depend on them); built
// machines and production stats are observations and do not.
import type { Project } from '../db/project';
import type { Database } from '../db/sqlite';
import { bumpGeneration, readSettings } from '../planning/settings';
import type { BuiltRow, ResearchState, StateKind, StatsRow, TurdPush } from './snapshots';

export interface ApplyResult {
  kind: StateKind;
  /** True when the canonical stored state changed (the caller re-solves). */
  changed: boolean;
  /** Rows now stored for this kind. */
  count: number;
  /** Set when the push was not applied, with the reason. */
  ignored?: string;
  /** Things worth telling the user (unknown TURD pairs …), bounded. */
  notes: string[];
}

const nowIso = () => new Date().toISOString();
const MAX_NOTES = 20;

function stamp(db: Database, kind: StateKind, count: number): void {
  db.run('INSERT INTO main.live_sync(kind, synced_at, count) VALUES (?, ?, ?) ON CONFLICT(kind) DO UPDATE SET synced_at = excluded.synced_at, count = excluded.count', [kind, nowIso(), count]);
}

function setSetting(db: Database, key: string, value: unknown): void {
  db.run('INSERT INTO main.planning_settings(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [key, JSON.stringify(value)]);
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function sortedKeys(o: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of Object.keys(o).sort()) out[k] = o[k];
  return out;
}

export function applyResearch(p: Project, s: ResearchState): ApplyResult {
  const current = new Set(p.query<{ name: string }>('SELECT name FROM main.researched_techs').map((r) => r.name));
  const sameSet = current.size === s.researched.length && s.researched.every((t) => current.has(t));
  const { synced_mining_productivity: mining, synced_recipe_productivity: recipes } = readSettings(p);
  const storedRecipes = recipes ? sortedKeys(recipes) : null;
  const changed = !sameSet || !sameJson(mining, s.miningProductivity) || !sameJson(storedRecipes, s.recipeProductivity);
  p.write((db) => {
    if (changed) {
      db.run('DELETE FROM main.researched_techs');
      const stmt = db.prepare('INSERT INTO main.researched_techs(name) VALUES (?)');
      try {
        for (const t of s.researched) stmt.run([t]);
      } finally {
        stmt.free();
      }
      setSetting(db, 'synced_mining_productivity', s.miningProductivity);
      setSetting(db, 'synced_recipe_productivity', s.recipeProductivity);
      bumpGeneration(db);
    }
    stamp(db, 'research', s.researched.length);
  });
  return { kind: 'research', changed, count: s.researched.length, notes: [] };
}

/**
 * TURD selections from the save replace the synced ones; a game selection also overrides a manual
 * choice for the same master (the save is the truth), while manual choices for masters the save
 * has not decided stay. Pairs the game data does not know are reported, and a push in which no
 * pair is known is ignored (wrong project, or game data not imported yet).
 */
export function applyTurd(p: Project, push: TurdPush): ApplyResult {
  const known = new Map(p.query<{ name: string; master: string }>('SELECT name, master FROM gd.turd_branches').map((r) => [r.name, r.master]));
  const accepted: Array<[string, string]> = [];
  const notes: string[] = [];
  for (const [master, branch] of push.pairs) {
    if (known.get(branch) === master) accepted.push([master, branch]);
    else if (notes.length < MAX_NOTES) notes.push(`unknown TURD selection ${master} → ${branch}`);
  }
  const currentRows = p.query<{ master: string; branch: string; source: string }>('SELECT master, branch, source FROM main.turd_selections');
  if (push.pairs.length > 0 && accepted.length === 0) {
    const why = known.size === 0
      ? 'the project has no TURD data; import or sync the game data of this save first'
      : 'none of its selections matches this project\'s game data (is this the right project for the save?)';
    return { kind: 'turd', changed: false, count: currentRows.filter((r) => r.source === 'synced').length, ignored: why, notes };
  }
  const next = new Map<string, { branch: string; source: string }>();
  for (const r of currentRows) if (r.source === 'manual') next.set(r.master, { branch: r.branch, source: 'manual' });
  for (const [master, branch] of accepted) next.set(master, { branch, source: 'synced' });
  const current = new Map(currentRows.map((r) => [r.master, { branch: r.branch, source: r.source }]));
  const removed = [...current.keys()].filter((m) => !next.has(m));
  const upserts = [...next].filter(([m, v]) => current.get(m)?.branch !== v.branch || current.get(m)?.source !== v.source);
  const changed = removed.length > 0 || upserts.length > 0;
  p.write((db) => {
    if (changed) {
      const t = nowIso();
      for (const m of removed) db.run('DELETE FROM main.turd_selections WHERE master = ?', [m]);
      for (const [m, v] of upserts) {
        db.run(
          'INSERT INTO main.turd_selections(master, branch, source, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT(master) DO UPDATE SET branch = excluded.branch, source = excluded.source, updated_at = excluded.updated_at',
          [m, v.branch, v.source, t],
        );
      }
      bumpGeneration(db);
    }
    stamp(db, 'turd', accepted.length);
  });
  return { kind: 'turd', changed, count: accepted.length, notes };
}

/**
 * Replace every row of an observation table when the pushed set differs (order aside); the
 * sync stamp is written either way. `columns` are both the SELECT/INSERT columns and the
 * identity compared, so a changed count or rate counts as a change.
 */
function replaceRows<R>(p: Project, kind: StateKind, table: string, columns: ReadonlyArray<keyof R & string>, rows: R[]): ApplyResult {
  const current = p.query<R>(`SELECT ${columns.join(', ')} FROM main.${table}`);
  const key = (r: R) => columns.map((c) => String(r[c])).join('\u0000');
  const changed = !sameRows(current.map(key), rows.map(key));
  p.write((db) => {
    if (changed) {
      db.run(`DELETE FROM main.${table}`);
      const stmt = db.prepare(`INSERT INTO main.${table}(${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
      try {
        for (const r of rows) stmt.run(columns.map((c) => r[c] as string | number));
      } finally {
        stmt.free();
      }
    }
    stamp(db, kind, rows.length);
  });
  return { kind, changed, count: rows.length, notes: [] };
}

export function applyBuilt(p: Project, rows: BuiltRow[]): ApplyResult {
  return replaceRows(p, 'built', 'built_machines', ['machine', 'recipe', 'count'], rows);
}

export function applyStats(p: Project, rows: StatsRow[]): ApplyResult {
  return replaceRows(p, 'stats', 'production_stats', ['name', 'kind', 'produced', 'consumed'], rows);
}

function sameRows(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  const sa = [...a].sort();
  const sb = [...b].sort();
  return sa.every((v, i) => v === sb[i]);
}
