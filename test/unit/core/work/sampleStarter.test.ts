// The sample project's first look: one solved block, a task linked to it with steps, and a note,
// written as one undoable action and only into a project that has none of them.
import assert from 'node:assert/strict';
import { seedSampleStarter, STARTER_BLOCK, STARTER_NOTE, STARTER_TASK } from '../../../../src/core/work/sampleStarter';
import { getBlock, listBlocks } from '../../../../src/core/planning/factory/blocks';
import { getTask, listTasks } from '../../../../src/core/work/tasks';
import { createNote, noteHeads } from '../../../../src/core/work/notes';
import { solverFor } from '../../../../src/core/assistant/tools/context';
import { planningContext } from '../../../../src/core/planning/context';
import { useSampleProject } from '../../../helpers/sampleProject';

describe('the sample project starter', () => {
  const sample = useSampleProject({ each: true });

  it('adds a solved block, a task with steps linked to it and a note, as one undoable action', async () => {
    const p = sample.project;
    assert.equal(await seedSampleStarter(p, solverFor(planningContext(p))), true);
    const [block] = listBlocks(p);
    assert.equal(block.name, STARTER_BLOCK);
    assert.equal(getBlock(p, block.id).cache.status, 'optimal');
    // 0.5 azurite plates/s at 3.2 s per plate in a speed-1 kiln: 1.6 kilns, 2 whole ones.
    const machines = p.query<{ machine: string; count: number }>('SELECT machine, count FROM block_machines WHERE block_id = ?', [block.id]);
    assert.deepEqual(machines.map((m) => m.machine), ['kiln']);
    assert.ok(Math.abs(machines[0].count - 1.6) < 1e-9, String(machines[0].count));
    const [task] = listTasks(p);
    assert.equal(task.title, STARTER_TASK);
    const detail = getTask(p, task.id);
    assert.equal(detail.steps.length, 3);
    assert.deepEqual(detail.links.map((l) => [l.kind, l.name]), [['block', block.id]]);
    assert.deepEqual(noteHeads(p).map((n) => n.title), [STARTER_NOTE]);
    assert.match(p.undoable()?.label ?? '', /Set up the sample project/);
    p.undo();
    assert.equal(listBlocks(p).length + listTasks(p).length + noteHeads(p).length, 0, 'one undo takes all three back');
  });

  it('leaves a project that has anything of its own alone', async () => {
    const p = sample.project;
    createNote(p, { title: 'Mine' });
    assert.equal(await seedSampleStarter(p, solverFor(planningContext(p))), false);
    assert.equal(listBlocks(p).length, 0);
    assert.deepEqual(noteHeads(p).map((n) => n.title), ['Mine']);
  });
});
