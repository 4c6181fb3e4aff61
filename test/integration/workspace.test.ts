// The README's picture of the workspace, taken from the real thing: a small factory in the Factory
// view, one block open in its editor (modules, beacons, the result, the flow), and the Factory Balance — no
// chat. Also checks what the picture promises is on screen.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import path from 'node:path';
import { createBlock } from '../../src/core/planning/factory/blocks';
import { solverFor } from '../../src/core/assistant/tools/context';
import { planningContext } from '../../src/core/planning/context';
import { addTaskStep, createTask, linkTask, setStepDone } from '../../src/core/work/tasks';
import { createNote } from '../../src/core/work/notes';
import { api, uiRequest, waitFor, workDir, sampleWorld } from './helpers';

describe('The PyOps workspace (README picture)', () => {
  it('shows the factory, a block in its editor and the balance together', async function () {
    this.timeout(120_000);
    await vscode.commands.executeCommand('pyops.project.new', { file: path.join(workDir('workspace'), 'workspace.pyops'), name: 'Azurite works' });
    await vscode.commands.executeCommand('pyops.gamedata.import', { source: sampleWorld().dump });
    await vscode.commands.executeCommand('pyops.planning.setHorizon', { mode: 'future' });
    const { projects, factory, blockEditors, balance } = await api();
    const p = projects.require();
    const solve = solverFor(planningContext(p));
    const circuits = await createBlock(p, solve, {
      name: 'Circuits',
      doc: {
        goals: [{ good: 'circuit', rate: 2 }],
        recipes: [
          { recipe: 'circuit', modules: [{ name: 'speed-module-s1', count: 2 }], beacons: [{ beacon: 'beacon-tower', count: 2, modules: [{ name: 'speed-module-s1', count: 2 }] }] },
          { recipe: 'wire' },
        ],
        made: ['wire'],
      },
    });
    await createBlock(p, solve, { name: 'Gears', doc: { goals: [{ good: 'gear', rate: 2 }], recipes: [{ recipe: 'gear' }] } });
    const task = createTask(p, { title: 'Build the circuit line' });
    setStepDone(p, addTaskStep(p, task.id, 'Lay the wire presses').id, true);
    addTaskStep(p, task.id, 'Place the beacons');
    linkTask(p, task.id, { kind: 'block', name: circuits });
    createNote(p, { title: 'Azurite supply', body: 'Two mines feed the plates.\n' });

    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar').then(undefined, () => undefined);
    await vscode.commands.executeCommand('pyops.block.edit', { blockId: circuits });
    await waitFor(() => blockEditors.lastView.get(circuits)?.result, 'the block editor with its result');
    await waitFor(() => factory.current()?.blocks.length === 2, 'both blocks in the Factory view');
    await vscode.commands.executeCommand('pyops.balance.focus');
    await waitFor(async () => {
      const b = await balance.current();
      return b && !('error' in b);
    }, 'the balance');
    const ui = await uiRequest({
      // Fold the assistant's view so the trees have the side bar.
      pageClicks: ['#workbench\\.parts\\.sidebar .pane-header[aria-label^="Assistant"][aria-expanded="true"]'],
      sidebarIncludes: ['Circuits', 'Gears', 'Build the circuit line', 'Imports from outside'],
      webview: 'Add Consumed Good', webviewIncludes: ['Recipes (2)', 'solved', 'Flow'],
      timeoutMs: 20_000,
      screenshot: { file: 'workspace.png', element: 'page' },
    }, 120_000);
    assert.deepEqual(ui.failures, [], `${ui.failures.join('; ')}\n${ui.sidebarText}\n---\n${ui.webviewText}`);
  });
});
