// The Factory view inside a real VS Code: blocks, tasks, notes and the horizon in a tree that follows
// every write to the project; a block opens as a page, and rename, disable, duplicate, delete (with
// its snapshot) and restore each work as one undoable action.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import path from 'node:path';
import fs from 'node:fs';
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
    // The horizon a science pack gets by default: able to make it; on request the prerequisite closure.
    const horizonText = () => String(factory.getTreeItem(factory.getChildren(factory.getChildren()[3])[0]).description);
    await vscode.commands.executeCommand('pyops.planning.setHorizon', { mode: 'target', target: 'basic-research-pack' });
    await waitFor(() => /^Able to make /.test(horizonText()), 'the able-to-make horizon in the Factory view');
    await vscode.commands.executeCommand('pyops.planning.setHorizon', { mode: 'target', target: 'basic-research-pack', scope: 'research' });
    await waitFor(() => /^Up to /.test(horizonText()), 'the up-to horizon in the Factory view');
    await vscode.commands.executeCommand('pyops.planning.setHorizon', { mode: 'future' });
    await waitFor(() => /Future/.test(horizonText()), 'the future horizon back');
    // A write from anywhere (here: the core directly, as a chat apply or a game sync would) shows up.
    createTask(projects.require(), { title: 'Second task' });
    await waitFor(() => factory.current()?.tasks.length === 2, 'the new task in the Factory view');
  });

  it('opens a block as a page that follows its edits', async () => {
    const uri = (await vscode.commands.executeCommand('pyops.block.open', { blockId: gears })) as string;
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri)!;
    assert.match(doc.getText(), /^# Gears/);
    assert.match(doc.getText(), /Makes .*gear.* 2\/s/i);
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
    // The category by name (the game has none: its words, capitalised), never its code.
    assert.ok(labels.includes('Favourite for Crafting'), labels.join(' | '));
    await vscode.commands.executeCommand('pyops.planning.setMiningProductivity', { value: 20 });
    await waitFor(() => factory.current()?.planning.miningProductivity.percent === 20, 'mining productivity in the Factory view');
    await vscode.commands.executeCommand('pyops.planning.setFavoriteMachine', { category: 'crafting', machine: null });
    assert.equal((await draft()).rows[0].machine, 'press-mk2');
    await vscode.commands.executeCommand('pyops.factory.focus');
    const shown = await uiRequest({ screenshot: { file: 'factory-view-planning.png', element: 'sidebar' } });
    assert.deepEqual(shown.failures, []);
  });

  it('creates a block by hand in its editor, edits a goal and a machine, undoes, and follows the project', async function () {
    this.timeout(120_000);
    const { projects, blockEditors } = await api();
    const p = projects.require();
    const id = (await vscode.commands.executeCommand('pyops.block.new', { name: 'Hand-made circuits', good: 'circuit', rate: 1, recipe: 'circuit' })) as string;
    assert.ok(id, JSON.stringify((await api()).recentCommandErrors()));
    let view = await waitFor(() => blockEditors.lastView.get(id), 'the editor to show the new block');
    assert.equal(view.rows[0].recipe, 'circuit');
    assert.equal(p.undoable()?.label, 'Create block "Hand-made circuits"');
    // The same path a change in the tab takes (the webview posts this edit).
    await blockEditors.edit(id, { kind: 'goal-rate', index: 0, rate: 2 }, view.updatedAt);
    view = blockEditors.lastView.get(id)!;
    const circuitRow = () => blockEditors.lastView.get(id)!.rows[0];
    // 2 circuits/s × 1 s per craft ÷ speed 1.1 (press-mk2, the fastest buildable under Future).
    assert.ok(Math.abs(circuitRow().buildings! - 2 / 1.1) < 1e-6, String(circuitRow().buildings));
    await blockEditors.edit(id, { kind: 'row-machine', recipe: 'circuit', machine: 'press' }, view.updatedAt);
    assert.ok(Math.abs(circuitRow().buildings! - 2 / 0.6) < 1e-6, String(circuitRow().buildings));
    assert.equal(p.undoable()?.label, 'Use Press for Circuit in "Hand-made circuits"');
    const ui = await uiRequest({ webview: 'Ask @pyops about this block', webviewIncludes: ['Recipes (1)', 'Goals', 'Imports'], timeoutMs: 15_000, screenshot: { file: 'block-editor.png', element: 'page' } });
    assert.deepEqual(ui.failures, [], ui.webviewText);
    // A stale edit (made on the version before the machine change) is refused and shown, not saved.
    await blockEditors.edit(id, { kind: 'goal-rate', index: 0, rate: 5 }, view.updatedAt).then(
      () => assert.fail('a stale edit must be refused'),
      (e: Error) => assert.match(e.message, /changed since the editor loaded it/),
    );
    assert.equal(getBlock(p, id).doc.goals[0].rate, 2);
    // Undo from anywhere: the tab follows the project.
    assert.equal(await vscode.commands.executeCommand('pyops.edit.undo'), 'Use Press for Circuit in "Hand-made circuits"');
    await waitFor(() => blockEditors.lastView.get(id)?.rows[0].pinnedMachine === null, 'the editor to follow the undo');
    assert.equal(await vscode.commands.executeCommand('pyops.edit.redo'), 'Use Press for Circuit in "Hand-made circuits"');
    await waitFor(() => blockEditors.lastView.get(id)?.rows[0].pinnedMachine === 'press', 'the editor to follow the redo');
  });

  it('sets modules, a beacon and a pin on a row in the editor, and shows the result change with the flow diagram', async function () {
    this.timeout(120_000);
    const { projects, blockEditors } = await api();
    const p = projects.require();
    // Expected figures from the sample world's own records (module effect, beacon, machine speed).
    const raw = JSON.parse(fs.readFileSync(sampleWorld().dump, 'utf8')) as Record<string, Record<string, Record<string, any>>>;
    const speed = raw.module['speed-module-s1'].effect.speed as number;
    const tower = raw.beacon['beacon-tower'];
    const mk2 = raw['assembling-machine']['press-mk2'].crafting_speed as number;
    const craft = raw.recipe.circuit.energy_required as number;
    const id = (await vscode.commands.executeCommand('pyops.block.new', { name: 'Moduled circuits', good: 'circuit', rate: 2, recipe: 'circuit' })) as string;
    await waitFor(() => blockEditors.lastView.get(id), 'the editor to show the new block');
    const base = () => blockEditors.lastView.get(id)!.updatedAt;
    const circuit = () => blockEditors.lastView.get(id)!.rows.find((r) => r.recipe === 'circuit')!;
    await blockEditors.edit(id, { kind: 'row-add', recipe: 'wire' }, base());
    await blockEditors.edit(id, { kind: 'good-made', good: 'wire', on: true }, base());
    const close = (a: number | null, b: number) => assert.ok(a !== null && Math.abs(a - b) < 1e-6, `${a} ≠ ${b}`);
    close(circuit().buildings, (2 * craft) / mk2);
    await blockEditors.edit(id, { kind: 'row-modules', recipe: 'circuit', modules: [{ name: 'speed-module-s1', count: 2 }] }, base());
    assert.equal(p.undoable()?.label, 'Set modules of Circuit to 2 × Speed module S1 in "Moduled circuits"');
    close(circuit().buildings, (2 * craft) / (mk2 * (1 + 2 * speed)));
    await blockEditors.edit(id, { kind: 'row-beacons', recipe: 'circuit', beacons: [{ beacon: 'beacon-tower', count: 2, modules: [{ name: 'speed-module-s1', count: 2 }] }] }, base());
    const total = 2 * speed + 2 * speed * tower.distribution_effectivity * tower.profile[1] * 2;
    close(circuit().effects!.speed, total);
    close(circuit().buildings, (2 * craft) / (mk2 * (1 + total)));
    await blockEditors.edit(id, { kind: 'row-pin', recipe: 'circuit', pin: { kind: 'count', buildings: 3 } }, base());
    close(circuit().buildings, 3);
    assert.equal(p.undoable()?.label, 'Pin Circuit to exactly 3 buildings in "Moduled circuits"');
    assert.ok(blockEditors.lastView.get(id)!.flow.nodes.length >= 4, 'the editor has a flow diagram of the solved block');
    // Open the row's detail in the tab (its toggle names the modules) and look at it with the diagram.
    await vscode.commands.executeCommand('workbench.action.joinAllGroups');
    const click = await uiRequest({ webview: 'Recipes (2)', webviewClick: '2 × Speed module S1', timeoutMs: 15_000 });
    assert.deepEqual(click.failures, [], click.webviewText);
    const ui = await uiRequest({
      webview: 'Recipes (2)', webviewIncludes: ['Machine modules · 2 of 4 slots', 'Modules in Beacon tower', 'Speed +', 'Flow', 'exactly'],
      timeoutMs: 15_000, screenshot: { file: 'block-editor-modules.png', element: 'page' },
    });
    assert.deepEqual(ui.failures, [], ui.webviewText);
    const flow = await uiRequest({ webview: 'Recipes (2)', webviewReveal: 'Flow', timeoutMs: 15_000, screenshot: { file: 'block-editor-flow.png', element: 'page' } });
    assert.deepEqual(flow.failures, [], flow.webviewText);
    // An impossible cap shows the diagnosis instead of a result.
    await blockEditors.edit(id, { kind: 'row-pin', recipe: 'circuit', pin: { kind: 'cap', buildings: 0.1 } }, base());
    assert.equal(blockEditors.lastView.get(id)!.state, 'infeasible');
    const bad = await uiRequest({ webview: 'Recipes (2)', webviewIncludes: ['Why it cannot be solved'], timeoutMs: 15_000, screenshot: { file: 'block-editor-infeasible.png', element: 'page' } });
    assert.deepEqual(bad.failures, [], bad.webviewText);
    await vscode.commands.executeCommand('pyops.edit.undo');
    await waitFor(() => blockEditors.lastView.get(id)?.state === 'solved', 'the editor to follow the undo of the cap');
  });
});
