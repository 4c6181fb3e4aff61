// @pyops inside a real VS Code, end to end against a fake OpenRouter on 127.0.0.1 (its key stored
// through the command, its address through pyops.openrouter.baseUrl): a planning question is
// answered with streamed text, past-tense tool progress and a proposal with buttons; the
// conversation is in the project database with usage and the concrete model id; a follow-up in the
// same chat continues it; the chat's Create Block button applies the draft as one undoable action.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import path from 'node:path';
import { startFakeOpenRouter, type FakeOpenRouter, type FakeReply } from '../fixtures/fake-openrouter/server';
import { getConversation, loadMessages } from '../../src/core/assistant/conversations/store';
import { createBlock, listBlocks } from '../../src/core/planning/factory/blocks';
import { solverFor } from '../../src/core/assistant/tools/context';
import { planningContext } from '../../src/core/planning/context';
import { createNote } from '../../src/core/work/notes';
import { createTask } from '../../src/core/work/tasks';
import { noteUri } from '../../src/extension/views/noteFiles';
import { api, uiRequest, waitFor, workDir, sampleWorld } from './helpers';

const MODEL = '~anthropic/claude-sonnet-latest';

/** The scripted model: explore, draft a block, then explain; a later question gets a short answer. */
function reply(body: { stream?: boolean; messages?: Array<{ role: string; content?: unknown }> }): FakeReply {
  if (!body.stream) return { text: 'Circuit block for one per second', usage: { prompt: 30, completion: 6 } };
  const messages = body.messages ?? [];
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const question = JSON.stringify(lastUser?.content ?? '');
  const toolResults = messages.slice(messages.lastIndexOf(lastUser!)).filter((m) => m.role === 'tool').length;
  if (/provider ping/.test(question)) return { text: 'pong from the provider', usage: { prompt: 5, completion: 3 } };
  if (/thank/i.test(question)) return { text: 'You are welcome — create the block when you are ready.', usage: { prompt: 2100, completion: 15 } };
  if (toolResults === 0) return { text: 'Let me look at the recipes first. ', toolCalls: [{ name: 'recipeGraph', arguments: { target: 'circuit', depth: 4 } }], usage: { prompt: 1200, completion: 40 } };
  if (toolResults === 1) {
    return { toolCalls: [{ name: 'submitBlock', arguments: { name: 'Circuits', target: 'circuit', rate: 1, recipes: ['circuit', 'wire'], subBlocksNeeded: [] } }], usage: { prompt: 1500, completion: 60 } };
  }
  return { text: ['Here is a block for **1 circuit per second**: ', 'wire feeds the circuit assemblers; ', 'ferrite and azurite plates come from outside.'], usage: { prompt: 1900, completion: 45 } };
}

describe('@pyops on a first run (no OpenRouter key yet)', () => {
  it('answers with the set-up steps and buttons instead of failing', async function () {
    this.timeout(120_000);
    await vscode.commands.executeCommand('pyops.openrouter.clearKey', { confirm: false });
    await vscode.commands.executeCommand('pyops.project.openSample');
    await new Promise((r) => setTimeout(r, 1500)); // let the walkthrough record the step and render
    // The walkthrough's "Open the sample project" step has ticked itself.
    const step = 'button.getting-started-step[data-step-id="pyops.pyops-vscode#pyops.start#sample"][aria-checked="true"]';
    assert.deepEqual((await uiRequest({ pageSelectors: [step], timeoutMs: 15_000, screenshot: { file: 'first-run-walkthrough.png', element: 'page' } })).failures, []);
    await vscode.commands.executeCommand('workbench.action.chat.newChat').then(undefined, () => undefined);
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@pyops what makes circuits?', modelSelector: { vendor: 'pyops', id: MODEL } });
    const ui = await uiRequest({ chatIncludes: ['needs an OpenRouter API key first', 'pick another model', 'Set OpenRouter API Key…', 'Choose Default Model…'], screenshot: { file: 'chat-first-run-setup.png', element: 'auxiliarybar' } }, 90_000);
    assert.deepEqual(ui.failures, [], ui.chatText);
    assert.doesNotMatch(ui.chatText ?? '', /Language model unavailable/);
  });
});

