// Blocks in the project: the user's documents plus cached projections of their last solve
// (block_flows, block_machines, power/pollution/status on the row). Every user-visible change is
// one undoable action; a save names the `updatedAt` it started from and is refused if the block
// changed since (a stale editor must reload, never overwrite). Destructive edits take an automatic
// snapshot first.
import { z } from 'zod';
import type { Project, UndoResult } from '../../db/project';
import { parseBlockDoc, goalRate, type BlockDoc } from '../block/document';
import { campaignGoals } from '../block/campaign';
import { readSolveGeneration } from '../settings';
import type { SolveResult } from '../solver/result';
import { newId, now } from '../../work/ids';

/** Solves one block document against the project's current data and horizon. */
export type BlockSolver = (doc: BlockDoc) => Promise<SolveResult>;

/** What a cached projection was computed against; a mismatch means "re-solve". */
export interface SolveStamp {
  fingerprint: string;
  generation: number;
}

export const AUTO_SNAPSHOTS_KEPT = 20;

export interface BlockRecord {
  id: string;
  name: string;
  icon: string | null;
  doc: BlockDoc;
  enabled: boolean;
  order: number;
  groupId: string | null;
  createdAt: string;
  updatedAt: string;
  /** Where the block sits on the factory board (null = not placed yet: laid out automatically). */
  layout: { x: number; y: number } | null;
  cache: {
    status: SolveResult['status'] | 'broken' | null;
    powerW: number | null;
    pollutionPerMinute: number | null;
    diagnosis: unknown;
    /** The projection matches the current data and horizon. */
    fresh: boolean;
  };
}

export interface BlockFlowRow {
  block_id: string;
  item: string;
  kind: 'item' | 'fluid';
  role: 'primary' | 'stock' | 'byproduct' | 'import';
  rate: number;
  temperature_mode: 'exact' | 'range' | null;
  temperature_min: number | null;
  temperature_max: number | null;
}

export class BlockError extends Error {
  constructor(
    message: string,
    readonly code: 'not-found' | 'stale' | 'invalid' = 'invalid',
  ) {
    super(message);
    this.name = 'BlockError';
  }
}

interface Row {
  id: string; name: string; icon: string | null; data: string; enabled: number; sort_order: number; group_id: string | null; layout: string | null;
  created_at: string; updated_at: string; electricity_w: number | null; pollution_per_min: number | null; solve_status: string | null;
  solve_diagnosis: string | null; data_fingerprint: string | null; solve_generation: number | null;
}

/**
 * The planner's rules version. A cached projection is valid only for the game data, the planning
 * state and the rules it was solved under: raising this (when the effect, energy or solver rules
 * change what a block solves to) makes every block solved by an older PyOps re-solve on open.
 */
// 3: a fluid burner short of fuel at its fluid_usage_per_tick runs slower; beacon modules beyond its
//    slots dropped; burners burn a fuel the block makes; by-hand rows have no machine; row advice.
// 4: beacon buildings placed whole per whole machine and drawing their full usage; the favourite
//    fluid fuel.
export const SOLVER_RULES_VERSION = 4;

export function currentStamp(p: Project): SolveStamp {
  return { fingerprint: `${p.gamedataMeta('fingerprint') ?? ''}#rules${SOLVER_RULES_VERSION}`, generation: readSolveGeneration(p) };
}

function toRecord(r: Row, stamp: SolveStamp): BlockRecord {
  let doc: BlockDoc;
  try {
    doc = parseBlockDoc(JSON.parse(r.data));
  } catch {
    doc = parseBlockDoc({});
  }
  return {
    id: r.id, name: r.name, icon: r.icon, doc, enabled: !!r.enabled, order: r.sort_order, groupId: r.group_id,
    createdAt: r.created_at, updatedAt: r.updated_at, layout: parseLayout(r.layout),
    cache: {
      status: (r.solve_status as BlockRecord['cache']['status']) ?? null,
      powerW: r.electricity_w,
      pollutionPerMinute: r.pollution_per_min,
      diagnosis: r.solve_diagnosis ? JSON.parse(r.solve_diagnosis) : null,
      fresh: r.solve_status !== null && r.data_fingerprint === stamp.fingerprint && r.solve_generation === stamp.generation,
    },
  };
}

