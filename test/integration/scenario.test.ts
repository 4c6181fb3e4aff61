// The whole factory inside a real VS Code, on a project of the sample world: a pin edited in the Factory
// Balance's Scenario section, Recalculate, a stale result refused, Balance Factory as one undoable
// action and Undo putting every goal back; the science block editor derived from a technology (its
// labs shown, Ctrl+Z in the tab undoing an edit), in a light and a dark theme; the factory board
// rendering the blocks and opening one on a double-click. Screenshots at a 700 px editor tab and a
// 300 px side bar. Expected numbers by hand from the sample world's dump: a gear takes 2 ferrite
// plates and gear-productivity-1 (+10 %, counted under Future) makes 1.1 gears a craft.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { createBlock, getBlock, listBlocks } from '../../src/core/planning/factory/blocks';
import { solverFor } from '../../src/core/assistant/tools/context';
import { planningContext } from '../../src/core/planning/context';
import { readFactoryPins, readSupplyPriorities } from '../../src/core/planning/factory/scenario/inputs';
import type { ScenarioResult } from '../../src/core/planning/factory/scenario/scenario';
import type { BalanceOutcome } from '../../src/extension/scenario/store';
import path from 'node:path';
import { api, sampleWorld, uiRequest, waitFor, workDir } from './helpers';

