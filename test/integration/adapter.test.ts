// @pyops on a VS Code model that is not PyOps' own (Copilot's place, taken here by the test-only
// "PyOps test: scripted language model" extension): the turn runs through the AI SDK adapter over
// vscode.LanguageModelChat — PyOps' tools offered as LanguageModelChatTools, the model's tool call
// executed by the agent loop, the result handed back as a tool result part, the answer streamed.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import path from 'node:path';
import { loadMessages } from '../../src/core/assistant/conversations/store';
import { api, waitFor, workDir, sampleWorld } from './helpers';

interface FakeLmApi {
  requests: Array<{ tools: string[]; toolMode: number; messageCount: number; results: number; text: string }>;
}

describe('@pyops on another VS Code model (adapter path)', () => {
  let fakeLm: FakeLmApi;

  before(async () => {
    const ext = vscode.extensions.getExtension<FakeLmApi>('pyops-test.pyops-fake-lm');
    assert.ok(ext, 'the test language-model extension is installed');
    fakeLm = await ext.activate();
    const dir = workDir('adapter');
    await vscode.commands.executeCommand('pyops.project.new', { file: path.join(dir, 'adapter.pyops'), name: 'Adapter factory' });
    await vscode.commands.executeCommand('pyops.gamedata.import', { source: sampleWorld().dump });
  });

  it('runs the turn with tools on the chat model the user picked, without an OpenRouter key', async function () {
    this.timeout(120_000);
    const { assistant, projects } = await api();
    const [model] = await waitFor(() => vscode.lm.selectChatModels({ vendor: 'pyops-test-lm' }).then((m) => m.length && m), 'the scripted test model');
    assert.equal(model.id, 'scripted');
    const before = assistant.host.recentTurns.length;
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@pyops /new which good is a circuit?', modelSelector: { vendor: 'pyops-test-lm', id: 'scripted' } });
    const turn = await waitFor(() => assistant.host.recentTurns.slice(before).find((t) => t.source === 'vscode'), 'the adapter turn', 90_000);
    assert.equal(turn.error, undefined, turn.error);
    assert.equal(turn.modelId, 'pyops-test-lm/scripted');
    assert.equal(turn.usage, null, 'VS Code models report no usage; none is claimed');

    // The model saw PyOps' tools and, on its second call, the tool's result. (The conversation's title
    // is asked of the same model — the one the user picked — as a request without tools.)
    const turnCalls = fakeLm.requests.filter((r) => r.tools.length > 0);
    assert.ok(turnCalls.length >= 2, JSON.stringify(fakeLm.requests));
    const first = turnCalls[turnCalls.length - 2];
    for (const t of ['searchGoods', 'recipeGraph', 'submitBlock']) assert.ok(first.tools.includes(t), `tool ${t} offered`);
    assert.match(first.text, /which good is a circuit\?/);
    assert.equal(turnCalls.at(-1)!.results, 1);
    await waitFor(() => fakeLm.requests.some((r) => r.tools.length === 0 && /circuit/i.test(r.text)), 'the title asked of the chat model itself');

    // The stored answer: the tool call with its outcome, then the text that quotes its result.
    const stored = loadMessages(projects.require(), turn.conversationId);
    const answer = stored.at(-1)!;
    const tool = answer.parts.find((p) => p.type === 'tool-searchGoods') as { state: string; output: { ok: boolean; summary: string } } | undefined;
    assert.ok(tool, answer.parts.map((p) => p.type).join(','));
    assert.equal(tool.state, 'output-available');
    assert.equal(tool.output.ok, true);
    const text = answer.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text).join('');
    assert.match(text, /The adapter path works: the best match is circuit\./);
    const shown = assistant.host.recentResponses.find((r) => r.conversationId === turn.conversationId);
    assert.ok(shown?.progress.some((p) => /circuit/i.test(p)), JSON.stringify(shown?.progress));
  });
});
