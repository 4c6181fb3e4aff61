// Commands on tasks in the Factory view: create (top-level or as a subtask), open the title and body
// as a Markdown document (`pyops-task:/<title>.md?id=<id>`, saved as one undoable change), rename, set
// the status or complete, add / edit / tick / reorder / delete steps, link a block or a good and open
// what is linked, delete. Every change is one undoable action through src/core/work/tasks.ts. Each
// command takes the tree node it was invoked on, or `{ taskId, … }` / `{ stepId, … }` from tests
// and links; without either it asks with a quick pick.
import * as vscode from 'vscode';
import { z } from 'zod';
import { gameIndex } from '../../core/planning/gameIndex';
import { listBlocks } from '../../core/planning/factory/blocks';
import {
  addTaskStep, createTask, deleteTask, deleteTaskStep, editTaskStep, getTask, linkTask, listTasks, moveTaskStep, setStepDone, unlinkTask, updateTask,
  TASK_STATUSES, type LinkKind, type TaskStatus,
} from '../../core/work/tasks';
import type { ProjectManager } from '../projectManager';
import type { FactoryNode } from '../views/factoryTree';
import { MarkdownRecordFiles, recordUri, type MarkdownRecordStore } from '../views/recordFiles';
import { registerCommand } from './register';
import { flagOption, textOption } from './args';

export const TASK_SCHEME = 'pyops-task';

const STATUS_LABEL: Record<TaskStatus, string> = { open: 'Open', in_progress: 'In progress', done: 'Done', closed: 'Closed (not doing it)' };

const taskStore: MarkdownRecordStore = {
  noun: 'task',
  get: getTask,
  save: (p, id, next) => void updateTask(p, { id, title: next.title, body: next.body }),
  delete: deleteTask,
  renameHint: 'Rename a task by editing its first heading, or with "Rename Task…" in the Factory view.',
};

const taskArg = z.object({ taskId: z.string().min(1) }).loose();
const stepArg = z.object({ stepId: z.string().min(1) }).loose();
const linkArg = z.object({ linkId: z.string().min(1) }).loose();
const text = textOption;
const asNode = (arg: unknown): FactoryNode | undefined => (arg && typeof arg === 'object' && 'kind' in arg ? (arg as FactoryNode) : undefined);

function nodeTaskId(arg: unknown): string | undefined {
  const n = asNode(arg);
  if (n?.kind === 'task') return n.task.id;
  if (n?.kind === 'step' || n?.kind === 'link') return n.taskId;
  return taskArg.safeParse(arg).data?.taskId;
}

function nodeStepId(arg: unknown): string | undefined {
  const n = asNode(arg);
  return n?.kind === 'step' ? n.step.id : stepArg.safeParse(arg).data?.stepId;
}

/**
 * `refresh` redraws the Factory view. Task writes need no project-wide notice (touch would re-check
 * every block): the view, the open task documents and the side panel follow the project's writes.
 */
