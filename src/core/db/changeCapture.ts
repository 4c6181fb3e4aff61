// What a write changed: the rowids each transaction touched (for its journal frame) and, for an
// undoable write, each touched row as it was before (for the undo log, see undo.ts).
import { all, type Database } from './sqlite';
import { quoteId, readRow, readRows } from './rowImages';
import type { JournalChange, JournalFrame } from './journal';

/** The temp table the undo triggers fill with before-images (first touch per row wins). */
export const BEFORE = 'temp._pyops_before';

/**
 * Tables outside undo: identity/provenance, the undo history itself, and the conversations — a log
 * of what was said, which Undo never rewinds (no undoable action writes it). Staying out matters
 * for speed too: a table's undo triggers are compiled into every statement that writes it, and
 * chat saves are the most frequent writes there are.
 */
const NOT_UNDOABLE = new Set(['meta', 'undo_actions', 'undo_changes', 'conversations', 'conversation_messages']);

/**
 * What the open transaction touched, for the journal, and whether its before-images are wanted
 * (undoable writes only).
 */
export interface ChangeCapture {
  /** Set by write() for the duration of an undoable write. */
  undo: boolean;
  /** The touched rowids per table, emptied. */
  take(): Map<string, Set<number>>;
}

/**
 * SQLite's update hook reports every inserted and updated row to us directly (no temp table, no
 * extra statements per save). It is silent on rows a REPLACE conflict deletes and on a DELETE
 * without WHERE (the truncate optimization), so each table gets an AFTER DELETE trigger that reports
 * the row — with recursive triggers, REPLACE deletes fire it, and any trigger disables truncation —
 * and one for the rare UPDATE that moves a row to another rowid. Temp objects are never exported.
 */
export function installChangeCapture(db: Database): ChangeCapture {
  let touched = new Map<string, Set<number>>();
  const touch = (table: string, rowid: number) => {
    let set = touched.get(table);
    if (!set) touched.set(table, (set = new Set()));
    set.add(rowid);
  };
  const capture: ChangeCapture = {
    undo: false,
    take() {
      const t = touched;
      touched = new Map();
      return t;
    },
  };
  db.updateHook((_op, schema, table, rowid) => {
    if (schema === 'main') touch(table, rowid);
  });
  db.create_function('pyops_touched', (table: unknown, rowid: unknown) => {
    touch(String(table), Number(rowid));
    return null;
  });
  db.create_function('pyops_undo_capture', () => (capture.undo ? 1 : 0));
  db.run('PRAGMA recursive_triggers = ON');
  const tables = all<{ name: string }>(db, "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").map((r) => r.name);
  // Undo keeps each touched row's image from before the write (first touch wins). No unique key:
  // a conflict clause on the outer statement (an upsert, INSERT OR REPLACE) would override an
  // OR IGNORE inside the trigger, so "first touch" is a NOT EXISTS test instead.
  const sql = [
    'CREATE TEMP TABLE IF NOT EXISTS _pyops_before (tbl TEXT NOT NULL, rid INTEGER NOT NULL, img TEXT);',
    'CREATE INDEX IF NOT EXISTS temp._pyops_before_key ON _pyops_before (tbl, rid);',
  ];
  const firstTouch = (lit: string, rid: string, img: string) =>
    `INSERT INTO _pyops_before (tbl, rid, img) SELECT ${lit}, ${rid}, ${img} WHERE NOT EXISTS (SELECT 1 FROM _pyops_before WHERE tbl = ${lit} AND rid = ${rid});`;
  for (const t of tables) {
    const lit = `'${t.replace(/'/g, "''")}'`;
    const id = quoteId(t);
    sql.push(`CREATE TEMP TRIGGER IF NOT EXISTS ${quoteId(`_pyj_d_${t}`)} AFTER DELETE ON main.${id} BEGIN SELECT pyops_touched(${lit}, OLD.rowid); END;`);
    sql.push(`CREATE TEMP TRIGGER IF NOT EXISTS ${quoteId(`_pyj_m_${t}`)} AFTER UPDATE ON main.${id} WHEN OLD.rowid IS NOT NEW.rowid BEGIN SELECT pyops_touched(${lit}, OLD.rowid); END;`);
    if (NOT_UNDOABLE.has(t)) continue;
    const cols = all<{ name: string }>(db, `PRAGMA main.table_info(${id})`).map((c) => c.name);
    const img = (row: 'OLD' | 'NEW') => `json_object(${cols.map((c) => `'${c.replace(/'/g, "''")}', ${row}.${quoteId(c)}`).join(', ')})`;
    const when = 'WHEN pyops_undo_capture()';
    sql.push(`CREATE TEMP TRIGGER IF NOT EXISTS ${quoteId(`_pyu_i_${t}`)} AFTER INSERT ON main.${id} ${when} BEGIN ${firstTouch(lit, 'NEW.rowid', 'NULL')} END;`);
    sql.push(`CREATE TEMP TRIGGER IF NOT EXISTS ${quoteId(`_pyu_u_${t}`)} BEFORE UPDATE ON main.${id} ${when} BEGIN ${firstTouch(lit, 'OLD.rowid', img('OLD'))} ${firstTouch(lit, 'NEW.rowid', 'NULL')} END;`);
    sql.push(`CREATE TEMP TRIGGER IF NOT EXISTS ${quoteId(`_pyu_d_${t}`)} BEFORE DELETE ON main.${id} ${when} BEGIN ${firstTouch(lit, 'OLD.rowid', img('OLD'))} END;`);
  }
  // One call: each statement through its own prepare would cost the startup-critical path more.
  db.exec(sql.join('\n'));
  return capture;
}

/** Final state of every row the transaction touched (deleted rows as null): the save's journal frame. */
export function collectChanges(db: Database, touched: Map<string, Set<number>>): JournalFrame {
  const changes: JournalChange[] = [];
  for (const [table, rids] of touched) {
    const ids = [...rids];
    if (ids.length === 1) {
      changes.push({ table, rowid: ids[0], row: readRow(db, table, ids[0]) ?? null });
      continue;
    }
    const found = readRows(db, table, ids);
    for (const rowid of ids) changes.push({ table, rowid, row: found.get(rowid) ?? null });
  }
  return { changes };
}
