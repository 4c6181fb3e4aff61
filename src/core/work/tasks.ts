// Tasks: a tree of follow-up work with a markdown body, an ordered checklist of steps and links
// to goods, recipes, technologies, blocks, entities or map locations. Every write is one undoable
// action. Progress = done (steps + subtasks) / all.
import { z } from 'zod';
import type { Project } from '../db/project';
import { scalar } from '../db/sqlite';
import { newId, now } from './ids';

export const TASK_STATUSES = ['open', 'in_progress', 'done', 'closed'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const LINK_KINDS = ['item', 'fluid', 'recipe', 'technology', 'block', 'entity', 'location'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

export const linkInput = z.object({
  kind: z.enum(LINK_KINDS),
  name: z.string().min(1).max(200).describe('Internal name (or block id; for a location "surface|x|y")'),
});
export const createTaskInput = z.object({
  title: z.string().trim().min(1).max(200),
  body: z.string().max(20_000).optional(),
  parentId: z.string().min(1).optional(),
  status: z.enum(TASK_STATUSES).optional(),
  steps: z.array(z.string().trim().min(1).max(500)).max(50).optional(),
  links: z.array(linkInput).max(30).optional(),
});
export type CreateTaskInput = z.infer<typeof createTaskInput>;
export const updateTaskInput = z.object({
  id: z.string().min(1),
  title: z.string().trim().min(1).max(200).optional(),
  body: z.string().max(20_000).optional(),
  status: z.enum(TASK_STATUSES).optional(),
  parentId: z.string().min(1).nullable().optional(),
});
export type UpdateTaskInput = z.infer<typeof updateTaskInput>;

export interface TaskStep { id: string; text: string; done: boolean }
export interface TaskLink { id: string; kind: LinkKind; name: string; data?: unknown }
export interface TaskSummary {
  id: string;
  parentId: string | null;
  title: string;
  status: TaskStatus;
  priority: number | null;
  progress: { done: number; total: number };
  updatedAt: string;
}
export interface TaskDetail extends TaskSummary {
  body: string;
  priorityReason: string | null;
  steps: TaskStep[];
  links: TaskLink[];
  subtasks: TaskSummary[];
  createdAt: string;
}

export class TaskError extends Error {
  constructor(
    message: string,
    readonly code: 'not-found' | 'invalid' = 'invalid',
  ) {
    super(message);
    this.name = 'TaskError';
  }
}

interface TaskRow { id: string; parent_id: string | null; title: string; body: string; status: TaskStatus; priority: number | null; priority_reason: string | null; created_at: string; updated_at: string }

function summaries(p: Project, where = '', params: string[] = []): TaskSummary[] {
  const rows = p.query<TaskRow>(`SELECT * FROM tasks ${where} ORDER BY sort_order, created_at`, params);
  const steps = p.query<{ task_id: string; total: number; done: number }>('SELECT task_id, count(*) AS total, sum(done) AS done FROM task_steps GROUP BY task_id');
  const children = p.query<{ parent_id: string; total: number; done: number }>(
    "SELECT parent_id, count(*) AS total, sum(status IN ('done', 'closed')) AS done FROM tasks WHERE parent_id IS NOT NULL GROUP BY parent_id",
  );
  const s = new Map(steps.map((r) => [r.task_id, r]));
  const c = new Map(children.map((r) => [r.parent_id, r]));
  return rows.map((r) => ({
    id: r.id,
    parentId: r.parent_id,
    title: r.title,
    status: r.status,
    priority: r.priority,
    progress: { done: Number(s.get(r.id)?.done ?? 0) + Number(c.get(r.id)?.done ?? 0), total: Number(s.get(r.id)?.total ?? 0) + Number(c.get(r.id)?.total ?? 0) },
    updatedAt: r.updated_at,
  }));
}

export function listTasks(p: Project): TaskSummary[] {
  return summaries(p);
}

export function getTask(p: Project, id: string): TaskDetail {
  const row = p.query<TaskRow>('SELECT * FROM tasks WHERE id = ?', [id])[0];
  if (!row) throw noSuchTask(id);
  // One pass over the progress aggregates for the task and its direct subtasks.
  const family = summaries(p, 'WHERE id = ? OR parent_id = ?', [id, id]);
  const summary = family.find((t) => t.id === id)!;
  return {
    ...summary,
    body: row.body,
    priorityReason: row.priority_reason,
    createdAt: row.created_at,
    steps: p.query<{ id: string; text: string; done: number }>('SELECT id, text, done FROM task_steps WHERE task_id = ? ORDER BY idx, rowid', [id]).map((s) => ({ id: s.id, text: s.text, done: !!s.done })),
    links: p.query<{ id: string; kind: LinkKind; name: string; data: string | null }>('SELECT id, kind, name, data FROM task_links WHERE task_id = ? ORDER BY rowid', [id]).map((l) => ({
      id: l.id, kind: l.kind, name: l.name, ...(l.data ? { data: JSON.parse(l.data) } : {}),
    })),
    subtasks: family.filter((t) => t.parentId === id),
  };
}

const noSuchTask = (id: string) => new TaskError(`There is no task with id "${id}"; call listTasks to see the task ids.`, 'not-found');

function requireTask(p: Project, id: string): void {
  if (!p.query('SELECT 1 FROM tasks WHERE id = ?', [id]).length) throw noSuchTask(id);
}

export function createTask(p: Project, input: CreateTaskInput, extraLinks: Array<{ kind: LinkKind; name: string; data?: unknown }> = []): { id: string; title: string } {
  const t = createTaskInput.parse(input);
  if (t.parentId) requireTask(p, t.parentId);
  const id = newId('t');
  const ts = now();
  p.write(
    (db) => {
      const order = Number(scalar(db, 'SELECT coalesce(max(sort_order), 0) + 1 FROM tasks') ?? 1);
      db.run('INSERT INTO tasks(id, parent_id, title, body, status, sort_order, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
        id, t.parentId ?? null, t.title, t.body ?? '', t.status ?? 'open', order, ts, ts,
      ]);
      (t.steps ?? []).forEach((text, idx) => db.run('INSERT INTO task_steps(id, task_id, idx, text, done) VALUES (?, ?, ?, ?, 0)', [newId('s'), id, idx, text]));
      for (const l of [...(t.links ?? []), ...extraLinks]) {
        db.run('INSERT INTO task_links(id, task_id, kind, name, data) VALUES (?, ?, ?, ?, ?)', [newId('l'), id, l.kind, l.name, 'data' in l && l.data !== undefined ? JSON.stringify(l.data) : null]);
      }
    },
    { undo: `Create task "${t.title}"` },
  );
  return { id, title: t.title };
}

export function updateTask(p: Project, input: UpdateTaskInput): { id: string } {
  const u = updateTaskInput.parse(input);
  requireTask(p, u.id);
  if (u.parentId) {
    requireTask(p, u.parentId);
    // A task cannot move under itself or its own descendants.
    for (let cur: string | null = u.parentId; cur; cur = p.query<{ parent_id: string | null }>('SELECT parent_id FROM tasks WHERE id = ?', [cur])[0]?.parent_id ?? null) {
      if (cur === u.id) throw new TaskError('A task cannot become a subtask of itself or of one of its subtasks.');
    }
  }
  const sets: string[] = [];
  const params: Array<string | null> = [];
  for (const [col, v] of [['title', u.title], ['body', u.body], ['status', u.status], ['parent_id', u.parentId]] as const) {
    if (v === undefined) continue;
    sets.push(`${col} = ?`);
    params.push(v);
  }
  if (!sets.length) throw new TaskError('Nothing to update: give a title, body, status or parentId.');
  p.write((db) => db.run(`UPDATE tasks SET ${sets.join(', ')}, updated_at = ? WHERE id = ?`, [...params, now(), u.id]), { undo: updateLabel(p, u) });
  return { id: u.id };
}

/** The undo label of an update, naming the task and, for a single kind of change, what changed. */
function updateLabel(p: Project, u: UpdateTaskInput): string {
  const title = p.query<{ title: string }>('SELECT title FROM tasks WHERE id = ?', [u.id])[0]?.title ?? u.id;
  const changed = (['title', 'body', 'status', 'parentId'] as const).filter((k) => u[k] !== undefined);
  if (changed.length !== 1) return `Update task "${title}"`;
  switch (changed[0]) {
    case 'title':
      return `Rename task "${title}" to "${u.title}"`;
    case 'body':
      return `Edit task "${title}"`;
    case 'status':
      return `Mark task "${title}" ${u.status!.replace('_', ' ')}`;
    default:
      return u.parentId ? `Move task "${title}"` : `Make task "${title}" top-level`;
  }
}

export function addTaskStep(p: Project, taskId: string, text: string): { id: string } {
  const t = z.string().trim().min(1).max(500).parse(text);
  requireTask(p, taskId);
  const id = newId('s');
  p.write(
    (db) => {
      const idx = Number(scalar(db, 'SELECT coalesce(max(idx), -1) + 1 FROM task_steps WHERE task_id = ?', [taskId]) ?? 0);
      db.run('INSERT INTO task_steps(id, task_id, idx, text, done) VALUES (?, ?, ?, ?, 0)', [id, taskId, idx, t]);
      db.run('UPDATE tasks SET updated_at = ? WHERE id = ?', [now(), taskId]);
    },
    { undo: 'Add task step' },
  );
  return { id };
}

export function setStepDone(p: Project, stepId: string, done: boolean): void {
  if (!p.query('SELECT 1 FROM task_steps WHERE id = ?', [stepId]).length) throw new TaskError(`There is no task step "${stepId}".`, 'not-found');
  p.write((db) => db.run('UPDATE task_steps SET done = ? WHERE id = ?', [done ? 1 : 0, stepId]), { undo: done ? 'Tick step' : 'Untick step' });
}

interface StepRow { id: string; task_id: string; idx: number; text: string }

function requireStep(p: Project, stepId: string): StepRow {
  const s = p.query<StepRow>('SELECT id, task_id, idx, text FROM task_steps WHERE id = ?', [stepId])[0];
  if (!s) throw new TaskError(`There is no task step "${stepId}"; it may have been deleted (getTask lists a task's steps).`, 'not-found');
  return s;
}

export function editTaskStep(p: Project, stepId: string, text: string): void {
  const t = z.string().trim().min(1).max(500).parse(text);
  const s = requireStep(p, stepId);
  p.write(
    (db) => {
      db.run('UPDATE task_steps SET text = ? WHERE id = ?', [t, stepId]);
      db.run('UPDATE tasks SET updated_at = ? WHERE id = ?', [now(), s.task_id]);
    },
    { undo: 'Edit step' },
  );
}

/**
 * Move a step one place up or down in its task's checklist (swapping with its neighbour). Returns
 * false, writing nothing, when it is already first (up) or last (down).
 */
export function moveTaskStep(p: Project, stepId: string, direction: 'up' | 'down'): boolean {
  const s = requireStep(p, stepId);
  // Order by idx, then id: steps written by older versions may share an idx, and a swap must still
  // move exactly one place, so the whole list is renumbered 0..n-1 in the same write.
  const order = p.query<{ id: string }>('SELECT id FROM task_steps WHERE task_id = ? ORDER BY idx, rowid', [s.task_id]).map((r) => r.id);
  const at = order.indexOf(stepId);
  const to = direction === 'up' ? at - 1 : at + 1;
  if (to < 0 || to >= order.length) return false;
  [order[at], order[to]] = [order[to], order[at]];
  p.write(
    (db) => {
      order.forEach((id, idx) => db.run('UPDATE task_steps SET idx = ? WHERE id = ?', [idx, id]));
      db.run('UPDATE tasks SET updated_at = ? WHERE id = ?', [now(), s.task_id]);
    },
    { undo: `Move step ${direction}` },
  );
  return true;
}

export function deleteTaskStep(p: Project, stepId: string): void {
  const s = requireStep(p, stepId);
  p.write(
    (db) => {
      db.run('DELETE FROM task_steps WHERE id = ?', [stepId]);
      db.run('UPDATE tasks SET updated_at = ? WHERE id = ?', [now(), s.task_id]);
    },
    { undo: `Delete step "${s.text.length > 40 ? `${s.text.slice(0, 40)}…` : s.text}"` },
  );
}

export function linkTask(p: Project, taskId: string, link: { kind: LinkKind; name: string; data?: unknown }): { id: string } {
  const l = linkInput.parse({ kind: link.kind, name: link.name });
  requireTask(p, taskId);
  const id = newId('l');
  p.write((db) => db.run('INSERT INTO task_links(id, task_id, kind, name, data) VALUES (?, ?, ?, ?, ?)', [id, taskId, l.kind, l.name, link.data === undefined ? null : JSON.stringify(link.data)]), {
    undo: `Link ${l.kind} to task`,
  });
  return { id };
}

export function unlinkTask(p: Project, linkId: string): void {
  const l = p.query<{ task_id: string; kind: string }>('SELECT task_id, kind FROM task_links WHERE id = ?', [linkId])[0];
  if (!l) throw new TaskError(`There is no task link "${linkId}"; it may have been removed already (getTask lists a task's links).`, 'not-found');
  p.write(
    (db) => {
      db.run('DELETE FROM task_links WHERE id = ?', [linkId]);
      db.run('UPDATE tasks SET updated_at = ? WHERE id = ?', [now(), l.task_id]);
    },
    { undo: `Unlink ${l.kind} from task` },
  );
}

/** Delete a task with its steps, links and subtasks (one undoable action). */
export function deleteTask(p: Project, id: string): void {
  requireTask(p, id);
  const ids = [id];
  for (let i = 0; i < ids.length; i++) for (const r of p.query<{ id: string }>('SELECT id FROM tasks WHERE parent_id = ?', [ids[i]])) ids.push(r.id);
  p.write(
    (db) => {
      for (const t of ids) {
        db.run('DELETE FROM task_steps WHERE task_id = ?', [t]);
        db.run('DELETE FROM task_links WHERE task_id = ?', [t]);
        db.run('DELETE FROM tasks WHERE id = ?', [t]);
      }
    },
    { undo: 'Delete task' },
  );
}
