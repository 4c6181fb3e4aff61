import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project } from '../../../../src/core/db/project';
import { addTaskStep, createTask, deleteTask, getTask, linkTask, listTasks, setStepDone, updateTask, TaskError } from '../../../../src/core/work/tasks';
import { createNote, listNotes, updateNote } from '../../../../src/core/work/notes';
import { tempDir } from '../../../helpers/paths';

describe('tasks and notes', () => {
  let dir: string;
  let p: Project;
  beforeEach(async () => {
    dir = tempDir();
    p = await Project.create(path.join(dir, 't.pyops'));
  });
  afterEach(() => {
    p.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('creates a task with steps and links, and reports progress over steps and subtasks', () => {
    const { id } = createTask(p, { title: 'Build the circuit block', body: 'see `circuit`', steps: ['place presses', 'connect power'], links: [{ kind: 'recipe', name: 'circuit' }] });
    const sub = createTask(p, { title: 'Wire supply', parentId: id });
    const t = getTask(p, id);
    assert.deepEqual(t.steps.map((s) => s.text), ['place presses', 'connect power']);
    assert.deepEqual(t.links.map((l) => [l.kind, l.name]), [['recipe', 'circuit']]);
    assert.deepEqual(t.progress, { done: 0, total: 3 });
    setStepDone(p, t.steps[0].id, true);
    updateTask(p, { id: sub.id, status: 'done' });
    assert.deepEqual(getTask(p, id).progress, { done: 2, total: 3 });
    assert.equal(getTask(p, id).subtasks[0].title, 'Wire supply');
    assert.equal(listTasks(p).length, 2);
  });

  it('makes every write one undoable action', () => {
    const { id } = createTask(p, { title: 'A' });
    addTaskStep(p, id, 'step');
    linkTask(p, id, { kind: 'block', name: 'b-1' });
    updateTask(p, { id, title: 'A2' });
    assert.equal(p.undoable()?.label, 'Update task');
    p.undo();
    assert.equal(getTask(p, id).title, 'A');
    p.undo();
    assert.equal(getTask(p, id).links.length, 0);
    p.undo();
    assert.equal(getTask(p, id).steps.length, 0);
    p.undo();
    assert.equal(listTasks(p).length, 0);
  });

  it('explains bad ids and refuses cycles', () => {
    assert.throws(() => updateTask(p, { id: 'nope', title: 'x' }), (e: unknown) => e instanceof TaskError && /listTasks/.test(e.message));
    const a = createTask(p, { title: 'A' });
    const b = createTask(p, { title: 'B', parentId: a.id });
    assert.throws(() => updateTask(p, { id: a.id, parentId: b.id }), /subtask of itself/);
    deleteTask(p, a.id);
    assert.equal(listTasks(p).length, 0, 'subtasks go with their parent');
  });

  it('keeps notes with titles and bodies', () => {
    const n = createNote(p, { title: 'Ideas', body: 'more `coke`' });
    updateNote(p, n.id, { body: 'even more' });
    assert.deepEqual(listNotes(p).map((x) => [x.title, x.body]), [['Ideas', 'even more']]);
    p.undo();
    assert.equal(listNotes(p)[0].body, 'more `coke`');
  });
});
