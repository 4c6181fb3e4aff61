import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { APICallError } from 'ai';
import {
  DEFAULT_CONTEXT_WINDOW,
  ModelCatalog,
  offlineInfo,
  parseCatalog,
  resolveAlias,
} from '../../../../src/core/assistant/models/catalog';
import { DEFAULT_MODEL, resolveApiKey, resolveBaseURL, resolveModelId, resolveOpenRouterModel } from '../../../../src/core/assistant/models/resolve';
import { describeModelError, NoApiKeyError } from '../../../../src/core/assistant/models/errors';
import { FileConfigStore, configDir } from '../../../../src/core/config/fileStore';
import { MemorySecretStore } from '../../../../src/core/config/secretStore';
import { OPENROUTER_KEY } from '../../../../src/core/assistant/models/secrets';
import { startFakeOpenRouter } from '../../../fixtures/fake-openrouter/server';
import { tempDir } from '../../../helpers/paths';

const RAW = [
  { id: 'anthropic/claude-sonnet-4', created: 100, context_length: 200_000, supported_parameters: ['tools', 'reasoning'] },
  { id: 'anthropic/claude-sonnet-4.5', created: 200, context_length: 200_000, top_provider: { context_length: 1_000_000 }, supported_parameters: ['tools', 'reasoning_effort'], reasoning: { supported_efforts: ['low', 'high', 'xhigh'] } },
  { id: 'anthropic/claude-sonnet-4.5:thinking', created: 300, context_length: 200_000 },
  { id: 'anthropic/claude-sonnet-4.5', created: 999, context_length: 5 },
  { id: 'openai/gpt-4o-mini', created: 150, supported_parameters: ['tools'] },
  { name: 'no id' },
  'garbage',
];

function fetchCounting(body: unknown, status = 200) {
  const calls: string[] = [];
  const f = (async (url: string) => {
    calls.push(String(url));
    if (status === 0) throw new TypeError('fetch failed');
    return new Response(JSON.stringify(body), { status });
  }) as unknown as typeof fetch;
  return { f, calls };
}

