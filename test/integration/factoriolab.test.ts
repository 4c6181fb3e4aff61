// Planning without the game: the full Py FactorioLab data set (../shared/data/factoriolab-pysalf)
// imported through the Import Game Data command, the Factory view saying which data the project
// holds, and a moss farm block drafted (its farm modules filled in) and shown solved in the block
// editor. Skipped with a reason when ../shared/data is absent.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import fs from 'node:fs';
import path from 'node:path';
import { createBlock } from '../../src/core/planning/factory/blocks';
import { solverFor } from '../../src/core/assistant/tools/context';
import { planningContext } from '../../src/core/planning/context';
import { buildDraft, specFromSubmit, submitBlockInput } from '../../src/core/planning/proposals/draft';
import type { ImportSummary } from '../../src/core/gamedata/import';
import { api, env, uiRequest, waitFor, workDir } from './helpers';

function dataSet(): string | undefined {
  const shared = process.env.PYOPS_TEST_SHARED_DATA ?? path.resolve(env('PYOPS_TEST_REPO'), '..', 'shared', 'data');
  const dir = path.join(shared, 'factoriolab-pysalf');
  return fs.existsSync(path.join(dir, 'data.json')) ? dir : undefined;
}

describe('A FactorioLab data set in VS Code (real data)', () => {
  it('imports full Py from FactorioLab, says so, and shows a solved moss farm block with its modules', async function () {
    this.timeout(300_000);
    const set = dataSet();
    if (!set) {
      console.log('      (skipped: factoriolab-pysalf/data.json is not in ../shared/data)');
      this.skip();
    }
    const started = Date.now();
    await vscode.commands.executeCommand('pyops.project.new', { file: path.join(workDir('factoriolab'), 'pysalf.pyops'), name: 'Py without the game' });
    const summary = (await vscode.commands.executeCommand('pyops.gamedata.import', { source: set })) as ImportSummary;
    assert.equal(summary.format, 'factoriolab');
    assert.equal(summary.counts.recipes, 6685);
    assert.ok(summary.lacks.some((l) => l.startsWith('icons')));
    const imported = Date.now();
    await vscode.commands.executeCommand('pyops.planning.setHorizon', { mode: 'future' });
    const { projects, factory, blockEditors } = await api();
    const p = projects.require();

    // The Factory view's planning group names the data set and its game version.
    const planning = await waitFor(() => factory.getChildren().find((n) => n.kind === 'group' && n.group === 'planning'), 'the planning group');
    const gameData = await waitFor(() => factory.getChildren(planning).map((n) => factory.getTreeItem(n)).find((i) => i.label === 'Game data' && /FactorioLab/.test(String(i.description))), 'the Game data line');
    assert.equal(gameData.description, 'FactorioLab factoriolab-pysalf, Factorio 1.1.109');
    assert.match(String(gameData.tooltip), /^FactorioLab data set factoriolab-pysalf \(Factorio 1\.1\.109 with pyalienlife 2\.1\.41[\s\S]*Not in the data set: icons/);

    // A draft fills the farm with its fastest moss module, as the module fill does for any row.
    const ctx = planningContext(p);
    const draft = await buildDraft(ctx, specFromSubmit(ctx, submitBlockInput.parse({ target: 'moss', rate: 0.5, recipes: ['Moss 1'] })));
    assert.equal(draft.status, 'optimal');
    const row = draft.rows[0];
    assert.match(row.machine ?? '', /^moss-farm-mk0\d$/);
    assert.deepEqual(row.modules.map((m) => m.name), ['moss-mk04']);
    assert.ok(!draft.warnings.some((w) => /bare speed/.test(w)), draft.warnings.join('\n'));
    const id = await createBlock(p, solverFor(ctx), { name: 'Moss (FactorioLab)', doc: draft.doc });

    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar').then(undefined, () => undefined);
    await vscode.commands.executeCommand('pyops.block.edit', { blockId: id });
    const view = await waitFor(() => blockEditors.lastView.get(id)?.result && blockEditors.lastView.get(id), 'the moss block solved in its editor');
    assert.equal(view.state, 'solved', view.stateDetail);
    assert.equal(view.rows.length, 1);
    assert.ok(view.rows[0].buildings! > 0);
    assert.ok(!view.result!.warnings.some((w) => /bare speed/.test(w)), view.result!.warnings.join('\n'));
    const shot = await uiRequest({ webview: 'Recipes (1)', webviewIncludes: ['Moss', 'Moss farm MK 0', 'Imports'], timeoutMs: 30_000, screenshot: { file: 'factoriolab-moss-block.png', element: 'page' } });
    assert.deepEqual(shot.failures, [], shot.webviewText);

    await vscode.commands.executeCommand('pyops.factory.focus');
    const side = await uiRequest({ screenshot: { file: 'factoriolab-factory-view.png', element: 'sidebar' } });
    assert.deepEqual(side.failures, []);
    console.log(`      (FactorioLab pysalf: import ${((imported - started) / 1000).toFixed(1)} s, draft and editor ${((Date.now() - imported) / 1000).toFixed(1)} s)`);
  });
});
