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
import { api, env, uiRequest, waitFor, workDir } from './helpers';

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

describe('A Py block in the editor (real data)', () => {
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

    const editor = `Recipes (${CHAIN.length})`;
    const top = await uiRequest({ webview: editor, webviewIncludes: ['Automation science pack', 'Glassware', 'Imports'], timeoutMs: 20_000, screenshot: { file: 'py-block-editor.png', element: 'page' } });
    assert.deepEqual(top.failures, [], top.webviewText);
    const toggle = `${asp.moduleSlots} × ${view.moduleCatalog[module].display}`;
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
});
