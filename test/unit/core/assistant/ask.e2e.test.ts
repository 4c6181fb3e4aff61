// `pyops ask` end to end against the fake OpenRouter on 127.0.0.1: the real provider, real HTTP
// streaming, real project file.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { askCommand } from '../../../../src/cli/commands/ask';
import { Project } from '../../../../src/core/db/project';
import { getConversation, listConversations, loadMessages, updateConversation } from '../../../../src/core/assistant/conversations/store';
import { startFakeOpenRouter, type FakeOpenRouter, type FakeScript } from '../../../fixtures/fake-openrouter/server';
import { testTools, tempProject, type TempProject } from './helpers';
import { capture } from '../../../helpers/cliIO';

const KEY = 'sk-or-test-SECRET-0123456789';

const CATALOG = [
  { id: 'anthropic/claude-sonnet-4', created: 1_700_000_000, context_length: 200_000, supported_parameters: ['tools', 'reasoning'], top_provider: { context_length: 200_000 } },
  { id: 'anthropic/claude-sonnet-4.5', created: 1_760_000_000, context_length: 200_000, supported_parameters: ['tools', 'reasoning', 'include_reasoning'], top_provider: { context_length: 1_000_000 }, reasoning: { supported_efforts: ['low', 'high'] } },
  { id: 'openai/gpt-4o-mini', created: 1_720_000_000, context_length: 128_000, supported_parameters: ['tools'] },
];

