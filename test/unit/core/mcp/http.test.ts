import assert from 'node:assert/strict';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startHttpMcp, type HttpMcpHandle } from '../../../../src/core/mcp/http';
import type { AnyTool, ToolContext } from '../../../../src/core/assistant/tools/types';
import { rawMcpPost as rawPost, rawMcpRpc } from '../../../helpers/mcpProbe';
import { annotationsOf } from '../../../../src/core/mcp/server';
import { allTools } from '../../../../src/core/assistant/tools/registry';

const echo: AnyTool = {
  name: 'echoRate',
  displayName: 'Echo rate',
  tier: 'read',
  description: 'Echoes a rate (test tool).',
  input: z.object({ good: z.string().min(1), rate: z.number().positive().max(1000) }),
  run: (i: { good: string; rate: number }) => ({ good: i.good, doubled: i.rate * 2 }),
} as unknown as AnyTool;
const ping: AnyTool = { ...echo, name: 'ping', description: 'Answers pong (test tool).', input: z.object({}), run: () => 'pong' } as unknown as AnyTool;


describe('MCP over Streamable HTTP', () => {
  let h: HttpMcpHandle;
  before(async () => {
    h = await startHttpMcp({ tools: () => [echo, ping], views: { narrow: () => [ping] }, context: () => ({ caller: 'mcp' }) as unknown as ToolContext, info: { name: 'pyops-test', version: '0' } });
  });
  after(() => h.close());

  it('lists and calls tools with the bearer token', async () => {
    const client = new Client({ name: 'test', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(h.url), { requestInit: { headers: h.headers } }));
    const list = await client.listTools();
    assert.deepEqual(list.tools.map((t) => t.name), ['echoRate', 'ping']);
    assert.equal((list.tools[0].inputSchema as { properties: Record<string, unknown> }).properties.rate !== undefined, true);
    const r = (await client.callTool({ name: 'echoRate', arguments: { good: 'gear', rate: 2 } })) as { content: Array<{ text: string }>; isError?: boolean };
    assert.deepEqual(JSON.parse(r.content[0].text), { good: 'gear', doubled: 4 });
    const bad = (await client.callTool({ name: 'echoRate', arguments: { good: 'gear', rate: -1 } })) as { content: Array<{ text: string }>; isError?: boolean };
    assert.equal(bad.isError, true);
    assert.match(bad.content[0].text, /rate/);
    await client.close();
  });

  it('answers arguments that are not an object with invalid-input, and malformed params with -32602 — never -32603 or a zod dump', async () => {
    const call = (params: unknown) => rawMcpRpc(h.port, h.headers, { jsonrpc: '2.0', id: 7, method: 'tools/call', params });
    for (const [args, kind] of [[[1, 2], 'an array'], ['gear', 'a string'], [5, 'a number'], [null, 'null'], [true, 'a boolean']] as const) {
      const r = await call({ name: 'echoRate', arguments: args });
      assert.equal(r.status, 200);
      assert.equal(r.body.error, undefined, JSON.stringify(r.body));
      assert.equal(r.body.result.isError, true);
      const out = JSON.parse(r.body.result.content[0].text);
      assert.equal(out.code, 'invalid-input');
      assert.equal(out.error, `The arguments of echoRate must be a JSON object of its fields (see its inputSchema in tools/list), not ${kind}.`);
    }
    for (const params of [{ name: 5 }, { arguments: {} }, {}]) {
      const r = await call(params);
      assert.equal(r.body.error?.code, -32602, JSON.stringify(r.body));
      assert.doesNotMatch(r.body.error.message, /invalid_type|"path"|expected/, 'a sentence, not a schema dump');
      assert.match(r.body.error.message, /params/);
    }
    // Params that are not structured at all are not JSON-RPC; the transport says so (-32700).
    for (const params of ['echoRate', 5, null]) assert.notEqual((await call(params)).body.error?.code, -32603);
    // Still the usual answers for a good call, a missing field and an unknown tool.
    assert.deepEqual(JSON.parse((await call({ name: 'echoRate', arguments: { good: 'gear', rate: 2 } })).body.result.content[0].text), { good: 'gear', doubled: 4 });
    assert.equal(JSON.parse((await call({ name: 'echoRate' })).body.result.content[0].text).code, 'invalid-input');
    assert.equal(JSON.parse((await call({ name: 'nope', arguments: {} })).body.result.content[0].text).code, 'not-found');
  });

  it('annotates tools by what they do: drafting tools keep pending proposals, so they are not read-only', () => {
    const byName = new Map(allTools().map((t) => [t.name, annotationsOf(t)]));
    for (const name of ['submitBlock', 'reviseBlock', 'submitPlan', 'balanceFactory']) {
      assert.deepEqual(byName.get(name), { title: allTools().find((t) => t.name === name)!.displayName, readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false }, name);
    }
    assert.equal(byName.get('searchGoods')?.readOnlyHint, true);
    assert.equal(byName.get('createTask')?.readOnlyHint, false);
    assert.equal(byName.get('gameContext')?.readOnlyHint, true);
  });

  it('refuses requests without the token, with a foreign Origin or a foreign Host', async () => {
    assert.equal(await rawPost(h.port, { host: `127.0.0.1:${h.port}` }), 401);
    assert.equal(await rawPost(h.port, { host: `127.0.0.1:${h.port}`, authorization: 'Bearer wrong' }), 401);
    assert.equal(await rawPost(h.port, { host: `127.0.0.1:${h.port}`, origin: 'http://evil.example', ...h.headers }), 403);
    assert.equal(await rawPost(h.port, { host: `evil.example:${h.port}`, ...h.headers }), 403);
    assert.equal(await rawPost(h.port, { host: `127.0.0.1:${h.port}`, ...h.headers }), 200);
  });

  it('serves a view with its own narrower tool list, and 404 for any other path', async () => {
    const url = h.viewUrl('narrow');
    assert.equal(url, `${h.url}/narrow`);
    const client = new Client({ name: 'test', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: h.headers } }));
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['ping']);
    await client.close();
    const auth = { host: `127.0.0.1:${h.port}`, ...h.headers };
    assert.equal(await rawPost(h.port, auth, '/mcp/narrow'), 200);
    assert.equal(await rawPost(h.port, auth, '/mcp/wide'), 404);
    assert.equal(await rawPost(h.port, auth, '/mcp/constructor'), 404, 'only the views given, not what every object inherits');
    assert.equal(await rawPost(h.port, auth, '/other'), 404);
    assert.equal(await rawPost(h.port, { host: `127.0.0.1:${h.port}` }, '/mcp/narrow'), 401, 'a view needs the token too');
    assert.throws(() => h.viewUrl('wide'), /no MCP view "wide"/);
  });
});
