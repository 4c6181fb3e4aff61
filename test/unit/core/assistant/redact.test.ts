// A provider that echoes the key: `pyops ask` runs as a real process against the fake OpenRouter
// on 127.0.0.1, whose errors quote the request's Authorization header back. The key must appear
// nowhere: not on stderr, not in `--json` output, not in the project's files (the stored
// conversation, its journal and backups), and the saved failure still says what happened.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { Project } from '../../../../src/core/db/project';
import { listConversations, loadMessages } from '../../../../src/core/assistant/conversations/store';
import { describeModelError } from '../../../../src/core/assistant/models/errors';
import { forgetSecrets, redactDeep, redactSecrets, rememberSecret } from '../../../../src/core/assistant/models/redact';
import { startFakeOpenRouter, type FakeOpenRouter, type FakeReply } from '../../../fixtures/fake-openrouter/server';
import { REPO, tempDir } from '../../../helpers/paths';
import { capture } from '../../../helpers/cliIO';
import { run } from '../../../../src/cli/main';

const CLI = ['--import', 'tsx', path.join(REPO, 'src', 'cli', 'index.ts')];

function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI, ...args], { cwd: REPO, env: { ...process.env, OPENROUTER_API_KEY: '', PYOPS_AGENT_MODEL: '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Every file under `dir`, recursively (project, journal, backups, config). */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(full) : [full];
  });
}

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
            const r = await runCli(['ask', 'Plan my iron', '--project', file, ...(json ? ['--json'] : [])], env);
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
