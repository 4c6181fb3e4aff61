// A provider that echoes the key: `pyops ask` runs as a real process against the fake OpenRouter
// on 127.0.0.1, whose errors quote the request's Authorization header back. The key must appear
// nowhere: not on stderr, not in `--json` output, not in the project's files (the stored
// conversation, its journal and backups), and the saved failure still says what happened.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project } from '../../../../src/core/db/project';
import { appendMessage, createConversation, getConversation, listConversations, loadMessages, updateConversation } from '../../../../src/core/assistant/conversations/store';
import { describeModelError } from '../../../../src/core/assistant/models/errors';
import { forgetSecrets, redactDeep, redactSecrets, rememberSecret, StreamRedactor } from '../../../../src/core/assistant/models/redact';
import { ChunkRedactor } from '../../../../src/core/assistant/agent/redactChunks';
import type { UIMessageChunk } from 'ai';
import { startFakeOpenRouter, type FakeOpenRouter, type FakeReply } from '../../../fixtures/fake-openrouter/server';
import { filesUnder, tempDir } from '../../../helpers/paths';
import { capture, runCliProcess } from '../../../helpers/cliIO';
import { run } from '../../../../src/cli/main';




describe('secrets in errors', () => {
  afterEach(() => forgetSecrets());

  it('redacts the configured key by value and anything key-shaped', () => {
    rememberSecret('gateway-token-2f9a7c');
    assert.equal(redactSecrets('denied for gateway-token-2f9a7c.'), 'denied for [redacted].');
    assert.equal(redactSecrets('Authorization: Bearer abcdefghijklmnop0123'), 'Authorization: Bearer [redacted]');
    assert.equal(redactSecrets('key sk-or-v1-0123456789abcdef is revoked'), 'key [redacted] is revoked');
    assert.equal(redactSecrets('key sk-proj-AbCdEf0123456789 used'), 'key [redacted] used');
    // Ordinary words stay: short secrets are not replaced by value, "Bearer of" is no token.
    rememberSecret('abc');
    assert.equal(redactSecrets('abc is the Bearer of news'), 'abc is the Bearer of news');
    assert.deepEqual(redactDeep({ a: ['x sk-or-v1-0123456789abcdef'], n: 1 }), { a: ['x [redacted]'], n: 1 });
  });

  it('describeModelError never returns the key in its message or detail', () => {
    const key = 'sk-or-v1-feedfacefeedface0123';
    const err = Object.assign(new Error(`Invalid token Bearer ${key}`), { statusCode: 401, responseBody: `{"error":"Bearer ${key}"}` });
    const f = describeModelError(err);
    assert.equal(f.kind, 'auth');
    assert.ok(!f.message.includes(key) && !f.detail.includes(key), f.message);
    assert.match(f.message, /OpenRouter rejected the API key \(401: Invalid token Bearer \[redacted\]\)/);
  });

  // An OpenRouter key as they come: "sk-or-v1-" and 64 hex digits, 73 characters.
  const KEY73 = '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';
  /** `s` cut into `n` pieces of (nearly) equal length. */
  const pieces = (s: string, n: number) => Array.from({ length: n }, (_, i) => s.slice(Math.floor((i * s.length) / n), Math.floor(((i + 1) * s.length) / n)));
  /** Any run of 12 characters of the key, in any case: what "never reaches" means below. */
  const leaks = (text: string, key = KEY73) => {
    const t = text.toLowerCase();
    const k = key.toLowerCase();
    for (let i = 0; i + 12 <= k.length; i++) if (t.includes(k.slice(i, i + 12))) return k.slice(i, i + 12);
    return undefined;
  };

  it('redacts the key in any case, and any 12 characters of it left by a cut', () => {
    rememberSecret(KEY73);
    assert.equal(redactSecrets(`now ${KEY73.toUpperCase()} then`), 'now [redacted] then');
    assert.equal(redactSecrets(`title: Rotate ${KEY73.slice(0, 60)}…`), 'title: Rotate [redacted]…', 'a title cut at 60 characters of the key');
    assert.equal(redactSecrets(`tail ${KEY73.slice(-20).toUpperCase()}.`), 'tail [redacted].');
    assert.equal(redactSecrets(`${KEY73}${KEY73}`), '[redacted]', 'adjacent copies are one redaction');
    // Eleven characters are not a key: ordinary hex stays readable.
    assert.equal(redactSecrets(`id ${KEY73.slice(20, 31)}`), `id ${KEY73.slice(20, 31)}`);
    // Without the key remembered, its shape alone is enough, upper-cased too.
    forgetSecrets();
    assert.equal(redactSecrets(`x ${KEY73.toUpperCase()} y`), 'x [redacted] y');
  });

  it('redacts a key split into 3, 7 and 20 stream deltas, upper-cased, before any piece is passed on', () => {
    rememberSecret(KEY73);
    for (const n of [3, 7, 20]) {
      for (const key of [KEY73, KEY73.toUpperCase()]) {
        const r = new StreamRedactor();
        const out: string[] = [];
        for (const d of ['Your key is ', ...pieces(key, n), ' — rotate it.']) out.push(r.push(d));
        out.push(r.flush());
        const text = out.join('');
        assert.equal(text, 'Your key is [redacted] — rotate it.', `${n} pieces`);
        for (const o of out) assert.equal(leaks(o), undefined, `a delta passed on part of the key (${n} pieces): ${o}`);
      }
    }
    // One character at a time, and a key-shaped token the process never saw (held until it ends).
    forgetSecrets();
    const r = new StreamRedactor();
    const text = [...`a ${KEY73} b`].map((c) => r.push(c)).join('') + r.flush();
    assert.equal(text, 'a [redacted] b');
  });

  it('passes ordinary text on without holding more than the longest key back', () => {
    rememberSecret(KEY73);
    const r = new StreamRedactor();
    let out = '';
    const words = 'Build twelve furnaces for the iron plates and three more for steel, then belt them to the bus. '.repeat(6);
    for (const w of words.match(/.{1,5}/gs)!) {
      out += r.push(w);
      assert.ok(r.held <= KEY73.length + 16, `held ${r.held} characters`);
    }
    assert.equal(out + r.flush(), words);
  });

  it('takes the key out of every chunk of a model stream: text, reasoning, tool input deltas, tool calls and results', () => {
    rememberSecret(KEY73);
    const r = new ChunkRedactor();
    const raw: UIMessageChunk[] = [
      { type: 'start', messageId: 'm' },
      { type: 'reasoning-start', id: 'r' },
      ...pieces(`thinking about ${KEY73}`, 7).map((delta) => ({ type: 'reasoning-delta' as const, id: 'r', delta })),
      { type: 'reasoning-end', id: 'r' },
      { type: 'text-start', id: 't' },
      ...pieces(`key: ${KEY73.toUpperCase()}!`, 20).map((delta) => ({ type: 'text-delta' as const, id: 't', delta })),
      { type: 'text-end', id: 't' },
      { type: 'tool-input-start', toolCallId: 'c', toolName: 'createTask' },
      ...pieces(JSON.stringify({ title: `Rotate ${KEY73}` }), 3).map((inputTextDelta) => ({ type: 'tool-input-delta' as const, toolCallId: 'c', inputTextDelta })),
      { type: 'tool-input-available', toolCallId: 'c', toolName: 'createTask', input: { title: `Rotate ${KEY73}`, steps: [KEY73.slice(0, 40)] } },
      { type: 'tool-output-available', toolCallId: 'c', output: { ok: true, summary: `Created task "Rotate ${KEY73}"`, result: { title: KEY73 } } },
      { type: 'error', errorText: `upstream said Bearer ${KEY73}` },
      { type: 'finish' },
    ];
    const out = raw.flatMap((c) => r.chunk(c));
    assert.equal(leaks(JSON.stringify(out)), undefined, JSON.stringify(out));
    const text = (type: string, field: 'delta' | 'inputTextDelta' = 'delta') => out.filter((c) => c.type === type).map((c) => (c as unknown as Record<string, string>)[field]).join('');
    assert.equal(text('reasoning-delta'), 'thinking about [redacted]');
    assert.equal(text('text-delta'), 'key: [redacted]!');
    assert.deepEqual(JSON.parse(text('tool-input-delta', 'inputTextDelta')), { title: 'Rotate [redacted]' });
    // Each part's rest comes before the part ends, so the message built from the chunks is whole.
    const types = out.map((c) => c.type);
    assert.ok(types.lastIndexOf('text-delta') < types.indexOf('text-end'));
    assert.ok(types.lastIndexOf('tool-input-delta') < types.indexOf('tool-input-available'));
  });

  it('describeModelError leaves no part of the key when it cuts a long provider message short', () => {
    rememberSecret(KEY73);
    // The key straddles the 300-character cut: cut first, 40 of its characters would stay behind.
    const err = Object.assign(new Error(`${'x'.repeat(260)} ${KEY73} trailing`), { statusCode: 500 });
    const f = describeModelError(err);
    assert.equal(leaks(f.message), undefined, f.message);
    assert.equal(leaks(f.detail), undefined, f.detail);
    assert.match(f.message, /\[redacted\]/);
  });

  it('the conversation store never writes the key: titles, summaries, message parts', async () => {
    rememberSecret(KEY73);
    const dir = tempDir();
    const file = path.join(dir, 'store.pyops');
    const p = await Project.create(file);
    try {
      const c = createConversation(p, { title: `About ${KEY73.toUpperCase()}` });
      updateConversation(p, c.id, { compactionSummary: `- the key was ${KEY73}` });
      appendMessage(p, c.id, { id: 'm1', role: 'user', parts: [{ type: 'text', text: `my key: "${KEY73}"\n\\ done` }] });
      const conv = getConversation(p, c.id)!;
      assert.equal(conv.title, 'About [redacted]');
      assert.equal(conv.compactionSummary, '- the key was [redacted]');
      assert.deepEqual(loadMessages(p, c.id)[0].parts, [{ type: 'text', text: 'my key: "[redacted]"\n\\ done' }], 'the JSON around a redaction stays whole');
      updateConversation(p, c.id, { title: `Renamed ${KEY73.slice(5, 50)}` });
      assert.equal(getConversation(p, c.id)!.title, 'Renamed [redacted]');
    } finally {
      p.close();
    }
    for (const f of fs.readdirSync(dir)) assert.equal(leaks(fs.readFileSync(path.join(dir, f)).toString('latin1')), undefined, f);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('pyops ask against a provider that echoes the key', function () {
    this.timeout(60_000);
    let dir: string;
    let fake: FakeOpenRouter | undefined;
    beforeEach(() => {
      dir = tempDir();
    });
    afterEach(async () => {
      await fake?.close();
      fake = undefined;
      fs.rmSync(dir, { recursive: true, force: true });
    });

    // Two keys: an OpenRouter-shaped one, and a gateway token only redaction by value can catch.
    const KEYS = ['sk-or-v1-0a1b2c3d4e5f60718293a4b5c6d7e8f9', 'gw_live_Q7pX2mN9rT4vK8sL'];
    const REPLIES: Array<[string, FakeReply]> = [
      ['a 401 quoting the header', { kind: 'http-error', status: 401, message: 'Invalid credentials: {authorization}' }],
      ['an error inside the stream', { kind: 'stream-error', text: 'Partial ', message: 'upstream rejected {authorization}' }],
    ];

    // Each key meets each failure once, alternating plain and --json output (4 real processes).
    for (const [k, key] of KEYS.entries()) {
      for (const [i, [label, reply]] of REPLIES.entries()) {
        {
          const json = (k + i) % 2 === 1;
          it(`keeps ${key.slice(0, 6)}… out of stderr${json ? ', --json' : ''} and the project on ${label}`, async () => {
            fake = await startFakeOpenRouter({ replies: [reply], models: [] });
            const file = path.join(dir, 'leak.pyops');
            assert.equal(await run(['project', 'create', file], capture()), 0);
            const env = { OPENROUTER_API_KEY: key, PYOPS_OPENROUTER_BASE_URL: fake.url, PYOPS_CONFIG_DIR: path.join(dir, 'config') };
            const r = await runCliProcess(['ask', 'Plan my iron', '--project', file, ...(json ? ['--json'] : [])], env);
            assert.equal(r.code, 1, r.stderr);
            // The provider really did echo it: the request carried the key.
            assert.equal(fake.chatRequests()[0].headers.authorization, `Bearer ${key}`);
            assert.ok(!r.stderr.includes(key), `stderr leaks the key:\n${r.stderr}`);
            assert.ok(!r.stdout.includes(key), `stdout leaks the key:\n${r.stdout}`);
            assert.match(r.stderr, /\[redacted\]/, 'the error still shows what the provider said, minus the key');
            if (json) assert.match(JSON.parse(r.stdout).error.message, /\[redacted\]/);
            for (const f of filesUnder(dir)) {
              if (f.includes(`${path.sep}config${path.sep}`)) continue; // the user's own key file, if any
              assert.ok(!fs.readFileSync(f).includes(key), `${path.basename(f)} contains the key`);
            }
            const p = await Project.open(file, { app: 'test', readOnly: true });
            try {
              const [c] = listConversations(p);
              const parts = JSON.stringify(loadMessages(p, c.id)[1].parts);
              assert.match(parts, /data-turn-error/);
              assert.match(parts, /\[redacted\]/);
            } finally {
              p.close();
            }
          });
        }
      }
    }
  });
});
