// Language-model tools and the embedded MCP server inside a real VS Code.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { api, workDir, sampleWorld, waitFor } from './helpers';
import { rawMcpPost as rawPost } from '../helpers/mcpProbe';
import { listPending } from '../../src/core/planning/proposals/pending';

function textOf(r: vscode.LanguageModelToolResult): string {
  return r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}


describe('PyOps tools in VS Code', () => {
  before(async () => {
    const dir = workDir('tools');
    await vscode.commands.executeCommand('pyops.project.new', { file: path.join(dir, 'tools.pyops'), name: 'Tools factory' });
    await vscode.commands.executeCommand('pyops.gamedata.import', { source: sampleWorld().dump });
    await vscode.commands.executeCommand('pyops.planning.setHorizon', { mode: 'future' });
  });

  it('lists the contributed language-model tools', () => {
    const names = vscode.lm.tools.map((t) => t.name);
    for (const n of ['pyops_searchGoods', 'pyops_recipeGraph', 'pyops_submitBlock', 'pyops_factoryBlocks', 'pyops_createTask']) assert.ok(names.includes(n), `${n} in vscode.lm.tools`);
    const search = vscode.lm.tools.find((t) => t.name === 'pyops_searchGoods')!;
    assert.ok(search.tags.includes('pyops'));
    assert.ok((search.inputSchema as { properties: Record<string, unknown> }).properties.query);
  });

  it('offers each PyOps tool once: unique names, and no MCP definition for VS Code without developer tools', async () => {
    const names = vscode.lm.tools.map((t) => t.name);
    assert.equal(new Set(names).size, names.length, `duplicate tool names: ${names.filter((n, i) => names.indexOf(n) !== i).join(', ')}`);
    const { mcp } = await api();
    assert.deepEqual(mcp.vscodeTools(), []);
    assert.deepEqual(await mcp.provider().provideMcpServerDefinitions(new vscode.CancellationTokenSource().token), []);
  });

  it('runs a read tool and a proposal tool through vscode.lm.invokeTool', async () => {
    const found = await vscode.lm.invokeTool('pyops_searchGoods', { input: { query: 'dense circuit' }, toolInvocationToken: undefined });
    assert.equal(JSON.parse(textOf(found)).matches[0].name, 'dense-circuit');
    const draft = await vscode.lm.invokeTool(
      'pyops_submitBlock',
      { input: { target: 'circuit', rate: 1, recipes: ['circuit', 'wire'], subBlocksNeeded: [] }, toolInvocationToken: undefined },
    );
    const d = JSON.parse(textOf(draft));
    assert.equal(d.status, 'optimal');
    assert.ok(d.rows.some((r: { recipe: string; buildings: number }) => r.recipe === 'circuit' && r.buildings > 0));
    // Agent mode has no conversation in the project: the draft is kept for the side panel instead.
    assert.match(d.pending.note, /PyOps side panel/);
    const { projects } = await api();
    assert.ok(listPending(projects.require()).some((x) => x.id === d.pending.id));
    const bad = await vscode.lm.invokeTool('pyops_searchGoods', { input: { query: '' }, toolInvocationToken: undefined });
    assert.match(JSON.parse(textOf(bad)).error, /query/);
  });

  it('provides the MCP server; an MCP client lists and calls tools with the token and is refused without it', async () => {
    const { mcp } = await api();
    const h = await mcp.start();
    assert.ok(h, 'MCP server started');
    const client = new Client({ name: 'integration', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(h.url), { requestInit: { headers: h.headers } }));
    const list = await client.listTools();
    assert.ok(list.tools.some((t) => t.name === 'recipeGraph'));
    const r = (await client.callTool({ name: 'searchGoods', arguments: { query: 'brine' } })) as { content: Array<{ text: string }> };
    assert.equal(JSON.parse(r.content[0].text).matches[0].name, 'brine');
    await client.close();
    assert.equal(await rawPost(h.port, { host: `127.0.0.1:${h.port}` }), 401);
    assert.equal(await rawPost(h.port, { host: `127.0.0.1:${h.port}`, origin: 'http://evil.example', ...h.headers }), 403);
  });

  it('stops the MCP server when it is turned off, and overlapping starts then share one new server', async () => {
    const { mcp } = await api();
    const enabled = (on: boolean) => vscode.workspace.getConfiguration('pyops.mcp').update('enabled', on, vscode.ConfigurationTarget.Global);
    const before = (await mcp.start())!;
    await enabled(false);
    await waitFor(() => mcp.info() === undefined, 'the MCP server to stop');
    assert.equal(await rawPost(before.port, { host: `127.0.0.1:${before.port}`, ...before.headers }).catch(() => 'closed'), 'closed');
    try {
      await enabled(true);
      const [a, b] = await Promise.all([mcp.start(), mcp.start()]);
      assert.ok(a && a === b, 'one server for both callers');
      assert.equal(mcp.info()?.url, a.url);
    } finally {
      await enabled(true);
    }
  });
});