describe('assistant models', () => {
  describe('catalogue', () => {
    it('parses loosely: context from the top provider, reasoning support and efforts, duplicates dropped', () => {
      const models = parseCatalog({ data: RAW });
      assert.deepEqual(
        models.map((m) => m.id),
        ['anthropic/claude-sonnet-4', 'anthropic/claude-sonnet-4.5', 'anthropic/claude-sonnet-4.5:thinking', 'openai/gpt-4o-mini'],
      );
      const s45 = models[1];
      assert.equal(s45.contextWindow, 1_000_000);
      assert.equal(s45.supportsReasoning, true);
      assert.deepEqual(s45.efforts, ['low', 'high']);
      assert.deepEqual(models[0].efforts, ['low', 'medium', 'high'], 'supported but unlisted → all three');
      assert.equal(models[3].supportsReasoning, false);
      assert.equal(models[3].contextWindow, DEFAULT_CONTEXT_WINDOW);
      assert.deepEqual(parseCatalog('nonsense'), []);
    });

    it('resolves ~family-latest to the newest id of the family, skipping variants', () => {
      const models = parseCatalog({ data: RAW });
      assert.equal(resolveAlias('~anthropic/claude-sonnet-latest', models)?.id, 'anthropic/claude-sonnet-4.5');
      assert.equal(resolveAlias('openai/gpt-4o-mini', models)?.id, 'openai/gpt-4o-mini');
      assert.equal(resolveAlias('~google/gemini-flash-latest', models), undefined);
    });

    it('falls back to the offline table, matching concrete ids by alias tokens', () => {
      assert.equal(offlineInfo('~anthropic/claude-sonnet-latest').contextWindow, 1_000_000);
      assert.equal(offlineInfo('anthropic/claude-sonnet-4.7').contextWindow, 1_000_000);
      assert.equal(offlineInfo('anthropic/claude-sonnet-4.7').supportsReasoning, true);
      const unknown = offlineInfo('someone/new-model');
      assert.deepEqual([unknown.contextWindow, unknown.supportsReasoning, unknown.efforts], [DEFAULT_CONTEXT_WINDOW, false, ['low', 'medium', 'high']]);
    });

    it('caches for six hours, never throws, and serves a stale copy when the network fails', async () => {
      let now = 1_000_000;
      const ok = fetchCounting({ data: RAW });
      const c = new ModelCatalog({ baseURL: 'http://x/api/v1/', fetch: ok.f, now: () => now });
      assert.equal((await c.list()).source, 'live');
      assert.equal(ok.calls[0], 'http://x/api/v1/models');
      await c.info('~anthropic/claude-sonnet-latest');
      now += 5 * 3600_000;
      assert.equal((await c.list()).source, 'cache');
      assert.equal(ok.calls.length, 1);
      now += 2 * 3600_000;
      await c.list();
      assert.equal(ok.calls.length, 2, 'refetched after 6 h');

      let failing = false;
      const flaky = (async (url: string) => {
        if (failing) throw new TypeError('fetch failed');
        return ok.f(url);
      }) as unknown as typeof fetch;
      const stale = new ModelCatalog({ fetch: flaky, now: () => now });
      await stale.list();
      failing = true;
      now += 7 * 3600_000;
      const snapStale = await stale.list();
      assert.deepEqual([snapStale.source, snapStale.models.length > 0], ['cache', true]);

      const down = fetchCounting(null, 0);
      const offline = new ModelCatalog({ fetch: down.f });
      const snap = await offline.list();
      assert.deepEqual([snap.source, snap.models.length], ['offline', 0]);
      const info = await offline.info('~anthropic/claude-opus-latest');
      assert.deepEqual([info.source, info.contextWindow], ['offline', 1_000_000]);
      const bad = new ModelCatalog({ fetch: fetchCounting({ error: 'x' }, 503).f });
      assert.equal((await bad.info('x/y')).source, 'offline');
    });

    it('keeps the last good catalogue in a cache file for short-lived processes', async () => {
      const dir = tempDir();
      try {
        const file = path.join(dir, 'models-cache.json');
        const first = new ModelCatalog({ baseURL: 'http://x', fetch: fetchCounting({ data: RAW }).f, cacheFile: file });
        await first.list();
        const again = fetchCounting({ data: [] });
        const second = new ModelCatalog({ baseURL: 'http://x', fetch: again.f, cacheFile: file });
        assert.equal((await second.info('~anthropic/claude-sonnet-latest')).id, 'anthropic/claude-sonnet-4.5');
        assert.equal(again.calls.length, 0);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('resolution', () => {
    it('takes the key from OPENROUTER_API_KEY, else the stored secret', async () => {
      const secrets = new MemorySecretStore({ [OPENROUTER_KEY]: 'stored' });
      assert.deepEqual(await resolveApiKey({ OPENROUTER_API_KEY: ' env ' }, secrets), { key: 'env', source: 'env' });
      assert.deepEqual(await resolveApiKey({}, secrets), { key: 'stored', source: 'stored' });
      assert.equal(await resolveApiKey({}, new MemorySecretStore()), undefined);
      const broken = { get: async () => { throw new Error('keychain locked'); }, store: async () => {}, delete: async () => {} };
      assert.equal(await resolveApiKey({}, broken), undefined);
    });

    it('picks the model: PYOPS_AGENT_MODEL → conversation override → stored default → built-in alias', () => {
      assert.deepEqual(resolveModelId({ env: { PYOPS_AGENT_MODEL: 'e/m' }, override: 'o/m', storedDefault: 'd/m' }), { id: 'e/m', source: 'env' });
      assert.deepEqual(resolveModelId({ env: {}, override: 'o/m', storedDefault: 'd/m' }), { id: 'o/m', source: 'conversation' });
      assert.deepEqual(resolveModelId({ env: {}, override: null, storedDefault: 'd/m' }), { id: 'd/m', source: 'default' });
      assert.deepEqual(resolveModelId({}), { id: DEFAULT_MODEL, source: 'built-in' });
      assert.equal(DEFAULT_MODEL, '~anthropic/claude-sonnet-latest');
      assert.equal(resolveBaseURL({ env: { PYOPS_OPENROUTER_BASE_URL: 'http://127.0.0.1:9/api/v1/' }, setting: 'http://s' }), 'http://127.0.0.1:9/api/v1');
      assert.equal(resolveBaseURL({ env: {}, setting: 'http://gateway/v1' }), 'http://gateway/v1');
      assert.equal(resolveBaseURL({}), 'https://openrouter.ai/api/v1');
    });

    it('builds an OpenRouter model against the configured endpoint, resolving aliases through the catalogue', async () => {
      const fake = await startFakeOpenRouter({ models: RAW, replies: [{ text: 'hi' }] });
      try {
        const r = await resolveOpenRouterModel({ env: { OPENROUTER_API_KEY: 'k', PYOPS_OPENROUTER_BASE_URL: fake.url }, catalog: new ModelCatalog({ baseURL: fake.url }) });
        assert.deepEqual([r.modelId, r.requestId, r.source, r.info.contextWindow, r.info.supportsReasoning], [DEFAULT_MODEL, 'anthropic/claude-sonnet-4.5', 'built-in', 1_000_000, true]);
        assert.equal(r.baseURL, fake.url);
        await assert.rejects(resolveOpenRouterModel({ env: {}, keyHint: 'Use the command.' }), (e: unknown) => e instanceof NoApiKeyError && /Use the command\./.test((e as Error).message));
      } finally {
        await fake.close();
      }
    });
  });

  describe('errors', () => {
    const api = (statusCode: number, message = 'm') => new APICallError({ message, url: 'u', requestBodyValues: {}, statusCode });
    it('says what happened and what to do for each failure', () => {
      assert.equal(describeModelError(api(401)).kind, 'auth');
      assert.equal(describeModelError(api(402)).kind, 'credits');
      assert.equal(describeModelError(api(429)).kind, 'rate-limit');
      const retry = Object.assign(new Error('Failed after 3 attempts'), { name: 'AI_RetryError', lastError: api(429) });
      assert.equal(describeModelError(retry).kind, 'rate-limit');
      assert.equal(describeModelError(api(503)).kind, 'server');
      assert.equal(describeModelError(api(400, "This endpoint's maximum context length is 8192 tokens")).kind, 'context-length');
      assert.equal(describeModelError(api(400, 'model not found')).kind, 'bad-request');
      assert.equal(describeModelError(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })).kind, 'network');
      assert.equal(describeModelError(api(200, 'Failed to process successful response')).kind, 'network');
      assert.equal(describeModelError(new NoApiKeyError('x')).kind, 'no-key');
      assert.match(describeModelError(api(401), 'Run the key command.').message, /Run the key command\./);
    });
  });

  describe('CLI config store', () => {
    it('lives in the OS config folder', () => {
      assert.equal(configDir({ XDG_CONFIG_HOME: '/x' }, 'linux', '/home/u'), path.join('/x', 'pyops'));
      assert.equal(configDir({}, 'linux', '/home/u'), path.join('/home/u', '.config', 'pyops'));
      assert.equal(configDir({}, 'darwin', '/Users/u'), path.join('/Users/u', 'Library', 'Application Support', 'pyops'));
      assert.equal(configDir({ APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32', 'C:\\Users\\u'), path.join('C:\\Users\\u\\AppData\\Roaming', 'pyops'));
      assert.equal(configDir({ PYOPS_CONFIG_DIR: '/override' }, 'linux', '/h'), '/override');
    });

    it('stores secrets in a user-only file and tolerates a broken one', async () => {
      const dir = path.join(tempDir(), 'cfg');
      try {
        const s = new FileConfigStore(dir);
        assert.equal(await s.get(OPENROUTER_KEY), undefined);
        await s.store(OPENROUTER_KEY, 'sk-1');
        s.setSetting('defaultModel', 'openai/gpt-5');
        assert.equal(await new FileConfigStore(dir).get(OPENROUTER_KEY), 'sk-1');
        assert.equal(new FileConfigStore(dir).getSetting('defaultModel'), 'openai/gpt-5');
        if (process.platform !== 'win32') {
          assert.equal(fs.statSync(s.file).mode & 0o777, 0o600);
          assert.equal(fs.statSync(dir).mode & 0o077, 0);
        }
        await s.delete(OPENROUTER_KEY);
        assert.equal(await s.get(OPENROUTER_KEY), undefined);
        fs.writeFileSync(s.file, '{ not json');
        assert.equal(await s.get(OPENROUTER_KEY), undefined);
      } finally {
        fs.rmSync(path.dirname(dir), { recursive: true, force: true });
      }
    });
  });
});
