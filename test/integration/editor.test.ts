// The block editor as a player drives it, inside a real VS Code, on the sample world: a recipe added
// for an import is made inside (and VS Code's own Undo takes it back), an idle row's fix button,
// Ctrl+Z inside a number field, fuel picked per row, locks, a pin's surplus, beacons in the Balance,
// the per-minute unit, and the document's campaign, groups, shares, temperatures and spoil rates —
// each looked at in a screenshot in test-output/integration/.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import path from 'node:path';
import fs from 'node:fs';
import { createBlock, getBlock } from '../../src/core/planning/factory/blocks';
import { solverFor } from '../../src/core/assistant/tools/context';
import { planningContext } from '../../src/core/planning/context';
import type { BlockEditorView } from '../../src/webview/blockEditorProtocol';
import { api, sampleWorld, uiRequest, waitFor, workDir, type UiCheck } from './helpers';

/** A UI request that must succeed. */
async function ui(check: UiCheck): Promise<Awaited<ReturnType<typeof uiRequest>>> {
  const r = await uiRequest({ timeoutMs: 15_000, ...check });
  assert.deepEqual(r.failures, [], `${r.failures.join('; ')}\n${r.webviewText ?? ''}`);
  return r;
}

/** The custom editor tab of a block, as VS Code's tab model has it. */
function blockTab(id: string): vscode.Tab | undefined {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputCustom && t.input.viewType === 'pyops.blockEditor' && t.input.uri.path.includes(`/${id}.`));
}

