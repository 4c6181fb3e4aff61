// Proposal cards from real drafts of the sample world: found in a stored conversation by their tool
// parts, turned into views (display names, buildings, imports, flow graph), marked applied after
// core's apply — and "undone" once undo removes the blocks — and laid out as a flow diagram.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { UIMessage } from 'ai';
import { Project } from '../../../src/core/db/project';
import { importGameData } from '../../../src/core/gamedata/import';
import { writeSettings } from '../../../src/core/planning/settings';
import { findTool } from '../../../src/core/assistant/tools/registry';
import { runTool } from '../../../src/core/assistant/tools/run';
import { solverFor } from '../../../src/core/assistant/tools/context';
import { planningContext } from '../../../src/core/planning/context';
import { gameIndex } from '../../../src/core/planning/gameIndex';
import { applyPlanDraft } from '../../../src/core/planning/proposals/apply';
import type { PlanDraft } from '../../../src/core/planning/proposals/plan';
import { undoAndResolve } from '../../../src/core/planning/factory/blocks';
import { findProposal, proposalsIn } from '../../../src/extension/proposals/extract';
import { namesFrom, toDraftView } from '../../../src/extension/proposals/views';
import { proposalViews, archivedMessages } from '../../../src/extension/panel/state';
import { reportMessage } from '../../../src/extension/assistant/reports';
import { showBlockPayload } from '../../../src/extension/proposals/game';
import { showBlockPayload as bridgeSchema } from '../../../src/core/bridge/showBlock';
import { layoutFlow } from '../../../src/webview/panel/flowLayout';
import { fromWebviewSchema } from '../../../src/webview/protocol';
import { SAMPLE_DUMP, tempDir } from '../../helpers/paths';

async function toolPart(project: Project, name: string, input: unknown, id: string) {
  const out = await runTool(findTool(name)!, input, { project, caller: 'agent' });
  return { type: `tool-${name}`, toolCallId: id, state: 'output-available', input, output: out } as UIMessage['parts'][number];
}

