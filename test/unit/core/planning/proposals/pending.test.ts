// Pending proposals: drafts from Copilot agent mode (caller 'vscode') and MCP clients are kept in the
// project for the side panel, survive a reload, apply as ONE undoable action through the normal
// save path (and read as undone after an undo), and can be dismissed. The chat and the CLI keep none.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { Project } from '../../../../../src/core/db/project';
import { importGameData } from '../../../../../src/core/gamedata/import';
import { findTool } from '../../../../../src/core/assistant/tools/registry';
import { runTool } from '../../../../../src/core/assistant/tools/run';
import { solverFor } from '../../../../../src/core/assistant/tools/context';
import type { ToolContext } from '../../../../../src/core/assistant/tools/types';
import { PENDING_NOTE, TERMINAL_PENDING_NOTE } from '../../../../../src/core/assistant/tools/defs/proposals';
import { planningContext } from '../../../../../src/core/planning/context';
import { listBlocks, undoAndResolve } from '../../../../../src/core/planning/factory/blocks';
import { applyPending, dismissPending, getPending, keepPending, listPending, MAX_PENDING } from '../../../../../src/core/planning/proposals/pending';
import { SAMPLE_DUMP, tempDir } from '../../../../helpers/paths';

const GEAR = { target: 'gear', rate: 1, recipes: ['gear'] };

