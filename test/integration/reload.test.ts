// A window reload brings every PyOps tab back: a block editor, a block page, a good page, a task and a
// note (the note the active editor, as a reload finds it, so VS Code reads it before the startup
// project is open). The first half makes the project and asks for the reload; once every other test
// has run, index.ts opens the project and its tabs and reloads the window, and the second half
// (AFTER_RELOAD) runs in the new extension host.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import fs from 'node:fs';
import path from 'node:path';
import { createBlock, listBlocks } from '../../src/core/planning/factory/blocks';
import { solverFor } from '../../src/core/assistant/tools/context';
import { planningContext } from '../../src/core/planning/context';
import { createTask } from '../../src/core/work/tasks';
import { createNote } from '../../src/core/work/notes';
import { AFTER_RELOAD, api, env, reloadAfterSuites, uiRequest, waitFor, workDir, sampleWorld } from './helpers';

interface Expected {
  file: string;
  blockId: string;
  blockName: string;
  /** Tab label → a text its document shows. */
  texts: Record<string, string>;
}

/** The science block's editor and the board, by their tab labels once they show the project. */
const WEBVIEW_TABS = ['Science', 'Board: Reload factory'];
/** Bring a restored tab to the front, as a click on it does (VS Code revives a webview tab when it is shown). */
async function showTab(label: string): Promise<void> {
  const groups = vscode.window.tabGroups.all;
  const g = groups.findIndex((x) => x.tabs.some((t) => t.label === label));
  assert.ok(g >= 0 && g < 2, `tab ${label} in ${labels().join(', ')}`);
  const i = groups[g].tabs.findIndex((t) => t.label === label);
  assert.ok(i < 9, `tab ${label} within the first nine of its group`);
  await vscode.commands.executeCommand(g === 0 ? 'workbench.action.focusFirstEditorGroup' : 'workbench.action.focusSecondEditorGroup');
  await vscode.commands.executeCommand(`workbench.action.openEditorAtIndex${i + 1}`);
}
const expectFile = () => path.join(env('PYOPS_TEST_OUTPUT'), 'reload-expect.json');
const labels = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label));

describe('PyOps tabs before a window reload', () => {
  it('makes a project with a block, a task and a note, and asks for the reload (its tabs are opened last)', async function () {
    this.timeout(120_000);
    const file = path.join(workDir('reload'), 'reload.pyops');
    await vscode.commands.executeCommand('pyops.project.new', { file, name: 'Reload factory' });
    await vscode.commands.executeCommand('pyops.gamedata.import', { source: sampleWorld().dump });
    await vscode.commands.executeCommand('pyops.planning.setHorizon', { mode: 'future' });
    const { projects } = await api();
    const p = projects.require();
    const blockId = await createBlock(p, solverFor(planningContext(p)), { name: 'Reloaded gears', doc: { goals: [{ good: 'gear', rate: 1 }], recipes: [{ recipe: 'gear' }] } });
    const task = createTask(p, { title: 'Survive a reload', body: 'Every tab comes back.' });
    const note = createNote(p, { title: 'Reload notes', body: 'The note reads before the project opens.' });
    const expected: Expected = {
      file: p.file,
      blockId,
      blockName: 'Reloaded gears',
      texts: {
        'Reloaded gears.md': '# Reloaded gears',
        'Gear.md': 'Made by',
        'Survive a reload.md': 'Every tab comes back.',
        'Reload notes.md': 'The note reads before the project opens.',
      },
    };
    fs.writeFileSync(expectFile(), JSON.stringify(expected));
    // After every other suite: this project open (the one the reload reopens), and its tabs.
    reloadAfterSuites(async () => {
      await vscode.commands.executeCommand('pyops.project.open', { file });
      const { blockEditors } = await api();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.commands.executeCommand('workbench.action.joinAllGroups');
      await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar').then(undefined, () => undefined);
      // The block editor alone in the first group; the pages in a second, the note last (its active one).
      await vscode.commands.executeCommand('pyops.block.edit', { blockId });
      await waitFor(() => blockEditors.lastView.get(blockId)?.result, 'the block editor');
      await vscode.commands.executeCommand('workbench.action.newGroupRight');
      // The pages open as previews, which the next one would replace: keep each.
      await vscode.commands.executeCommand('pyops.block.open', { blockId });
      await vscode.commands.executeCommand('workbench.action.keepEditor');
      await vscode.commands.executeCommand('pyops.good.open', { good: 'gear', open: 'info' });
      await vscode.commands.executeCommand('workbench.action.keepEditor');
      await vscode.commands.executeCommand('pyops.task.open', { taskId: task.id });
      // The science block and the board: webview panels VS Code restores through PyOps' serializers.
      await vscode.commands.executeCommand('pyops.science.open');
      await vscode.commands.executeCommand('pyops.board.open');
      const { board } = await api();
      await waitFor(() => board.lastView?.nodes.length, 'the board showing the factory');
      await vscode.commands.executeCommand('pyops.note.open', { noteId: note.id });
      const shown = labels();
      for (const l of [expected.blockName, ...WEBVIEW_TABS, ...Object.keys(expected.texts)]) assert.ok(shown.includes(l), `tab ${l} in ${shown.join(', ')}`);
      const ui = await uiRequest({ editorIncludes: ['The note reads before the project opens.'], screenshot: { file: 'reload-before.png', element: 'page' } });
      assert.deepEqual(ui.failures, [], `editor: ${ui.editorText}`);
    });
  });
});

