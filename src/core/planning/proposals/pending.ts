// Pending proposals: drafts made by Copilot agent mode (language-model tools), an MCP client or a
// `pyops tool` call in a terminal. A chat's drafts live in its conversation, where the cards find
// them; these callers have no conversation in the project, so their drafts are kept here until the
// user applies or dismisses them from the side panel (or with `pyops proposal`). Keeping or
// dismissing one is not a change to the factory, so neither is an undo step; applying goes through
// the normal apply path (one undoable action) and is recorded on the row, so a reload still shows
// it as applied.
import { z } from 'zod';
import type { Project } from '../../db/project';
import { newId, now } from '../../work/ids';
import { all } from '../../db/sqlite';
import { applicable, blocksGone, type ApplyOutcome, type ProposalKind } from './apply';
import type { BlockSolver } from '../factory/blocks';

export const PENDING_TOOLS = { submitBlock: 'block', reviseBlock: 'update', submitPlan: 'plan', balanceFactory: 'balance' } as const satisfies Record<string, ProposalKind>;
export type PendingTool = keyof typeof PENDING_TOOLS;
export type PendingSource = 'vscode' | 'mcp' | 'terminal';
const SOURCES: readonly PendingSource[] = ['vscode', 'mcp', 'terminal'];

/** The newest this many are kept; keeping one more drops the oldest (and says which). */
export const MAX_PENDING = 30;

/** A pending proposal dropped to make room for a newer one, as the caller is told about it. */
export interface DroppedPending {
  id: string;
  title: string;
  kind: ProposalKind;
  createdAt: string;
  /** It had been applied (its blocks stay); else the draft itself is gone. */
  applied: boolean;
}

export interface AppliedRecord {
  label: string;
  created: string[];
  updated: string[];
  at: string;
}

export interface PendingProposal {
  id: string;
  tool: PendingTool;
  kind: ProposalKind;
  source: PendingSource;
  title: string;
  createdAt: string;
  input: unknown;
  /** The tool's draft (Draft, RevisionDraft or PlanDraft) as returned. */
  result: unknown;
  applied: AppliedRecord | null;
  /** Applied, and every block it created is gone again (undone or deleted): it can be applied again. */
  undone: boolean;
}

const appliedSchema = z.object({ label: z.string(), created: z.array(z.string()), updated: z.array(z.string()), at: z.string() });

interface Row {
  id: string;
  tool: string;
  source: string;
  title: string;
  input: string;
  result: string;
  created_at: string;
  applied: string | null;
}

export const isPendingTool = (name: string): name is PendingTool => Object.prototype.hasOwnProperty.call(PENDING_TOOLS, name);

/** A project opened read-only before its migration has no table yet: it simply has none pending. */
function hasTable(p: Project): boolean {
  return p.query<{ n: number }>("SELECT COUNT(*) AS n FROM main.sqlite_master WHERE type = 'table' AND name = 'pending_proposals'")[0].n > 0;
}

