// A toast's Undo reverts its own change: while the toast waited, later changes may have been made,
// and then it must refuse (naming the newer change) instead of undoing something it never showed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project } from '../../../src/core/db/project';
import { importGameData } from '../../../src/core/gamedata/import';
import { solverFor } from '../../../src/core/assistant/tools/context';
import { planningContext } from '../../../src/core/planning/context';
import { createBlock, listBlocks } from '../../../src/core/planning/factory/blocks';
import { latestChange, undoChange } from '../../../src/extension/proposals/undo';
import { SAMPLE_DUMP, tempDir } from '../../helpers/paths';

describe('undo from a toast', function () {
  this.timeout(60_000);
  let dir: string;
  let project: Project;
  before(async () => {
    dir = tempDir('pyops-undo-toast-');
    project = await Project.create(path.join(dir, 'u.pyops'));
    await importGameData(project, SAMPLE_DUMP);
  });
  after(() => {
    project.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('undoes its own change, refuses while a newer change sits on top, and says when it is already undone', async () => {
    const solve = solverFor(planningContext(project));
    const names = () => listBlocks(project).map((b) => b.name).sort();
    await createBlock(project, solve, { name: 'Gears', doc: { goals: [{ good: 'gear', rate: 1 }], recipes: [{ recipe: 'gear' }] } }, 'Create block "Gears"');
    const gearsToast = latestChange(project)!;
    await createBlock(project, solve, { name: 'Wire', doc: { goals: [{ good: 'wire', rate: 1 }], recipes: [{ recipe: 'wire' }] } }, 'Create block "Wire"');
    const wireToast = latestChange(project)!;
    assert.deepEqual([gearsToast.label, wireToast.label], ['Create block "Gears"', 'Create block "Wire"']);

    // The stale Gears toast: Wire came after it, so nothing is undone.
    const stale = await undoChange(project, solve, gearsToast);
    assert.equal(stale.undone, false);
    assert.match(!stale.undone ? stale.message : '', /^Cannot undo Create block "Gears" from this notice: Create block "Wire" came after it\. Undo that first/);
    assert.deepEqual(names(), ['Gears', 'Wire']);

    // Its own (latest) change undoes; then the Gears toast is the latest again and works.
    assert.deepEqual(await undoChange(project, solve, wireToast), { undone: true, label: 'Create block "Wire"' });
    assert.deepEqual(names(), ['Gears']);
    assert.deepEqual(await undoChange(project, solve, wireToast), { undone: false, message: 'Create block "Wire" is already undone.' });
    assert.deepEqual(await undoChange(project, solve, gearsToast), { undone: true, label: 'Create block "Gears"' });
    assert.deepEqual(names(), []);

    // From the palette (no toast): the latest change, or nothing.
    assert.deepEqual(await undoChange(project, solve), { undone: false, message: 'There is nothing to undo.' });
  });
});