describe('proposal cards', function () {
  this.timeout(60_000);
  let dir: string;
  let project: Project;
  let messages: UIMessage[];

  before(async () => {
    dir = tempDir('pyops-cards-');
    project = await Project.create(path.join(dir, 'cards.pyops'));
    await importGameData(project, SAMPLE_DUMP);
    writeSettings(project, { research_mode: 'future' });
    messages = [
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'circuits please' }] },
      {
        id: 'a1',
        role: 'assistant',
        parts: [
          { type: 'step-start' },
          await toolPart(project, 'searchGoods', { query: 'circuit' }, 'c0'),
          await toolPart(project, 'submitBlock', { name: 'Circuits', target: 'circuit', rate: 1, recipes: ['circuit', 'wire'] }, 'c1'),
          await toolPart(project, 'submitPlan', { title: 'Arms', objective: 'Arms from plates', blocks: [{ name: 'Gears', target: 'gear', rate: 1, recipes: ['gear'] }, { name: 'Arms', target: 'arm', rate: 0.5, recipes: ['arm', 'circuit', 'wire'] }] }, 'c2'),
          await toolPart(project, 'gameEval', { code: 'return game.tick', note: 'the tick' }, 'c3'),
          { type: 'tool-submitBlock', toolCallId: 'c4', state: 'output-available', input: {}, output: { ok: false, code: 'invalid-input', error: 'bad', summary: 'bad' } } as UIMessage['parts'][number],
          { type: 'text', text: 'Here you go.' },
        ],
      },
    ];
  });
  after(() => {
    project.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('finds every successful proposal of a conversation by its tool part', () => {
    const found = proposalsIn('conv', messages);
    assert.deepEqual(found.map((p) => [p.kind, p.ref.toolCallId]), [['block', 'c1'], ['plan', 'c2'], ['eval', 'c3']]);
    assert.equal(findProposal({ conversationId: 'conv', messageId: 'a1', toolCallId: 'c2' }, messages)?.kind, 'plan');
    assert.equal(findProposal({ conversationId: 'conv', messageId: 'a1', toolCallId: 'c4' }, messages), undefined, 'a failed call is no proposal');
  });

  it('builds a block card: display names, fractional and whole buildings, imports, flow graph', () => {
    const d = toDraftView(proposalsIn('conv', messages)[0].result, namesFrom(gameIndex(project)));
    assert.equal(d.status, 'optimal');
    assert.equal(d.goals[0].display, 'Circuit');
    const circuit = d.rows.find((r) => r.recipe === 'circuit')!;
    assert.ok(circuit.buildings > 0 && circuit.wholeBuildings === Math.ceil(circuit.buildings - 1e-9));
    assert.ok(circuit.modules.every((m) => m.display && m.display !== m.name), 'modules by display name');
    assert.ok(d.importsExternal.some((f) => f.good === 'ferrite-plate'));
    assert.ok(d.flow.nodes.some((n) => n.id === 'r:wire') && d.flow.nodes.some((n) => n.id === 'g:circuit' && n.role === 'goal'));
    assert.ok(d.flow.edges.some((e) => e.from === 'r:wire' && e.to === 'g:wire') && d.flow.edges.some((e) => e.from === 'g:wire' && e.to === 'r:circuit'));
    // The solved rates ride on the edges: the circuit goal's edge carries the goal rate.
    assert.ok(d.flow.edges.every((e) => typeof e.rate === 'number' && e.rate > 0), 'a rate on every edge');
    assert.ok(Math.abs(d.flow.edges.find((e) => e.from === 'r:circuit' && e.to === 'g:circuit')!.rate! - d.goals[0].rate) < 1e-6);
    const wire = d.flow.nodes.find((n) => n.id === 'r:wire')!;
    assert.ok(wire.machine && wire.buildings! > 0 && wire.wholeBuildings! >= 1, 'building count on the recipe');
    assert.equal(d.flow.nodes.filter((n) => n.kind === 'good' && n.id === 'g:wire').length, 1, 'one node per good');
    const layout = layoutFlow(d.flow);
    const y = (id: string) => layout.nodes.find((n) => n.id === id)!.y;
    assert.ok(y('g:azurite-plate') < y('r:wire') && y('r:wire') < y('r:circuit') && y('r:circuit') < y('g:circuit'), 'imports above, goal below');
    assert.ok(layout.width > 0 && layout.height > 0);
  });

  it('marks a plan applied after apply, and undone after undo', async () => {
    const plan = proposalsIn('conv', messages)[1];
    const ctx = planningContext(project);
    const r = await applyPlanDraft(project, solverFor(ctx), plan.result as PlanDraft);
    assert.equal(r.created.length, 2);
    const withReport = [...messages, reportMessage('r1', '[PyOps] applied', { kind: 'applied', ref: plan.ref, created: r.created, label: 'Apply plan "Arms"' })];
    const names = namesFrom(gameIndex(project));
    let view = proposalViews(project, 'conv', withReport, names).find((p) => p.kind === 'plan')!;
    assert.ok(view.kind === 'plan' && view.applied && !view.applied.undone);
    assert.ok(view.kind === 'plan' && view.plan.blocks[1].importsFromBlocks.some((f) => f.good === 'gear' && f.blocks?.includes('Gears')));
    await undoAndResolve(project, solverFor(ctx));
    view = proposalViews(project, 'conv', withReport, names).find((p) => p.kind === 'plan')!;
    assert.ok(view.kind === 'plan' && view.applied?.undone);
    assert.equal(proposalViews(project, 'conv', withReport, names)[0].kind, 'eval', 'newest first');
  });

  it('sends the in-game summary a payload the bridge accepts', () => {
    const d = toDraftView(proposalsIn('conv', messages)[0].result, namesFrom(gameIndex(project)));
    const payload = showBlockPayload(d);
    const parsed = bridgeSchema.safeParse(payload);
    assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
  });

  it('shows the archived originals of a compaction', () => {
    const compaction: UIMessage = { id: 'compaction-1', role: 'system', parts: [{ type: 'text', text: 'Summary…' }, { type: 'data-compaction', data: { version: 1, compactedAt: 't', model: null, method: 'extractive', originalCount: 2, estimatedTokensBefore: 10, estimatedTokensAfter: 5, originals: messages } } as UIMessage['parts'][number]] };
    const out = archivedMessages([compaction], 'compaction-1');
    assert.deepEqual(out.map((m) => [m.role, m.text]), [['user', 'circuits please'], ['assistant', 'Here you go.']]);
    assert.deepEqual(out[1].tools, ['searchGoods', 'submitBlock', 'submitPlan', 'gameEval', 'submitBlock']);
  });
});

describe('side panel protocol', () => {
  it('accepts well-formed webview messages and refuses anything else', () => {
    const ref = { conversationId: 'c', messageId: 'm', toolCallId: 't' };
    for (const ok of [{ type: 'ready' }, { type: 'apply', ref }, { type: 'showInGame', ref, blockIndex: 1 }, { type: 'setEffort', conversationId: 'c', effort: null }, { type: 'tab', tab: 'run' }]) {
      assert.ok(fromWebviewSchema.safeParse(ok).success, JSON.stringify(ok));
    }
    for (const bad of [null, 'apply', {}, { type: 'apply' }, { type: 'apply', ref: { ...ref, extra: 1 } }, { type: 'apply', ref, extra: 1 }, { type: 'setEffort', conversationId: 'c', effort: 'max' }, { type: 'showInGame', ref, blockIndex: -1 }, { type: 'deleteConversation', conversationId: 'x'.repeat(500) }, { type: 'eval', code: 'os.exit()' }]) {
      assert.equal(fromWebviewSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });
});
