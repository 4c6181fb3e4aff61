// The Factory view inside a real VS Code: blocks, tasks, notes and the horizon in a tree that follows
// every write to the project; a block opens as a page, and rename, disable, duplicate, delete (with
// its snapshot) and restore each work as one undoable action.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import path from 'node:path';
import { createBlock, getBlock, listBlocks, listSnapshots } from '../../src/core/planning/factory/blocks';
import { solverFor } from '../../src/core/assistant/tools/context';
import { planningContext } from '../../src/core/planning/context';
import { createTask } from '../../src/core/work/tasks';
import { buildDraft, specFromSubmit, submitBlockInput } from '../../src/core/planning/proposals/draft';
import { api, uiRequest, waitFor, workDir, sampleWorld } from './helpers';

describe('PyOps Factory view', () => {
  let gears: string;

  before(async function () {
    this.timeout(60_000);
    await vscode.commands.executeCommand('pyops.project.new', { file: path.join(workDir('factory'), 'factory.pyops'), name: 'Factory view' });
    await vscode.commands.executeCommand('pyops.gamedata.import', { source: sampleWorld().dump });
    await vscode.commands.executeCommand('pyops.planning.setHorizon', { mode: 'future' });
    const { projects } = await api();
    const p = projects.require();
    gears = await createBlock(p, solverFor(planningContext(p)), { name: 'Gears', doc: { goals: [{ good: 'gear', rate: 2 }], recipes: [{ recipe: 'gear' }] } });
    createTask(p, { title: 'Build the gear line' });
  });

  it('shows the blocks with their state and buildings, the tasks and the horizon, following writes', async () => {
    const { factory, projects } = await api();
    const outline = await waitFor(() => factory.current()?.blocks.find((b) => b.id === gears), 'the block in the Factory view');
    assert.equal(outline.state, 'solved');
    assert.ok(outline.buildings >= 1);
    const roots = factory.getChildren();
    assert.deepEqual(roots.map((r) => (r.kind === 'group' ? r.group : r.kind)), ['blocks', 'tasks', 'notes', 'planning']);
    const blockItem = factory.getTreeItem(factory.getChildren(roots[0])[0]);
    assert.equal(blockItem.label, 'Gears');
    assert.match(String(blockItem.description), /\d+ buildings?/);
    assert.equal(blockItem.contextValue, 'pyops.block.enabled');
    assert.deepEqual(factory.getChildren(roots[1]).map((t) => factory.getTreeItem(t).label), ['Build the gear line']);
    assert.match(String(factory.getTreeItem(factory.getChildren(roots[3])[0]).description), /Future/);
    // A write from anywhere (here: the core directly, as a chat apply or a game sync would) shows up.
    createTask(projects.require(), { title: 'Second task' });
    await waitFor(() => factory.current()?.tasks.length === 2, 'the new task in the Factory view');
  });

  it('opens a block as a page that follows its edits', async () => {
    const uri = (await vscode.commands.executeCommand('pyops.block.open', { blockId: gears })) as string;
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri)!;
    assert.match(doc.getText(), /^# Gears/);
    assert.match(doc.getText(), /Makes .*gear.* 2\.00\/s/i);
    await vscode.commands.executeCommand('pyops.block.rename', { blockId: gears, name: 'Gear line' });
    await waitFor(() => doc.getText().startsWith('# Gear line'), 'the page to follow the rename');
  });

  it('disables, duplicates, deletes with a snapshot, and restores a block; each is one undoable step', async () => {
    const { projects, factory } = await api();
    const p = projects.require();
    await vscode.commands.executeCommand('pyops.block.disable', { blockId: gears });
    assert.equal(getBlock(p, gears).enabled, false);
    await waitFor(() => factory.current()?.blocks.find((b) => b.id === gears)?.state === 'disabled', 'the disabled state in the tree');
    assert.equal(p.undoable()?.label, 'Disable block "Gear line"');
    await vscode.commands.executeCommand('pyops.block.enable', { blockId: gears });
    const copy = (await vscode.commands.executeCommand('pyops.block.duplicate', { blockId: gears })) as string;
    assert.equal(getBlock(p, copy).name, 'Gear line (copy)');
    assert.deepEqual(getBlock(p, copy).doc, getBlock(p, gears).doc);
    await vscode.commands.executeCommand('pyops.block.delete', { blockId: copy });
    assert.ok(!listBlocks(p).some((b) => b.id === copy));
    const snap = listSnapshots(p, copy).find((s) => s.reason === 'before delete')!;
    assert.ok(snap, 'a snapshot is kept before a delete');
    await vscode.commands.executeCommand('pyops.snapshot.restore', { snapshotId: snap.id });
    assert.equal(getBlock(p, copy).name, 'Gear line (copy)');
    await vscode.commands.executeCommand('pyops.factory.focus');
    const shown = await uiRequest({ screenshot: { file: 'factory-view.png', element: 'sidebar' } });
    assert.deepEqual(shown.failures, []);
  });

  it('edits a note as a Markdown document: saving writes the note, and an undo shows in the open editor', async () => {
    const { projects, factory } = await api();
    const p = projects.require();
    const uri = (await vscode.commands.executeCommand('pyops.note.new', { title: 'Coke ideas' })) as string;
    const doc = await waitFor(() => vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri), 'the note editor');
    assert.equal(doc.getText(), '# Coke ideas\n\n');
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), '# Coke plans\n\nFour ovens, tar to the **boilers**.\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await doc.save());
    const note = p.query<{ title: string; body: string }>('SELECT title, body FROM notes')[0];
    assert.deepEqual(note, { title: 'Coke plans', body: 'Four ovens, tar to the **boilers**.\n' });
    await waitFor(() => factory.current()?.notes.some((n) => n.title === 'Coke plans'), 'the renamed note in the tree');
    p.undo();
    await waitFor(() => doc.getText().startsWith('# Coke ideas'), 'the open note to show the undone edit');
  });

  it('sets a favourite machine from the Factory view, and drafts follow it', async () => {
    const { projects, factory } = await api();
    const p = projects.require();
    const draft = async () => {
      const pc = planningContext(p);
      return buildDraft(pc, specFromSubmit(pc, submitBlockInput.parse({ target: 'gear', rate: 1, recipes: ['gear'] })));
    };
    // Under Future the fastest buildable crafting machine is the press mk2 (speed 1.1 against 0.6).
    assert.equal((await draft()).rows[0].machine, 'press-mk2');
    await vscode.commands.executeCommand('pyops.planning.setFavoriteMachine', { category: 'crafting', machine: 'press' });
    assert.match(p.undoable()?.label ?? '', /^Change planning settings \(favoriteMachines/);
    const row = (await draft()).rows[0];
    assert.equal(row.machine, 'press');
    assert.equal(row.machineChoice?.rule, 'favorite');
    await waitFor(() => factory.current()?.planning.favoriteMachines.some((f) => f.category === 'crafting' && f.machine === 'press'), 'the favourite in the Factory view');
    const planning = factory.getChildren().find((n) => n.kind === 'group' && n.group === 'planning')!;
    const labels = factory.getChildren(planning).map((n) => String(factory.getTreeItem(n).label));
    assert.ok(labels.includes('Favourite for crafting'), labels.join(' | '));
    await vscode.commands.executeCommand('pyops.planning.setMiningProductivity', { value: 20 });
    await waitFor(() => factory.current()?.planning.miningProductivity.percent === 20, 'mining productivity in the Factory view');
    await vscode.commands.executeCommand('pyops.planning.setFavoriteMachine', { category: 'crafting', machine: null });
    assert.equal((await draft()).rows[0].machine, 'press-mk2');
    await vscode.commands.executeCommand('pyops.factory.focus');
    const shown = await uiRequest({ screenshot: { file: 'factory-view-planning.png', element: 'sidebar' } });
    assert.deepEqual(shown.failures, []);
  });
});
