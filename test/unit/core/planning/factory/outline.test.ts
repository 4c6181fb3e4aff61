// The Factory view's data: every block with its state, goals, whole buildings and snapshots; tasks
// with progress; notes; the horizon — read from the cached projections, and followed after any write.
import assert from 'node:assert/strict';
import { Project } from '../../../../../src/core/db/project';
import { planningContext } from '../../../../../src/core/planning/context';
import { writeSettings } from '../../../../../src/core/planning/settings';
import { createBlock, deleteBlock, getBlock, saveBlock } from '../../../../../src/core/planning/factory/blocks';
import { factoryOutline } from '../../../../../src/core/planning/factory/outline';
import { blockMarkdown } from '../../../../../src/core/planning/factory/blockReport';
import { solveBlock } from '../../../../../src/core/planning/solver/solve';
import { createTask, addTaskStep, setStepDone } from '../../../../../src/core/work/tasks';
import { createNote } from '../../../../../src/core/work/notes';
import { useSampleProject } from '../../../../helpers/sampleProject';

describe('factory outline', () => {
  let p: Project;
  const ctx = () => planningContext(p);
  const solve = (doc: Parameters<typeof solveBlock>[2]) => solveBlock(ctx().g, ctx().availability, doc);
  const sample = useSampleProject({ each: true, horizon: 'future' });
  beforeEach(() => (p = sample.project));

  it('lists blocks with state, goals and whole buildings, tasks with progress, notes and the horizon', async () => {
    const gears = await createBlock(p, solve, { name: 'Gears', doc: { goals: [{ good: 'gear', rate: 2 }], recipes: [{ recipe: 'gear', machine: 'press' }] } });
    const stuck = await createBlock(p, solve, { name: 'Stuck', doc: { goals: [{ good: 'gear', rate: 2 }], recipes: [{ recipe: 'gear' }], pins: [{ kind: 'cap', recipe: 'gear', buildings: 0 }] } });
    const off = await createBlock(p, solve, { name: 'Off', enabled: false, doc: { goals: [{ good: 'wire', rate: 1 }], recipes: [{ recipe: 'wire' }] } });
    const t = createTask(p, { title: 'Build gears' });
    const s1 = addTaskStep(p, t.id, 'place presses');
    addTaskStep(p, t.id, 'belt plates');
    setStepDone(p, s1.id, true);
    createNote(p, { title: 'Ideas', body: 'x' });
    const o = factoryOutline(p, ctx().g);
    const by = new Map(o.blocks.map((b) => [b.id, b]));
    assert.equal(by.get(gears)!.state, 'solved');
    assert.deepEqual(by.get(gears)!.goals.map((g) => [g.good, g.rate, g.direction]), [['gear', 2, 'produce']]);
    // Whole buildings: the solved count stored for each machine and recipe, rounded up.
    const machines = p.query<{ count: number }>('SELECT count FROM main.block_machines WHERE block_id = ?', [gears]);
    assert.equal(by.get(gears)!.buildings, machines.reduce((n, m) => n + Math.ceil(m.count - 1e-6), 0));
    assert.ok(by.get(gears)!.buildings >= 1);
    assert.equal(by.get(stuck)!.state, 'infeasible');
    assert.match(by.get(stuck)!.stateDetail!, /diagnosis/);
    assert.equal(by.get(off)!.state, 'disabled');
    assert.deepEqual(o.tasks.map((x) => [x.title, x.done, x.total]), [['Build gears', 1, 2]]);
    assert.deepEqual(o.notes.map((n) => n.title), ['Ideas']);
    assert.equal(o.planning.horizon, 'future');
  });

  it('shows a target horizon by its display name and what it covers', () => {
    writeSettings(p, { research_mode: 'target', horizon_target: 'basic-research-pack' });
    const o = factoryOutline(p, ctx().g).planning;
    assert.deepEqual([o.target, o.targetDisplay, o.targetScope], ['basic-research-pack', ctx().g.displayOf('basic-research-pack'), 'make']);
    writeSettings(p, { horizon_target_scope: 'research' });
    assert.equal(factoryOutline(p, ctx().g).planning.targetScope, 'research');
  });

  it('keeps the snapshot a delete takes, and reports a block solved under another horizon as stale', async () => {
    const id = await createBlock(p, solve, { name: 'Gears', doc: { goals: [{ good: 'gear', rate: 2 }], recipes: [{ recipe: 'gear' }] } });
    await saveBlock(p, solve, id, { name: 'Gear line' }, getBlock(p, id).updatedAt);
    writeSettings(p, { research_mode: 'now' });
    assert.equal(factoryOutline(p, ctx().g).blocks[0].state, 'stale');
    deleteBlock(p, id);
    const o = factoryOutline(p, ctx().g);
    assert.equal(o.blocks.length, 0);
    const snaps = p.query<{ reason: string }>('SELECT reason FROM main.block_snapshots WHERE block_id = ?', [id]);
    assert.ok(snaps.some((s) => s.reason === 'before delete'));
  });

  it('tells listeners after every committed write, once per outer write', async () => {
    let n = 0;
    const off = p.onDidWrite(() => n++);
    await createBlock(p, solve, { name: 'Gears', doc: { goals: [{ good: 'gear', rate: 1 }], recipes: [{ recipe: 'gear' }] } });
    p.write(() => p.write((db) => db.run("INSERT INTO notes(id, title, body, created_at, updated_at) VALUES ('n1', 'a', '', 't', 't')")));
    assert.equal(n, 2);
    assert.throws(() => p.write(() => { throw new Error('nope'); }));
    assert.equal(n, 2, 'a rolled-back write is not announced');
    off();
    createNote(p, { title: 'x' });
    assert.equal(n, 2);
  });

  it('renders a block as a Markdown page with its goals, recipes, buildings and imports', async () => {
    const id = await createBlock(p, solve, { name: 'Circuits', doc: { goals: [{ good: 'circuit', rate: 1 }], recipes: [{ recipe: 'circuit' }, { recipe: 'wire' }], made: ['wire'] } });
    const md = blockMarkdown(p, ctx().g, id);
    assert.match(md, /^# Circuits/);
    assert.match(md, /Makes .*\(`circuit`\) 1\/s/);
    assert.match(md, /\| .*\(`wire`\) \| .+ \| [\d.]+ \(\d+ whole\) \| — \|/);
    assert.match(md, /## Imports[\s\S]*(Ferrite|Azurite)/i);
  });
});
