import assert from 'node:assert/strict';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startHttpMcp, type HttpMcpHandle } from '../../../../src/core/mcp/http';
import type { AnyTool, ToolContext } from '../../../../src/core/assistant/tools/types';
import { rawMcpPost as rawPost } from '../../../helpers/mcpProbe';

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
