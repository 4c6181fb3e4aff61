// A player's Py block on the real py-hightech data: the dump imported through the command, horizon
// Future, Py's automation science pack with its 15-recipe chain (fawogae, glassware, coke, sand,
// crushed iron; burner furnaces and fluids) opened in the block editor, looked at (top, a row's
// modules, the flow diagram). Skipped with a reason when ../shared/data is absent.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import fs from 'node:fs';
import path from 'node:path';
import { createBlock } from '../../src/core/planning/factory/blocks';
import { solverFor } from '../../src/core/assistant/tools/context';
import { planningContext } from '../../src/core/planning/context';
import { api, env, uiRequest, waitFor, workDir, type UiCheck } from './helpers';
import { getBlock } from '../../src/core/planning/factory/blocks';

/** The Py dump beside the repository (run.mjs passes ../shared/data; never copied in). */
function pyDump(): string | undefined {
  const shared = process.env.PYOPS_TEST_SHARED_DATA ?? path.resolve(env('PYOPS_TEST_REPO'), '..', 'shared', 'data');
  const dump = path.join(shared, 'py-hightech-2.0-data-raw', 'data-raw-dump.json');
  return fs.existsSync(dump) ? dump : undefined;
}

/** Py's first science pack down to the mines, one producer per good (what bench/solve.ts's chain walk picks). */
const CHAIN = [
  'automation-science-pack', 'fawogae-substrate', 'flask', 'fawogae', 'coke-coal', 'log-wood', 'glass', 'pump-offshore-pump',
  'mine-raw-coal', 'log1', 'extract-sand', 'iron-stick', 'crushed-iron', 'crushing-iron', 'mine-iron-ore',
];
const MADE = ['fawogae-substrate', 'flask', 'fawogae', 'coke', 'wood', 'molten-glass', 'water', 'raw-coal', 'log', 'sand', 'iron-stick', 'iron-plate', 'crushed-iron', 'iron-ore'];

/** A UI request that must succeed. */
async function ui(check: UiCheck): Promise<Awaited<ReturnType<typeof uiRequest>>> {
  const r = await uiRequest({ timeoutMs: 15_000, ...check });
  assert.deepEqual(r.failures, [], `${r.failures.join('; ')}\n${r.webviewText ?? ''}`);
  return r;
}

const setTheme = (theme: string | undefined) => vscode.workspace.getConfiguration('workbench').update('colorTheme', theme, vscode.ConfigurationTarget.Global);

/** A built-in theme's setting value by its label ("Dark Modern"): older VS Code names it "Default Dark Modern". */
function theme(label: string): string {
  const themes = vscode.extensions.all.flatMap((e) => ((e.packageJSON as { contributes?: { themes?: Array<{ id?: string; label: string }> } }).contributes?.themes ?? []));
  const t = themes.find((x) => x.id === label || x.id === `Default ${label}`) ?? themes.find((x) => x.label.includes(label));
  if (!t) throw new Error(`no theme "${label}" among ${themes.map((x) => x.id ?? x.label).join(', ')}`);
  return t.id ?? t.label;
}

