// The PyOps side panel inside a real VS Code: a plan proposal from a scripted turn renders as a
// card (checked in the rendered webview and screenshotted), "Apply Plan" clicked in the webview
// creates its blocks as ONE undoable action, the card then says so, and undo removes the blocks.
// Untrusted webview messages are refused. Conversations and the live run are listed too; a stored
// conversation's transcript opens from its link, and "Branch from here" branches it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import path from 'node:path';
import { startFakeOpenRouter, type FakeOpenRouter } from '../fixtures/fake-openrouter/server';
import { listBlocks } from '../../src/core/planning/factory/blocks';
import type { UIMessage } from 'ai';
import { createConversation, getConversation, listConversations, loadMessages, replaceMessages } from '../../src/core/assistant/conversations/store';
import { api, uiRequest, waitFor, workDir, sampleWorld } from './helpers';

const PLAN = {
  title: 'Arms from plates',
  objective: 'Half an inserter arm per second, with its own gear block.',
  blocks: [
    { name: 'Gears', target: 'gear', rate: 1, recipes: ['gear'] },
    // The arm is chosen; the circuit (a commodity: 12 recipes use it) is made here too, and the tool
    // completes its chain: its recipe, wire under it and azurite plate under that (4 recipes use it;
    // ferrite plate, 14, stays an import).
    { name: 'Arms', target: 'arm', rate: 0.5, recipes: ['arm'], complete: true, makeHere: ['circuit'] },
  ],
};