describe('@pyops in the chat (OpenRouter model)', () => {
  let fake: FakeOpenRouter;

  before(async () => {
    fake = await startFakeOpenRouter({ replies: (body) => reply(body) });
    await vscode.workspace.getConfiguration('pyops').update('openrouter.baseUrl', fake.url, vscode.ConfigurationTarget.Global);
    assert.equal(await vscode.commands.executeCommand('pyops.openrouter.setKey', { key: 'sk-or-test-key' }), true);
    const dir = workDir('chat');
    await vscode.commands.executeCommand('pyops.project.new', { file: path.join(dir, 'chat.pyops'), name: 'Chat factory' });
    await vscode.commands.executeCommand('pyops.gamedata.import', { source: sampleWorld().dump });
    await vscode.commands.executeCommand('pyops.planning.setHorizon', { mode: 'future' });
  });

  after(async () => {
    await fake?.close();
  });

  it('offers PyOps OpenRouter models to VS Code', async () => {
    const models = await vscode.lm.selectChatModels({ vendor: 'pyops' });
    assert.ok(models.some((m) => m.id === MODEL), `models: ${models.map((m) => m.id).join(', ')}`);
    assert.ok(models.every((m) => m.maxInputTokens > 0));
  });

  it('serves VS Code requests on its OpenRouter models (language-model provider)', async function () {
    this.timeout(30_000);
    const [m] = await vscode.lm.selectChatModels({ vendor: 'pyops', id: 'openrouter/auto' });
    assert.ok(m, 'openrouter/auto is offered');
    const res = await m.sendRequest([vscode.LanguageModelChatMessage.User('provider ping')], { justification: 'PyOps integration test' });
    let text = '';
    for await (const chunk of res.text) text += chunk;
    assert.equal(text, 'pong from the provider');
    const sent = fake.chatRequests().at(-1)!;
    assert.equal(sent.body.model, 'openrouter/auto');
    assert.equal(sent.headers.authorization, 'Bearer sk-or-test-key');
  });

  it('answers a planning question end to end: text, tool progress, a proposal with buttons, stored with usage and model id', async function () {
    this.timeout(120_000);
    const { assistant, projects } = await api();
    const before = assistant.host.recentTurns.length;
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@pyops How do I make 1 circuit per second?', modelSelector: { vendor: 'pyops', id: MODEL } });
    const turn = await waitFor(() => assistant.host.recentTurns.slice(before).find((t) => t.source === 'openrouter'), 'the @pyops turn', 90_000);
    assert.equal(turn.error, undefined, turn.error);
    assert.equal(turn.finishReason, 'stop');
    for (const t of ['text-delta', 'tool-input-available', 'tool-output-available']) assert.ok(turn.chunkTypes.includes(t), `streamed ${t}`);

    // What the participant showed: past-tense progress, the proposal, its buttons, follow-ups.
    const shown = await waitFor(() => assistant.host.recentResponses.find((r) => r.conversationId === turn.conversationId), 'the rendered response');
    assert.ok(shown.progress.some((p) => /^Drafted block "Circuits" — \d+ buildings/.test(p)), shown.progress.join(' | '));
    assert.equal(shown.proposals.length, 1);
    assert.equal(shown.proposals[0].kind, 'block');
    assert.deepEqual(shown.buttons.map((b) => b.title), ['Create Block', 'Open in Side Panel']);
    assert.ok(shown.followups.some((f) => /^Draft a block: (ferrite|azurite)-plate @ /.test(f.prompt)), JSON.stringify(shown.followups));

    // The conversation in the project database: user + assistant, last-step usage, concrete model id.
    const p = projects.require();
    const conv = getConversation(p, turn.conversationId)!;
    assert.ok(conv, 'conversation stored');
    assert.deepEqual(conv.lastUsage, { inputTokens: 1900, outputTokens: 45, totalTokens: 1945, modelId: 'anthropic/claude-sonnet-latest-fake' });
    assert.equal(conv.model, MODEL);
    const messages = loadMessages(p, conv.id);
    assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant']);
    const parts = messages[1].parts.map((x) => x.type);
    assert.ok(parts.includes('tool-recipeGraph') && parts.includes('tool-submitBlock'), parts.join(','));
    assert.equal((messages[1].metadata as { modelId?: string }).modelId, 'anthropic/claude-sonnet-latest-fake');
    await waitFor(() => getConversation(p, conv.id)?.title === 'Circuit block for one per second', 'the generated title');
    assert.equal(assistant.host.activeConversationId(), conv.id);

    // Requests reached the fake with the stored key and the tool set.
    const chat = fake.chatRequests().filter((r) => r.body?.stream && Array.isArray(r.body.tools));
    assert.ok(chat.length >= 3);
    assert.equal(chat[0].headers.authorization, 'Bearer sk-or-test-key');
    assert.ok((chat[0].body.tools as Array<{ function: { name: string } }>).some((t) => t.function.name === 'submitBlock'));

    // The rendered chat, as the user sees it.
    const ui = await uiRequest({ chatIncludes: ['Block proposal: Circuits', 'Create Block', 'ferrite and azurite plates come from outside'], statusBarIncludes: ['/1M'], screenshot: { file: 'chat-answer.png', element: 'auxiliarybar' } });
    assert.deepEqual(ui.failures, [], ui.chatText);
    // The proposal and its buttons come after the answer, outside VS Code's folded "steps".
    assert.match(ui.chatText ?? '', /come from outside\.[\s\S]*Block proposal: Circuits[\s\S]*Create Block[\s\S]*Open in Side Panel/);
    const bar = await uiRequest({ screenshot: { file: 'status-bar-context.png', element: 'statusbar' } });
    assert.deepEqual(bar.failures, []);

    // The goods it references open as documents from the project.
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'pyops', path: '/goods/Circuit.md', query: 'good=circuit' }));
    assert.match(doc.getText(), /^# Circuit[\s\S]*\*\*Verdict: /);
    // Each producer with its state, in words (never the code the tools use).
    assert.match(doc.getText(), /## Made by \(\d+\)\n- .+ \((unlocked|buildable under the horizon|needs research beyond the horizon|unobtainable \(no technology unlocks it\)|needs a TURD branch picked|needs another TURD branch \(a respec\)|no machine for it is reachable|crafted by hand only|superseded by a TURD recipe)\)\n/);
  });

  it('continues the same conversation from the chat history', async function () {
    this.timeout(90_000);
    const { assistant, projects } = await api();
    const first = assistant.host.recentTurns.at(-1)!;
    const ui = await uiRequest({ chatType: '@pyops thanks!', chatIncludes: ['You are welcome'] }, 90_000);
    assert.deepEqual(ui.failures, [], ui.chatText);
    const turn = await waitFor(() => assistant.host.recentTurns.at(-1)?.conversationId === first.conversationId && assistant.host.recentTurns.at(-1) !== first && assistant.host.recentTurns.at(-1), 'the second turn');
    assert.equal(turn.conversationId, first.conversationId);
    assert.equal(loadMessages(projects.require(), first.conversationId).length, 4);
  });

  it("creates the proposed block from the chat's button as one undoable action", async () => {
    const { assistant, projects } = await api();
    const shown = assistant.host.recentResponses.find((r) => r.proposals.length)!;
    const ref = shown.proposals[0].ref;
    const p = projects.require();
    const before = listBlocks(p).length;
    const r = await vscode.commands.executeCommand<{ created: string[]; label: string }>('pyops.proposal.apply', { ...ref, confirm: false });
    assert.ok(r, JSON.stringify((await api()).recentCommandErrors()));
    assert.equal(r.created.length, 1);
    assert.equal(listBlocks(p).length, before + 1);
    assert.equal(p.undoable()?.label, 'Create block "Circuits"');
    // The result went back into the conversation for the model to read next turn.
    const last = loadMessages(p, ref.conversationId).at(-1)!;
    assert.equal(last.role, 'user');
    assert.match((last.parts[0] as { text: string }).text, /I applied your proposal \(Create block "Circuits"\)/);
    // The toast's Undo carries its own change: with a newer change on top it refuses (a warning, not
    // an error) instead of undoing the newer one; once that is undone, it undoes the block.
    const r2 = r as unknown as { undo?: { id: number; label: string } };
    assert.equal(r2.undo?.label, 'Create block "Circuits"');
    await vscode.commands.executeCommand('pyops.planning.setHorizon', { mode: 'now' });
    const newer = p.undoable()?.label;
    const errors = (await api()).recentCommandErrors().length;
    assert.equal(await vscode.commands.executeCommand('pyops.edit.undo', r2.undo), undefined);
    assert.equal(p.undoable()?.label, newer, 'the newer change is untouched');
    assert.equal(listBlocks(p).length, before + 1);
    assert.equal((await api()).recentCommandErrors().length, errors);
    assert.equal(await vscode.commands.executeCommand('pyops.edit.undo'), newer);
    assert.equal(await vscode.commands.executeCommand('pyops.edit.undo', r2.undo), 'Create block "Circuits"');
    assert.equal(listBlocks(p).length, before);
  });

  it('opens the proposal from the chat as a full card in the side panel', async function () {
    this.timeout(60_000);
    const { assistant } = await api();
    const shown = assistant.host.recentResponses.find((r) => r.proposals.length)!;
    await vscode.commands.executeCommand('pyops.proposal.reveal', shown.proposals[0].ref);
    const ui = await uiRequest({ webviewIncludes: ['Circuits', 'Makes Circuit 1/s', 'Create Block', 'Recipes and buildings', 'Flow diagram', 'then undone'], screenshot: { file: 'side-panel-block-card.png', element: 'sidebar' } });
    assert.deepEqual(ui.failures, [], ui.webviewText);
  });

  it('follows a switch to another project everywhere (views, block editor, an open note, the chat) and back', async function () {
    this.timeout(240_000);
    const { projects, factory, balance, blockEditors, assistant, views } = await api();
    const first = projects.require();
    const firstFile = first.file;
    const conversation = assistant.host.recentTurns.at(-1)!.conversationId;
    const messages = loadMessages(first, conversation).length;
    const alpha = await createBlock(first, solverFor(planningContext(first)), { name: 'Alpha circuits', doc: { goals: [{ good: 'circuit', rate: 1 }], recipes: [{ recipe: 'circuit' }, { recipe: 'wire' }] } });
    const note = createNote(first, { title: 'Alpha note', body: 'Kept in the first project.\n' });
    await vscode.commands.executeCommand('pyops.block.edit', { blockId: alpha });
    await waitFor(() => blockEditors.lastView.get(alpha)?.name === 'Alpha circuits', 'the block editor tab');
    const noteDoc = await vscode.workspace.openTextDocument(noteUri(note.id, note.title));
    await vscode.window.showTextDocument(noteDoc, { preview: false, viewColumn: vscode.ViewColumn.Beside });
    await vscode.commands.executeCommand('pyops.factory.focus');
    const notesGroup = () => factory.getChildren().find((n) => n.kind === 'group' && n.group === 'notes')!;
    await waitFor(() => factory.getChildren(notesGroup()).length, 'the note in the Factory view');
    await views.factory.reveal(factory.getChildren(notesGroup())[0], { expand: true });
    const before = await uiRequest({ sidebarIncludes: ['Alpha circuits', 'Alpha note'] });
    assert.deepEqual(before.failures, [], before.sidebarText);

    await vscode.commands.executeCommand('pyops.project.new', { file: path.join(workDir('switch'), 'second.pyops'), name: 'Second factory' });
    await vscode.commands.executeCommand('pyops.gamedata.import', { source: sampleWorld().dump });
    const second = projects.require();
    assert.equal(second.name, 'Second factory');
    const beta = await createBlock(second, solverFor(planningContext(second)), { name: 'Beta gears', doc: { goals: [{ good: 'gear', rate: 1 }], recipes: [{ recipe: 'gear' }] } });
    createTask(second, { title: 'Beta task' });

    // The trees, the balance and the side panel show the second project only.
    await waitFor(() => factory.current()?.blocks.map((b) => b.name).join() === 'Beta gears', 'the Factory view to show the second project');
    await waitFor(async () => {
      const bal = await balance.current();
      return bal && !('error' in bal) && bal.buildings.length > 0 && bal.buildings.every((m) => m.blocks.every((b) => b.id === beta));
    }, 'the Factory Balance to show the second project');
    await waitFor(() => {
      const st = assistant.panel.probe.lastState?.state;
      return st?.project?.name === 'Second factory' && !st.conversations.some((c) => c.id === conversation);
    }, 'the side panel to show the second project');
    await vscode.commands.executeCommand('pyops.factory.focus');
    const shown = await uiRequest({
      sidebarIncludes: ['Beta gears', 'Beta task'], sidebarExcludes: ['Alpha circuits', 'Alpha note'], statusBarIncludes: ['Second factory'],
      webview: 'Chat factory', webviewIncludes: ['which is not open now', 'the open project is "Second factory"'],
      timeoutMs: 15_000, screenshot: { file: 'switch-project.png', element: 'page' },
    }, 150_000);
    assert.deepEqual(shown.failures, [], `${shown.failures.join("; ")}\n${shown.sidebarText}\n---\n${shown.webviewText}`);
    // The tab refuses to edit the other project's block instead of failing on a missing block.
    await assert.rejects(blockEditors.edit(alpha, { kind: 'goal-rate', index: 0, rate: 3 }, blockEditors.lastView.get(alpha)!.updatedAt), /which is not open now/);
    // The first project's note, still open, says where it lives instead of reading or writing the second project.
    await assert.rejects(Promise.resolve(vscode.workspace.fs.readFile(noteDoc.uri)), /in the project "Chat factory", which is not open/);

    // The same chat thread: the answer says it starts a new conversation in the open project.
    const chat = await uiRequest({ chatType: '@pyops thanks!', chatIncludes: ['This chat was with the project "Chat factory"', 'new conversation'] }, 90_000);
    assert.deepEqual(chat.failures, [], `${chat.failures.join("; ")}\n${chat.chatText}`);
    const turn = await waitFor(() => assistant.host.recentTurns.at(-1)?.conversationId !== conversation && assistant.host.recentTurns.at(-1), 'the turn in the second project');
    assert.ok(getConversation(second, turn.conversationId), 'the new conversation is stored in the open project');

    // Back to the first project: everything picks it up again, and its conversation is untouched.
    await vscode.commands.executeCommand('pyops.project.open', { file: firstFile });
    const again = projects.require();
    assert.equal(again.name, 'Chat factory');
    assert.equal(loadMessages(again, conversation).length, messages);
    await waitFor(() => factory.current()?.blocks.some((b) => b.id === alpha) && !factory.current()?.blocks.some((b) => b.id === beta), 'the Factory view to show the first project again');
    assert.match(Buffer.from(await vscode.workspace.fs.readFile(noteDoc.uri)).toString(), /^# Alpha note/);
    const back = await uiRequest({ sidebarIncludes: ['Alpha circuits'], sidebarExcludes: ['Beta gears'], webview: 'Recipes (2)', webviewIncludes: ['Azurite wire'], timeoutMs: 15_000 }, 150_000);
    assert.deepEqual(back.failures, [], `${back.failures.join("; ")}\n${back.sidebarText}\n---\n${back.webviewText}`);
    await blockEditors.edit(alpha, { kind: 'goal-rate', index: 0, rate: 2 }, blockEditors.lastView.get(alpha)!.updatedAt);
    assert.equal(again.undoable()?.label, 'Set goal Circuit to 2/s in "Alpha circuits"');
    // Leave no tab behind for the suites after this one (they find their webview by its text).
    await vscode.window.tabGroups.close(vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.label === 'Alpha circuits' || t.label.startsWith('Alpha note')));
  });
});
