// Task and note tools. Tasks: reads plus reversible writes (one undo action per call); notes are
// the user's and read-only to the assistant.
import { z } from 'zod';
import { defineTool, type AnyTool } from '../types';
import { addTaskStep, createTask, createTaskInput, getTask, linkTask, listTasks, updateTask, updateTaskInput, LINK_KINDS } from '../../../work/tasks';
import { listNotes } from '../../../work/notes';

const MAX_TASKS = 100;
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
    describe: (_i, o) => `Listed ${o.total} task${o.total === 1 ? '' : 's'}`,
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
    description: "Returns the user's notes (title and markdown body). They are the user's own: read them for context and preferences; the assistant never edits them.",
    input: z.object({}),
    run: (_i, ctx) => {
      const notes = listNotes(ctx.project).map((n) => ({ id: n.id, title: n.title, body: n.body.length > 4000 ? n.body.slice(0, 4000) + '…' : n.body, truncated: n.body.length > 4000 }));
      return { notes: notes.slice(0, 50), total: notes.length, truncated: notes.length > 50 };
    },
    describe: (_i, o) => `Read ${o.total} note${o.total === 1 ? '' : 's'}`,
  }),
];
