// `pyops mcp --project <file>`: the registry over stdio for MCP clients outside VS Code, checked with
// the SDK's own stdio client against the real command (a child process running the CLI).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { run } from '../../../src/cli/main';
import { Project } from '../../../src/core/db/project';
import { REPO, SAMPLE_DUMP, tempDir } from '../../helpers/paths';
import { FakeGame } from '../../fixtures/fake-game/peer';
import net from 'node:net';
import { capture } from '../../helpers/cliIO';
import { pairingCodeFor } from '../../../src/cli/commands/bridge';

async function connect(args: string[], env: Record<string, string> = {}): Promise<{ client: Client; transport: StdioClientTransport; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', path.join(REPO, 'src', 'cli', 'index.ts'), 'mcp', ...args],
    cwd: REPO,
    stderr: 'pipe',
    env: { ...(process.env as Record<string, string>), ...env },
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'unit', version: '0' });
  await client.connect(transport);
  return { client, transport, stderr: () => err };
}

describe('pyops mcp (stdio)', function () {
  this.timeout(60_000);
  let dir: string;
  let file: string;
  before(async () => {
    dir = tempDir('pyops-mcp-');
    file = path.join(dir, 'mcp.pyops');
    assert.equal(await run(['project', 'create', file, '--name', 'MCP factory'], capture()), 0);
    assert.equal(await run(['import', file, SAMPLE_DUMP], capture()), 0);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('lists and calls the registry tools for an MCP client, reads and writes alike', async () => {
    const { client, stderr } = await connect(['--project', file, '--no-bridge']);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      for (const n of ['searchGoods', 'recipeGraph', 'submitBlock', 'createTask', 'gameContext']) assert.ok(names.includes(n), `${n} offered`);
      assert.ok(!names.includes('gameEval'), 'no Lua tool without --developer-tools (the in-app proposal is app-only)');
      assert.ok(!names.some((n) => n === 'gameScreenshot'), 'developer tools need --developer-tools');
      const r = (await client.callTool({ name: 'searchGoods', arguments: { query: 'brine' } })) as { content: Array<{ text: string }>; isError?: boolean };
      assert.equal(JSON.parse(r.content[0].text).matches[0].name, 'brine');
      const t = (await client.callTool({ name: 'createTask', arguments: { title: 'Build the brine block' } })) as { content: Array<{ text: string }>; isError?: boolean };
      assert.ok(!t.isError, t.content[0].text);
      const bad = (await client.callTool({ name: 'searchGoods', arguments: { query: '' } })) as { isError?: boolean };
      assert.equal(bad.isError, true);
      assert.match(stderr(), /serving \d+ tools for "MCP factory" over stdio/);
    } finally {
      await client.close();
    }
    // The write reached the project file.
    const io = capture();
    assert.equal(await run(['tool', 'listTasks', '--project', file], io), 0, io.stderr);
    assert.match(io.stdout, /Build the brine block/);
  });

  it('answers schema-invalid input and a live tool without a game with PyOps structured errors', async () => {
    const { client } = await connect(['--project', file, '--no-bridge']);
    try {
      const call = async (name: string, args: Record<string, unknown>) => {
        const r = (await client.callTool({ name, arguments: args })) as { content: Array<{ text: string }>; isError?: boolean };
        return { isError: r.isError, body: JSON.parse(r.content[0].text) as { error: string; code: string } };
      };
      // Wrong types and missing fields: the same {error, code} as every other host, naming the field.
      const wrong = await call('searchGoods', { query: 42 });
      assert.equal(wrong.isError, true);
      assert.equal(wrong.body.code, 'invalid-input');
      assert.match(wrong.body.error, /Invalid input for searchGoods: query: /);
      const missing = await call('gameProduction', {});
      assert.equal(missing.body.code, 'invalid-input');
      assert.match(missing.body.error, /goods/);
      // No game: an error, not a success carrying {ok:false}.
      const live = await call('gameContext', {});
      assert.equal(live.isError, true);
      assert.equal(live.body.code, 'no-game');
      assert.match(live.body.error, /No game is connected/);
      const unknown = await call('noSuchTool', {});
      assert.equal(unknown.body.code, 'not-found');
    } finally {
      await client.close();
    }
    const io = capture();
    assert.equal(await run(['tool', 'gameContext', '--project', file], io), 1, 'the CLI exits 1 without a game');
    assert.match(io.stderr, /No game is connected/);
  });

  it('a second server opened read-only takes the project over for editing once the writer closes', async () => {
    const writer = await Project.open(file, { app: 'unit (writer)' });
    const { client, stderr } = await connect(['--project', file, '--no-bridge']);
    try {
      const refused = (await client.callTool({ name: 'createTask', arguments: { title: 'While read-only' } })) as { content: Array<{ text: string }>; isError?: boolean };
      assert.equal(refused.isError, true);
      assert.match(refused.content[0].text, /read-only/);
      writer.close();
      const deadline = Date.now() + 20_000;
      while (!/now open here for editing/.test(stderr()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      assert.match(stderr(), /the other window closed "MCP factory"; it is now open here for editing/);
      const ok = (await client.callTool({ name: 'createTask', arguments: { title: 'After the writer closed' } })) as { content: Array<{ text: string }>; isError?: boolean };
      assert.ok(!ok.isError, ok.content[0].text);
    } finally {
      writer.close();
      await client.close();
    }
  });

  it('offers the developer tools only when asked', async () => {
    const { client } = await connect(['--project', file, '--developer-tools']);
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(tools.includes('gameScreenshot'), tools.join(', '));
    } finally {
      await client.close();
    }
  });

  it('reports usage errors with exit code 2', async () => {
    const io = capture();
    assert.equal(await run(['mcp'], io), 2);
    assert.match(io.stderr, /missing --project <file>/);
    const io2 = capture();
    assert.equal(await run(['mcp', '--project', file, '--bridge-port', 'abc'], io2), 2);
    assert.match(io2.stderr, /--bridge-port must be a port number/);
  });

  it('binds the game bridge so live tools reach a running game', async () => {
    const port = await new Promise<number>((resolve) => {
      const srv = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as net.AddressInfo).port;
        srv.close(() => resolve(p));
      });
    });
    // The server and this test share the user's config folder, so the game presents the server's code.
    const env = { PYOPS_CONFIG_DIR: path.join(dir, 'config') };
    const pairing = await pairingCodeFor(env);
    const { client, stderr } = await connect(['--project', file, '--bridge-port', String(port)], env);
    const game = await FakeGame.start({ appPort: port, playerName: 'mcp-player', pairing });
    try {
      const deadline = Date.now() + 10_000;
      while (!/game bridge listening/.test(stderr()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.equal((await game.ping()).type, 'bridge.pong');
      game.answer = (e) => (e.type === 'cmd.game_context' ? { player: 'mcp-player', force: 'player', surface: 'nauvis', x: 1, y: 2, tick: 60 } : undefined);
      const r = (await client.callTool({ name: 'gameContext', arguments: {} })) as { content: Array<{ text: string }> };
      const out = JSON.parse(r.content[0].text);
      assert.equal(out.ok, true, r.content[0].text);
      assert.equal(out.player, 'mcp-player');
    } finally {
      await game.close();
      await client.close();
    }
  });
});
