// Individual tools through runTool on a throw-away project: results stay under the size cap by
// paging, and errors carry the code a caller can act on.
import assert from 'node:assert/strict';
import { findTool } from '../../../../src/core/assistant/tools/registry';
import { MAX_RESULT_CHARS, runTool } from '../../../../src/core/assistant/tools/run';
import { createNote } from '../../../../src/core/work/notes';
import { importGameData } from '../../../../src/core/gamedata/import';
import { writeSettings } from '../../../../src/core/planning/settings';
import { SAMPLE_DUMP } from '../../../helpers/paths';
import { createBlock } from '../../../../src/core/planning/factory/blocks';
import { planningContext } from '../../../../src/core/planning/context';
import { solveBlock } from '../../../../src/core/planning/solver/solve';
import { tempProject, type TempProject } from './helpers';

describe('assistant tools', () => {
  let tp: TempProject;
  const call = (name: string, input: unknown) => runTool(findTool(name)!, input, { project: tp.project, caller: 'agent' });
  beforeEach(async () => {
    tp = await tempProject('tools');
  });
  afterEach(() => tp.cleanup());

  it('pages listNotes under the result cap, however long the bodies, and says where the next page starts', async () => {
    for (let i = 0; i < 30; i++) createNote(tp.project, { title: `Note ${i}`, body: i % 2 ? 'x'.repeat(4000) : '"\n'.repeat(2000) });
    const seen: string[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const out = await call('listNotes', offset ? { offset } : {});
      assert.equal(out.ok, true, JSON.stringify(out).slice(0, 300));
      if (!out.ok) return;
      assert.ok(JSON.stringify(out.result).length <= MAX_RESULT_CHARS);
      const page = out.result as { notes: Array<{ id: string; body: string; truncated: boolean }>; total: number; nextOffset: number | null };
      assert.equal(page.total, 30);
      assert.ok(page.notes.length >= 1);
      assert.ok(page.notes.every((n) => !n.truncated && n.body.length === 4000), 'bodies within the per-note cap come whole');
      seen.push(...page.notes.map((n) => n.id));
      offset = page.nextOffset;
    }
    assert.equal(new Set(seen).size, 30, 'every note once');
    const small = await call('listNotes', { limit: 2, offset: 29 });
    assert.deepEqual([(small as { result: { notes: unknown[]; nextOffset: unknown } }).result.notes.length, (small as { result: { nextOffset: unknown } }).result.nextOffset], [1, null]);
  });

  it('lists a block with the temperature of its outputs and the range its imports accept', async () => {
    await importGameData(tp.project, SAMPLE_DUMP);
    const pc = planningContext(tp.project);
    // superheat-steam: 60 steam at 150–200° + 5 naphtha → 50 steam at 500°; 5/s is 0.1 crafts/s.
    await createBlock(tp.project, (doc) => solveBlock(pc.g, pc.availability, doc), { name: 'Superheat', doc: { goals: [{ good: 'steam', rate: 5, temperature: 500 }], recipes: [{ recipe: 'superheat-steam', machine: 'refinery-unit' }] } });
    const out = await call('factoryBlocks', {});
    assert.equal(out.ok, true, JSON.stringify(out).slice(0, 300));
    const b = (out as { result: { blocks: Array<{ makes: unknown[]; imports: Array<{ item: string }> }> } }).result.blocks[0];
    assert.deepEqual(b.makes, [{ item: 'steam', display: 'Steam', kind: 'fluid', rate: 5, temperature: 500 }]);
    assert.deepEqual(b.imports.find((f) => f.item === 'steam'), { item: 'steam', display: 'Steam', kind: 'fluid', rate: 6, minTemperature: 150, maxTemperature: 200 });
  });

  it('answers an unknown block or task id with not-found, and a refused input with invalid-input wherever it is refused', async () => {
    await importGameData(tp.project, SAMPLE_DUMP);
    const codes = async (calls: Array<[string, unknown]>) => Promise.all(calls.map(async ([n, i]) => [n, ((await call(n, i)) as { code?: string }).code]));
    assert.deepEqual(
      await codes([['reviseBlock', { blockId: 'nope', rate: 2 }], ['blockBuildStatus', { blockId: 'nope' }], ['getTask', { id: 'nope' }], ['updateTask', { id: 'nope', title: 'x' }], ['addTaskStep', { taskId: 'nope', text: 'x' }]]),
      [['reviseBlock', 'not-found'], ['blockBuildStatus', 'not-found'], ['getTask', 'not-found'], ['updateTask', 'not-found'], ['addTaskStep', 'not-found']],
    );
    const task = (await call('createTask', { title: 'Build coke' })) as { result: { id: string } };
    const sub = (await call('createTask', { title: 'Order coal', parentId: task.result.id })) as { result: { id: string } };
    // Refused by the task store, not by the tool's schema: still the caller's input to fix.
    assert.deepEqual(
      await codes([['updateTask', { id: task.result.id }], ['updateTask', { id: task.result.id, parentId: task.result.id }], ['updateTask', { id: task.result.id, parentId: sub.result.id }]]),
      [['updateTask', 'invalid-input'], ['updateTask', 'invalid-input'], ['updateTask', 'invalid-input']],
      'nothing to update, or a task moved under itself, is neither a missing task nor a failure',
    );
  });

  it('writes plural summaries in English', async () => {
    await importGameData(tp.project, SAMPLE_DUMP);
    assert.equal((await call('searchGoods', { query: 'zzzz' })).summary, 'Searched goods for "zzzz" — 0 matches');
    assert.equal((await call('availableTurds', { recipes: ['wire'] })).summary, 'Found 0 TURD opportunities');
  });

  it('audits, sums power and bills a draft plan as if it were applied, without saving it', async () => {
    await importGameData(tp.project, SAMPLE_DUMP);
    writeSettings(tp.project, { research_mode: 'future' });
    const plan = {
      title: 'Circuits', objective: 'circuits from plates',
      blocks: [
        { name: 'Circuits', target: 'circuit', rate: 1, recipes: ['circuit'], subBlocksNeeded: ['wire'] },
        { name: 'Wire', target: 'wire', rate: 'fromPlan', recipes: ['wire'] },
      ],
    };
    const before = Buffer.from(tp.project.db.export());
    const audit = (await call('coherenceAudit', { plan })) as { ok: boolean; result: { blocks: number; underSupplied: unknown[]; balancedLinks: Array<{ good: string }> } };
    assert.equal(audit.ok, true, JSON.stringify(audit).slice(0, 300));
    assert.equal(audit.result.blocks, 2);
    assert.deepEqual(audit.result.underSupplied, []);
    assert.ok(audit.result.balancedLinks.some((l) => l.good === 'wire'));
    const empty = (await call('coherenceAudit', {})) as { result: { blocks: number } };
    assert.equal(empty.result.blocks, 0, 'without a plan: the saved factory, which has no blocks');
    const power = (await call('factoryPower', { plan })) as { ok: boolean; result: { blocks: number; totalDemandW: number; topConsumers: Array<{ name: string }> } };
    assert.equal(power.result.blocks, 2);
    assert.ok(power.result.totalDemandW > 0);
    assert.deepEqual(power.result.topConsumers.map((c) => c.name).sort(), ['Circuits', 'Wire']);
    const bill = (await call('buildingBill', { plan })) as { ok: boolean; result: { machines: Array<{ count: number }>; skipped: unknown[] } };
    assert.equal(bill.ok, true, JSON.stringify(bill).slice(0, 300));
    assert.deepEqual(bill.result.skipped, []);
    assert.ok(bill.result.machines.reduce((n, m) => n + m.count, 0) >= 2, 'both blocks billed, the fromPlan one sized');
    assert.deepEqual(Buffer.from(tp.project.db.export()), before, 'nothing saved');
  });
});
