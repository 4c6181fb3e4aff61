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


describe('MCP over Streamable HTTP', () => {
  let h: HttpMcpHandle;
  before(async () => {
    h = await startHttpMcp({ tools: () => [echo], context: () => ({ caller: 'mcp' }) as unknown as ToolContext, info: { name: 'pyops-test', version: '0' } });
  });
  after(() => h.close());

  it('lists and calls tools with the bearer token', async () => {
    const client = new Client({ name: 'test', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(h.url), { requestInit: { headers: h.headers } }));
    const list = await client.listTools();
    assert.deepEqual(list.tools.map((t) => t.name), ['echoRate']);
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
});