const layoutSchema = z.object({ x: z.number().finite(), y: z.number().finite() });

function parseLayout(text: string | null): BlockRecord['layout'] {
  if (!text) return null;
  try {
    const r = layoutSchema.safeParse(JSON.parse(text));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/**
 * Place blocks on the factory board. A view preference, not a change to the factory: no undo step
 * and no new `updatedAt` (an editor open on the block stays current).
 */
export function setBlockLayouts(p: Project, layouts: Array<{ id: string; layout: { x: number; y: number } | null }>): void {
  const parsed = layouts.map((x) => ({ id: x.id, layout: x.layout === null ? null : layoutSchema.parse(x.layout) }));
  p.write((db) => {
    for (const x of parsed) db.run('UPDATE main.blocks SET layout = ? WHERE id = ?', [x.layout === null ? null : JSON.stringify(x.layout), x.id]);
  });
}

export function listBlocks(p: Project, opts: { enabledOnly?: boolean } = {}): BlockRecord[] {
  const stamp = currentStamp(p);
  return p.query<Row>(`SELECT * FROM main.blocks ${opts.enabledOnly ? 'WHERE enabled = 1' : ''} ORDER BY sort_order, created_at`).map((r) => toRecord(r, stamp));
}

export function getBlock(p: Project, id: string): BlockRecord {
  const r = p.query<Row>('SELECT * FROM main.blocks WHERE id = ?', [id])[0];
  if (!r) throw new BlockError(`There is no block with id "${id}"; call factoryBlocks to list the blocks.`, 'not-found');
  return toRecord(r, currentStamp(p));
}

/** The project's science block (its lab bank), if it has one: there is at most one. */
export function scienceBlock(p: Project): BlockRecord | undefined {
  const r = p.query<Row>("SELECT * FROM main.blocks WHERE json_extract(data, '$.science') IS NOT NULL ORDER BY sort_order, created_at LIMIT 1")[0];
  return r ? toRecord(r, currentStamp(p)) : undefined;
}

/** A project has one science block: refuse a second one (`id`: the block being saved). */
function checkOneScienceBlock(p: Project, doc: BlockDoc, id?: string): void {
  if (!doc.science) return;
  const other = scienceBlock(p);
  if (other && other.id !== id) throw new BlockError(`The project already has a science block ("${other.name}"); change that one instead.`, 'invalid');
}

export function blockFlows(p: Project, blockId?: string): BlockFlowRow[] {
  return blockId ? p.query<BlockFlowRow>('SELECT * FROM main.block_flows WHERE block_id = ?', [blockId]) : p.query<BlockFlowRow>('SELECT * FROM main.block_flows');
}

export function blockMachines(p: Project, blockId?: string): Array<{ block_id: string; machine: string; recipe: string; count: number }> {
  return blockId ? p.query('SELECT * FROM main.block_machines WHERE block_id = ?', [blockId]) : p.query('SELECT * FROM main.block_machines');
}

/** Rows per block id, in their stored order (one pass instead of a filter per block). */
export function byBlock<T extends { block_id: string }>(rows: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const l = out.get(r.block_id);
    if (l) l.push(r);
    else out.set(r.block_id, [r]);
  }
  return out;
}

/** Cached flows of a solved block: goal outputs (primary/stock), byproduct exports, imports. */
export function projectionFlows(blockId: string, doc: BlockDoc, result: SolveResult): BlockFlowRow[] {
  const flows: BlockFlowRow[] = [];
  // A campaign makes a quantity once, like a stock goal, not a steady supply for other blocks.
  const campaign = campaignGoals(doc.campaign);
  const stockGoals = new Set([...doc.goals.filter((g) => g.stock).map((g) => g.good), ...campaign.filter((c) => c.rate > 0).map((c) => c.good)]);
  const temp = (f: { temperature?: number; minTemperature?: number | null; maxTemperature?: number | null }) =>
    f.temperature !== undefined
      ? { temperature_mode: 'exact' as const, temperature_min: f.temperature, temperature_max: f.temperature }
      : f.minTemperature != null || f.maxTemperature != null
        ? { temperature_mode: 'range' as const, temperature_min: f.minTemperature ?? null, temperature_max: f.maxTemperature ?? null }
        : { temperature_mode: null, temperature_min: null, temperature_max: null };
  for (const f of result.goals) flows.push({ block_id: blockId, item: f.good, kind: f.kind, role: stockGoals.has(f.good) ? 'stock' : 'primary', rate: f.rate, ...temp(f) });
  for (const f of result.exports) {
    const isGoal = doc.goals.some((g) => g.good === f.good && goalRate(g).direction === 'produce') || campaign.some((c) => c.good === f.good && c.rate > 0);
    flows.push({ block_id: blockId, item: f.good, kind: f.kind, role: isGoal ? (stockGoals.has(f.good) ? 'stock' : 'primary') : 'byproduct', rate: f.rate, ...temp(f) });
  }
  for (const f of result.imports) flows.push({ block_id: blockId, item: f.good, kind: f.kind, role: 'import', rate: f.rate, ...temp(f) });
  return flows;
}

function writeProjection(p: Project, id: string, doc: BlockDoc, result: SolveResult | null, stamp: SolveStamp, broken?: string): void {
  const db = p.db;
  db.run('DELETE FROM main.block_flows WHERE block_id = ?', [id]);
  db.run('DELETE FROM main.block_machines WHERE block_id = ?', [id]);
  if (!result) {
    db.run('UPDATE main.blocks SET solve_status = ?, solve_diagnosis = ?, data_fingerprint = ?, solve_generation = ? WHERE id = ?', ['broken', JSON.stringify({ message: broken }), stamp.fingerprint, stamp.generation, id]);
    return;
  }
  const fl = db.prepare('INSERT INTO main.block_flows(block_id, item, kind, role, rate, temperature_mode, temperature_min, temperature_max) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  try {
    for (const f of projectionFlows(id, doc, result)) fl.run([f.block_id, f.item, f.kind, f.role, f.rate, f.temperature_mode, f.temperature_min, f.temperature_max]);
  } finally {
    fl.free();
  }
  const mc = db.prepare('INSERT INTO main.block_machines(block_id, machine, recipe, count) VALUES (?, ?, ?, ?)');
  try {
    for (const r of result.rows) if (r.machine && r.buildings > 0) mc.run([id, r.machine, r.recipe, r.buildings]);
  } finally {
    mc.free();
  }
  db.run('UPDATE main.blocks SET electricity_w = ?, pollution_per_min = ?, solve_status = ?, solve_diagnosis = ?, data_fingerprint = ?, solve_generation = ? WHERE id = ?', [
    result.powerW, result.pollutionPerMinute, result.status, result.diagnosis ? JSON.stringify(result.diagnosis) : null, stamp.fingerprint, stamp.generation, id,
  ]);
}

/** A solve, or why the block could not be solved (a broken block keeps its last projection). */
export interface SolveOutcome {
  result: SolveResult | null;
  broken?: string;
}

export async function trySolve(solve: BlockSolver, doc: BlockDoc): Promise<SolveOutcome> {
  try {
    return { result: await solve(doc) };
  } catch (err) {
    return { result: null, broken: (err as Error).message };
  }
}

export interface NewBlock {
  name: string;
  doc: unknown;
  icon?: string | null;
  enabled?: boolean;
  groupId?: string | null;
}

function insertBlock(p: Project, b: NewBlock, doc: BlockDoc, id: string, ts: string): void {
  const order = Number(p.db.exec('SELECT coalesce(max(sort_order), 0) + 1 FROM main.blocks')[0]?.values[0][0] ?? 1);
  p.db.run('INSERT INTO main.blocks(id, name, icon, data, enabled, sort_order, group_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [
    id, b.name.trim() || 'Block', b.icon ?? null, JSON.stringify(doc), b.enabled === false ? 0 : 1, order, b.groupId ?? null, ts, ts,
  ]);
}

