// The block editor's edits on the sample world, with expected numbers from the dump's records:
// circuit = 1 s for 1 circuit from 3 wire + 1 ferrite plate; wire = 0.5 s (the default) for 2 wire
// from 1 azurite plate; machines for "crafting": press (speed 0.6), press-mk2 (speed 1.1).
import assert from 'node:assert/strict';
import { applyBlockEdit, editBlock } from '../../../../../src/core/planning/factory/blockEdit';
import { createBlock, getBlock, listBlocks, redoAndResolve, undoAndResolve, BlockError } from '../../../../../src/core/planning/factory/blocks';
import { planningContext } from '../../../../../src/core/planning/context';
import { solverFor } from '../../../../../src/core/assistant/tools/context';
import { blockEditorView } from '../../../../../src/extension/blockEditor/viewModel';
import { writeSettings } from '../../../../../src/core/planning/settings';
import { useSampleProject } from '../../../../helpers/sampleProject';

const close = (a: number | null | undefined, b: number) => assert.ok(a !== null && a !== undefined && Math.abs(a - b) < 1e-6, `${a} ≠ ${b}`);

describe('block editor edits', () => {
  const sample = useSampleProject({ each: true, horizon: 'future' });

  async function circuits() {
    const p = sample.project;
    const ctx = planningContext(p);
    const id = await createBlock(p, solverFor(ctx), { name: 'Circuits', doc: { goals: [{ good: 'circuit', rate: 1 }], recipes: [{ recipe: 'circuit' }, { recipe: 'wire' }], made: ['wire'] } });
    return { p, ctx, id };
  }

  it('changes a goal rate and a machine, each solved once and saved as one undoable action', async () => {
    const { p, ctx, id } = await circuits();
    let r = await editBlock(p, solverFor(ctx), id, { kind: 'goal-rate', index: 0, rate: 2 }, getBlock(p, id).updatedAt, (n) => ctx.g.displayOf(n));
    const row = (recipe: string) => r.result!.rows.find((x) => x.recipe === recipe)!;
    // 2 circuits/s × 1 s ÷ 1.1 (press-mk2, the fastest buildable); 6 wire/s ÷ 2 per craft × 0.5 s ÷ 1.1.
    assert.equal(row('circuit').machine, 'press-mk2');
    close(row('circuit').buildings, 2 / 1.1);
    close(row('wire').buildings, (6 / 2) * 0.5 / 1.1);
    assert.equal(p.undoable()?.label, 'Set goal Circuit to 2/s in "Circuits"');
    r = await editBlock(p, solverFor(ctx), id, { kind: 'row-machine', recipe: 'circuit', machine: 'press' }, r.block.updatedAt);
    close(row('circuit').buildings, 2 / 0.6);
    assert.equal(getBlock(p, id).doc.recipes[0].machine, 'press');
    // The stored projection is the result shown, not a second solve's.
    assert.equal(getBlock(p, id).cache.status, 'optimal');
    await undoAndResolve(p, solverFor(ctx));
    assert.equal(getBlock(p, id).doc.recipes[0].machine, undefined);
    assert.equal(getBlock(p, id).doc.goals[0].rate, 2);
    await redoAndResolve(p, solverFor(ctx));
    assert.equal(getBlock(p, id).doc.recipes[0].machine, 'press');
  });

  it('refuses an edit made on an older version of the block, and changes nothing', async () => {
    const { p, ctx, id } = await circuits();
    const old = getBlock(p, id).updatedAt;
    await editBlock(p, solverFor(ctx), id, { kind: 'goal-rate', index: 0, rate: 3 }, old);
    const now = getBlock(p, id);
    await assert.rejects(editBlock(p, solverFor(ctx), id, { kind: 'row-remove', recipe: 'wire' }, old), (e: unknown) => e instanceof BlockError && e.code === 'stale' && /apply the change again/.test(e.message));
    assert.deepEqual(getBlock(p, id), now);
  });

  it('adds and removes goals and rows, toggles made and balanced goods, renames', async () => {
    const { p, ctx, id } = await circuits();
    const b = getBlock(p, id);
    let x = applyBlockEdit(b, { kind: 'row-remove', recipe: 'wire' });
    assert.deepEqual(x.doc.recipes.map((r) => r.recipe), ['circuit']);
    x = applyBlockEdit(b, { kind: 'good-made', good: 'wire', on: true });
    assert.deepEqual(x.doc.made, ['wire'], 'turning it on twice keeps one entry');
    x = applyBlockEdit({ ...b, doc: x.doc }, { kind: 'good-made', good: 'ferrite-plate', on: true });
    assert.deepEqual(x.doc.made, ['wire', 'ferrite-plate']);
    x = applyBlockEdit({ ...b, doc: x.doc }, { kind: 'good-made', good: 'wire', on: false });
    assert.deepEqual(x.doc.made, ['ferrite-plate']);
    x = applyBlockEdit(b, { kind: 'good-drain', good: 'ferrite-plate', on: true });
    assert.deepEqual(x.doc.drains, ['ferrite-plate']);
    assert.throws(() => applyBlockEdit(b, { kind: 'goal-add', good: 'circuit', rate: 1 }), /already has a goal/);
    assert.throws(() => applyBlockEdit(b, { kind: 'row-machine', recipe: 'gear', machine: 'press' }), /no row for recipe gear/);
    const r = await editBlock(p, solverFor(ctx), id, { kind: 'rename', name: 'Circuit line' }, b.updatedAt);
    assert.equal(r.block.name, 'Circuit line');
    assert.equal(listBlocks(p).length, 1);
    // The original document is not touched by a refused or applied edit.
    assert.equal(b.doc.recipes.length, 2);
  });

  it('shows machines the horizon does not allow as locked, with what unlocks them', async () => {
    const { p, id } = await circuits();
    writeSettings(p, { research_mode: 'now' });
    const ctx = planningContext(p);
    const b = getBlock(p, id);
    const result = await solverFor(ctx)(b.doc);
    const v = blockEditorView(ctx, b, result);
    const circuit = v.rows.find((r) => r.recipe === 'circuit')!;
    const mk2 = circuit.machineOptions.find((m) => m.name === 'press-mk2')!;
    assert.ok(!['unlocked', 'buildable'].includes(mk2.state), mk2.state);
    assert.match(mk2.needs ?? '', /research|TURD|no research/);
    // Usable machines are listed first.
    const firstLocked = circuit.machineOptions.findIndex((m) => !['unlocked', 'buildable'].includes(m.state));
    assert.ok(circuit.machineOptions.slice(firstLocked).every((m) => !['unlocked', 'buildable'].includes(m.state)));
    assert.equal(v.goals[0].display, ctx.g.displayOf('circuit'));
  });
});