function parse<T>(text: string | null, fallback: T): unknown {
  if (text === null) return fallback;
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

function fromRow(p: Project, r: Row): PendingProposal | undefined {
  if (!isPendingTool(r.tool)) return undefined;
  const a = appliedSchema.safeParse(parse(r.applied, null));
  const applied = a.success ? a.data : null;
  return {
    id: r.id,
    tool: r.tool,
    kind: PENDING_TOOLS[r.tool],
    source: (SOURCES as readonly string[]).includes(r.source) ? (r.source as PendingSource) : 'vscode',
    title: r.title,
    createdAt: r.created_at,
    input: parse(r.input, null),
    result: parse(r.result, null),
    applied,
    undone: applied ? blocksGone(p, applied.created) : false,
  };
}

function titleOf(tool: PendingTool, result: unknown): string {
  const r = (result ?? {}) as { name?: unknown; title?: unknown };
  if (tool === 'balanceFactory') return 'Balance factory';
  const t = tool === 'submitPlan' ? r.title : r.name;
  return typeof t === 'string' && t.trim() ? t.trim().slice(0, 200) : tool === 'submitPlan' ? 'Plan' : 'Block';
}

/**
 * Keep a draft for the side panel. Beyond MAX_PENDING the oldest are dropped in the same write,
 * and returned, so the caller can say which: nothing acknowledged vanishes without a word.
 */
export function keepPending(p: Project, k: { tool: PendingTool; source: PendingSource; input: unknown; result: unknown }): { kept: PendingProposal; dropped: DroppedPending[] } {
  const id = newId('pp');
  const title = titleOf(k.tool, k.result);
  const at = now();
  let rows: Array<Pick<Row, 'id' | 'tool' | 'title' | 'created_at' | 'applied'>> = [];
  p.write((db) => {
    db.run('INSERT INTO main.pending_proposals(id, tool, source, title, input, result, created_at, applied) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)', [
      id, k.tool, k.source, title, JSON.stringify(k.input ?? null), JSON.stringify(k.result), at,
    ]);
    const beyond = `SELECT id FROM main.pending_proposals ORDER BY created_at DESC, rowid DESC LIMIT -1 OFFSET ${MAX_PENDING}`;
    rows = all<Pick<Row, 'id' | 'tool' | 'title' | 'created_at' | 'applied'>>(db, `SELECT id, tool, title, created_at, applied FROM main.pending_proposals WHERE id IN (${beyond}) ORDER BY created_at, rowid`);
    if (rows.length) db.run(`DELETE FROM main.pending_proposals WHERE id IN (${beyond})`);
  });
  const dropped = rows.map((r) => ({ id: r.id, title: r.title, kind: isPendingTool(r.tool) ? PENDING_TOOLS[r.tool] : 'block', createdAt: r.created_at, applied: r.applied !== null }));
  return { kept: getPending(p, id)!, dropped };
}

/** Pending proposals, newest first. */
export function listPending(p: Project): PendingProposal[] {
  if (!hasTable(p)) return [];
  return p
    .query<Row>('SELECT * FROM main.pending_proposals ORDER BY created_at DESC, rowid DESC')
    .map((r) => fromRow(p, r))
    .filter((x): x is PendingProposal => !!x);
}

export function getPending(p: Project, id: string): PendingProposal | undefined {
  if (!hasTable(p)) return undefined;
  const r = p.query<Row>('SELECT * FROM main.pending_proposals WHERE id = ?', [id])[0];
  return r ? fromRow(p, r) : undefined;
}

function requirePending(p: Project, id: string): PendingProposal {
  const x = getPending(p, id);
  if (!x) throw new Error('That pending proposal is gone (dismissed, or dropped as one of the oldest). Ask for the draft again.');
  return x;
}

/** Remove a pending proposal (applied or not); the blocks it created stay. */
export function dismissPending(p: Project, id: string): void {
  requirePending(p, id);
  p.write((db) => db.run('DELETE FROM main.pending_proposals WHERE id = ?', [id]));
}

/**
 * Apply a pending proposal through the normal save path (one undoable action) and record that on
 * its row. `confirm` is asked before applying an unsolved draft or one applied before (and not
 * undone); answering false applies nothing.
 */
export async function applyPending(
  p: Project,
  solve: BlockSolver,
  id: string,
  confirm: (question: { kind: 'unsolved' | 'again'; message: string }) => boolean | Promise<boolean> = () => true,
): Promise<ApplyOutcome | undefined> {
  const x = requirePending(p, id);
  if (x.applied && !x.undone && !(await confirm({ kind: 'again', message: `This proposal was already applied (${x.applied.label}). Apply it again?` }))) return undefined;
  const target = applicable(x.kind, x.result);
  if (!target.ok && !(await confirm({ kind: 'unsolved', message: target.problem! }))) return undefined;
  const outcome = await target.apply(p, solve);
  const record: AppliedRecord = { ...outcome, at: now() };
  // Its own write, outside the undo step: undoing the apply removes the blocks, and the row then
  // reads as "applied, then undone" (its created blocks are gone) — it can be applied again.
  p.write((db) => db.run('UPDATE main.pending_proposals SET applied = ? WHERE id = ?', [JSON.stringify(record), id]));
  return outcome;
}
