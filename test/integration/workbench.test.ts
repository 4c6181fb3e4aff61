// The workbench around the editor, as a player meets it: quiet confirmations in the status bar, an
// import offer that waits for an answer, the walkthrough once and never in a split, "Ask a first
// question" ticked only by a question, names instead of codes (the horizon, categories, good pages
// with "5 of 12" and a page of all, titles in breadcrumbs), the sample's first look, recent projects,
// research prerequisites offered, and a project switch that logs no block-editor error. (A project
// taken over once the window that held it is gone: foundation.test.ts.)
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import fs from 'node:fs';
import path from 'node:path';
import { createBlock, listBlocks } from '../../src/core/planning/factory/blocks';
import { solverFor } from '../../src/core/assistant/tools/context';
import { planningContext } from '../../src/core/planning/context';
import { listTasks } from '../../src/core/work/tasks';
import { createNote, noteHeads } from '../../src/core/work/notes';
import { readPlanningState } from '../../src/core/planning/settings';
import { STARTER_BLOCK, STARTER_NOTE, STARTER_TASK } from '../../src/core/work/sampleStarter';
import { api, env, uiRequest, waitFor, workDir, sampleWorld } from './helpers';

const NARROW = { width: 48 + 300 + 700, height: 820 };
const WIDE = { width: 1400, height: 900 };
const WALKTHROUGH = 'pyops.pyops-vscode#pyops.start';
const step = (id: string, checked: boolean) => `button.getting-started-step[data-step-id="${WALKTHROUGH}#${id}"][aria-checked="${checked}"]`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** What the console log gained since it was `from` bytes long (a byte offset: the log holds ✔ and ✘). */
const logSince = (log: string, from: number) => fs.readFileSync(log).subarray(from).toString('utf8');
const tabLabels = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label));
const isWalkthrough = (l: string) => /Walkthrough|Get started with PyOps|Welcome/i.test(l);

async function freshProject(name: string): Promise<string> {
  const file = path.join(workDir(name.toLowerCase().replace(/\W+/g, '-')), `${name.replace(/\W+/g, '-')}.pyops`);
  await vscode.commands.executeCommand('pyops.project.new', { file, name });
  await vscode.commands.executeCommand('pyops.gamedata.import', { source: sampleWorld().dump });
  return file;
}