describe('pending proposals', function () {
  this.timeout(60_000);
  let dir: string;
  let file: string;
  let project: Project;
  const draft = async (tool: string, input: unknown, caller: ToolContext['caller'] = 'vscode') => {
    const out = await runTool(findTool(tool)!, input, { project, caller });
    assert.equal(out.ok, true, JSON.stringify(out).slice(0, 400));
    return (out as { result: any }).result;
  };
  const solve = () => solverFor(planningContext(project));
  const undoCount = () => project.query<{ n: number }>('SELECT COUNT(*) AS n FROM undo_actions WHERE undone = 0')[0].n;

  beforeEach(async () => {
    dir = tempDir('pyops-pending-');
    file = `${dir}/p.pyops`;
    project = await Project.create(file, { name: 'Pending' });
    await importGameData(project, SAMPLE_DUMP);
  });
  afterEach(() => {
    if (!project.isClosed) project.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps drafts from VS Code tools, MCP and `pyops tool`, says so in the result, and keeps none for the chat or `pyops ask`', async () => {
    const fromVsCode = await draft('submitBlock', GEAR, 'vscode');
    assert.equal(fromVsCode.pending.note, PENDING_NOTE);
    assert.match(fromVsCode.pending.note, /PyOps side panel/);
    const plan = await draft('submitPlan', { title: 'Gears and plates', objective: 'gears', blocks: [GEAR, { target: 'ferrite-plate', rate: 1, recipes: ['ferrite-plate'] }] }, 'mcp');
    for (const caller of ['agent', 'cli'] as const) assert.equal((await draft('submitBlock', GEAR, caller)).pending, undefined, caller);
    const fromTerminal = await draft('submitBlock', GEAR, 'terminal');
    assert.equal(fromTerminal.pending.note, TERMINAL_PENDING_NOTE);
    assert.match(fromTerminal.pending.note, /pyops proposal apply/);

    const kept = listPending(project);
    assert.deepEqual(kept.map((k) => [k.tool, k.kind, k.source, k.title]), [['submitBlock', 'block', 'terminal', fromTerminal.name], ['submitPlan', 'plan', 'mcp', 'Gears and plates'], ['submitBlock', 'block', 'vscode', fromVsCode.name]]);
    assert.equal(kept[2].id, fromVsCode.pending.id);
    assert.deepEqual((kept[2].result as { doc: unknown }).doc, JSON.parse(JSON.stringify(fromVsCode.doc)), 'the draft is kept as returned (as JSON)');
    assert.equal((kept[2].input as { target: string }).target, 'gear', 'with the input it was drafted from');
    assert.equal(plan.pending.id, kept[1].id);
    assert.equal(kept.every((k) => k.applied === null), true);
    assert.equal(undoCount(), 0, 'keeping a draft is not an undo step');
  });

  it('survives a reload of the project file', async () => {
    const d = await draft('submitBlock', GEAR);
    project.close();
    project = await Project.open(file);
    const again = getPending(project, d.pending.id);
    assert.equal(again?.title, d.name);
    assert.deepEqual((again?.result as { rows: unknown }).rows, JSON.parse(JSON.stringify(d.rows)));
  });

  it('applies as ONE undoable action through the normal save path, reads as undone after an undo, and can be applied again', async () => {
    const d = await draft('submitBlock', GEAR);
    const asked: string[] = [];
    const confirm = (q: { kind: string }) => (asked.push(q.kind), true);
    const before = undoCount();
    const out = await applyPending(project, solve(), d.pending.id, confirm);
    assert.equal(out?.label, `Create block "${d.name}"`);
    assert.equal(undoCount(), before + 1);
    assert.equal(project.undoable()?.label, `Create block "${d.name}"`);
    const blocks = listBlocks(project);
    assert.deepEqual(blocks.map((b) => b.id), out!.created);
    assert.deepEqual(blocks[0].doc.goals, d.doc.goals);
    const applied = getPending(project, d.pending.id)!;
    assert.deepEqual([applied.applied?.created, applied.undone], [out!.created, false]);

    // Applying again asks first; "no" applies nothing.
    assert.equal(await applyPending(project, solve(), d.pending.id, (q) => (asked.push(q.kind), false)), undefined);
    assert.equal(listBlocks(project).length, 1);

    await undoAndResolve(project, solve());
    assert.equal(listBlocks(project).length, 0);
    assert.equal(getPending(project, d.pending.id)!.undone, true, 'its block is gone: it reads as undone');
    await applyPending(project, solve(), d.pending.id, confirm);
    assert.equal(listBlocks(project).length, 1);
    assert.deepEqual(asked, ['again'], 'no question for a solved draft, nor after an undo');
  });

  it('applies a plan from MCP as one undoable action', async () => {
    const plan = await draft('submitPlan', { title: 'Two', objective: 'gears and plates', blocks: [GEAR, { target: 'ferrite-plate', rate: 1, recipes: ['ferrite-plate'] }] }, 'mcp');
    const before = undoCount();
    const out = await applyPending(project, solve(), plan.pending.id);
    assert.equal(out?.created.length, 2);
    assert.equal(undoCount(), before + 1);
    await undoAndResolve(project, solve());
    assert.equal(listBlocks(project).length, 0, 'one undo removes the whole plan');
  });

  it('asks before applying an unsolved draft', async () => {
    const d = await draft('submitBlock', GEAR, 'agent');
    const k = keepPending(project, { tool: 'submitBlock', source: 'vscode', input: GEAR, result: { ...d, ok: false, status: 'infeasible' } }).kept;
    const asked: string[] = [];
    assert.equal(await applyPending(project, solve(), k.id, (q) => (asked.push(q.message), false)), undefined);
    assert.match(asked[0], /is not solved \(infeasible\)/);
    assert.equal(listBlocks(project).length, 0);
  });

  it('dismisses a proposal (its blocks stay), refuses a gone one, and refuses a damaged one', async () => {
    const d = await draft('submitBlock', GEAR);
    await applyPending(project, solve(), d.pending.id);
    dismissPending(project, d.pending.id);
    assert.deepEqual(listPending(project), []);
    assert.equal(listBlocks(project).length, 1);
    assert.throws(() => dismissPending(project, d.pending.id), /pending proposal is gone/);
    await assert.rejects(applyPending(project, solve(), d.pending.id), /pending proposal is gone/);
    const bad = keepPending(project, { tool: 'submitPlan', source: 'mcp', input: {}, result: { kind: 'plan', title: 'Broken' } }).kept;
    await assert.rejects(applyPending(project, solve(), bad.id), /plan proposal is damaged/);
  });

  it(`keeps the newest ${MAX_PENDING} and says which older ones it dropped`, async () => {
    const d = await draft('submitBlock', GEAR, 'agent');
    const keeps = Array.from({ length: MAX_PENDING + 3 }, (_, i) => keepPending(project, { tool: 'submitBlock', source: 'mcp', input: GEAR, result: { ...d, name: `Gear ${i}` } }));
    const ids = keeps.map((k) => k.kept.id);
    const kept = listPending(project);
    assert.equal(kept.length, MAX_PENDING);
    assert.deepEqual(kept.map((k) => k.id), ids.slice(3).reverse());
    assert.deepEqual(keeps.slice(0, MAX_PENDING).map((k) => k.dropped.length), Array(MAX_PENDING).fill(0), 'nothing dropped while there is room');
    assert.deepEqual(keeps.slice(MAX_PENDING).map((k) => k.dropped.map((x) => [x.id, x.title, x.kind, x.applied])), [0, 1, 2].map((i) => [[ids[i], `Gear ${i}`, 'block', false]]));
  });

  it('tells the MCP caller which proposal a new draft pushed out, and that an applied one keeps its blocks', async () => {
    const first = await draft('submitBlock', { ...GEAR, name: 'The very first gears' }, 'mcp');
    await applyPending(project, solve(), first.pending.id);
    for (let i = 1; i < MAX_PENDING; i++) assert.equal((await draft('submitBlock', GEAR, 'mcp')).pending.dropped, undefined);
    const out = await runTool(findTool('submitBlock', 'mcp')!, GEAR, { project, caller: 'mcp' });
    assert.equal(out.ok, true);
    const view = JSON.stringify((out as { view?: unknown; result: unknown }).view ?? (out as { result: unknown }).result);
    const pending = JSON.parse(view).pending as { note: string; dropped: Array<{ id: string; title: string; applied: boolean }> };
    assert.deepEqual(pending.dropped.map((x) => [x.id, x.title, x.applied]), [[first.pending.id, 'The very first gears', true]], 'what the model reads names it');
    assert.match(pending.note, /dropped the oldest: "The very first gears" \(already applied; its blocks stay\)/);
    assert.equal(listPending(project).length, MAX_PENDING);
    assert.equal(listBlocks(project).length, 1, 'the applied draft\'s block stays');
  });

  it('cannot keep in a read-only project, and says why instead of failing the tool', async () => {
    project.close();
    const writer = await Project.open(file);
    try {
      project = await Project.open(file);
      assert.equal(project.readOnly, true);
      const d = await draft('submitBlock', GEAR, 'mcp');
      assert.equal(d.pending.id, null);
      assert.match(d.pending.note, /^Not kept for the side panel: /);
      assert.deepEqual(listPending(project), []);
    } finally {
      project.close();
      writer.close();
    }
  });

  it('adds the table to a project made before it (migration on open)', async () => {
    project.write((db) => {
      db.run('DROP TABLE main.pending_proposals');
      db.run('PRAGMA main.user_version = 2');
    });
    project.close();
    project = await Project.open(file);
    assert.deepEqual(listPending(project), []);
    const d = await draft('submitBlock', GEAR);
    assert.equal(listPending(project)[0].id, d.pending.id);
  });
});
