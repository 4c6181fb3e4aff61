// The bridge's task messages: `task.capture` (a task typed into the in-game dialog becomes a
// project task, anchored to where the player stood or what they pointed at) and `task.list` (the
// project's tasks, bounded, for the in-game Tasks tab). Task storage itself is core/work/tasks.
import { z } from 'zod';
import type { Project } from '../db/project';
import { createTask, getTask, listTasks, type LinkKind } from '../work/tasks';

const anyFinite = z.number();

export const taskCapturePayload = z
  .object({
    title: z.string().max(2000).optional(),
    text: z.string().max(2000).optional(),
    body: z.string().max(20_000).optional(),
    anchor: z.string().max(40).optional(),
    surface: z.string().min(1).max(200).optional(),
    x: anyFinite.optional(),
    y: anyFinite.optional(),
    entity: z.string().min(1).max(200).optional(),
  })
  .refine((t) => !!(t.title ?? t.text)?.trim(), { message: 'a task needs a title (or text)' });

export type TaskCaptured = { ok: true; id: string; title: string } | { ok: false; error: string };

/** Create the project task for an in-game capture. Never throws: failures become `{ok:false}`. */
export function captureTask(p: Project | undefined, payload: z.infer<typeof taskCapturePayload>): TaskCaptured {
  if (!p) return { ok: false, error: 'No PyOps project is open in the app; open one there, then capture again.' };
  if (p.readOnly) return { ok: false, error: `The PyOps project "${p.name}" is read-only (${p.readOnlyReason}); the task was not saved.` };
  const raw = (payload.title ?? payload.text ?? '').trim();
  const [first, ...rest] = raw.split(/\r?\n/);
  const title = first.trim().slice(0, 200) || 'Task from the game';
  const bodyParts = [rest.join('\n').trim(), payload.body?.trim() ?? ''].filter(Boolean);
  const where: string[] = [];
  const links: Array<{ kind: LinkKind; name: string }> = [];
  if (payload.surface && payload.x !== undefined && payload.y !== undefined) {
    const x = Math.round(payload.x);
    const y = Math.round(payload.y);
    links.push({ kind: 'location', name: `${payload.surface}|${x}|${y}` });
    where.push(`at ${payload.surface} (${x}, ${y})`);
  }
  if (payload.entity) {
    links.push({ kind: 'entity', name: payload.entity });
    where.push(`next to ${payload.entity}`);
  }
  bodyParts.push(`Captured in game${where.length ? ' ' + where.join(', ') : ''}.`);
  try {
    const t = createTask(p, { title, body: bodyParts.join('\n\n').slice(0, 20_000), links });
    return { ok: true, id: t.id, title: t.title };
  } catch (err) {
    return { ok: false, error: `Could not save the task: ${(err as Error).message}` };
  }
}

export interface GameTask {
  id: string;
  parentId: string | null;
  title: string;
  status: string;
  priority: number | null;
  stepTotal: number;
  stepDone: number;
  body: string;
  steps: Array<{ text: string; done: boolean }>;
  links: Array<{ kind: string; name: string; display: string; surface?: string; x?: number; y?: number }>;
}

const LIMITS = { tasks: 100, body: 300, steps: 10, stepText: 120, links: 6, bytes: 48_000 };

const DISPLAY_SQL: Partial<Record<LinkKind, string>> = {
  item: 'SELECT display FROM gd.items WHERE name = ?',
  fluid: 'SELECT display FROM gd.fluids WHERE name = ?',
  recipe: 'SELECT display FROM gd.recipes WHERE name = ?',
  technology: 'SELECT display FROM gd.technologies WHERE name = ?',
  entity: 'SELECT display FROM gd.crafting_machines WHERE name = ?',
  block: 'SELECT name AS display FROM main.blocks WHERE id = ?',
};

function display(p: Project, kind: LinkKind, name: string): string {
  const sql = DISPLAY_SQL[kind];
  if (!sql) return name;
  try {
    return p.query<{ display: string | null }>(sql, [name])[0]?.display || name;
  } catch {
    return name;
  }
}

/** The `task.list` payload the mod renders: open tasks first, bounded in count and bytes. */
export function gameTaskList(p: Project | undefined): { tasks: GameTask[]; truncated: boolean; project: string | null } {
  if (!p) return { tasks: [], truncated: false, project: null };
  const all = listTasks(p);
  const rank = (s: string) => (s === 'in_progress' ? 0 : s === 'open' ? 1 : 2);
  const ordered = [...all].sort((a, b) => rank(a.status) - rank(b.status));
  const tasks: GameTask[] = [];
  let bytes = 0;
  let truncated = ordered.length > LIMITS.tasks;
  for (const s of ordered.slice(0, LIMITS.tasks)) {
    const d = getTask(p, s.id);
    const t: GameTask = {
      id: d.id,
      parentId: d.parentId,
      title: d.title,
      status: d.status,
      priority: d.priority,
      stepTotal: d.steps.length,
      stepDone: d.steps.filter((x) => x.done).length,
      body: d.body.length > LIMITS.body ? d.body.slice(0, LIMITS.body - 1) + '…' : d.body,
      steps: d.steps.slice(0, LIMITS.steps).map((x) => ({ text: x.text.slice(0, LIMITS.stepText), done: x.done })),
      links: d.links.slice(0, LIMITS.links).map((l) => {
        if (l.kind === 'location') {
          const [surface, x, y] = l.name.split('|');
          return { kind: l.kind, name: l.name, display: `${surface} (${x}, ${y})`, surface, x: Number(x), y: Number(y) };
        }
        return { kind: l.kind, name: l.name, display: display(p, l.kind, l.name) };
      }),
    };
    bytes += JSON.stringify(t).length;
    if (bytes > LIMITS.bytes) {
      truncated = true;
      break;
    }
    tasks.push(t);
  }
  return { tasks, truncated, project: p.name };
}