const near = (a: number | undefined, b: number, tol = 1e-5) => assert.ok(a !== undefined && Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} ≠ ${b}`);
/** A 700 px editor tab between a 300 px side bar (after the 48 px activity bar) and the chat (about 300 px). */
const NARROW = { width: 48 + 300 + 700 + 304, height: 820 };
const WIDE = { width: 1400, height: 900 };

describe('PyOps factory scenario, science block and board', () => {
  let plates: string;
  let gears: string;

  before(async function () {
    this.timeout(120_000);
    // A project of its own on the sample world: the sample project stays as later suites find it.
    await vscode.commands.executeCommand('pyops.project.new', { file: path.join(workDir('scenario'), 'scenario.pyops'), name: 'Scenario factory' });
    await vscode.commands.executeCommand('pyops.gamedata.import', { source: sampleWorld().dump });
    await vscode.commands.executeCommand('pyops.planning.setHorizon', { mode: 'future' });
    const { projects } = await api();
    const p = projects.require();
    const solve = solverFor(planningContext(p));
    plates = await createBlock(p, solve, { name: 'Ferrite plates', doc: { goals: [{ good: 'ferrite-plate', rate: 1 }], recipes: [{ recipe: 'ferrite-plate', machine: 'kiln' }] } });
    gears = await createBlock(p, solve, { name: 'Gears', doc: { goals: [{ good: 'gear', rate: 1 }], recipes: [{ recipe: 'gear' }] } });
    // One editor group, no walkthrough beside it (the chat stays open on the right: closing it here
    // breaks a later suite's saves).
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.joinAllGroups');
  });

  after(async () => {
    // Leave the window as the other suites expect it: the sample open, no tabs of this project, the side bar's views as they were.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('pyops.project.openSample');
    await uiRequest({
      viewport: WIDE,
      pageClicks: [
        '#workbench\\.parts\\.sidebar .pane-header[aria-label^="Factory Balance"][aria-expanded="true"]',
        '#workbench\\.parts\\.sidebar .pane-header[aria-label^="Assistant"][aria-expanded="false"]',
      ],
    });
  });

  it('edits a pin, recalculates, refuses a stale result, balances the factory as one undo, and undoes every goal', async function () {
    this.timeout(180_000);
    const { projects, scenario, balance } = await api();
    const p = projects.require();
    const before = Object.fromEntries(listBlocks(p).map((b) => [b.id, b.doc.goals]));
    await vscode.commands.executeCommand('pyops.scenario.addPin', { good: 'gear', rate: 2 });
    await vscode.commands.executeCommand('pyops.scenario.editPin', { good: 'gear', rate: 3 });
    assert.deepEqual(readFactoryPins(p), [{ good: 'gear', rate: 3 }]);
    assert.equal(p.undoable()?.label, 'Pin gear at 3/s');
    const r = (await vscode.commands.executeCommand('pyops.scenario.recalculate')) as ScenarioResult;
    assert.equal(r.status, 'optimal', r.message);
    const next = (id: string) => r.goalChanges.find((c) => c.blockId === id)?.next;
    near(next(gears), 3);
    // 3 gears/s ÷ 1.1 per craft × 2 plates.
    near(next(plates), 6 / 1.1);
    assert.equal(scenario.current()?.stale, false);
    // The Balance view shows it: the pin with its source, the goal change as block: current → next.
    await vscode.commands.executeCommand('pyops.balance.focus');
    const model = await balance.current();
    assert.ok(model && !('error' in model));
    // Fold the Assistant so the Balance has room in the side bar.
    const fold = ['#workbench\\.parts\\.sidebar .pane-header[aria-label^="Assistant"][aria-expanded="true"]'];
    const shown = await uiRequest({
      viewport: NARROW,
      pageClicks: fold,
      sidebarIncludes: ['Scenario', 'Pins', '3/s · yours', 'Goal changes', 'Gears: 1/s → 3/s', 'Ferrite plates: 1/s → 5.45/s', 'Goods no block can supply'],
      timeoutMs: 30_000,
      screenshot: { file: 'balance-scenario.png', element: 'sidebar' },
    }, 120_000);
    assert.deepEqual(shown.failures, [], `${shown.failures.join('; ')} — the side bar shows: ${shown.sidebarText?.replace(/\n/g, ' | ')}`);

    // Another pin makes the result stale: Balance Factory refuses it and says to recalculate.
    await vscode.commands.executeCommand('pyops.scenario.editPin', { good: 'gear', rate: 4 });
    await waitFor(() => scenario.current()?.stale, 'the scenario to be marked stale');
    const refused = (await vscode.commands.executeCommand('pyops.scenario.balance')) as BalanceOutcome;
    assert.equal(refused.applied, false);
    assert.match(refused.applied ? '' : refused.message, /recalculate/i);
    assert.deepEqual(getBlock(p, gears).doc.goals, before[gears]);
    const stale = await uiRequest({ sidebarIncludes: ['stale — recalculate', '2 · stale'], timeoutMs: 15_000 });
    assert.deepEqual(stale.failures, [], `${stale.failures.join('; ')} — the side bar shows: ${stale.sidebarText?.replace(/\n/g, ' | ')}`);

    const again = (await vscode.commands.executeCommand('pyops.scenario.recalculate')) as ScenarioResult;
    assert.equal(again.status, 'optimal', again.message);
    const applied = (await vscode.commands.executeCommand('pyops.scenario.balance')) as BalanceOutcome;
    assert.equal(applied.applied, true, applied.applied ? '' : applied.message);
    near(getBlock(p, gears).doc.goals[0].rate, 4);
    near(getBlock(p, plates).doc.goals[0].rate, 8 / 1.1);
    assert.match(p.undoable()?.label ?? '', /^Balance factory \(2 goals in 2 blocks/);
    const done = await uiRequest({ sidebarIncludes: ['applied'], timeoutMs: 15_000, screenshot: { file: 'balance-scenario-applied.png', element: 'sidebar' } });
    assert.deepEqual(done.failures, [], `${done.failures.join('; ')} — the side bar shows: ${done.sidebarText?.replace(/\n/g, ' | ')}`);

    // One Undo puts every goal back, exactly.
    assert.match(String(await vscode.commands.executeCommand('pyops.edit.undo')), /^Balance factory/);
    assert.deepEqual(Object.fromEntries(listBlocks(p).map((b) => [b.id, b.doc.goals])), before);
    // The result is the answer again for the factory as it is, so it can be applied again.
    await waitFor(() => scenario.current() && !scenario.current()!.stale && !scenario.current()!.applied, 'the scenario to be fresh again after the undo');
  });

  it('derives the science block from a technology, shows its labs, and undoes an edit with Ctrl+Z in the tab (light and dark)', async function () {
    this.timeout(180_000);
    const { projects, scienceEditor } = await api();
    const p = projects.require();
    const id = (await vscode.commands.executeCommand('pyops.science.open')) as string;
    assert.ok(id, JSON.stringify((await api()).recentCommandErrors()));
    assert.ok(getBlock(p, id).doc.science);
    let v = await waitFor(() => scienceEditor.lastView?.id === id && scienceEditor.lastView, 'the science editor to show the block');
    // The same path "Derive from a technology…" takes once the technology and minutes are picked.
    await scienceEditor.edit({ kind: 'derive', tech: 'advanced-pressing', minutes: 30 }, v.updatedAt);
    v = scienceEditor.lastView!;
    assert.equal(v.mode, 'research');
    // 3150 lab-seconds in 1800 s on labs of speed 1: 1.75 labs; 195 basic and 75 advanced packs.
    near(v.result!.labs, 1.75);
    assert.equal(v.result!.wholeLabs, 2);
    near(v.result!.packs.find((x) => x.pack === 'basic-research-pack')!.perSecond, 195 / 1800);
    assert.equal(p.undoable()?.label, `Research Advanced pressing in 30 min in "${getBlock(p, id).name}"`);
    await scienceEditor.edit({ kind: 'modules', modules: [{ name: 'speed-module-s1', count: 2 }] }, v.updatedAt);
    near(scienceEditor.lastView!.result!.labs, 1.75 / 1.5);

    const theme = vscode.workspace.getConfiguration('workbench');
    const had = theme.inspect<string>('colorTheme')?.globalValue;
    try {
      await theme.update('colorTheme', 'Default Light Modern', vscode.ConfigurationTarget.Global);
      await new Promise((r) => setTimeout(r, 2000));
      const light = await uiRequest({
        viewport: NARROW, pageSelectors: ['.monaco-workbench.vs:not(.vs-dark)'], webview: 'Researched in order', webviewIncludes: ['Advanced pressing', 'Labs', 'Research speed', 'Productivity', 'per minute', 'Lab modules'],
        timeoutMs: 20_000, screenshot: { file: 'science-editor-light.png', element: 'page' },
      });
      assert.deepEqual(light.failures, [], light.webviewText);
      const result = await uiRequest({ webview: 'Researched in order', webviewReveal: 'Result', timeoutMs: 20_000, screenshot: { file: 'science-editor-light-result.png', element: 'page' } });
      assert.deepEqual(result.failures, [], result.webviewText);
      await theme.update('colorTheme', 'Default Dark Modern', vscode.ConfigurationTarget.Global);
      // The webview takes the new colours a moment after the workbench; a resize makes the page repaint.
      await new Promise((r) => setTimeout(r, 2000));
      await uiRequest({ viewport: { ...NARROW, height: NARROW.height - 1 } });
      const dark = await uiRequest({ viewport: NARROW, pageSelectors: ['.monaco-workbench.vs-dark'], webview: 'Researched in order', webviewIncludes: ['Not researched in labs'], webviewReveal: 'Research', timeoutMs: 20_000, screenshot: { file: 'science-editor-dark.png', element: 'page' } });
      assert.deepEqual(dark.failures, [], dark.webviewText);
    } finally {
      await theme.update('colorTheme', had, vscode.ConfigurationTarget.Global);
    }
    // Ctrl+Z in the tab is PyOps' Undo: the modules go.
    const key = await uiRequest({ webview: 'Researched in order', webviewFocusPress: 'Control+z', timeoutMs: 15_000 });
    assert.deepEqual(key.failures, [], key.webviewText);
    await waitFor(() => getBlock(p, id).doc.science!.modules.length === 0, 'Ctrl+Z in the science editor to undo the modules');
    await waitFor(() => scienceEditor.lastView?.modules.length === 0, 'the science editor to follow the undo');
    // "Edit Block" on the science block (a click in the Factory view) opens it here too.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('pyops.block.edit', { blockId: id });
    await waitFor(() => scienceEditor.lastView?.id === id, 'Edit Block to open the science editor');
  });

  it('renders the board and opens a block on a double-click', async function () {
    this.timeout(120_000);
    const { board, blockEditors } = await api();
    await vscode.commands.executeCommand('pyops.board.open');
    const v = await waitFor(() => board.lastView?.nodes.some((n) => n.id === gears) && board.lastView, 'the board to show the blocks');
    const link = v.edges.find((e) => e.from === plates && e.to === gears);
    assert.ok(link, JSON.stringify(v.edges));
    near(link.goods[0].rate, 1);
    // Gears takes 2 / 1.1 plates/s and gets 1: short, drawn red.
    assert.equal(link.goods[0].short, true);
    const shown = await uiRequest({ viewport: NARROW, webview: 'Factory board', webviewIncludes: ['Gears', 'Ferrite plates', 'short: Ferrite plate'], timeoutMs: 20_000, screenshot: { file: 'board.png', element: 'page' } });
    assert.deepEqual(shown.failures, [], shown.webviewText);
    const open = await uiRequest({ webview: 'Factory board', webviewDblClick: 'Gears', timeoutMs: 15_000 });
    assert.deepEqual(open.failures, [], open.webviewText);
    await waitFor(() => blockEditors.lastView.get(gears), 'the double-click to open the Gears block');
    await uiRequest({ viewport: WIDE, screenshot: { file: 'board-opened-block.png', element: 'page' } });
  });

  it('orders, shares and resets the supply of a good two blocks make, each one undoable', async function () {
    this.timeout(60_000);
    const { projects, board } = await api();
    const p = projects.require();
    const second = await createBlock(p, solverFor(planningContext(p)), { name: 'More plates', doc: { goals: [{ good: 'ferrite-plate', rate: 1 }], recipes: [{ recipe: 'ferrite-plate', machine: 'kiln' }] } });
    await vscode.commands.executeCommand('pyops.scenario.supplyOrder', { good: 'ferrite-plate', order: [second, plates] });
    assert.deepEqual(readSupplyPriorities(p), [{ good: 'ferrite-plate', order: [second, plates] }]);
    assert.equal(p.undoable()?.label, 'Supply order for ferrite-plate');
    // The board fills Gears (1.82 plates/s) from the block now first: 1/s from it, the rest from the other.
    const rate = (from: string) => board.lastView?.edges.find((e) => e.from === from && e.to === gears)?.goods[0].rate;
    await waitFor(() => Math.abs((rate(second) ?? 0) - 1) < 1e-6, 'the board to follow the supply order');
    near(rate(plates), 2 / 1.1 - 1);
    await vscode.commands.executeCommand('pyops.scenario.supplyShares', { good: 'ferrite-plate', shares: { [plates]: 0.25, [second]: 0.75 } });
    assert.deepEqual(readSupplyPriorities(p)[0].shares, { [plates]: 0.25, [second]: 0.75 });
    // "Supply order" starts folded: open it.
    const shown = await uiRequest({
      pageClicks: ['#workbench\\.parts\\.sidebar .monaco-list-row[aria-expanded="false"]:has-text("Supply order")'],
      sidebarIncludes: ['shares: Ferrite plates 25 %, More plates 75 %'], timeoutMs: 20_000, screenshot: { file: 'balance-supply-order.png', element: 'sidebar' },
    });
    assert.deepEqual(shown.failures, [], `${shown.failures.join('; ')} — the side bar shows: ${shown.sidebarText?.replace(/\n/g, ' | ')}`);
    await vscode.commands.executeCommand('pyops.scenario.supplyDefault', { good: 'ferrite-plate' });
    assert.deepEqual(readSupplyPriorities(p), []);
    await vscode.commands.executeCommand('pyops.scenario.removePin', { good: 'gear' });
    assert.deepEqual(readFactoryPins(p), []);
  });
});