describe('pyops ask against a fake OpenRouter', () => {
  let tp: TempProject;
  let fake: FakeOpenRouter | undefined;
  let configDir: string;

  beforeEach(async () => {
    tp = await tempProject('ask');
    tp.project.close(); // the command opens it itself
    configDir = path.join(tp.dir, 'config');
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    tp.cleanup();
  });

  async function ask(script: FakeScript, args: string[], env: Record<string, string> = {}) {
    fake ??= await startFakeOpenRouter({ models: CATALOG, ...script });
    const io = capture();
    const code = await askCommand(['--project', tp.file, ...args], io, {
      tools: testTools,
      env: { OPENROUTER_API_KEY: KEY, PYOPS_OPENROUTER_BASE_URL: fake.url, ...env },
      configDir,
      maxRetries: 0,
    });
    return { code, io };
  }

  async function reopen<T>(fn: (p: Project) => T): Promise<T> {
    const p = await Project.open(tp.file, { app: 'test' });
    try {
      return fn(p);
    } finally {
      p.close();
    }
  }

  it('streams the answer, shows tool calls as progress and saves the exchange with usage and title', async () => {
    const { code, io } = await ask(
      {
        replies: [
          { toolCalls: [{ name: 'echoGood', arguments: { good: 'iron-plate' } }], usage: { prompt: 900, completion: 30 }, model: 'anthropic/claude-sonnet-4.5-20260101' },
          { text: 'Build 12 `iron-plate` furnaces.', usage: { prompt: 1200, completion: 40 }, model: 'anthropic/claude-sonnet-4.5-20260101' },
          { text: '"Iron plate furnaces."' },
        ],
      },
      ['How many furnaces for iron plates?'],
    );
    assert.equal(code, 0, io.stderr);
    assert.match(io.stdout, /Build 12 `iron-plate` furnaces\./);
    assert.match(io.stderr, /… echoGood \{"good":"iron-plate"\}/);
    assert.match(io.stderr, /✓ Echoed iron-plate/);
    assert.match(io.stderr, /conversation: /);

    const chats = fake!.chatRequests();
    assert.equal(chats.length, 3);
    const first = chats[0];
    assert.equal(first.headers.authorization, `Bearer ${KEY}`);
    assert.equal(first.body.stream, true);
    assert.deepEqual(first.body.stream_options, { include_usage: true });
    // The default alias resolved through the catalogue to its newest member.
    assert.equal(first.body.model, 'anthropic/claude-sonnet-4.5');
    assert.ok(first.body.tools.some((t: any) => t.function.name === 'echoGood'));
    assert.equal(first.body.messages[0].role, 'system');
    assert.match(JSON.stringify(first.body.messages[0].content), /Current planning horizon: NOW/);
    assert.equal(first.body.reasoning, undefined, 'no effort chosen: none sent');
    assert.ok(!chats[2].body.stream, 'the title is one plain completion');
    assert.deepEqual(chats[2].body.reasoning, { effort: 'low', exclude: true });

    await reopen((p) => {
      const [c] = listConversations(p);
      assert.equal(c.title, 'Iron plate furnaces');
      assert.deepEqual(c.lastUsage, { inputTokens: 1200, outputTokens: 40, totalTokens: 1240, modelId: 'anthropic/claude-sonnet-4.5-20260101' });
      const msgs = loadMessages(p, c.id);
      assert.deepEqual(
        msgs.map((m) => m.role),
        ['user', 'assistant'],
      );
      assert.ok(msgs[1].parts.some((x) => x.type === 'tool-echoGood'));
      assert.equal((msgs[1].metadata as any).modelId, 'anthropic/claude-sonnet-4.5-20260101');
    });
    // The key is in no file the project owns.
    for (const f of fs.readdirSync(tp.dir)) {
      const full = path.join(tp.dir, f);
      if (fs.statSync(full).isFile()) assert.ok(!fs.readFileSync(full).includes(KEY), `${f} must not contain the key`);
    }
  });

  it('continues a conversation, sends the reasoning effort the model supports, and prints --json parts', async () => {
    const first = await ask({ replies: [{ text: 'First answer.' }, { text: 'Title' }, { text: 'Second answer.', reasoning: 'thinking…' }] }, ['First question']);
    assert.equal(first.code, 0, first.io.stderr);
    const id = first.io.stderr.match(/conversation: (\S+)/)![1];
    await reopen((p) => updateConversation(p, id, { reasoningEffort: 'high' }));
    const second = await ask({}, ['Second question', '--conversation', id, '--json']);
    assert.equal(second.code, 0, second.io.stderr);
    const out = JSON.parse(second.io.stdout);
    assert.equal(out.conversationId, id);
    assert.ok(out.parts.some((x: any) => x.type === 'text' && x.text === 'Second answer.'));
    assert.ok(out.parts.some((x: any) => x.type === 'reasoning'));
    assert.equal(out.error, null);
    const req = fake!.chatRequests()[2].body;
    assert.deepEqual(req.reasoning, { effort: 'high', exclude: false });
    assert.deepEqual(
      req.messages.map((m: any) => m.role),
      ['system', 'user', 'assistant', 'user'],
    );
  });

  it('keeps the --model choice as the conversation model and skips reasoning the model lacks', async () => {
    const r = await ask({ replies: [{ text: 'Mini answer.' }, { text: 'T' }] }, ['Hi', '--model', 'openai/gpt-4o-mini']);
    assert.equal(r.code, 0, r.io.stderr);
    assert.equal(fake!.chatRequests()[0].body.model, 'openai/gpt-4o-mini');
    await reopen((p) => assert.equal(listConversations(p)[0].model, 'openai/gpt-4o-mini'));
  });

  const failures: Array<[string, FakeScript['replies'], RegExp]> = [
    ['a rejected key (401)', [{ kind: 'http-error', status: 401 }], /rejected the API key \(401.*OPENROUTER_API_KEY/],
    ['no credit (402)', [{ kind: 'http-error', status: 402 }], /no credit left \(402\).*openrouter\.ai\/settings\/credits/],
    ['a rate limit (429)', [{ kind: 'http-error', status: 429 }], /Rate limited .*\(429\)\. Wait a minute/],
    ['a server error (500)', [{ kind: 'http-error', status: 500 }], /provider failed \(500/],
    ['an error inside the stream', [{ kind: 'stream-error', text: 'Partial plan: ', message: 'overloaded' }], /provider failed/],
    ['a cut connection', [{ kind: 'cut', text: 'Partial plan: step one' }], /connection to the model was lost.*saved/],
  ];
  for (const [label, replies, message] of failures) {
    it(`reports ${label} clearly and loses nothing`, async () => {
      const { code, io } = await ask({ replies }, ['Plan my iron']);
      assert.equal(code, 1);
      assert.match(io.stderr, message);
      assert.ok(!io.stderr.includes(KEY));
      await reopen((p) => {
        const [c] = listConversations(p);
        const msgs = loadMessages(p, c.id);
        assert.equal(msgs[0].role, 'user');
        assert.match(JSON.stringify(msgs[0].parts), /Plan my iron/);
        const err = msgs[1].parts.find((x) => x.type === 'data-turn-error') as any;
        assert.ok(err, 'the failure is saved with the transcript');
        if (/Partial/.test(JSON.stringify(replies))) assert.match(JSON.stringify(msgs[1].parts), /Partial plan/);
      });
    });
  }

  it('says how to provide a key when there is none, and still saves the question', async () => {
    fake = await startFakeOpenRouter({ models: CATALOG });
    const io = capture();
    const code = await askCommand(['Hello?', '--project', tp.file], io, { tools: testTools, env: { PYOPS_OPENROUTER_BASE_URL: fake.url }, configDir, maxRetries: 0 });
    assert.equal(code, 1);
    assert.match(io.stderr, /No OpenRouter API key is set\. Set the OPENROUTER_API_KEY environment variable, or store the key in .*config\.json/);
    assert.equal(fake.chatRequests().length, 0);
    await reopen((p) => {
      const [c] = listConversations(p);
      assert.match(JSON.stringify(loadMessages(p, c.id)[0].parts), /Hello\?/);
    });
  });

  it('uses a key stored in the user-only config file', async () => {
    fs.mkdirSync(configDir, { recursive: true });
    fs.writeFileSync(path.join(configDir, 'config.json'), JSON.stringify({ secrets: { 'pyops.openrouter.apiKey': 'sk-stored' }, settings: { defaultModel: 'openai/gpt-4o-mini' } }));
    fake = await startFakeOpenRouter({ models: CATALOG, replies: [{ text: 'ok' }, { text: 'T' }] });
    const io = capture();
    const code = await askCommand(['Hello?', '--project', tp.file], io, { tools: testTools, env: { PYOPS_OPENROUTER_BASE_URL: fake.url }, configDir, maxRetries: 0 });
    assert.equal(code, 0, io.stderr);
    assert.equal(fake.chatRequests()[0].headers.authorization, 'Bearer sk-stored');
    assert.equal(fake.chatRequests()[0].body.model, 'openai/gpt-4o-mini');
  });

  it('rejects bad usage with a usage error', async () => {
    await assert.rejects(askCommand([], capture(), { tools: testTools }), /missing the question/);
    await assert.rejects(askCommand(['q'], capture(), { tools: testTools }), /missing --project/);
    await assert.rejects(askCommand(['q', '--project', tp.file, '--frobnicate'], capture(), { tools: testTools }), /Unknown option/);
  });

  it('answers from getConversation after the turn', async () => {
    const r = await ask({ replies: [{ text: 'A.' }, { text: 'T' }] }, ['Q']);
    const id = r.io.stderr.match(/conversation: (\S+)/)![1];
    await reopen((p) => assert.equal(getConversation(p, id)?.id, id));
  });
});
