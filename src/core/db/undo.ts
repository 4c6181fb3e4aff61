// The undo log: an undoable write keeps the rows it touched as they were before (captured by the
// triggers in changeCapture.ts); undo puts those images back and keeps the current ones for redo.
// The log lives in the project's own tables, so it is journalled and survives a restart.
import { all, scalar, type Database } from './sqlite';
import { BEFORE } from './changeCapture';
import { putRow, readRow, quoteId } from './rowImages';
import { nowIso } from './meta';

/** Undo history length (older actions are dropped). */
export const UNDO_LIMIT = 50;

export interface UndoEntry {
  id: number;
  label: string;
  createdAt: string;
}
export interface UndoResult extends UndoEntry {
  /** Rows the undo/redo rewrote. */
  touched: Array<{ table: string; rowid: number }>;
}

/** Store the before-images of this write as one undo action; a new action drops the redo list. */
export function recordUndo(db: Database, label: string): void {
  const rows = all<{ tbl: string; rid: number; img: string | null }>(db, `SELECT tbl, rid, img FROM ${BEFORE} ORDER BY tbl, rid`);
  db.run(`DELETE FROM ${BEFORE}`);
  if (!rows.length) return;
  db.run('DELETE FROM main.undo_changes WHERE action_id IN (SELECT id FROM main.undo_actions WHERE undone = 1)');
  db.run('DELETE FROM main.undo_actions WHERE undone = 1');
  db.run('INSERT INTO main.undo_actions(label, created_at, undone) VALUES (?, ?, 0)', [label, nowIso()]);
  const id = Number(scalar(db, 'SELECT last_insert_rowid()'));
  const stmt = db.prepare('INSERT INTO main.undo_changes(action_id, seq, tbl, row_key, before, after) VALUES (?, ?, ?, ?, ?, NULL)');
  try {
    rows.forEach((r, i) => stmt.run([id, i, r.tbl, String(r.rid), r.img]));
  } finally {
    stmt.free();
  }
  db.run(`DELETE FROM main.undo_changes WHERE action_id IN (SELECT id FROM main.undo_actions ORDER BY id DESC LIMIT -1 OFFSET ${UNDO_LIMIT})`);
  db.run(`DELETE FROM main.undo_actions WHERE id IN (SELECT id FROM main.undo_actions ORDER BY id DESC LIMIT -1 OFFSET ${UNDO_LIMIT})`);
}

/** The action "Undo" would revert, if any. */
export function nextUndo(db: Database): UndoEntry | undefined {
  return all<UndoEntry>(db, 'SELECT id, label, created_at AS createdAt FROM main.undo_actions WHERE undone = 0 ORDER BY id DESC LIMIT 1')[0];
}

/** The action "Redo" would re-apply, if any. */
export function nextRedo(db: Database): UndoEntry | undefined {
  return all<UndoEntry>(db, 'SELECT id, label, created_at AS createdAt FROM main.undo_actions WHERE undone = 1 ORDER BY id ASC LIMIT 1')[0];
}

function rowImage(db: Database, table: string, rowid: number): string | null {
  const row = readRow(db, table, rowid);
  return row ? JSON.stringify(row) : null;
}

function putImage(db: Database, table: string, rowid: number, img: string | null): void {
  db.run(`DELETE FROM main.${quoteId(table)} WHERE rowid = ?`, [rowid]);
  if (img !== null) putRow(db, table, rowid, JSON.parse(img) as Record<string, unknown>);
}

/** Undo: put back the before-images (keeping the current ones for redo); redo: the reverse. */
export function swapImages(db: Database, entry: UndoEntry, direction: 'undo' | 'redo'): UndoResult {
  const changes = all<{ seq: number; tbl: string; row_key: string; before: string | null; after: string | null }>(
    db, 'SELECT seq, tbl, row_key, before, after FROM main.undo_changes WHERE action_id = ? ORDER BY seq', [entry.id],
  );
  const touched: UndoResult['touched'] = [];
  const now = changes.map((c) => rowImage(db, c.tbl, Number(c.row_key)));
  // Deletions first so unique keys never collide while rows move back.
  const order = [...changes.keys()].sort((a, b) => Number((direction === 'undo' ? changes[a].before : changes[a].after) !== null) - Number((direction === 'undo' ? changes[b].before : changes[b].after) !== null));
  for (const i of order) {
    const c = changes[i];
    putImage(db, c.tbl, Number(c.row_key), direction === 'undo' ? c.before : c.after);
    touched.push({ table: c.tbl, rowid: Number(c.row_key) });
  }
  const col = direction === 'undo' ? 'after' : 'before';
  const stmt = db.prepare(`UPDATE main.undo_changes SET ${col} = ? WHERE action_id = ? AND seq = ?`);
  try {
    changes.forEach((c, i) => stmt.run([now[i], entry.id, c.seq]));
  } finally {
    stmt.free();
  }
  db.run('UPDATE main.undo_actions SET undone = ? WHERE id = ?', [direction === 'undo' ? 1 : 0, entry.id]);
  return { ...entry, touched };
}
