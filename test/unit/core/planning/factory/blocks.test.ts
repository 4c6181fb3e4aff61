import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project } from '../../../../../src/core/db/project';
import {
  AUTO_SNAPSHOTS_KEPT, applyPlan, blockFlows, blockMachines, createBlock, deleteBlock, getBlock, listBlocks, listSnapshots,
  refreshStale, restoreSnapshot, saveBlock, snapshotBlock, undoAndResolve, BlockError,
} from '../../../../../src/core/planning/factory/blocks';
import { setTurdSelection } from '../../../../../src/core/planning/settings';
import type { BlockDoc } from '../../../../../src/core/planning/block/document';
import { fakeSolver } from './fakeSolver';
import { tempDir } from '../../../../helpers/paths';

const gearDoc = { goals: [{ good: 'gear', rate: 2 }], recipes: [{ recipe: 'gear' }] };

describe('blocks repository', () => {
  let dir: string;
  let p: Project;
  beforeEach(async () => {
    dir = tempDir();
    p = await Project.create(path.join(dir, 'b.pyops'));
  });
  afterEach(() => {
    p.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('creates a solved block with its projection as one undoable action', async () => {
    const id = await createBlock(p, fakeSolver(), { name: 'Gears', doc: gearDoc });
    const b = getBlock(p, id);
    assert.equal(b.name, 'Gears');
    assert.equal(b.doc.goals[0].good, 'gear');
    assert.equal(b.cache.status, 'optimal');
    assert.equal(b.cache.fresh, true);
    assert.equal(b.cache.powerW, 100_000);
    assert.deepEqual(blockFlows(p, id).map((f) => [f.item, f.role, f.rate]), [['gear', 'primary', 2], ['ferrite-plate', 'import', 2]]);
    assert.deepEqual(blockMachines(p, id).map((m) => [m.machine, m.recipe, m.count]), [['press', 'gear', 1.5]]);
    assert.equal(p.undoable()?.label, 'Create block "Gears"');
    await undoAndResolve(p, fakeSolver());
    assert.equal(listBlocks(p).length, 0);
    assert.equal(blockFlows(p).length, 0, 'the projection goes with the block');
  });

  it('rejects a stale save instead of overwriting, and accepts a fresh one', async () => {
    const id = await createBlock(p, fakeSolver(), { name: 'Gears', doc: gearDoc });
    const base = getBlock(p, id).updatedAt;
    await saveBlock(p, fakeSolver(), id, { name: 'Gears 2' }, base);
    await assert.rejects(saveBlock(p, fakeSolver(), id, { name: 'Gears 3' }, base), (e: unknown) => e instanceof BlockError && e.code === 'stale' && /reload/.test(e.message));
    assert.equal(getBlock(p, id).name, 'Gears 2');
    const b2 = getBlock(p, id);
    const saved = await saveBlock(p, fakeSolver(), id, { doc: { ...gearDoc, goals: [{ good: 'gear', rate: 5 }] } }, b2.updatedAt);
    assert.equal(saved.doc.goals[0].rate, 5);
    assert.equal(blockFlows(p, id).find((f) => f.role === 'primary')?.rate, 5);
  });

  it('rejects an invalid document with a reason', async () => {
    await assert.rejects(createBlock(p, fakeSolver(), { name: 'Bad', doc: { goals: [{ good: 'gear' }] } }), /goals\.0: a goal needs a rate or a stock amount/);
  });

  it('keeps a block whose solve fails as broken, with the reason', async () => {
    const id = await createBlock(p, fakeSolver({ fail: true }), { name: 'Broken', doc: gearDoc });
    const b = getBlock(p, id);
    assert.equal(b.cache.status, 'broken');
    assert.match(JSON.stringify(b.cache.diagnosis), /does not exist/);
  });

  it('snapshots automatically before destructive edits and restores (also a deleted block)', async () => {
    const id = await createBlock(p, fakeSolver(), { name: 'Gears', doc: gearDoc });
    snapshotBlock(p, id, 'first version');
    const b = getBlock(p, id);
    await saveBlock(p, fakeSolver(), id, { doc: { ...gearDoc, recipes: [] } }, b.updatedAt, { snapshot: 'before set-recipes' });
    assert.deepEqual(listSnapshots(p, id).map((s) => [s.reason, s.automatic]), [['before set-recipes', true], ['manual', false]]);
    deleteBlock(p, id);
    assert.equal(listBlocks(p).length, 0);
    const manual = listSnapshots(p, id).find((s) => s.name === 'first version')!;
    const restored = await restoreSnapshot(p, fakeSolver(), manual.id);
    assert.equal(restored, id);
    assert.equal(getBlock(p, id).doc.recipes.length, 1);
  });

  it(`keeps the newest ${AUTO_SNAPSHOTS_KEPT} automatic snapshots per block`, async () => {
    const id = await createBlock(p, fakeSolver(), { name: 'Gears', doc: gearDoc });
    for (let i = 0; i < AUTO_SNAPSHOTS_KEPT + 5; i++) {
      const b = getBlock(p, id);
      await saveBlock(p, fakeSolver(), id, { doc: { ...gearDoc, goals: [{ good: 'gear', rate: i + 1 }] } }, b.updatedAt, { snapshot: `edit ${i}` });
    }
    const autos = listSnapshots(p, id).filter((s) => s.automatic);
    assert.equal(autos.length, AUTO_SNAPSHOTS_KEPT);
    assert.equal(autos[0].reason, `edit ${AUTO_SNAPSHOTS_KEPT + 4}`);
  });

  it('re-solves only stale blocks after the horizon or TURD state changes', async () => {
    const calls: BlockDoc[] = [];
    const solve = fakeSolver({ calls });
    await createBlock(p, solve, { name: 'A', doc: gearDoc });
    await createBlock(p, solve, { name: 'B', doc: gearDoc });
    calls.length = 0;
    assert.deepEqual(await refreshStale(p, solve), []);
    setTurdSelection(p, 'press-upgrade', 'lean-press');
    assert.ok(listBlocks(p).every((b) => !b.cache.fresh));
    assert.equal((await refreshStale(p, solve)).length, 2);
    assert.equal(calls.length, 2);
    assert.ok(listBlocks(p).every((b) => b.cache.fresh));
  });

  it('re-solves a block cached by an older PyOps whose planning rules differ', async () => {
    const solve = fakeSolver();
    const id = await createBlock(p, solve, { name: 'A', doc: gearDoc });
    assert.equal(getBlock(p, id).cache.fresh, true);
    // What an earlier version stored: the game data's fingerprint alone, no rules version.
    p.write((db) => db.run("UPDATE main.blocks SET data_fingerprint = coalesce((SELECT value FROM main.meta WHERE key = 'data_fingerprint'), '') WHERE id = ?", [id]));
    assert.equal(getBlock(p, id).cache.fresh, false);
    assert.deepEqual(await refreshStale(p, solve), [id]);
    assert.equal(getBlock(p, id).cache.fresh, true);
  });

  it('applies a plan (new blocks and updates) as one undoable action', async () => {
    const solve = fakeSolver();
    const existing = await createBlock(p, solve, { name: 'Plates', doc: { goals: [{ good: 'ferrite-plate', rate: 1 }], recipes: [{ recipe: 'ferrite-plate' }] } });
    const base = getBlock(p, existing).updatedAt;
    const r = await applyPlan(
      p,
      solve,
      {
        create: [{ name: 'Gears', doc: gearDoc }, { name: 'Circuits', doc: { goals: [{ good: 'circuit', rate: 1 }], recipes: [{ recipe: 'circuit' }] } }],
        update: [{ id: existing, baseUpdatedAt: base, doc: { goals: [{ good: 'ferrite-plate', rate: 4 }], recipes: [{ recipe: 'ferrite-plate' }] } }],
      },
      'Apply plan "Gears"',
    );
    assert.equal(r.created.length, 2);
    assert.equal(listBlocks(p).length, 3);
    assert.equal(getBlock(p, existing).doc.goals[0].rate, 4);
    assert.equal(p.undoable()?.label, 'Apply plan "Gears"');
    await undoAndResolve(p, solve);
    assert.equal(listBlocks(p).length, 1);
    assert.equal(getBlock(p, existing).doc.goals[0].rate, 1);
  });
});
