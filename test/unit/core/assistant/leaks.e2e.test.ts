// The key in every form, end to end: a provider (the fake OpenRouter on 127.0.0.1, real HTTP
// streaming) whose model repeats the user's key — split into 3, 7 and 20 stream deltas, upper-cased,
// in its reasoning, in a title cut short, in the arguments of a tool that writes tasks, in a
// compaction summary. Not one run of 12 of the key's characters, in any case, may reach `pyops
// ask`'s stdout, stderr or --json output, the chunks a chat shows (VS Code's stream and the side
// panel get exactly these), the project file, its journal or a backup.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { UIMessageChunk } from 'ai';
import { Project } from '../../../../src/core/db/project';
import { backupProject } from '../../../../src/core/db/bundle';
import { allTools } from '../../../../src/core/assistant/tools/registry';
import { runTurn } from '../../../../src/core/assistant/turn';
import { resolveOpenRouterModel } from '../../../../src/core/assistant/models/resolve';
import { ModelCatalog } from '../../../../src/core/assistant/models/catalog';
import { forgetSecrets } from '../../../../src/core/assistant/models/redact';
import { compactConversation } from '../../../../src/core/assistant/compaction/context';
import { appendMessage, getConversation, listConversations, loadMessages, newId } from '../../../../src/core/assistant/conversations/store';
import { listTasks, getTask } from '../../../../src/core/work/tasks';
import { run } from '../../../../src/cli/main';
import { startFakeOpenRouter, type FakeOpenRouter, type FakeReply } from '../../../fixtures/fake-openrouter/server';
import { filesUnder, tempDir } from '../../../helpers/paths';
import { capture, runCliProcess } from '../../../helpers/cliIO';

// An OpenRouter key as they come: "sk-or-v1-" and 64 hex digits, 73 characters.
const KEY = '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';
const MODELS = [{ id: 'anthropic/claude-sonnet-4', created: 1_700_000_000, context_length: 200_000, supported_parameters: ['tools', 'reasoning'], top_provider: { context_length: 200_000 } }];

/** `s` cut into `n` pieces of (nearly) equal length. */
const pieces = (s: string, n: number) => Array.from({ length: n }, (_, i) => s.slice(Math.floor((i * s.length) / n), Math.floor(((i + 1) * s.length) / n)));

/** The first run of 12 characters of the key found in `bytes`, in any case. */
function leak(bytes: string | Buffer): string | undefined {
  const t = (typeof bytes === 'string' ? bytes : bytes.toString('latin1')).toLowerCase();
  const k = KEY.toLowerCase();
  for (let i = 0; i + 12 <= k.length; i++) if (t.includes(k.slice(i, i + 12))) return k.slice(i, i + 12);
  return undefined;
}


/** The answer of a model that repeats the key in every way it can. */
const answer = (): FakeReply => ({
  reasoning: `The user pasted ${KEY}; I must not repeat it.`,
  text: ['Your key ', ...pieces(KEY, 3), ' is exposed. Rotate ', ...pieces(KEY.toUpperCase(), 7), ' today; until then ', ...pieces(KEY, 20), ' stays valid.'],
});
/** A tool call that would store the key in a task's title, body, steps (and the undo label). */
const taskCall = (): FakeReply => ({
  toolCalls: [{ name: 'createTask', arguments: { title: `Rotate ${KEY}`, body: `Old key: ${KEY.toUpperCase()}`, steps: [`Revoke ${KEY}`, `Check ${KEY.slice(0, 40)}`] } }],
});
const EXPECTED_TEXT = 'Your key [redacted] is exposed. Rotate [redacted] today; until then [redacted] stays valid.';