/** Create a block (solved, with its projection) as one undoable action; returns the new id. */
export async function createBlock(p: Project, solve: BlockSolver, b: NewBlock, label?: string): Promise<string> {
  const doc = parseBlockDoc(b.doc);
  checkOneScienceBlock(p, doc);
  const { result, broken } = await trySolve(solve, doc);
  const id = newId('b');
  const stamp = currentStamp(p);
  p.write(
    () => {
      insertBlock(p, b, doc, id, now());
      writeProjection(p, id, doc, result, stamp, broken);
    },
    { undo: label ?? `Create block "${b.name}"` },
  );
  return id;
}

export interface BlockUpdate {
  name?: string;
  doc?: unknown;
  icon?: string | null;
  enabled?: boolean;
  groupId?: string | null;
}

/**
 * Save changes to a block. `baseUpdatedAt` is the block's `updatedAt` when the caller read it;
 * if the block changed since, nothing is written and a 'stale' BlockError says to reload.
 */
/** `opts.solved`: the solve of `update.doc` the caller already has (the block editor shows it), saved instead of solving again. */
export async function saveBlock(p: Project, solve: BlockSolver, id: string, update: BlockUpdate, baseUpdatedAt: string, opts: { label?: string; snapshot?: string; solved?: SolveOutcome } = {}): Promise<BlockRecord> {
  const current = getBlock(p, id);
  if (current.updatedAt !== baseUpdatedAt) {
    throw new BlockError(`Block "${current.name}" was changed since it was loaded (at ${current.updatedAt}); reload it and apply the change again.`, 'stale');
  }
  const doc = update.doc !== undefined ? parseBlockDoc(update.doc) : current.doc;
  checkOneScienceBlock(p, doc, id);
  const solved = update.doc !== undefined || update.enabled === true ? (opts.solved ?? (await trySolve(solve, doc))) : undefined;
  const stamp = currentStamp(p);
  p.write(
    (db) => {
      const again = db.exec('SELECT updated_at FROM main.blocks WHERE id = ?', [id])[0]?.values[0]?.[0];
      if (again !== baseUpdatedAt) throw new BlockError(`Block "${current.name}" was changed meanwhile; reload it and apply the change again.`, 'stale');
      if (opts.snapshot) insertSnapshot(p, current, opts.snapshot, true);
      db.run('UPDATE main.blocks SET name = ?, icon = ?, data = ?, enabled = ?, group_id = ?, updated_at = ? WHERE id = ?', [
        update.name?.trim() || current.name, update.icon === undefined ? current.icon : update.icon, JSON.stringify(doc),
        (update.enabled ?? current.enabled) ? 1 : 0, update.groupId === undefined ? current.groupId : update.groupId, nextTimestamp(current.updatedAt), id,
      ]);
      if (solved) writeProjection(p, id, doc, solved.result, stamp, solved.broken);
    },
    { undo: opts.label ?? `Edit block "${update.name ?? current.name}"` },
  );
  return getBlock(p, id);
}