describe('PyOps workbench: quiet, in the right place', () => {
  after(async () => {
    await uiRequest({ viewport: WIDE });
  });

  it('confirms undo and redo in the status bar, never as a stack of toasts', async function () {
    this.timeout(60_000);
    await freshProject('Quiet factory');
    await vscode.commands.executeCommand('notifications.clearAll');
    const { projects } = await api();
    createNote(projects.require(), { title: 'Undo me' });
    await vscode.commands.executeCommand('pyops.edit.undo');
    const undone = await uiRequest({ statusBarIncludes: ['undid "Add note "Undo me""'], pageSelectorsAbsent: ['.notification-toast:has-text("undid")'], screenshot: { file: 'undo-in-status-bar.png', element: 'statusbar' } });
    assert.deepEqual(undone.failures, []);
    await vscode.commands.executeCommand('pyops.edit.redo');
    const redone = await uiRequest({ statusBarIncludes: ['redid "Add note "Undo me""'], pageSelectorsAbsent: ['.notification-toast:has-text("redid")', '.notification-toast:has-text("undid")'], screenshot: { file: 'redo-in-status-bar.png', element: 'statusbar' } });
    assert.deepEqual(redone.failures, []);
    // The second replaced the first: one message, not two.
    const both = await uiRequest({ statusBarIncludes: ['redid'], pageSelectorsAbsent: ['#workbench\\.parts\\.statusbar :text("undid")'] });
    assert.deepEqual(both.failures, []);
  });

  it('keeps the "Import its game data now?" offer until it is answered (a modal dialog, not a toast)', async function () {
    this.timeout(60_000);
    // VS Code draws no dialog in an extension test run: its dialog service (which shows modal dialogs
    // only; toasts are the notification service's) refuses the request and logs that it was asked.
    // That line, and no toast, is how this test sees the offer is a modal dialog (a toast would fade in 10 s).
    const log = path.join(env('PYOPS_TEST_OUTPUT'), 'extension-host-console.log');
    const from = fs.statSync(log).size;
    await vscode.commands.executeCommand('notifications.clearAll');
    const file = path.join(workDir('offer'), 'offer.pyops');
    await vscode.commands.executeCommand('pyops.project.new', { file, name: 'Offer factory', offerGameData: true });
    await waitFor(() => /DialogService: Dialog requested/.test(logSince(log, from)), 'the offer asked as a modal dialog');
    const toast = await uiRequest({ pageSelectorsAbsent: ['.notification-toast:has-text("Import its game data")'], statusBarIncludes: ['Offer factory (no game data'] });
    assert.deepEqual(toast.failures, []);
  });

  it('opens the walkthrough once, in the editor area (never a split), on the sample with its block, task and note', async function () {
    this.timeout(120_000);
    const { projects, walkthroughShown } = await api();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.joinAllGroups');
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar').then(undefined, () => undefined);
    const first = !walkthroughShown();
    await vscode.commands.executeCommand('pyops.project.openSample');
    if (first) await waitFor(() => tabLabels().some(isWalkthrough), 'the walkthrough on the first run');
    else await sleep(2000);
    assert.equal(vscode.window.tabGroups.all.length, 1, `one editor group: ${tabLabels().join(', ')}`);
    assert.equal(walkthroughShown(), true);
    // The sample's first look: a solved block, a task and a note.
    const p = projects.require();
    const block = listBlocks(p).find((b) => b.name === STARTER_BLOCK);
    assert.ok(block, listBlocks(p).map((b) => b.name).join(', '));
    assert.equal(block.cache.status, 'optimal');
    assert.ok(listTasks(p).some((t) => t.title === STARTER_TASK));
    assert.ok(noteHeads(p).some((n) => n.title === STARTER_NOTE));
    const { views, factory } = await api();
    await waitFor(() => factory.current()?.blocks.some((b) => b.id === block.id), 'the starter block in the Factory view');
    const blocks = factory.getChildren().find((g) => g.kind === 'group' && g.group === 'blocks')!;
    await views.factory.reveal(factory.getChildren(blocks).find((b) => b.kind === 'block' && b.block.id === block.id)!, { select: false, focus: false });
    const look = await uiRequest({ viewport: NARROW, sidebarIncludes: [STARTER_BLOCK, STARTER_TASK], screenshot: { file: 'sample-first-look-300px.png', element: 'page' } });
    assert.deepEqual(look.failures, [], look.sidebarText);
    // Opening it again (a sample switch, the next start) opens no walkthrough.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('pyops.project.openSample');
    await sleep(2000);
    assert.equal(tabLabels().filter(isWalkthrough).length, 0, tabLabels().join(', '));
    assert.equal(vscode.window.tabGroups.all.length, 1);
    await uiRequest({ viewport: WIDE });
  });

  it('ticks "Ask a first question" only once a question is asked', async function () {
    this.timeout(150_000);
    const ext = vscode.extensions.getExtension('pyops-test.pyops-fake-lm');
    assert.ok(ext, 'the test language-model extension is installed');
    await ext.activate();
    await freshProject('Ask factory');
    const { assistant } = await api();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', { category: WALKTHROUGH, step: 'ask' }, false);
    await vscode.commands.executeCommand('welcome.markStepIncomplete', `${WALKTHROUGH}#ask`);
    // What used to tick it: the side panel in view, and the step's own button (which only prefills the chat).
    await vscode.commands.executeCommand('pyops.panel.open');
    await vscode.commands.executeCommand('pyops.walkthrough.ask');
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', { category: WALKTHROUGH, step: 'ask' }, false);
    const open = await uiRequest({ pageSelectors: [step('ask', false)], screenshot: { file: 'walkthrough-ask-unticked.png', element: 'page' } });
    assert.deepEqual(open.failures, []);
    const before = assistant.host.recentTurns.length;
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@pyops /new which good is a circuit?', modelSelector: { vendor: 'pyops-test-lm', id: 'scripted' } });
    const turn = await waitFor(() => assistant.host.recentTurns.slice(before).find((t) => t.source === 'vscode'), 'the question answered', 90_000);
    assert.equal(turn.error, undefined, turn.error);
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', { category: WALKTHROUGH, step: 'ask' }, false);
    const ticked = await uiRequest({ pageSelectors: [step('ask', true)], screenshot: { file: 'walkthrough-ask-ticked.png', element: 'page' } });
    assert.deepEqual(ticked.failures, []);
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar').then(undefined, () => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('logs no block-editor error when the project is switched with a block tab open', async function () {
    this.timeout(90_000);
    await freshProject('Switch from');
    const { projects, blockEditors, icons } = await api();
    const p = projects.require();
    await vscode.commands.executeCommand('pyops.planning.setHorizon', { mode: 'future' });
    const id = await createBlock(p, solverFor(planningContext(p)), { name: 'Left behind', doc: { goals: [{ good: 'gear', rate: 1 }], recipes: [{ recipe: 'gear' }] } });
    await vscode.commands.executeCommand('pyops.block.edit', { blockId: id });
    await waitFor(() => blockEditors.lastView.get(id)?.result, 'the block editor');
    const log = path.join(env('PYOPS_TEST_OUTPUT'), 'extension-host-console.log');
    const from = fs.statSync(log).size;
    await freshProject('Switch to');
    icons.reload();
    await sleep(3000);
    const logged = logSince(log, from);
    assert.doesNotMatch(logged, /BlockError/, logged.split('\n').filter((l) => /BlockError/.test(l)).join('\n'));
    const tab = await uiRequest({ webview: 'Left behind', webviewIncludes: ['which is not open now'], timeoutMs: 20_000 });
    assert.deepEqual(tab.failures, [], tab.webviewText);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});

describe('PyOps workbench: names, not codes', () => {
  after(async () => {
    await uiRequest({ viewport: WIDE });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('shows the horizon and favourite categories by name in the Planning group', async function () {
    this.timeout(60_000);
    await freshProject('Names factory');
    await vscode.commands.executeCommand('pyops.planning.setHorizon', { mode: 'target', target: 'basic-research-pack' });
    await vscode.commands.executeCommand('pyops.planning.setFavoriteMachine', { category: 'crafting', machine: 'press' });
    const { views, factory } = await api();
    await vscode.commands.executeCommand('pyops.factory.focus');
    await waitFor(() => factory.current()?.planning.favoriteMachines.length, 'the favourite in the Factory view');
    const planning = factory.getChildren().find((g) => g.kind === 'group' && g.group === 'planning')!;
    await views.factory.reveal(planning, { expand: true });
    // The tree draws only the rows in sight: bring the favourite's row into it.
    const favourite = factory.getChildren(planning).find((n) => n.kind === 'fact' && n.text.startsWith('Favourite for'))!;
    await views.factory.reveal(favourite, { select: false, focus: false });
    const ui = await uiRequest({ viewport: NARROW, sidebarIncludes: ['Able to make Basic research pack', 'Favourite for Crafting'], sidebarExcludes: ['basic-research-pack'], screenshot: { file: 'planning-names-300px.png', element: 'sidebar' } });
    assert.deepEqual(ui.failures, [], ui.sidebarText);
  });

  it('says "5 of 12" on a good page and opens the page with all of them', async function () {
    this.timeout(60_000);
    // Ferrite plates go into 12 recipes of the sample world's dump (digger, gear, press, circuit, frame,
    // conveyor, arm, boiler unit, steam turbine unit, tempered gear, lean frame, lean circuit).
    const uri = (await vscode.commands.executeCommand('pyops.good.open', { good: 'ferrite-plate', open: 'info' })) as string;
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
    assert.match(doc.getText(), /## Used by \(5 of 12\)/);
    const link = /\[See all \d+ recipes that make it and 12 that use it\]\(([^)\s]+(?:\([^)]*\)[^)\s]*)?)\)/.exec(doc.getText());
    assert.ok(link, doc.getText());
    const shown = await uiRequest({ editorIncludes: ['Used by (5 of 12)', 'See all'], screenshot: { file: 'good-page-5-of-12.png', element: 'page' } });
    assert.deepEqual(shown.failures, [], shown.editorText);
    const all = await vscode.workspace.openTextDocument(vscode.Uri.parse(link[1]));
    await vscode.window.showTextDocument(all);
    assert.match(all.getText(), /## Used by \(12\)/);
    const used = all.getText().split('## Used by')[1].split('\n').filter((l) => l.startsWith('- '));
    assert.equal(used.length, 12, used.join('\n'));
    const page = await uiRequest({ editorIncludes: ['Used by (12)', 'Lean circuit'], screenshot: { file: 'good-page-all.png', element: 'page' } });
    assert.deepEqual(page.failures, [], page.editorText);
  });

  it('shows a note and a task by title in the tab and the breadcrumbs, never by id', async function () {
    this.timeout(60_000);
    const { projects } = await api();
    const n = createNote(projects.require(), { title: 'Coal plans', body: 'Four ovens.' });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('pyops.note.open', { noteId: n.id });
    const crumbs = await uiRequest({ pageSelectors: ['.breadcrumbs-control .monaco-breadcrumb-item:has-text("Coal plans.md")'], editorExcludes: [n.id], screenshot: { file: 'note-breadcrumbs.png', element: 'page' } });
    assert.deepEqual(crumbs.failures, [], crumbs.editorText);
    const id = (await vscode.commands.executeCommand('pyops.task.new', { title: 'Coal line' })) as string;
    await vscode.commands.executeCommand('pyops.task.open', { taskId: id });
    const task = await uiRequest({ pageSelectors: ['.breadcrumbs-control .monaco-breadcrumb-item:has-text("Coal line.md")'], editorExcludes: [id] });
    assert.deepEqual(task.failures, [], task.editorText);
  });
});

describe('PyOps workbench: first impression', () => {
  after(async () => {
    // Leave the Factory view scrolled to its top, as the next suite's picture expects it.
    const { views, factory } = await api();
    const blocks = factory.getChildren().find((g) => g.kind === 'group' && g.group === 'blocks');
    if (blocks) await views.factory.reveal(blocks, { select: false, focus: false });
  });

  it('suggests new projects in the workspace folder', async function () {
    this.timeout(60_000);
    const ws = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(ws, 'the test workspace has a folder');
    void vscode.commands.executeCommand('pyops.project.new');
    const name = await uiRequest({ quickInputIncludes: ['New PyOps project'], pagePress: ['Enter'] });
    assert.deepEqual(name.failures, [], name.quickInputText);
    const save = await uiRequest({ quickInputIncludes: ['Save the new PyOps project as'], screenshot: { file: 'new-project-folder.png', element: 'page' } });
    assert.deepEqual(save.failures, [], save.quickInputText);
    assert.equal(save.quickInputValue, path.join(ws, 'My-factory.pyops'), save.quickInputText);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });

  it('offers the recent projects when opening one', async function () {
    this.timeout(60_000);
    const a = await freshProject('Recent one');
    await freshProject('Recent two');
    void vscode.commands.executeCommand('pyops.project.open');
    const pick = await uiRequest({ quickInputIncludes: ['Open a PyOps project', 'Recent-one', 'Browse…'], screenshot: { file: 'open-recent-projects.png', element: 'page' } });
    assert.deepEqual(pick.failures, [], pick.quickInputText);
    assert.doesNotMatch(pick.quickInputText ?? '', /Recent-two/, 'the open project is not offered');
    await uiRequest({ pageType: 'Recent-one', pagePress: ['Enter'] });
    const { projects } = await api();
    await waitFor(() => projects.active?.file === a, 'the recent project opened');
  });

  it('offers the unresearched prerequisites of a technology marked researched', async function () {
    this.timeout(60_000);
    await freshProject('Research factory');
    const { projects } = await api();
    const run = vscode.commands.executeCommand('pyops.planning.setResearch', { researched: ['advanced-research'], prerequisites: 'ask' });
    // The sample world's tree: advanced research ← fluid handling ← electronics ← automation basics.
    const offer = await uiRequest({ quickInputIncludes: ['Also mark these 3 prerequisites researched?', 'Automation basics', 'Electronics', 'Fluid handling', 'needed by Advanced research'], screenshot: { file: 'research-prerequisites.png', element: 'page' } });
    assert.deepEqual(offer.failures, [], offer.quickInputText);
    await uiRequest({ pagePress: ['Enter'] });
    await run;
    assert.deepEqual([...readPlanningState(projects.require()).researched].sort(), ['advanced-research', 'automation-basics', 'electronics', 'fluid-handling']);
  });
});
