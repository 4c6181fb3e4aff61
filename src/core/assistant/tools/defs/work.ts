// Task and note tools. Tasks: reads plus reversible writes (one undo action per call); notes are
// the user's and read-only to the assistant.
import { z } from 'zod';
import { defineTool, plural, type AnyTool } from '../types';
import { MAX_RESULT_CHARS } from '../run';
import { addTaskStep, createTask, createTaskInput, getTask, linkTask, listTasks, updateTask, updateTaskInput, LINK_KINDS } from '../../../work/tasks';
import { listNotes } from '../../../work/notes';

const MAX_TASKS = 100;
const MAX_NOTES = 10;
const NOTE_BODY_CHARS = 4000;
/** JSON characters of one listNotes page: under the tool result cap, with room for the rest of the result. */
const NOTES_PAGE_CHARS = MAX_RESULT_CHARS - 4_000;
const linkTaskInput = z.object({ taskId: z.string().min(1), kind: z.enum(LINK_KINDS), name: z.string().min(1).max(200) });

export const workTools: AnyTool[] = [
  defineTool({
    name: 'listTasks',
    displayName: 'List tasks',
    tier: 'read',
    tags: ['tasks'],
    description:
      "Lists the project's tasks (the user's to-do tree) with id, parent, title, status and progress. Call it before creating a task, to avoid duplicates and to find the parent. For one task's body, steps and links use getTask.",
    input: z.object({}),
    run: (_i, ctx) => {
      const all = listTasks(ctx.project);
      return { tasks: all.slice(0, MAX_TASKS), total: all.length, truncated: all.length > MAX_TASKS };
    },
    describe: (_i, o) => `Listed ${plural(o.total, 'task')}`,
  }),
  defineTool({
    name: 'getTask',
    displayName: 'Get task',
    tier: 'read',
    tags: ['tasks'],
    description: 'Returns one task in full: body (markdown), ordered steps with done flags, links to goods/recipes/blocks/locations, and subtasks. Use the id from listTasks.',
    input: z.object({ id: z.string().min(1).describe('Task id from listTasks') }),
    run: (i, ctx) => getTask(ctx.project, i.id),
    describe: (_i, o) => `Read task "${o.title}"`,
  }),
  defineTool({
    name: 'createTask',
    displayName: 'Create task',
    tier: 'write',
    tags: ['tasks'],
    description:
      'Files follow-up work as a task (title, optional markdown body, parent, checklist steps, links with kind item|fluid|recipe|technology|block|entity|location and an internal name). Only when the user asked for it or agreed; call listTasks first. One undoable change.',
    input: createTaskInput,
    run: (i, ctx) => ({ ok: true, ...createTask(ctx.project, i) }),
    describe: (i) => `Created task "${i.title}"`,
  }),
  defineTool({
    name: 'updateTask',
    displayName: 'Update task',
    tier: 'write',
    tags: ['tasks'],
    description: "Edits a task's title, body, status (open|in_progress|done|closed) or parent. One undoable change.",
    input: updateTaskInput,
    run: (i, ctx) => ({ ok: true, ...updateTask(ctx.project, i) }),
    describe: (i) => `Updated task ${i.id}${i.status ? ` (now ${i.status})` : ''}`,
  }),
  defineTool({
    name: 'addTaskStep',
    displayName: 'Add task step',
    tier: 'write',
    tags: ['tasks'],
    description: "Appends one checklist step to a task. One undoable change.",
    input: z.object({ taskId: z.string().min(1), text: z.string().trim().min(1).max(500) }),
    run: (i, ctx) => ({ ok: true, ...addTaskStep(ctx.project, i.taskId, i.text) }),
    describe: (i) => `Added a step to task ${i.taskId}`,
  }),
  defineTool({
    name: 'linkTask',
    displayName: 'Link to task',
    tier: 'write',
    tags: ['tasks'],
    description: 'Attaches a chip to a task: a good, recipe, technology, block id, entity or map location ("surface|x|y"). One undoable change.',
    input: linkTaskInput,
    run: (i, ctx) => ({ ok: true, ...linkTask(ctx.project, i.taskId, { kind: i.kind, name: i.name }) }),
    describe: (i) => `Linked ${i.kind} ${i.name} to task ${i.taskId}`,
  }),
  defineTool({
    name: 'listNotes',
    displayName: 'List notes',
    tier: 'read',
    tags: ['notes'],
    description:
      `Returns the user's notes, newest edit first (id, title, markdown body; bodies over ${NOTE_BODY_CHARS} characters are cut and marked truncated). They are the user's own: read them for context and preferences; the assistant never edits them. Returns a page of up to \`limit\` notes (fewer when long bodies fill it); when nextOffset is not null, call again with offset: nextOffset for the rest.`,
    input: z.object({
      limit: z.number().int().min(1).max(MAX_NOTES).default(MAX_NOTES).describe('notes per page'),
      offset: z.number().int().min(0).max(1e6).default(0).describe('notes to skip (nextOffset of the previous page)'),
    }),
    run: (i, ctx) => {
      const all = listNotes(ctx.project);
      const notes: Array<{ id: string; title: string; body: string; truncated: boolean }> = [];
      // Long bodies can fill a page before `limit` notes: stop at the budget so a page always fits the
      // tool result cap, and let nextOffset carry on (the first note of a page always fits).
      let used = 0;
      for (const n of all.slice(i.offset, i.offset + i.limit)) {
        const entry = { id: n.id, title: n.title, body: n.body.length > NOTE_BODY_CHARS ? n.body.slice(0, NOTE_BODY_CHARS) + '…' : n.body, truncated: n.body.length > NOTE_BODY_CHARS };
        const size = JSON.stringify(entry).length + 1;
        if (notes.length && used + size > NOTES_PAGE_CHARS) break;
        notes.push(entry);
        used += size;
      }
      const next = i.offset + notes.length;
      return { notes, total: all.length, offset: i.offset, nextOffset: next < all.length ? next : null };
    },
    describe: (_i, o) => (o.notes.length === o.total ? `Read ${plural(o.total, 'note')}` : `Read ${o.notes.length} of ${o.total} notes`),
  }),
];