/** A timestamp strictly after `prev`, so two saves in the same millisecond still differ. */
function nextTimestamp(prev: string): string {
  const t = now();
  return t > prev ? t : new Date(new Date(prev).getTime() + 1).toISOString();
}

export function deleteBlock(p: Project, id: string): void {
  const b = getBlock(p, id);
  p.write(
    (db) => {
      insertSnapshot(p, b, 'before delete', true);
      db.run('DELETE FROM main.block_flows WHERE block_id = ?', [id]);
      db.run('DELETE FROM main.block_machines WHERE block_id = ?', [id]);
      db.run('DELETE FROM main.blocks WHERE id = ?', [id]);
    },
    { undo: `Delete block "${b.name}"` },
  );
}

// ── snapshots ──────────────────────────────────────────────────────────────

export interface Snapshot {
  id: string;
  blockId: string;
  name: string | null;
  reason: string;
  automatic: boolean;
  createdAt: string;
  doc: BlockDoc;
  blockName: string;
}

function insertSnapshot(p: Project, b: BlockRecord, reason: string, automatic: boolean, name: string | null = null): string {
  const id = newId('s');
  p.db.run('INSERT INTO main.block_snapshots(id, block_id, name, reason, automatic, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
    id, b.id, name, reason, automatic ? 1 : 0, JSON.stringify({ name: b.name, icon: b.icon, doc: b.doc }), now(),
  ]);
  if (automatic) {
    p.db.run(
      `DELETE FROM main.block_snapshots WHERE block_id = ? AND automatic = 1 AND id NOT IN (SELECT id FROM main.block_snapshots WHERE block_id = ? AND automatic = 1 ORDER BY created_at DESC, rowid DESC LIMIT ${AUTO_SNAPSHOTS_KEPT})`,
      [b.id, b.id],
    );
  }
  return id;
}

