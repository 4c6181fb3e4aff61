// Tasks in the Factory view and the Factory Balance view inside a real VS Code: tasks are created,
// renamed, edited as Markdown, given steps that tick and reorder, linked to a block and a good whose
// pages open, completed and deleted, each as one undoable action, and the tree follows writes from
// anywhere. The balance view lists the coherence audit, power and buildings of the enabled blocks
// and follows a block's change.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import path from 'node:path';
import { createBlock, getBlock, saveBlock } from '../../src/core/planning/factory/blocks';
import { solverFor } from '../../src/core/assistant/tools/context';
import { planningContext } from '../../src/core/planning/context';
import { createTask, deleteTask, getTask, listTasks } from '../../src/core/work/tasks';
import type { FactoryNode } from '../../src/extension/views/factoryTree';
import type { BalanceNode } from '../../src/extension/views/balanceTree';
import type { FactoryBalance } from '../../src/core/planning/factory/balance';
import { api, uiRequest, waitFor, workDir, sampleWorld } from './helpers';

describe('PyOps tasks and Factory Balance views', () => {
  let gears: string;
  let frames: string;

  before(async function () {
    this.timeout(60_000);
    await vscode.commands.executeCommand('pyops.project.new', { file: path.join(workDir('tasks'), 'tasks.pyops'), name: 'Tasks view' });
    await vscode.commands.executeCommand('pyops.gamedata.import', { source: sampleWorld().dump });
    await vscode.commands.executeCommand('pyops.planning.setHorizon', { mode: 'future' });
    const { projects } = await api();
    const p = projects.require();
    const solve = solverFor(planningContext(p));
    gears = await createBlock(p, solve, { name: 'Gears', doc: { goals: [{ good: 'gear', rate: 2 }], recipes: [{ recipe: 'gear' }] } });
    frames = await createBlock(p, solve, { name: 'Frames', doc: { goals: [{ good: 'frame', rate: 2 }], recipes: [{ recipe: 'frame' }] } });
  });

  const taskNode = async (id: string): Promise<Extract<FactoryNode, { kind: 'task' }>> => {
    const { factory } = await api();
    const t = await waitFor(() => factory.current()?.tasks.find((x) => x.id === id), `task ${id} in the Factory view`);
    return { kind: 'task', task: t };
  };

  it('creates tasks and subtasks, adds, ticks and reorders steps, each one undoable action', async () => {
    const { projects, factory } = await api();
    const p = projects.require();
    const id = (await vscode.commands.executeCommand('pyops.task.new', { title: 'Coke line' })) as string;
    const sub = (await vscode.commands.executeCommand('pyops.task.newSubtask', { taskId: id, title: 'Order ovens' })) as string;
    assert.equal(getTask(p, sub).parentId, id);
    for (const text of ['place ovens', 'belt coal', 'power them']) await vscode.commands.executeCommand('pyops.task.addStep', { taskId: id, text });
    assert.equal(p.undoable()?.label, 'Add task step');
    const steps = getTask(p, id).steps;
    assert.equal(await vscode.commands.executeCommand('pyops.task.toggleStep', { stepId: steps[0].id }), true);
    assert.equal(p.undoable()?.label, 'Tick step');
    assert.equal(await vscode.commands.executeCommand('pyops.task.moveStepUp', { stepId: steps[2].id }), true);
    assert.equal(p.undoable()?.label, 'Move step up');
    assert.equal(await vscode.commands.executeCommand('pyops.task.moveStepUp', { stepId: steps[0].id }), false, 'the first step stays first');
    await vscode.commands.executeCommand('pyops.task.editStep', { stepId: steps[1].id, text: 'belt the coal' });
    // The tree: the task with its progress, then its steps (checkboxes, in order) and its subtask.
    const node = await taskNode(id);
    await waitFor(() => factory.current()?.tasks.find((t) => t.id === id)?.total === 4, 'the progress to count three steps and the subtask');
    const item = factory.getTreeItem((await taskNode(id)));
    assert.equal(item.description, 'open · 1/4 done');
    assert.equal(item.contextValue, 'pyops.task.open');
    const children = factory.getChildren(node);
    assert.deepEqual(
      children.map((c) => [c.kind, factory.getTreeItem(c).label, factory.getTreeItem(c).checkboxState, factory.getTreeItem(c).contextValue]),
      [
        ['step', 'place ovens', vscode.TreeItemCheckboxState.Checked, 'pyops.step.first'],
        ['step', 'power them', vscode.TreeItemCheckboxState.Unchecked, 'pyops.step'],
        ['step', 'belt the coal', vscode.TreeItemCheckboxState.Unchecked, 'pyops.step.last'],
        ['task', 'Order ovens', undefined, 'pyops.task.open'],
      ],
    );
    p.undo(); // the step edit
    assert.equal(getTask(p, id).steps[2].text, 'belt coal');
    await vscode.commands.executeCommand('pyops.task.deleteStep', { stepId: steps[1].id });
    assert.deepEqual(getTask(p, id).steps.map((s) => s.text), ['place ovens', 'power them']);
  });

  it('edits a task as a Markdown document; ticking a step while it is open leaves the editor alone', async () => {
    const { projects, factory } = await api();
    const p = projects.require();
    const id = listTasks(p).find((t) => t.title === 'Coke line')!.id;
    const uri = (await vscode.commands.executeCommand('pyops.task.open', { taskId: id })) as string;
    const doc = await waitFor(() => vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri), 'the task editor');
    assert.equal(doc.getText(), '# Coke line\n\n');
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), '# Coke and tar\n\nFour ovens; tar goes to the **boilers**.\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    // A step added and ticked in the tree while the editor has unsaved changes: the task changes
    // but its document's text does not, so saving must not run into a conflict.
    const added = (await vscode.commands.executeCommand('pyops.task.addStep', { taskId: id, text: 'check the tar' })) as string;
    await vscode.commands.executeCommand('pyops.task.toggleStep', { stepId: added });
    assert.ok(await doc.save());
    assert.deepEqual([getTask(p, id).title, getTask(p, id).body], ['Coke and tar', 'Four ovens; tar goes to the **boilers**.\n']);
    assert.equal(p.undoable()?.label, 'Update task "Coke line"');
    await waitFor(() => factory.current()?.tasks.some((t) => t.title === 'Coke and tar'), 'the renamed task in the tree');
    p.undo();
    await waitFor(() => doc.getText().startsWith('# Coke line'), 'the open task to show the undone edit');
    await vscode.commands.executeCommand('pyops.task.rename', { taskId: id, title: 'Coke line v2' });
    assert.equal(p.undoable()?.label, 'Rename task "Coke line" to "Coke line v2"');
    await waitFor(() => doc.getText().startsWith('# Coke line v2'), 'the open task to follow the rename');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('keeps a "#" and the line breaks of a task title through its Markdown document', async () => {
    const { projects } = await api();
    const p = projects.require();
    const t = createTask(p, { title: 'Learn C#\nthen F#' });
    const uri = (await vscode.commands.executeCommand('pyops.task.open', { taskId: t.id })) as string;
    // The whole path is the title (the tab and the breadcrumbs show it on one line; the id is in the query).
    assert.equal(vscode.Uri.parse(uri).path, '/Learn C# then F#.md');
    const doc = await waitFor(() => vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri), 'the task editor');
    assert.equal(doc.getText(), '# Learn C# then F#\n\n');
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), '# Learn C# then F#\n\nStart with the tour.\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await doc.save());
    assert.deepEqual([getTask(p, t.id).title, getTask(p, t.id).body], ['Learn C#\nthen F#', 'Start with the tour.\n']);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    deleteTask(p, t.id);
  });

  it('links a block and a good, opens them, sets the status, completes, unlinks and deletes', async () => {
    const { projects, factory, recentCommandErrors } = await api();
    // Errors of this test only (the list keeps the latest twenty of the whole run).
    const seen = recentCommandErrors().at(-1);
    const since = () => recentCommandErrors().slice(seen ? recentCommandErrors().lastIndexOf(seen) + 1 : 0);
    const p = projects.require();
    const id = listTasks(p).find((t) => t.parentId === null)!.id;
    await vscode.commands.executeCommand('pyops.task.link', { taskId: id, kind: 'block', name: gears });
    await vscode.commands.executeCommand('pyops.task.link', { taskId: id, kind: 'item', name: 'gear' });
    const links = await waitFor(async () => {
      const kids = factory.getChildren(await taskNode(id)).filter((c) => c.kind === 'link');
      return kids.length === 2 ? kids : undefined;
    }, 'two links under the task');
    assert.deepEqual(links.map((l) => [factory.getTreeItem(l).label, factory.getTreeItem(l).description]), [['Gears', 'block'], ['Gear', 'item']]);
    const blockPage = (await vscode.commands.executeCommand('pyops.task.openLink', links[0])) as string;
    assert.match(blockPage, /^pyops-page:/);
    const goodPage = (await vscode.commands.executeCommand('pyops.task.openLink', { kind: 'item', name: 'gear', open: 'info' })) as string;
    const goodDoc = await waitFor(() => vscode.workspace.textDocuments.find((d) => d.uri.toString() === goodPage), 'the good page');
    await waitFor(() => /^# Gear/.test(goodDoc.getText()) && /Verdict/.test(goodDoc.getText()), 'the goodInfo page of the linked good');
    await vscode.commands.executeCommand('pyops.task.setStatus', { taskId: id, status: 'in_progress' });
    assert.equal(p.undoable()?.label, 'Mark task "Coke line v2" in progress');
    await waitFor(async () => factory.getTreeItem(await taskNode(id)).contextValue === 'pyops.task.in_progress', 'the in-progress task');
    await vscode.commands.executeCommand('pyops.task.unlink', { linkId: getTask(p, id).links[1].id });
    assert.deepEqual(getTask(p, id).links.map((l) => l.kind), ['block']);

    // Shown expanded, with its checkboxes and links, for the screenshot.
    await vscode.commands.executeCommand('pyops.factory.focus');
    await api().then((a) => a.views.factory.reveal(factory.getChildren(factory.getChildren()[1])[0], { expand: true }));
    const shown = await uiRequest({ screenshot: { file: 'factory-tasks.png', element: 'sidebar' } });
    assert.deepEqual(shown.failures, []);

    await vscode.commands.executeCommand('pyops.task.complete', { taskId: id });
    assert.equal(getTask(p, id).status, 'done');
    assert.equal(p.undoable()?.label, 'Mark task "Coke line v2" done');
    await vscode.commands.executeCommand('pyops.task.delete', { taskId: id });
    assert.equal(listTasks(p).length, 0, 'the subtask goes with it');
    p.undo();
    assert.equal(listTasks(p).length, 2);
    assert.deepEqual(since().filter((e) => e.command.startsWith('pyops.task')), []);
  });

  it('shows a task captured elsewhere (the game, the assistant) as soon as it is written', async () => {
    const { projects, factory } = await api();
    const t = createTask(projects.require(), { title: 'Captured in game', steps: ['look at the smelters'], links: [{ kind: 'location', name: 'nauvis|12|-40' }] });
    const node = await taskNode(t.id);
    assert.deepEqual(factory.getChildren(node).map((c) => factory.getTreeItem(c).label), ['look at the smelters', 'nauvis 12 -40']);
  });

  it('balances the factory: shortages, imports, final products, power and buildings, following block changes', async () => {
    const { projects, balance } = await api();
    const p = projects.require();
    const ready = async (check: (b: FactoryBalance) => boolean, what: string) =>
      waitFor(async () => {
        const b = await balance.current();
        return b && !('error' in b) && check(b) ? b : undefined;
      }, what);
    // Frames takes 4 gears/s; Gears makes 2.
    let b = await ready((x) => x.audit.blocks === 2, 'the balance of two blocks');
    assert.deepEqual(b.audit.underSupplied.map((x) => [x.good, Number(x.shortBy.toFixed(3))]), [['gear', 2]]);
    assert.deepEqual(b.audit.unsourcedImports.map((x) => x.good), ['ferrite-plate']);
    assert.deepEqual(b.audit.finalProducts.map((x) => x.good), ['frame']);
    assert.ok(b.power.totalDemandW > 0);
    assert.ok(b.buildings.length >= 1 && b.buildings.every((m) => m.count >= 1));
    const roots = await balance.getChildren();
    const labels = roots.map((n) => balance.getTreeItem(n).label);
    assert.deepEqual(labels.slice(0, 2), ['Enabled blocks', 'Power']);
    assert.ok(labels.includes('Under-supplied') && labels.includes('Imports from outside') && labels.includes('Final products') && labels.includes('Buildings'));
    const under = roots.find((n) => n.kind === 'section' && n.section === 'under')!;
    const [short] = await balance.getChildren(under);
    const shortItem = balance.getTreeItem(short);
    assert.equal(shortItem.label, 'Gear');
    assert.equal(shortItem.description, 'short by 2/s');
    assert.deepEqual(shortItem.command?.arguments, [{ good: 'gear' }]);
    const machines = await balance.getChildren(roots.find((n): n is Extract<BalanceNode, { kind: 'section' }> => n.kind === 'section' && n.section === 'buildings')!);
    const perBlock = await balance.getChildren(machines[0]);
    assert.ok(perBlock.every((n) => balance.getTreeItem(n).command?.command === 'pyops.block.open'));

    await vscode.commands.executeCommand('pyops.balance.focus');
    const shown = await uiRequest({ screenshot: { file: 'factory-balance.png', element: 'sidebar' } });
    assert.deepEqual(shown.failures, []);

    // Gears makes 4/s now: the link balances, and the view follows the write.
    await saveBlock(p, solverFor(planningContext(p)), gears, { doc: { ...getBlock(p, gears).doc, goals: [{ good: 'gear', rate: 4 }] } }, getBlock(p, gears).updatedAt);
    b = await ready((x) => x.audit.underSupplied.length === 0, 'the shortage to go away');
    assert.deepEqual(b.audit.balancedLinks.map((x) => x.good), ['gear']);
    // Gears makes 6/s: a surplus of 2/s, and its tooltip says where the rest can go, as a dangling byproduct's does.
    await saveBlock(p, solverFor(planningContext(p)), gears, { doc: { ...getBlock(p, gears).doc, goals: [{ good: 'gear', rate: 6 }] } }, getBlock(p, gears).updatedAt);
    b = await ready((x) => x.audit.overProduced.some((o) => o.good === 'gear'), 'the gear surplus');
    const advice = b.audit.overProduced.find((o) => o.good === 'gear')!;
    assert.ok(advice.topConsumers.length || advice.voidRecipes.length, 'gears have somewhere to go');
    const over = (await balance.getChildren()).find((n) => n.kind === 'section' && n.section === 'over')!;
    const surplus = balance.getTreeItem((await balance.getChildren(over)).find((n) => n.kind === 'good' && n.good === 'gear')!);
    assert.equal(surplus.description, '+2/s surplus');
    if (advice.topConsumers.length) assert.ok(String(surplus.tooltip).includes(`Used by: ${advice.topConsumers.join(', ')}.`), String(surplus.tooltip));
    if (advice.voidRecipes.length) assert.ok(String(surplus.tooltip).includes(`Voids: ${advice.voidRecipes.join(', ')}.`), String(surplus.tooltip));
    await saveBlock(p, solverFor(planningContext(p)), gears, { doc: { ...getBlock(p, gears).doc, goals: [{ good: 'gear', rate: 4 }] } }, getBlock(p, gears).updatedAt);
    b = await ready((x) => x.audit.balancedLinks.some((l) => l.good === 'gear'), 'the link balanced again');
    // Opening a good: its page, then the blocks that make and take it.
    const { goodTargets } = await import('../../src/extension/commands/goods');
    const targets = goodTargets(projects, 'gear');
    assert.deepEqual(targets.map((t) => t.open), ['info', { blockId: gears }, { blockId: frames }]);
    assert.match(targets[1].description, /^makes 4/);
    const opened = (await vscode.commands.executeCommand('pyops.good.open', { good: 'gear', open: { blockId: frames } })) as string;
    assert.match(opened, /^pyops-page:\/.*Frames/);
  });
});
