import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project } from '../../../../src/core/db/project';
import { addTaskStep, createTask, deleteTask, deleteTaskStep, editTaskStep, getTask, linkTask, listTasks, moveTaskStep, setStepDone, unlinkTask, updateTask, TaskError } from '../../../../src/core/work/tasks';
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
    assert.equal(p.undoable()?.label, 'Rename task "A" to "A2"');
    p.undo();
    assert.equal(getTask(p, id).title, 'A');
    p.undo();
    assert.equal(getTask(p, id).links.length, 0);
    p.undo();
    assert.equal(getTask(p, id).steps.length, 0);
    p.undo();
    assert.equal(listTasks(p).length, 0);
  });

  it('names what an update changed in its undo label', () => {
    const { id } = createTask(p, { title: 'Coke' });
    updateTask(p, { id, status: 'in_progress' });
    assert.equal(p.undoable()?.label, 'Mark task "Coke" in progress');
    updateTask(p, { id, body: 'four ovens' });
    assert.equal(p.undoable()?.label, 'Edit task "Coke"');
    updateTask(p, { id, title: 'Coal', status: 'done' });
    assert.equal(p.undoable()?.label, 'Update task "Coke"');
  });

  it('reorders, edits and deletes steps, each one undoable action', () => {
    const { id } = createTask(p, { title: 'T', steps: ['a', 'b', 'c'] });
    const [a, b, c] = getTask(p, id).steps.map((s) => s.id);
    const texts = () => getTask(p, id).steps.map((s) => s.text);
    assert.equal(moveTaskStep(p, c, 'up'), true);
    assert.deepEqual(texts(), ['a', 'c', 'b']);
    assert.equal(p.undoable()?.label, 'Move step up');
    assert.equal(moveTaskStep(p, a, 'down'), true);
    assert.deepEqual(texts(), ['c', 'a', 'b']);
    assert.equal(moveTaskStep(p, c, 'up'), false, 'the first step cannot move up');
    assert.equal(moveTaskStep(p, b, 'down'), false, 'the last step cannot move down');
    assert.equal(p.undoable()?.label, 'Move step down', 'a move that does nothing writes nothing');
    p.undo();
    assert.deepEqual(texts(), ['a', 'c', 'b']);
    editTaskStep(p, b, '  b, twice ');
    assert.deepEqual(texts(), ['a', 'c', 'b, twice']);
    deleteTaskStep(p, a);
    assert.deepEqual(texts(), ['c', 'b, twice']);
    assert.equal(p.undoable()?.label, 'Delete step "a"');
    p.undo();
    assert.deepEqual(texts(), ['a', 'c', 'b, twice']);
    assert.throws(() => moveTaskStep(p, 'nope', 'up'), (e: unknown) => e instanceof TaskError && e.code === 'not-found');
  });

  it('moves a step one place even when older data left two steps at the same index', () => {
    const { id } = createTask(p, { title: 'T', steps: ['a', 'b', 'c'] });
    p.write((db) => db.run('UPDATE task_steps SET idx = 0 WHERE task_id = ?', [id]));
    const c = getTask(p, id).steps[2].id;
    moveTaskStep(p, c, 'up');
    assert.deepEqual(getTask(p, id).steps.map((s) => s.text), ['a', 'c', 'b']);
  });

  it('removes a link', () => {
    const { id } = createTask(p, { title: 'T', links: [{ kind: 'block', name: 'b-1' }, { kind: 'item', name: 'gear' }] });
    unlinkTask(p, getTask(p, id).links[0].id);
    assert.deepEqual(getTask(p, id).links.map((l) => l.name), ['gear']);
    assert.equal(p.undoable()?.label, 'Unlink block from task');
    assert.throws(() => unlinkTask(p, 'nope'), /no task link/);
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