export function registerTaskCommands(projects: ProjectManager, view: vscode.TreeView<FactoryNode>, refresh: () => void): vscode.Disposable[] {
  const files = new MarkdownRecordFiles(projects, taskStore);

  async function pickTask(arg: unknown, title: string): Promise<string | undefined> {
    const id = nodeTaskId(arg);
    if (id) return id;
    const tasks = listTasks(projects.require());
    if (!tasks.length) throw new Error('This project has no tasks yet; create one with "PyOps: New Task…".');
    const pick = await vscode.window.showQuickPick(
      tasks.map((t) => ({ label: t.title, description: `${STATUS_LABEL[t.status]}${t.progress.total ? ` · ${t.progress.done}/${t.progress.total}` : ''}`, id: t.id })),
      { title },
    );
    return pick?.id;
  }

  const stepOf = (arg: unknown): string => {
    const id = nodeStepId(arg);
    if (!id) throw new Error('Choose a step of a task in the Factory view.');
    return id;
  };

  const open = async (id: string) => {
    const t = getTask(projects.require(), id);
    const doc = await vscode.workspace.openTextDocument(recordUri(TASK_SCHEME, t.id, t.title));
    await vscode.window.showTextDocument(doc, { preview: false });
    return doc.uri.toString();
  };

  const newTask = async (arg: unknown, parentId: string | undefined) => {
    const parent = parentId ? getTask(projects.require(), parentId) : undefined;
    const title =
      text(arg, 'title') ??
      (await vscode.window.showInputBox({ title: parent ? `New subtask of "${parent.title}"` : 'New task', placeHolder: 'What is to be done', validateInput: (v) => (v.trim() ? undefined : 'A task needs a title') }));
    if (!title?.trim()) return undefined;
    const t = createTask(projects.requireWritable(), { title, ...(parentId ? { parentId } : {}) });
    return t.id;
  };

  const setStatus = (id: string, status: TaskStatus) => {
    updateTask(projects.requireWritable(), { id, status });
    return id;
  };

  const moveStep = (direction: 'up' | 'down') => (arg?: unknown) => {
    const id = stepOf(arg);
    return moveTaskStep(projects.requireWritable(), id, direction);
  };

  return [
    files,
    vscode.workspace.registerFileSystemProvider(TASK_SCHEME, files, { isCaseSensitive: true }),
    // Ticking a step's checkbox in the tree writes it (one undoable action per step).
    view.onDidChangeCheckboxState((e) => {
      try {
        const p = projects.requireWritable();
        for (const [node, state] of e.items) if (node.kind === 'step') setStepDone(p, node.step.id, state === vscode.TreeItemCheckboxState.Checked);
      } catch (err) {
        void vscode.window.showErrorMessage(`PyOps: ${err instanceof Error ? err.message : String(err)}`);
        refresh(); // redraw the boxes as they are stored
      }
    }),
    registerCommand('pyops.task.new', (arg?: unknown) => newTask(arg, text(arg, 'parentId'))),
    registerCommand('pyops.task.newSubtask', async (arg?: unknown) => {
      const parentId = await pickTask(arg, 'Add a subtask to which task?');
      return parentId ? newTask(arg, parentId) : undefined;
    }),
    registerCommand('pyops.task.open', async (arg?: unknown) => {
      const id = await pickTask(arg, 'Open which task?');
      return id ? open(id) : undefined;
    }),
    registerCommand('pyops.task.rename', async (arg?: unknown) => {
      const id = await pickTask(arg, 'Rename which task?');
      if (!id) return undefined;
      const t = getTask(projects.require(), id);
      const title = text(arg, 'title') ?? (await vscode.window.showInputBox({ title: 'Rename task', value: t.title, validateInput: (v) => (v.trim() ? undefined : 'A task needs a title') }));
      if (!title?.trim() || title.trim() === t.title) return undefined;
      updateTask(projects.requireWritable(), { id, title });
      return id;
    }),
    registerCommand('pyops.task.setStatus', async (arg?: unknown) => {
      const id = await pickTask(arg, 'Set the status of which task?');
      if (!id) return undefined;
      const given = z.enum(TASK_STATUSES).safeParse(text(arg, 'status'));
      let status = given.success ? given.data : undefined;
      if (!status) {
        const cur = getTask(projects.require(), id).status;
        const pick = await vscode.window.showQuickPick(
          TASK_STATUSES.map((s) => ({ label: STATUS_LABEL[s], description: s === cur ? 'current' : undefined, status: s })),
          { title: 'Task status' },
        );
        status = pick?.status;
      }
      return status ? setStatus(id, status) : undefined;
    }),
    registerCommand('pyops.task.complete', async (arg?: unknown) => {
      const id = await pickTask(arg, 'Complete which task?');
      return id ? setStatus(id, 'done') : undefined;
    }),
    registerCommand('pyops.task.reopen', async (arg?: unknown) => {
      const id = await pickTask(arg, 'Reopen which task?');
      return id ? setStatus(id, 'open') : undefined;
    }),
    registerCommand('pyops.task.delete', async (arg?: unknown) => {
      const id = await pickTask(arg, 'Delete which task?');
      if (!id) return undefined;
      const p = projects.requireWritable();
      const t = getTask(p, id);
      const subs = t.subtasks.length ? ` and its ${t.subtasks.length} subtask${t.subtasks.length === 1 ? '' : 's'}` : '';
      const sure = taskArg.safeParse(arg).success
        ? 'Delete'
        : await vscode.window.showWarningMessage(`Delete task "${t.title}"${subs}?`, { modal: true, detail: '"PyOps: Undo Last Project Change" brings it back.' }, 'Delete');
      if (sure !== 'Delete') return undefined;
      deleteTask(p, id);
      return id;
    }),
    registerCommand('pyops.task.addStep', async (arg?: unknown) => {
      const id = await pickTask(arg, 'Add a step to which task?');
      if (!id) return undefined;
      const t = getTask(projects.require(), id);
      const given = text(arg, 'text');
      const step = given ?? (await vscode.window.showInputBox({ title: `Add a step to "${t.title}"`, placeHolder: 'e.g. place 4 coke ovens', validateInput: (v) => (v.trim() ? undefined : 'A step needs some text') }));
      if (!step?.trim()) return undefined;
      const s = addTaskStep(projects.requireWritable(), id, step);
      return s.id;
    }),
    registerCommand('pyops.task.toggleStep', (arg?: unknown) => {
      const id = stepOf(arg);
      const p = projects.requireWritable();
      const cur = p.query<{ done: number }>('SELECT done FROM task_steps WHERE id = ?', [id])[0];
      const next = flagOption(arg, 'done') ?? !cur?.done;
      setStepDone(p, id, next);
      return next;
    }),
    registerCommand('pyops.task.editStep', async (arg?: unknown) => {
      const id = stepOf(arg);
      const node = asNode(arg);
      const now = node?.kind === 'step' ? node.step.text : projects.require().query<{ text: string }>('SELECT text FROM task_steps WHERE id = ?', [id])[0]?.text;
      const next = text(arg, 'text') ?? (await vscode.window.showInputBox({ title: 'Edit step', value: now, validateInput: (v) => (v.trim() ? undefined : 'A step needs some text') }));
      if (!next?.trim() || next.trim() === now) return undefined;
      editTaskStep(projects.requireWritable(), id, next);
      return id;
    }),
    registerCommand('pyops.task.moveStepUp', moveStep('up')),
    registerCommand('pyops.task.moveStepDown', moveStep('down')),
    registerCommand('pyops.task.deleteStep', (arg?: unknown) => {
      const id = stepOf(arg);
      deleteTaskStep(projects.requireWritable(), id);
      return id;
    }),
    registerCommand('pyops.task.link', async (arg?: unknown) => {
      const id = await pickTask(arg, 'Link which task?');
      if (!id) return undefined;
      const p = projects.require();
      let link: { kind: LinkKind; name: string } | undefined;
      const kind = text(arg, 'kind');
      const name = text(arg, 'name');
      if (kind && name) link = { kind: z.enum(['block', 'item', 'fluid']).parse(kind), name };
      else {
        const what = await vscode.window.showQuickPick([{ label: '$(layers) A block', target: 'block' as const }, { label: '$(package) A good (item or fluid)', target: 'good' as const }], { title: 'Link the task to…' });
        if (what?.target === 'block') {
          const blocks = listBlocks(p);
          if (!blocks.length) throw new Error('This project has no blocks yet; ask @pyops for one, or create one from a proposal card.');
          const b = await vscode.window.showQuickPick(blocks.map((x) => ({ label: x.name, description: x.enabled ? undefined : 'disabled', id: x.id })), { title: 'Link which block?' });
          if (b) link = { kind: 'block', name: b.id };
        } else if (what?.target === 'good') {
          if (!p.hasGameData()) throw new Error('This project has no game data yet; import it first ("PyOps: Import Game Data…"), then link a good.');
          const g = gameIndex(p);
          const goods = [...g.goods.values()].filter((x) => !x.hidden && !x.synthetic).sort((a, b) => a.display.localeCompare(b.display));
          const pick = await vscode.window.showQuickPick(goods.map((x) => ({ label: x.display, description: `${x.name} · ${x.kind}`, good: x })), { title: 'Link which good?', matchOnDescription: true });
          if (pick) link = { kind: pick.good.kind, name: pick.good.name };
        }
      }
      if (!link) return undefined;
      const l = linkTask(projects.requireWritable(), id, link);
      return l.id;
    }),
    registerCommand('pyops.task.openLink', async (arg?: unknown) => {
      const n = asNode(arg);
      const l = n?.kind === 'link' ? n.link : z.object({ kind: z.string(), name: z.string() }).safeParse(arg).data;
      if (!l) throw new Error('Choose a link of a task in the Factory view.');
      if (l.kind === 'block') return vscode.commands.executeCommand('pyops.block.open', { blockId: l.name });
      if (l.kind === 'item' || l.kind === 'fluid') return vscode.commands.executeCommand('pyops.good.open', { good: l.name, ...(text(arg, 'open') === 'info' ? { open: 'info' } : {}) });
      void vscode.window.showInformationMessage(`This task links the ${l.kind} "${l.name}"; PyOps opens linked blocks and goods only.`);
      return undefined;
    }),
    registerCommand('pyops.task.unlink', (arg?: unknown) => {
      const n = asNode(arg);
      const id = n?.kind === 'link' ? n.link.id : linkArg.safeParse(arg).data?.linkId;
      if (!id) throw new Error('Choose a link of a task in the Factory view.');
      unlinkTask(projects.requireWritable(), id);
      return id;
    }),
  ];
}