export function snapshotBlock(p: Project, blockId: string, name: string): string {
  const b = getBlock(p, blockId);
  let id = '';
  p.write(() => {
    id = insertSnapshot(p, b, 'manual', false, name.trim() || null);
  }, { undo: `Snapshot block "${b.name}"` });
  return id;
}

export type SnapshotHead = Omit<Snapshot, 'doc'>;

/**
 * Snapshots without their documents (views and pickers list them after every write; parsing every
 * stored document there would be wasted), newest first.
 */
export function snapshotHeads(p: Project, blockId?: string): SnapshotHead[] {
  return p
    .query<{ id: string; block_id: string; name: string | null; reason: string; automatic: number; created_at: string; block_name: string }>(
      `SELECT id, block_id, name, reason, automatic, created_at, json_extract(data, '$.name') AS block_name FROM main.block_snapshots ${blockId ? 'WHERE block_id = ?' : ''} ORDER BY created_at DESC, rowid DESC`,
      blockId ? [blockId] : [],
    )
    .map((r) => ({ id: r.id, blockId: r.block_id, name: r.name, reason: r.reason, automatic: !!r.automatic, createdAt: r.created_at, blockName: r.block_name }));
}

/** One snapshot with its document, or undefined. */
export function getSnapshot(p: Project, id: string): Snapshot | undefined {
  const r = p.query<{ id: string; block_id: string; name: string | null; reason: string; automatic: number; data: string; created_at: string }>('SELECT * FROM main.block_snapshots WHERE id = ?', [id])[0];
  return r ? snapshotOf(r) : undefined;
}

function snapshotOf(r: { id: string; block_id: string; name: string | null; reason: string; automatic: number; data: string; created_at: string }): Snapshot {
  const data = JSON.parse(r.data) as { name: string; doc: unknown };
  return { id: r.id, blockId: r.block_id, name: r.name, reason: r.reason, automatic: !!r.automatic, createdAt: r.created_at, doc: parseBlockDoc(data.doc), blockName: data.name };
}

export function listSnapshots(p: Project, blockId?: string): Snapshot[] {
  const rows = p.query<{ id: string; block_id: string; name: string | null; reason: string; automatic: number; data: string; created_at: string }>(
    `SELECT * FROM main.block_snapshots ${blockId ? 'WHERE block_id = ?' : ''} ORDER BY created_at DESC, rowid DESC`,
    blockId ? [blockId] : [],
  );
  return rows.map(snapshotOf);
}

/** Put a snapshot back (the current state is snapshotted first); recreates a deleted block. */
export async function restoreSnapshot(p: Project, solve: BlockSolver, snapshotId: string): Promise<string> {
  const snap = getSnapshot(p, snapshotId);
  if (!snap) throw new BlockError(`There is no snapshot "${snapshotId}".`, 'not-found');
  const { result, broken } = await trySolve(solve, snap.doc);
  const stamp = currentStamp(p);
  const exists = p.query('SELECT 1 FROM main.blocks WHERE id = ?', [snap.blockId]).length > 0;
  p.write(
    (db) => {
      if (exists) {
        const cur = getBlock(p, snap.blockId);
        insertSnapshot(p, cur, 'before restore', true);
        db.run('UPDATE main.blocks SET name = ?, data = ?, updated_at = ? WHERE id = ?', [snap.blockName, JSON.stringify(snap.doc), nextTimestamp(cur.updatedAt), snap.blockId]);
      } else {
        insertBlock(p, { name: snap.blockName, doc: snap.doc }, snap.doc, snap.blockId, now());
      }
      writeProjection(p, snap.blockId, snap.doc, result, stamp, broken);
    },
    { undo: `Restore snapshot of "${snap.blockName}"` },
  );
  return snap.blockId;
}