describe('the API key in every form', function () {
  this.timeout(120_000);
  let dir: string;
  let file: string;
  let fake: FakeOpenRouter | undefined;

  beforeEach(async () => {
    dir = tempDir('pyops-leaks-');
    file = path.join(dir, 'leaks.pyops');
    assert.equal(await run(['project', 'create', file], capture()), 0);
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    forgetSecrets();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function assertNoFileLeaks(): void {
    const files = filesUnder(dir).filter((f) => !f.includes(`${path.sep}config${path.sep}`));
    assert.ok(files.some((f) => f.endsWith('.pyops')) && files.some((f) => /journal/.test(path.basename(f))) && files.some((f) => f.endsWith('.pyops-backup')), `project, journal and backup all present: ${files.map((f) => path.basename(f))}`);
    for (const f of files) assert.equal(leak(fs.readFileSync(f)), undefined, `${path.basename(f)} holds part of the key`);
  }

  it('pyops ask: never on stdout, stderr, --json, in the title, the tasks a tool call made, the journal or a backup', async () => {
    // Turn 1 (plain output): a tool call carrying the key, the answer, then the title request.
    // Turn 2 (--json, a new conversation): the answer again, and its title.
    const replies: FakeReply[] = [taskCall(), answer(), { text: `Rotate ${KEY} now` }, answer(), { text: 'Key follow-up' }];
    fake = await startFakeOpenRouter({ replies, models: MODELS });
    const env = { OPENROUTER_API_KEY: KEY, PYOPS_OPENROUTER_BASE_URL: fake.url, PYOPS_CONFIG_DIR: path.join(dir, 'config') };

    const plain = await runCliProcess(['ask', 'What should I do about my key?', '--project', file], env);
    assert.equal(plain.code, 0, plain.stderr);
    const json = await runCliProcess(['ask', 'And now?', '--project', file, '--json'], env);
    assert.equal(json.code, 0, json.stderr);
    assert.equal(fake.chatRequests().length, 5, 'every scripted reply was served');
    assert.equal(fake.chatRequests()[0].headers.authorization, `Bearer ${KEY}`, 'the provider was given the key, so it could echo it');

    for (const [what, text] of [['stdout', plain.stdout], ['stderr', plain.stderr], ['--json stdout', json.stdout], ['--json stderr', json.stderr]] as const) {
      assert.equal(leak(text), undefined, `${what} holds part of the key:\n${text}`);
    }
    // What was redacted is still readable: the answer, the progress line, the --json message.
    assert.match(plain.stdout, /Your key \[redacted\] is exposed\. Rotate \[redacted\] today; until then \[redacted\] stays valid\./);
    assert.match(plain.stderr, /… createTask \{"title":"Rotate \[redacted\]"/);
    const out = JSON.parse(json.stdout) as { parts: Array<{ type: string; text?: string }> };
    assert.equal(out.parts.find((p) => p.type === 'text')?.text, EXPECTED_TEXT);

    const p = await Project.open(file, { app: 'test' });
    try {
      // The tool ran on the redacted arguments: the task exists, without the key.
      const [task] = listTasks(p);
      const t = getTask(p, task.id);
      assert.equal(t.title, 'Rotate [redacted]');
      assert.deepEqual(t.steps.map((s) => s.text), ['Revoke [redacted]', 'Check [redacted]']);
      const titles = listConversations(p).map((c) => c.title);
      assert.ok(titles.includes('Rotate [redacted] now'), `the model-made title, redacted before it was cut: ${titles}`);
      await backupProject(p, path.join(dir, 'leaks.backups', 'leaks.pyops-backup'));
    } finally {
      p.close();
    }
    assertNoFileLeaks();
  });

  it('the chat stream (what VS Code and the side panel show) and a compaction summary', async () => {
    fake = await startFakeOpenRouter({ replies: [taskCall(), answer(), { text: 'Key rotation' }, { text: `Summary: the user's key is ${KEY.toUpperCase()}; rotate it.` }], models: MODELS });
    const project = await Project.open(file, { app: 'test' });
    try {
      const chunks: UIMessageChunk[] = [];
      const result = await runTurn({
        project,
        message: 'What should I do about my key?',
        tools: allTools(),
        caller: 'agent',
        title: 'await',
        maxRetries: 0,
        onChunk: (c) => chunks.push(c),
        model: () => resolveOpenRouterModel({ env: { OPENROUTER_API_KEY: KEY }, baseURL: fake!.url, override: 'anthropic/claude-sonnet-4', catalog: new ModelCatalog({ baseURL: fake!.url }) }),
      });
      assert.equal(result.error, undefined, JSON.stringify(result.error));
      assert.equal(leak(JSON.stringify(chunks)), undefined, 'a chunk of the chat stream holds part of the key');
      const shown = chunks.filter((c) => c.type === 'text-delta').map((c) => (c as { delta: string }).delta).join('');
      assert.equal(shown, EXPECTED_TEXT);
      const progress = chunks.filter((c) => c.type === 'tool-output-available').map((c) => (c as { output: { summary: string } }).output.summary);
      assert.deepEqual(progress, ['Created task "Rotate [redacted]"']);

      // Compaction: pad the conversation to where it can be compacted; the model's summary repeats the key.
      const id = result.conversationId;
      for (let i = 0; i < 16; i++) appendMessage(project, id, { id: newId(), role: i % 2 ? 'assistant' : 'user', parts: [{ type: 'text', text: `message ${i} about furnaces` }] });
      const summaryModel = await resolveOpenRouterModel({ env: { OPENROUTER_API_KEY: KEY }, baseURL: fake.url, override: 'anthropic/claude-sonnet-4', catalog: new ModelCatalog({ baseURL: fake.url }) });
      const c = await compactConversation(project, id, { contextWindow: 200_000, overheadTokens: 1000, summaryModel });
      assert.equal(c.compacted, true);
      assert.equal(c.method, 'model');
      const stored = JSON.stringify({ conversation: getConversation(project, id), messages: loadMessages(project, id) });
      assert.equal(leak(stored), undefined, 'the stored summary holds part of the key');
      assert.match(stored, /Summary: the user's key is \[redacted\]; rotate it\./);
      await backupProject(project, path.join(dir, 'leaks.backups', 'leaks.pyops-backup'));
    } finally {
      project.close();
    }
    assertNoFileLeaks();
  });
});