describe('The block editor, driven as a player does', () => {
  const raw = () => JSON.parse(fs.readFileSync(sampleWorld().dump, 'utf8')) as Record<string, Record<string, Record<string, any>>>;

  before(async function () {
    this.timeout(60_000);
    await vscode.commands.executeCommand('pyops.project.new', { file: path.join(workDir('editor'), 'editor.pyops'), name: 'Editor' });
    await vscode.commands.executeCommand('pyops.gamedata.import', { source: sampleWorld().dump });
    await vscode.commands.executeCommand('pyops.planning.setHorizon', { mode: 'future' });
  });

  /** A new block open alone in its tab, solved. */
  async function open(name: string, doc: unknown): Promise<{ id: string; view: () => BlockEditorView }> {
    const { projects, blockEditors } = await api();
    const p = projects.require();
    const id = await createBlock(p, solverFor(planningContext(p)), { name, doc });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar').then(undefined, () => undefined);
    await vscode.commands.executeCommand('pyops.block.edit', { blockId: id });
    await waitFor(() => blockEditors.lastView.get(id)?.result, `"${name}" solved in its editor`);
    return { id, view: () => blockEditors.lastView.get(id)! };
  }

  it('adds a recipe for an import with two clicks: the good is made inside in one edit, and VS Code’s own Undo and Redo take it back', async function () {
    this.timeout(120_000);
    const { projects } = await api();
    const p = projects.require();
    const { id, view } = await open('Circuits', { goals: [{ good: 'circuit', rate: 1 }], recipes: [{ recipe: 'circuit' }] });
    assert.ok(view().result!.imports.some((f) => f.good === 'wire' && f.makeable), 'wire is imported, and a recipe makes it');
    await ui({ webview: 'Recipes (1)', webviewClickSelector: '[data-key="import:wire"]' });
    const pick = await ui({ quickPick: { click: 'Azurite wire' } });
    assert.match(pick.quickPickText ?? '', /Makes it/);
    await waitFor(() => view().rows.length === 2 && view().rows[1].buildings, 'the wire row running');
    assert.deepEqual(getBlock(p, id).doc.made, ['wire']);
    assert.equal(p.undoable()?.label, 'Add recipe Azurite wire and make it inside in "Circuits"');
    assert.ok(!view().result!.imports.some((f) => f.good === 'wire'), 'wire is no longer imported');
    await ui({ webview: 'Recipes (2)', webviewIncludes: ['takes', 'gives', 'Azurite wire'], screenshot: { file: 'editor-maker-added.png', element: 'page' } });
    // A change is saved to the project when it is made: the tab is never left dirty.
    await waitFor(() => blockTab(id) && !blockTab(id)!.isDirty, 'the tab clean after the edit', 5_000);
    // VS Code's own Undo (what Edit › Undo and Ctrl+Z outside a field run) undoes exactly this change.
    assert.ok(blockTab(id)!.isActive, 'the block tab is the active editor');
    await vscode.commands.executeCommand('undo');
    await waitFor(() => getBlock(p, id).doc.recipes.length === 1 && view().rows.length === 1, 'the editor after VS Code’s Undo');
    assert.deepEqual(getBlock(p, id).doc.made, []);
    assert.equal(p.redoable()?.label, 'Add recipe Azurite wire and make it inside in "Circuits"');
    await vscode.commands.executeCommand('redo');
    await waitFor(() => getBlock(p, id).doc.recipes.length === 2 && view().rows.length === 2, 'the editor after VS Code’s Redo');
    await waitFor(() => !blockTab(id)!.isDirty, 'the tab clean after Undo and Redo', 5_000);
    // A change made elsewhere first: VS Code's Undo of this tab refuses, and says why, instead of undoing the wrong one.
    await vscode.commands.executeCommand('pyops.block.rename', { blockId: id, name: 'Circuits (renamed)' });
    await vscode.commands.executeCommand('pyops.block.edit', { blockId: id });
    await vscode.commands.executeCommand('undo');
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(getBlock(p, id).doc.recipes.length, 2, 'the wire row stays');
    assert.equal(getBlock(p, id).name, 'Circuits (renamed)', 'and the rename too');
  });

  it('completes a new block from its goal with one click, as one undoable change', async function () {
    this.timeout(60_000);
    const { projects } = await api();
    const p = projects.require();
    // fast-conveyor = 5 gear + 1 conveyor; conveyor (used by fast-conveyor alone) is made here, gear and
    // ferrite plate (12 and 14 recipes use them) are imported.
    const { id, view } = await open('Fast belts', { goals: [{ good: 'fast-conveyor', rate: 1 }], recipes: [] });
    await ui({ webview: 'Recipes (0)', webviewIncludes: ['No recipes yet: Complete Chain adds the whole chain for the goals'], webviewClick: 'Complete Chain' });
    await waitFor(() => view().rows.length === 2 && view().rows.every((r) => (r.buildings ?? 0) > 0), 'both rows running');
    assert.deepEqual(getBlock(p, id).doc.recipes.map((r) => r.recipe), ['fast-conveyor', 'conveyor']);
    assert.match(p.undoable()?.label ?? '', /^Complete the chain: add 2 recipes .+ in "Fast belts"$/);
    assert.deepEqual(view().result!.imports.map((f) => f.good).filter((g) => !g.startsWith('pyops-')).sort(), ['ferrite-plate', 'gear']);
    await ui({ webview: 'Recipes (2)', webviewIncludes: ['Complete Chain'], screenshot: { file: 'editor-completed.png', element: 'page' } });
    await vscode.commands.executeCommand('undo');
    await waitFor(() => getBlock(p, id).doc.recipes.length === 0 && view().rows.length === 0, 'the editor after VS Code’s Undo');
  });

  it('says on an idle row why it is idle, and its button applies the fix', async function () {
    this.timeout(60_000);
    const { projects } = await api();
    const p = projects.require();
    const { id, view } = await open('Idle wire', { goals: [{ good: 'circuit', rate: 1 }], recipes: [{ recipe: 'circuit' }, { recipe: 'wire' }] });
    assert.equal(view().rows[1].buildings, 0);
    await ui({ webview: 'Idle wire', webviewIncludes: ['Azurite wire does not run: the block imports', 'Make Azurite wire inside', 'Remove the row'], screenshot: { file: 'editor-idle-row.png', element: 'page' } });
    await ui({ webview: 'Idle wire', webviewClick: 'Make Azurite wire inside' });
    await waitFor(() => view().rows[1].buildings && !view().rows[1].advice.length, 'the wire row at work');
    assert.deepEqual(getBlock(p, id).doc.made, ['wire']);
    assert.equal(p.undoable()?.label, 'Make Azurite wire inside in "Idle wire"');
  });

  it('keeps Ctrl+Z inside a number field to the field, and commits a value on Enter only', async function () {
    this.timeout(90_000);
    const { projects } = await api();
    const p = projects.require();
    const { id, view } = await open('Field undo', { goals: [{ good: 'circuit', rate: 1 }], recipes: [{ recipe: 'circuit' }] });
    // Something to redo, so a cleared redo would show.
    await vscode.commands.executeCommand('pyops.block.rename', { blockId: id, name: 'Field undo 2' });
    await vscode.commands.executeCommand('pyops.edit.undo');
    await vscode.commands.executeCommand('pyops.block.edit', { blockId: id });
    await waitFor(() => view().name === 'Field undo', 'the undone rename in the tab');
    const undo = p.undoable()?.label;
    const redo = p.redoable()?.label;
    assert.equal(redo, 'Rename block "Field undo" to "Field undo 2"');
    const field = '[data-key="goal:0"]';
    const typed = await ui({ webview: 'Field undo', webviewType: { selector: field, text: '0.7', selectAll: true }, webviewValueOf: field });
    assert.equal(typed.webviewValue, '0.7');
    const undone = await ui({ webview: 'Field undo', webviewPress: ['ControlOrMeta+z'], webviewValueOf: field, screenshot: { file: 'editor-field-undo.png', element: 'page' } });
    assert.equal(undone.webviewValue, '1', 'the field’s own undo brought its value back');
    const redone = await ui({ webview: 'Field undo', webviewPress: ['ControlOrMeta+Shift+z'], webviewValueOf: field });
    assert.equal(redone.webviewValue, '0.7', 'and its own redo the typed value');
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(getBlock(p, id).doc.goals[0].rate, 1, 'nothing was committed while typing');
    assert.equal(p.undoable()?.label, undo, 'no project change was undone or made');
    assert.equal(p.redoable()?.label, redo, 'the project’s redo is still there');
    // Escape puts the shown value back; Enter commits a value as one edit.
    await ui({ webview: 'Field undo', webviewPress: ['Escape'] });
    await ui({ webview: 'Field undo', webviewType: { selector: field, text: '3', selectAll: true }, webviewPress: ['Enter'] });
    await waitFor(() => getBlock(p, id).doc.goals[0].rate === 3, 'the goal committed on Enter');
    assert.equal(p.undoable()?.label, 'Set goal Circuit to 3/s in "Field undo"');
    await waitFor(() => view().goals[0].rate === 3, 'the tab showing 3/s');
  });

  it('picks the fluid a fluid-burning machine burns on its row, shows the fuel’s power, and buys no fuel made inside', async function () {
    this.timeout(90_000);
    const { projects } = await api();
    const p = projects.require();
    const { id, view } = await open('Naphtha plates', { goals: [{ good: 'ferrite-plate', rate: 1 }], recipes: [{ recipe: 'ferrite-plate', machine: 'naphtha-furnace' }] });
    assert.deepEqual(view().rows[0].fuelOptions.map((f) => f.name), ['naphtha']);
    await ui({ webview: 'Naphtha plates', webviewSelect: { selector: '[data-key="fuel:ferrite-plate"]', value: 'naphtha' } });
    await waitFor(() => view().rows[0].pinnedFuel === 'naphtha', 'the row burning naphtha');
    const furnace = raw().furnace['naphtha-furnace'];
    // usage ÷ effectivity × buildings (1 plate/s × 3.2 s ÷ speed 2): the energy the naphtha delivers.
    const fuelW = ((raw().recipe['ferrite-plate'].energy_required / furnace.crafting_speed) * 180e3) / furnace.energy_source.effectivity;
    assert.equal(furnace.energy_usage, '180kW');
    assert.ok(Math.abs(view().result!.fuelW - fuelW) < 1e-3, `${view().result!.fuelW} W ≠ ${fuelW} W`);
    assert.deepEqual(view().result!.fuel.map((f) => f.fuel), ['naphtha']);
    await ui({ webview: 'Naphtha plates', webviewIncludes: ['288 kW fuel', 'Fuel bought in', 'burns'], screenshot: { file: 'editor-fuel.png', element: 'page' } });
    await ui({ webview: 'Naphtha plates', webviewClickSelector: '[data-key="import:naphtha"]', webviewClickModifiers: ['ControlOrMeta'] });
    await waitFor(() => view().rows.length === 2, 'a naphtha maker added by Ctrl+click');
    assert.deepEqual(getBlock(p, id).doc.made, ['naphtha']);
    assert.deepEqual(view().result!.fuel, [], 'no fuel bought: the block makes its naphtha');
    const shown = await ui({ webview: 'Naphtha plates', webviewIncludes: ['Recipes (2)'], screenshot: { file: 'editor-fuel-made.png', element: 'page' } });
    assert.ok(!shown.webviewText!.includes('Fuel bought in'), shown.webviewText);
  });

  it('marks what the horizon does not allow with the lock and what unlocks it, and a block solved with it as a warning', async function () {
    this.timeout(60_000);
    const { view } = await open('Locked circuits', { goals: [{ good: 'circuit', rate: 1 }], recipes: [{ recipe: 'circuit', machine: 'press-mk2', modules: [{ name: 'speed-module-s1', count: 1 }] }] });
    assert.equal(view().tone, 'ok');
    await vscode.commands.executeCommand('pyops.planning.setHorizon', { mode: 'now' });
    try {
      await waitFor(() => view().tone === 'warn', 'the block in its warning state');
      assert.equal(view().state, 'solved');
      await ui({ webview: 'Locked circuits', webviewIncludes: ['Solved, but not buildable as planned', 'Locked — needs research', 'Press MK2: needs research'], screenshot: { file: 'editor-locked.png', element: 'page' } });
      await ui({ webview: 'Locked circuits', webviewClick: '1 × Speed module S1' });
      await ui({ webview: 'Locked circuits', webviewIncludes: ['Machine modules'], screenshot: { file: 'editor-locked-modules.png', element: 'page' } });
    } finally {
      await vscode.commands.executeCommand('pyops.planning.setHorizon', { mode: 'future' });
    }
  });

  it('shows a pin that makes more than the goal as an export, with a note on the pin', async function () {
    this.timeout(60_000);
    const { view } = await open('Pinned circuits', { goals: [{ good: 'circuit', rate: 0.5 }], recipes: [{ recipe: 'circuit' }], pins: [{ kind: 'count', recipe: 'circuit', buildings: 2 }] });
    // 2 press-mk2 × speed 1.1 ÷ 1 s = 2.2 circuits/s against a goal of 0.5/s.
    assert.ok(Math.abs(view().result!.surplus[0].rate - 1.7) < 1e-9, String(view().result!.surplus[0]?.rate));
    await ui({ webview: 'Pinned circuits', webviewIncludes: ['Surplus of pins', 'Circuit 1.7/s over the goal of 0.5/s', 'The pin makes 1.7/s Circuit more than the goal'], screenshot: { file: 'editor-pin-surplus.png', element: 'page' } });
  });

  it('counts beacon buildings in the row, the block and the Balance, and remembers per minute for the block, its diagram and the Balance', async function () {
    this.timeout(120_000);
    const { balance } = await api();
    const beacons = [{ beacon: 'beacon-tower', count: 2, modules: [{ name: 'speed-module-s1', count: 2 }] }];
    const { id, view } = await open('Beacon circuits', { goals: [{ good: 'circuit', rate: 2 }], recipes: [{ recipe: 'circuit', beacons }, { recipe: 'wire' }], made: ['wire'] });
    const row = view().rows[0];
    assert.equal(row.beaconBuildings, 2 * row.wholeBuildings!, 'each whole machine with its 2 beacons');
    assert.equal(view().result!.beaconBuildings, row.beaconBuildings);
    await ui({ webview: 'Beacon circuits', webviewIncludes: [`+${row.beaconBuildings} beacons`, `(${row.beaconBuildings} beacons)`] });
    // Per minute: the goal field, the rows, the diagram and the Balance follow; the block remembers it.
    await ui({ webview: 'Beacon circuits', webviewSelect: { selector: '[data-key="unit"]', value: 'min' } });
    await waitFor(() => view().unit === 'min', 'the block in per minute');
    await ui({ webview: 'Beacon circuits', webviewIncludes: ['120/min', '/min Azurite wire'], webviewReveal: 'Flow', screenshot: { file: 'editor-per-minute.png', element: 'page' } });
    const b = await balance.current();
    assert.ok(b && 'buildings' in b);
    const tower = b.buildings.find((x) => x.machine === 'beacon-tower');
    assert.ok(tower?.beacon && tower.blocks.some((x) => x.id === id && x.count === row.beaconBuildings), JSON.stringify(b.buildings));
    await vscode.commands.executeCommand('pyops.balance.focus');
    // Room for the Balance: the Assistant and Factory views folded, then its Buildings section opened.
    const headers = ['#workbench\\.parts\\.sidebar .pane-header >> text="Assistant"', '#workbench\\.parts\\.sidebar .pane-header >> text="Factory"'];
    await ui({ pageClicks: headers });
    try {
      await ui({ sidebarIncludes: ['Buildings'], pageClicks: ['#workbench\\.parts\\.sidebar .monaco-list-row >> text="Buildings"'] });
      await ui({ sidebarIncludes: ['Beacon tower', 'beacons', '/min'], screenshot: { file: 'balance-beacons-per-minute.png', element: 'sidebar' } });
    } finally {
      await uiRequest({ pageClicks: headers });
    }
    // Closed and opened again, the tab is still per minute.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('pyops.block.edit', { blockId: id });
    await waitFor(() => view()?.unit === 'min', 'per minute after reopening');
    const back = await ui({ webview: 'Beacon circuits', webviewSelect: { selector: '[data-key="unit"]', value: 's' }, webviewValueOf: '[data-key="unit"]' });
    assert.equal(back.webviewValue, 's');
    await waitFor(() => view().unit === 's', 'the block back in per second');
  });

  it('edits the campaign, a composed group shown nested, a share pin, a fluid temperature and a spoil rate', async function () {
    this.timeout(120_000);
    const { projects } = await api();
    const p = projects.require();
    const ctx = planningContext(p);
    const boil = ctx.g.producersOf('steam').find((r) => ctx.g.recipes.get(r)!.kind === 'boiling')!;
    assert.ok(boil, 'a boiler makes steam');
    const { id, view } = await open('Resin', {
      goals: [{ good: 'resin', rate: 0.2 }],
      recipes: [{ recipe: 'cure-resin' }, { recipe: 'resin' }, { recipe: boil }, { recipe: 'superheat-steam' }, { recipe: 'refine-brine' }],
      made: ['fresh-resin', 'steam', 'naphtha'],
    });
    const base = () => getBlock(p, id).updatedAt;
    const { blockEditors } = await api();
    await blockEditors.edit(id, { kind: 'group', group: { name: 'Resin line', recipes: ['resin', 'cure-resin'], composed: { goal: { good: 'resin', rate: 0.1 } } } }, base());
    await blockEditors.edit(id, { kind: 'campaign', campaign: { duration: 3600, confidence: '95', quantities: [{ good: 'resin', quantity: 400 }] } }, base());
    await blockEditors.edit(id, { kind: 'spoil-rate', good: 'fresh-resin', rate: 0.01 }, base());
    await waitFor(() => view().groups.length === 1 && view().campaign, 'the group and the campaign in the view');
    const resinRow = view().rows.find((r) => r.recipe === 'resin')!;
    const steam = resinRow.temperatures.find((t) => t.fluid === 'steam')!;
    assert.deepEqual(steam.offered, [165, 500], 'the boiler’s 165° and the superheater’s 500° steam');
    // Through the tab: the row's detail, its temperature and a share pin.
    await ui({ webview: 'Resin line', webviewClickSelector: '[data-key="expand:resin"]' });
    await ui({ webview: 'Resin line', webviewSelect: { selector: '[data-key="temp:resin:steam"]', value: '500' } });
    await waitFor(() => getBlock(p, id).doc.recipes.find((r) => r.recipe === 'resin')?.fluidTemperatures?.steam === 500, 'resin taking 500° steam');
    // A share pin on a row outside the module: the superheater takes half of the naphtha the block makes.
    assert.ok(view().rows.find((r) => r.recipe === 'superheat-steam')!.shareGoods.some((g) => g.good === 'naphtha'));
    await ui({ webview: 'Resin line', webviewClickSelector: '[data-key="expand:superheat-steam"]' });
    await ui({ webview: 'Resin line', webviewSelect: { selector: '[data-key="share-add:superheat-steam"]', value: 'naphtha' } });
    await waitFor(() => getBlock(p, id).doc.pins.some((x) => x.kind === 'share' && x.recipe === 'superheat-steam' && x.good === 'naphtha' && x.share === 0.5), 'a share pin on the superheater');
    const shown = await ui({
      webview: 'Resin line', webviewIncludes: ['a module making', 'Campaign', 'Spoiling', 'rots at', 'Steam at', 'Takes'], webviewValueOf: '[data-key="campaign-confidence"]',
      screenshot: { file: 'editor-document.png', element: 'page' },
    });
    assert.equal(shown.webviewValue, '95', 'the campaign 95 % sure');
    await ui({ webview: 'Resin line', webviewReveal: 'Result', screenshot: { file: 'editor-document-result.png', element: 'page' } });
  });
});