// ── solving, caches and undo ───────────────────────────────────────────────

/** Re-solve blocks whose projection is stale (data, horizon or TURD changed). Not an undo step. */
export async function refreshStale(p: Project, solve: BlockSolver, ids?: string[]): Promise<string[]> {
  const stale = listBlocks(p).filter((b) => (!ids || ids.includes(b.id)) && !b.cache.fresh);
  const done: string[] = [];
  for (const b of stale) {
    const { result, broken } = await trySolve(solve, b.doc);
    const stamp = currentStamp(p);
    p.write(() => writeProjection(p, b.id, b.doc, result, stamp, broken));
    done.push(b.id);
  }
  return done;
}

/** Undo the latest action and re-solve the blocks it touched. */
export async function undoAndResolve(p: Project, solve: BlockSolver): Promise<UndoResult | undefined> {
  const r = p.undo();
  if (r) await resolveTouched(p, solve, r);
  return r;
}

/** Redo the action undone last and re-solve the blocks it touched. */
export async function redoAndResolve(p: Project, solve: BlockSolver): Promise<UndoResult | undefined> {
  const r = p.redo();
  if (r) await resolveTouched(p, solve, r);
  return r;
}

async function resolveTouched(p: Project, solve: BlockSolver, r: UndoResult): Promise<void> {
  const rowids = r.touched.filter((t) => t.table === 'blocks').map((t) => t.rowid);
  if (!rowids.length) return;
  const ids = p.query<{ id: string }>(`SELECT id FROM main.blocks WHERE rowid IN (${rowids.map(() => '?').join(',')})`, rowids).map((x) => x.id);
  // The projection came back with the undo; re-solve only if it no longer matches the data.
  await refreshStale(p, solve, ids);
}

export interface PlanApplication {
  create: NewBlock[];
  update: Array<{ id: string; baseUpdatedAt: string } & BlockUpdate>;
}

/**
 * Create and update several blocks as ONE undoable action (a plan's Apply). `extra` writes more of
 * the same action inside it (Balance Factory's pins and science block).
 */
export async function applyPlan(p: Project, solve: BlockSolver, plan: PlanApplication, label: string, opts: { extra?: (db: Project['db']) => void; snapshotReason?: string } = {}): Promise<{ created: string[]; updated: string[] }> {
  const creates = await Promise.all(plan.create.map(async (b) => ({ b, doc: parseBlockDoc(b.doc), ...(await trySolve(solve, parseBlockDoc(b.doc))) })));
  for (const c of creates) checkOneScienceBlock(p, c.doc);
  const updates = await Promise.all(
    plan.update.map(async (u) => {
      const cur = getBlock(p, u.id);
      if (cur.updatedAt !== u.baseUpdatedAt) throw new BlockError(`Block "${cur.name}" was changed since the plan was drafted; draft the plan again.`, 'stale');
      const doc = u.doc !== undefined ? parseBlockDoc(u.doc) : cur.doc;
      return { u, cur, doc, ...(await trySolve(solve, doc)) };
    }),
  );
  const stamp = currentStamp(p);
  const created: string[] = [];
  p.write(
    (db) => {
      for (const c of creates) {
        const id = newId('b');
        insertBlock(p, c.b, c.doc, id, now());
        writeProjection(p, id, c.doc, c.result, stamp, c.broken);
        created.push(id);
      }
      for (const x of updates) {
        insertSnapshot(p, x.cur, opts.snapshotReason ?? 'before plan', true);
        db.run('UPDATE main.blocks SET name = ?, data = ?, updated_at = ? WHERE id = ?', [x.u.name?.trim() || x.cur.name, JSON.stringify(x.doc), nextTimestamp(x.cur.updatedAt), x.u.id]);
        writeProjection(p, x.u.id, x.doc, x.result, stamp, x.broken);
      }
      opts.extra?.(db);
    },
    { undo: label },
  );
  return { created, updated: updates.map((x) => x.u.id) };
}