describe('A Py block in the editor (real data)', () => {
  let blockId = '';
  let modulesToggle = '';

  it('imports the Py dump, solves the automation science chain and shows it readably', async function () {
    this.timeout(120_000);
    const dump = pyDump();
    if (!dump) {
      console.log('      (skipped: py-hightech-2.0-data-raw/data-raw-dump.json is not in ../shared/data)');
      this.skip();
    }
    const started = Date.now();
    await vscode.commands.executeCommand('pyops.project.new', { file: path.join(workDir('pyblock'), 'py.pyops'), name: 'Py start' });
    await vscode.commands.executeCommand('pyops.gamedata.import', { source: dump });
    await vscode.commands.executeCommand('pyops.planning.setHorizon', { mode: 'future' });
    const { projects, blockEditors } = await api();
    const p = projects.require();
    const ctx = planningContext(p);
    assert.equal(ctx.g.displayOf('flask'), 'Glassware', 'the Py names came with the import');
    const id = await createBlock(p, solverFor(ctx), {
      name: 'Automation science (Py)',
      doc: { goals: [{ good: 'automation-science-pack', rate: 0.5 }], recipes: CHAIN.map((recipe) => ({ recipe })), made: MADE },
    });

    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar').then(undefined, () => undefined);
    await vscode.commands.executeCommand('pyops.block.edit', { blockId: id });
    let view = await waitFor(() => blockEditors.lastView.get(id)?.result && blockEditors.lastView.get(id), 'the Py block solved in its editor');
    assert.equal(view.state, 'solved', view.stateDetail);
    assert.equal(view.rows.length, CHAIN.length);
    for (const r of view.rows) assert.ok(r.buildings! > 0, `${r.recipe} runs`);
    const goods = new Set(view.flow.edges.flatMap((e) => [e.from, e.to]).filter((n) => n.startsWith('g:')));
    assert.equal(view.flow.nodes.length, CHAIN.length + goods.size, 'one node per recipe and per good');
    assert.ok(view.rows.some((r) => r.fuelOptions.length), 'a burner row (Py furnaces burn fuel)');

    // Modules on the first row whose machine takes them, so its detail has something to show.
    const asp = view.rows.find((r) => r.moduleSlots > 0 && r.moduleOptions.length);
    assert.ok(asp, `some machine takes modules: ${view.rows.map((r) => r.machineDisplay).join(', ')}`);
    const module = asp.moduleOptions[0];
    await blockEditors.edit(id, { kind: 'row-modules', recipe: asp.recipe, modules: [{ name: module, count: asp.moduleSlots }] }, view.updatedAt);
    view = blockEditors.lastView.get(id)!;
    if (asp.beaconOptions.length) {
      const beacon = asp.beaconOptions[0];
      await blockEditors.edit(id, { kind: 'row-beacons', recipe: asp.recipe, beacons: [{ beacon, count: 2, modules: [] }] }, view.updatedAt);
      view = blockEditors.lastView.get(id)!;
    }
    assert.equal(view.state, 'solved', view.stateDetail);

    // The Balance shows the pooled fluid fuel the block imports as power, under its plain name (never "(MJ) …/s").
    const { balance } = await api();
    const unsourced = (await balance.getChildren()).find((n) => n.kind === 'section' && n.section === 'unsourced');
    assert.ok(unsourced, 'the Balance lists imports no block makes');
    const fuel = (await balance.getChildren(unsourced)).find((n) => n.kind === 'good' && n.good === 'pyops-fluid-fuel');
    assert.ok(fuel, 'the fluid fuel the glassworks burn is among them');
    const item = balance.getTreeItem(fuel);
    assert.equal(item.label, 'Fluid fuel');
    assert.match(String(item.description), /^[\d.,]+ MW\b/);
    const editor = `Recipes (${CHAIN.length})`;
    const top = await uiRequest({ webview: editor, webviewIncludes: ['Automation science pack', 'Glassware', 'Imports'], timeoutMs: 20_000, screenshot: { file: 'py-block-editor.png', element: 'page' } });
    assert.deepEqual(top.failures, [], top.webviewText);
    const toggle = `${asp.moduleSlots} × ${view.moduleCatalog[module].display}`;
    blockId = id;
    modulesToggle = `expand:${asp.recipe}`;
    const click = await uiRequest({ webview: editor, webviewClick: toggle, timeoutMs: 15_000 });
    assert.deepEqual(click.failures, [], click.webviewText);
    const detail = await uiRequest({ webview: editor, webviewIncludes: ['Machine modules', 'per machine'], timeoutMs: 15_000, screenshot: { file: 'py-block-editor-modules.png', element: 'page' } });
    assert.deepEqual(detail.failures, [], detail.webviewText);
    // A narrow tab (the chat open beside it), for the picture: the beacon line is checked by eye there.
    await vscode.commands.executeCommand('workbench.action.toggleAuxiliaryBar');
    const narrow = await uiRequest({ webview: editor, webviewIncludes: ['per machine'], timeoutMs: 15_000, screenshot: { file: 'py-block-editor-narrow.png', element: 'page' } });
    assert.deepEqual(narrow.failures, [], narrow.webviewText);
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    const flow = await uiRequest({ webview: editor, webviewReveal: 'Flow', timeoutMs: 15_000, screenshot: { file: 'py-block-editor-flow.png', element: 'page' } });
    assert.deepEqual(flow.failures, [], flow.webviewText);
    console.log(`      (Py block: import, solve and three looks in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  });

  it('fits a 700 px tab with a row’s modules and beacons open, in the light and the dark theme', async function () {
    this.timeout(120_000);
    if (!blockId) this.skip();
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar').then(undefined, () => undefined);
    await vscode.commands.executeCommand('pyops.block.edit', { blockId });
    const editor = 'Automation science (Py)';
    try {
      // Narrow the window until the editor tab is 700 px wide (the side bar keeps its width).
      const wide = await ui({ webview: editor, webviewMeasure: true });
      const width = 1400 - (wide.measure!.viewWidth - 700);
      const narrow = await ui({ viewport: { width, height: 900 }, webview: editor, webviewMeasure: true });
      assert.ok(Math.abs(narrow.measure!.viewWidth - 700) <= 24, `the tab is ${narrow.measure!.viewWidth} px wide`);
      const { blockEditors } = await api();
      if (!blockEditors.lastView.get(blockId)?.rows.some((r) => `expand:${r.recipe}` === modulesToggle && r.modules.length)) assert.fail('the row with modules');
      const opened = await ui({ webview: editor, webviewIncludes: ['Machine modules'], webviewMeasure: 'table.rows-table' });
      const m = opened.measure!;
      assert.ok(m.scrollWidth <= m.viewWidth + 1, `the page scrolls sideways: ${m.scrollWidth} px in ${m.viewWidth} px`);
      assert.ok(m.element && m.element.width <= m.viewWidth, `the table is ${m.element?.width} px in ${m.viewWidth} px`);
      await setTheme(theme('Light Modern'));
      await waitFor(() => vscode.window.activeColorTheme.kind === vscode.ColorThemeKind.Light, `a light theme (now ${vscode.workspace.getConfiguration('workbench').get('colorTheme')}, kind ${vscode.window.activeColorTheme.kind})`, 10_000);
      await new Promise((r) => setTimeout(r, 1000));
      await ui({ webview: editor, webviewRevealSelector: 'tr.detail', screenshot: { file: 'py-editor-700-light.png', element: 'page' } });
      await setTheme(theme('Dark Modern'));
      await waitFor(() => vscode.window.activeColorTheme.kind === vscode.ColorThemeKind.Dark, `a dark theme (now ${vscode.workspace.getConfiguration('workbench').get('colorTheme')}, kind ${vscode.window.activeColorTheme.kind})`, 10_000);
      await new Promise((r) => setTimeout(r, 1000));
      const dark = await ui({ webview: editor, webviewRevealSelector: 'tr.detail', webviewMeasure: true, screenshot: { file: 'py-editor-700-dark.png', element: 'page' } });
      assert.ok(dark.measure!.scrollWidth <= dark.measure!.viewWidth + 1, `dark: ${dark.measure!.scrollWidth} px in ${dark.measure!.viewWidth} px`);
      await ui({ webview: editor, webviewReveal: 'Result', screenshot: { file: 'py-editor-700-dark-result.png', element: 'page' } });
    } finally {
      await setTheme(undefined);
      await uiRequest({ viewport: { width: 1400, height: 900 } });
    }
  });

  it('builds a five-recipe Py chain from an empty block by clicking, in at most 10 clicks', async function () {
    this.timeout(180_000);
    if (!blockId) this.skip();
    const { projects, blockEditors } = await api();
    const p = projects.require();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // The empty block a player starts from: its goal, no recipe.
    const id = (await vscode.commands.executeCommand('pyops.block.new', { name: 'Fawogae substrate (clicks)', good: 'fawogae-substrate', rate: 0.5 })) as string;
    const view = () => blockEditors.lastView.get(id)!;
    await waitFor(() => view()?.result, 'the empty block in its editor');
    assert.equal(view().rows.length, 0);
    const editor = 'Fawogae substrate (clicks)';
    let clicks = 0;
    const started = Date.now();
    const click = async (check: UiCheck) => {
      clicks++;
      return ui({ webview: editor, ...check });
    };
    const rows = (n: number) => waitFor(() => view().rows.length === n && view().result, `${n} recipes`);
    // 1. The goal nothing makes yet: Ctrl+click adds its best maker.
    await click({ webviewClickSelector: '[data-key="unmade:fawogae-substrate"]', webviewClickModifiers: ['ControlOrMeta'] });
    await rows(1);
    // 2–3. An import, clicked: VS Code's picker lists the makers, usable first; click one.
    await click({ webviewClickSelector: '[data-key="import:fawogae"]' });
    clicks++;
    const pick = await ui({ quickPick: { click: 'Fawogae' } });
    assert.match(pick.quickPickText ?? '', /Makes it/);
    await rows(2);
    // 4–6. The other imports, Ctrl+clicked: water, coke, and the coal the coke is made from.
    for (const [good, n] of [['water', 3], ['coke', 4], ['coal', 5]] as const) {
      await waitFor(() => view().result!.imports.some((f) => f.good === good), `${good} imported`);
      await click({ webviewClickSelector: `[data-key="import:${good}"]`, webviewClickModifiers: ['ControlOrMeta'] });
      await rows(n);
    }
    const seconds = (Date.now() - started) / 1000;
    const v = view();
    assert.equal(v.rows.length, 5);
    assert.equal(v.state, 'solved', v.stateDetail);
    assert.ok(v.rows.every((r) => (r.buildings ?? 0) > 0 && !r.advice.length), v.rows.map((r) => `${r.recipe} ${r.buildings} ${r.advice.map((a) => a.reason).join(' ')}`).join('; '));
    assert.deepEqual(getBlock(p, id).doc.made.sort(), ['coal', 'coke', 'fawogae', 'water']);
    assert.ok(!v.result!.imports.some((f) => !f.energy), `only energy comes from outside: ${v.result!.imports.map((f) => f.good).join(', ')}`);
    assert.ok(clicks <= 10, `${clicks} clicks`);
    console.log(`      (five-recipe Py chain from an empty block: ${clicks} clicks in ${seconds.toFixed(1)} s: ${v.rows.map((r) => r.display).join(', ')})`);
    await ui({ webview: editor, webviewIncludes: ['Recipes (5)'], screenshot: { file: 'py-editor-chain-by-clicks.png', element: 'page' } });
  });
});