describe('PyOps side panel', () => {
  let fake: FakeOpenRouter;
  let conversationId: string;

  before(async function () {
    this.timeout(90_000);
    fake = await startFakeOpenRouter({
      replies: (body) => {
        if (!body.stream) return { text: 'Arms plan' };
        const messages = body.messages as Array<{ role: string; content?: unknown }>;
        const lastUser = messages.map((m) => m.role).lastIndexOf('user');
        const tools = messages.slice(lastUser).filter((m) => m.role === 'tool').length;
        if (JSON.stringify(messages[lastUser]?.content ?? '').includes('slowly')) {
          return tools === 0
            ? { text: ['Checking ', 'the goods ', 'first. '], toolCalls: [{ name: 'searchGoods', arguments: { query: 'gear' } }], delayMs: 250 }
            : { text: ['Gears ', 'are ', 'made ', 'from ', '**ferrite ', 'plates**.\n\n', '- one ', 'per craft'], delayMs: 400 };
        }
        return tools === 0 ? { toolCalls: [{ name: 'submitPlan', arguments: PLAN }], usage: { prompt: 900, completion: 80 } } : { text: 'The plan has two blocks; apply it from its card.', usage: { prompt: 1300, completion: 20 } };
      },
    });
    await vscode.workspace.getConfiguration('pyops').update('openrouter.baseUrl', fake.url, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('pyops.openrouter.setKey', { key: 'sk-or-panel' });
    const dir = workDir('panel');
    await vscode.commands.executeCommand('pyops.project.new', { file: path.join(dir, 'panel.pyops'), name: 'Panel factory' });
    await vscode.commands.executeCommand('pyops.gamedata.import', { source: sampleWorld().dump });
    await vscode.commands.executeCommand('pyops.planning.setHorizon', { mode: 'future' });
    const { assistant, projects } = await api();
    const p = projects.require();
    const conv = assistant.host.newConversation(p);
    conversationId = conv.id;
    const r = await assistant.host.turn({ project: p, conversationId, message: 'Plan half an arm per second.', model: () => assistant.host.openRouterModel(null), source: 'openrouter', title: 'await' });
    assert.equal(r.error, undefined, r.error?.message);
  });

  after(async () => {
    await fake?.close();
  });

  it('renders the proposal as a card with its blocks, counts and actions', async function () {
    this.timeout(90_000);
    const { assistant } = await api();
    await vscode.commands.executeCommand('pyops.panel.open', { tab: 'proposals' });
    const panel = assistant.panel;
    await waitFor(() => panel.probe.ready, 'the panel webview to start', 30_000);
    const state = await waitFor(() => panel.probe.lastState?.state.proposals.length && panel.probe.lastState.state, 'a panel state with the proposal');
    assert.equal(state.activeConversationId, conversationId);
    const card = state.proposals[0];
    assert.equal(card.kind, 'plan');
    assert.ok(card.kind === 'plan' && card.plan.blocks.length === 2 && card.plan.ok, JSON.stringify(card).slice(0, 500));
    if (card.kind === 'plan') {
      const arms = card.plan.blocks[1];
      assert.ok(arms.importsFromBlocks.some((f) => f.good === 'gear' && f.blocks?.includes('Gears')), 'gears come from the plan\'s own block');
      assert.ok(arms.rows.every((r) => r.wholeBuildings >= r.buildings - 1e-9));
      assert.ok(arms.flow.nodes.some((n) => n.id === 'r:arm') && arms.flow.edges.length > 0, 'a flow diagram');
    }
    if (card.kind === 'plan') assert.deepEqual(card.plan.blocks[1].rows.filter((r) => r.chosenFor).map((r) => r.chosenFor!.good).sort(), ['azurite-plate', 'circuit', 'wire']);
    const ui = await uiRequest({ webviewIncludes: ['Arms from plates', 'Apply Plan', 'New block: Arms', 'Half an inserter arm per second'], screenshot: { file: 'side-panel-plan-card.png', element: 'sidebar' } });
    assert.deepEqual(ui.failures, [], ui.webviewText);
    // The second block opened: the rows the completion picked say so.
    const opened = await uiRequest({ webviewClickSelector: 'vscode-collapsible[data-section$=":block:1"] .collapsible-header' });
    assert.deepEqual(opened.failures, []);
    const arms = await uiRequest({ webviewIncludes: ['Picked for Circuit'], webviewRevealSelector: '[title^="Chain completion"]', collectWebview: true, screenshot: { file: 'side-panel-plan-card-completed.png', element: 'sidebar' } });
    assert.deepEqual(arms.failures, [], arms.webviewText);
    assert.equal((arms.webviewText ?? '').split('Picked for').length - 1, 3, arms.webviewText);
  });

  it('applies the plan from the card as one undoable action; undo removes its blocks', async function () {
    this.timeout(90_000);
    const { assistant, projects } = await api();
    const p = projects.require();
    const before = listBlocks(p).length;
    const ui = await uiRequest({ webviewClick: 'Apply Plan' });
    assert.deepEqual(ui.failures, []);
    await waitFor(() => listBlocks(p).length === before + 2, 'the two blocks of the plan');
    assert.deepEqual(listBlocks(p).map((b) => b.name).sort(), ['Arms', 'Gears']);
    assert.equal(p.undoable()?.label, 'Apply plan "Arms from plates"', 'one undo action for the whole plan');
    const applied = await uiRequest({ webviewIncludes: ['Applied', 'Apply Plan Again'], screenshot: { file: 'side-panel-plan-applied.png', element: 'sidebar' } });
    assert.deepEqual(applied.failures, [], applied.webviewText);
    assert.ok(assistant.panel.probe.received.some((m) => m.type === 'apply'));

    await vscode.commands.executeCommand('pyops.edit.undo');
    assert.equal(listBlocks(p).length, before);
    const undone = await uiRequest({ webviewIncludes: ['then undone'] });
    assert.deepEqual(undone.failures, [], undone.webviewText);
  });

  it('lists the conversation with its model and usage, and refuses malformed webview messages', async function () {
    this.timeout(60_000);
    const { assistant } = await api();
    const state = assistant.panel.probe.lastState!.state;
    const row = state.conversations.find((c) => c.id === conversationId)!;
    assert.equal(row.title, 'Arms plan');
    assert.equal(row.model, 'anthropic/claude-sonnet-latest-fake');
    assert.deepEqual(row.lastUsage, { inputTokens: 1300, outputTokens: 20, totalTokens: 1320, modelId: 'anthropic/claude-sonnet-latest-fake' });
    assert.ok(state.context && state.context.usedTokens > 0 && state.context.source === 'measured');
    await vscode.commands.executeCommand('pyops.panel.open', { tab: 'conversations' });
    const list = await uiRequest({ webviewIncludes: ['Arms plan', 'New Conversation'], screenshot: { file: 'side-panel-conversations.png', element: 'sidebar' } });
    assert.deepEqual(list.failures, [], list.webviewText);
    const rejected = assistant.panel.probe.rejected;
    await (assistant.panel as unknown as { receive(m: unknown): Promise<void> }).receive({ type: 'apply', ref: { conversationId: 'x' } });
    await (assistant.panel as unknown as { receive(m: unknown): Promise<void> }).receive({ type: 'deleteConversation', conversationId: conversationId, extra: 'nope' });
    assert.equal(assistant.panel.probe.rejected, rejected + 2);
  });

  it('follows a run in the Live Run tab, replaying what streamed before it attached', async function () {
    this.timeout(90_000);
    const { assistant, projects } = await api();
    const p = projects.require();
    const conv = createConversation(p, { title: 'Slow gears' });
    const turn = assistant.host.turn({ project: p, conversationId: conv.id, message: 'Tell me slowly about gears.', model: () => assistant.host.openRouterModel(null), source: 'openrouter', title: 'off' });
    // Attach mid-run: the first text is already in the run's buffer.
    await waitFor(() => assistant.host.runs.get(conv.id)?.chunks.some((c) => c.type === 'tool-output-available'), 'the run to pass its tool call');
    await vscode.commands.executeCommand('pyops.panel.open', { tab: 'run' });
    await (assistant.panel as unknown as { receive(m: unknown): Promise<void> }).receive({ type: 'switchConversation', conversationId: conv.id });
    // One sentence, though the tool step began before its last words arrived (the text is smoothed).
    const live = await uiRequest({ webviewIncludes: ['Writing', 'Checking the goods first.'], screenshot: { file: 'side-panel-live-run.png', element: 'sidebar' } });
    assert.deepEqual(live.failures, [], live.webviewText);
    const r = await turn;
    assert.equal(r.error, undefined);
    const done = await uiRequest({ webviewIncludes: ['Finished', 'Gears are made from ferrite plates.', 'one per craft'], screenshot: { file: 'side-panel-live-run-markdown-300px.png', element: 'sidebar' } });
    assert.deepEqual(done.failures, [], done.webviewText);
    // Markdown, as the chat shows it: bold without its stars, a list item without its dash.
    assert.doesNotMatch(done.webviewText ?? '', /\*\*|^- one/m);
  });

  it('takes a finished run off the Live Run tab when another project is opened', async function () {
    this.timeout(60_000);
    const { projects } = await api();
    const back = projects.require().file;
    await vscode.commands.executeCommand('pyops.panel.open', { tab: 'run' });
    const before = await uiRequest({ webviewIncludes: ['Finished', 'Gears are made from ferrite plates.'] });
    assert.deepEqual(before.failures, [], before.webviewText);
    try {
      await vscode.commands.executeCommand('pyops.project.new', { file: path.join(workDir('panel-switch'), 'other.pyops'), name: 'Other factory' });
      const switched = await uiRequest({ webviewIncludes: ['Other factory', 'No answer is being written right now'], screenshot: { file: 'side-panel-live-run-after-switch-300px.png', element: 'sidebar' } });
      assert.deepEqual(switched.failures, [], switched.webviewText);
      assert.doesNotMatch(switched.webviewText ?? '', /ferrite plates/);
    } finally {
      await vscode.commands.executeCommand('pyops.project.open', { file: back });
    }
  });

  it('opens a stored conversation from its link as a transcript with reasoning collapsed, and branches from a message', async function () {
    this.timeout(120_000);
    const { assistant, projects } = await api();
    const p = projects.require();
    const conv = createConversation(p, { title: 'Stored gears' });
    const part = (x: unknown) => x as UIMessage['parts'][number];
    replaceMessages(p, conv.id, [
      { id: 'tr-u1', role: 'user', parts: [{ type: 'text', text: 'How are gears made?' }] },
      {
        id: 'tr-a1',
        role: 'assistant',
        parts: [
          part({ type: 'reasoning', text: 'Secret musing about ferrite supply.' }),
          part({ type: 'tool-searchGoods', toolCallId: 'tr-c1', state: 'output-available', input: { query: 'gear' }, output: { ok: true, result: { matches: ['gear'] }, summary: 'Found 1 good for "gear"' } }),
          part({ type: 'text', text: 'Gears are made from **ferrite** plates in an `assembler`.' }),
        ],
      },
      { id: 'tr-u2', role: 'user', parts: [{ type: 'text', text: 'And the wire?' }] },
      { id: 'tr-a2', role: 'assistant', parts: [{ type: 'text', text: 'Wire comes from copper plates.' }] },
    ]);
    const panel = assistant.panel;
    const receive = (m: unknown) => (panel as unknown as { receive(m: unknown): Promise<void> }).receive(m);
    await receive({ type: 'copyLink', conversationId: conv.id, messageId: 'tr-a1' });
    const link = panel.probe.lastLink!;
    assert.match(link, /^[a-z-]+:\/\/pyops\.pyops-vscode\/conversation\//);
    const uri = vscode.Uri.parse(link);
    assert.match(uri.query, /^project=[^&]+&message=tr-a1$/, link);
    const foreign = uri.with({ query: uri.query.replace(/project=[^&]+/, 'project=some-other-project') });
    await assert.rejects(panel.openLink(foreign), /another PyOps project, not the open one \("Panel factory"\)/);
    await panel.openLink(uri);
    assert.equal(assistant.host.activeConversationId(), conv.id);
    assert.equal(panel.probe.lastTranscript?.conversationId, conv.id);
    const ui = await uiRequest({
      webviewIncludes: ['Stored gears', 'How are gears made?', 'Reasoning', 'searchGoods — Found 1 good for "gear"', 'Gears are made from ferrite plates', 'Wire comes from copper plates.'],
      collectWebview: true,
      screenshot: { file: 'conversation-transcript.png', element: 'sidebar' },
    });
    assert.deepEqual(ui.failures, [], ui.webviewText);
    assert.ok(!ui.webviewText?.includes('Secret musing'), `the reasoning is collapsed: ${ui.webviewText}`);

    const before = new Set(listConversationsIds());
    const click = await uiRequest({ webviewClick: 'Branch from here' });
    assert.deepEqual(click.failures, []);
    const branchId = await waitFor(() => listConversationsIds().find((id) => !before.has(id)), 'the branched conversation');
    assert.equal(getConversation(p, branchId)?.title, 'Stored gears (branch)');
    assert.equal(loadMessages(p, branchId).length, 1, 'branched from the first message: it alone');
    await waitFor(() => assistant.host.activeConversationId() === branchId, 'the branch to become active');
    const shown = await uiRequest({ webviewIncludes: ['Stored gears (branch)', '1 message'] });
    assert.deepEqual(shown.failures, [], shown.webviewText);

    function listConversationsIds(): string[] {
      return listConversations(p).map((c) => c.id);
    }
  });
});