describe(`PyOps tabs ${AFTER_RELOAD}`, () => {
  it('are all back, each showing its record, with the project open for editing', async function () {
    this.timeout(120_000);
    const expected = JSON.parse(fs.readFileSync(expectFile(), 'utf8')) as Expected;
    const started = Date.now();
    const { projects, blockEditors, scienceEditor, board } = await api();
    // The last project reopens; should the old window's extension host still hold it, it opens read-only
    // and is taken over as soon as that host is gone.
    const p = await waitFor(() => projects.active?.file === expected.file && !projects.active.readOnly && projects.active, 'the project open for editing after the reload', 60_000);
    console.log(`      (project writable ${((Date.now() - started) / 1000).toFixed(1)} s after the tests resumed)`);
    assert.ok(listBlocks(p).some((b) => b.id === expected.blockId));

    // Each tab under its name (the block editor's too, once its project is open: never its file name).
    const wanted = [expected.blockName, ...WEBVIEW_TABS, ...Object.keys(expected.texts)];
    await waitFor(() => wanted.every((l) => labels().includes(l)), `the tabs ${wanted.join(', ')} back (tabs now: ${labels().join(', ')})`, 20_000).catch((err: Error) => {
      throw new Error(`${err.message}; tabs: ${labels().join(', ')}`);
    });
    // The note was the active editor: VS Code read it during the restore; it shows its text, no error.
    const ui = await uiRequest({
      editorIncludes: [expected.texts['Reload notes.md']],
      editorExcludes: ['Try Again', 'Unable to', 'could not'],
      webview: expected.blockName,
      webviewIncludes: ['Recipes (1)', 'Gear'],
      screenshot: { file: 'reload-after.png', element: 'page' },
    });
    assert.deepEqual(ui.failures, [], `editor: ${ui.editorText}\n---\nwebview: ${ui.webviewText}`);
    // The block editor was revived onto its block and edits it.
    const view = await waitFor(() => blockEditors.lastView.get(expected.blockId), 'the revived block editor');
    assert.equal(view.name, expected.blockName);
    assert.equal(vscode.window.tabGroups.all.length, 2, 'both editor groups are back');
    // The science editor and the board came back through their serializers and follow the project
    // (a webview restored in the background draws once it is shown).
    for (const label of WEBVIEW_TABS) {
      const tab = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === label)!;
      assert.ok(tab.input instanceof vscode.TabInputWebview, `${label} is a webview tab`);
    }
    // Shown, each is revived through PyOps' serializer onto the project (no command opens them).
    await showTab('Science');
    const science = await waitFor(() => scienceEditor.lastView, 'the restored science editor drawing');
    assert.equal(science.name, 'Science');
    await showTab('Board: Reload factory');
    const boardView = await waitFor(() => board.lastView?.nodes.length && board.lastView, 'the restored board drawing');
    assert.ok(boardView.nodes.some((n) => n.name === expected.blockName), JSON.stringify(boardView.nodes.map((n) => n.name)));
    // Opening them again reveals the revived tabs: never a second one.
    await vscode.commands.executeCommand('pyops.science.open');
    await vscode.commands.executeCommand('pyops.board.open');
    assert.equal(labels().filter((l) => WEBVIEW_TABS.includes(l)).length, 2, `no second science or board tab: ${labels().join(', ')}`);
    // Every other tab's document reads its record (the page, the good, the task).
    for (const [label, text] of Object.entries(expected.texts)) {
      const tab = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === label)!;
      assert.ok(tab.input instanceof vscode.TabInputText, `${label} is a text tab`);
      const doc = await vscode.workspace.openTextDocument(tab.input.uri);
      assert.ok(doc.getText().includes(text), `${label} shows "${text}": ${doc.getText().slice(0, 300)}`);
    }
  });
});
