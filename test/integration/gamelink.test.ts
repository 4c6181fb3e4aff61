// The game link inside a real VS Code: the extension host owns the UDP bridge; a fake game peer
// pings, pushes a research snapshot and answers a live tool's command.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import net from 'node:net';
import path from 'node:path';
import { FakeGame } from '../fixtures/fake-game/peer';
import { pairingCodeFor } from '../../src/core/bridge/pairing';
import { api, waitFor, workDir, sampleWorld } from './helpers';

async function freeUdpPort(): Promise<number> {
  // A free TCP port is free for UDP too in practice on loopback; good enough for a test.
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

describe('PyOps game link', () => {
  let game: FakeGame;
  let port: number;
  before(async () => {
    port = await freeUdpPort();
    await vscode.workspace.getConfiguration('pyops.bridge').update('port', port, vscode.ConfigurationTarget.Global);
    const dir = workDir('gamelink');
    await vscode.commands.executeCommand('pyops.project.new', { file: path.join(dir, 'link.pyops'), name: 'Linked factory' });
    await vscode.commands.executeCommand('pyops.gamedata.import', { source: sampleWorld().dump });
    const { gameLink } = await api();
    await waitFor(() => gameLink.bridge.status().state === 'listening' && gameLink.bridge.status().port === port, 'the bridge to listen on the test port', 5000);
    // The extension host reads the pairing code from the same user config folder as this test.
    game = await FakeGame.start({ appPort: port, playerName: 'tester', pairing: await pairingCodeFor() });
  });
  after(async () => {
    await game?.close();
    await vscode.workspace.getConfiguration('pyops.bridge').update('port', undefined, vscode.ConfigurationTarget.Global);
  });

  it('answers a ping and shows the game as linked', async () => {
    const pong = await game.ping();
    assert.equal(pong.type, 'bridge.pong');
    const { gameLink } = await api();
    await waitFor(() => gameLink.bridge.status().linked, 'the game to link', 5000);
    assert.equal(gameLink.bridge.status().player, 'tester');
  });

  it('stores a research snapshot from the game in the project', async () => {
    const { projects } = await api();
    await game.send('state.research', { force: 'player', researched: ['automation-basics', 'electronics'], mining_productivity_bonus: 0, recipe_productivity_bonuses: {} });
    await waitFor(() => projects.active?.query('SELECT count(*) AS n FROM researched_techs')[0].n === 2, 'the research snapshot to be stored', 5000);
    const names = projects.active!.query<{ name: string }>('SELECT name FROM researched_techs ORDER BY name').map((r) => r.name);
    assert.deepEqual(names, ['automation-basics', 'electronics']);
  });

  it('runs a live-game tool through the bridge', async () => {
    game.answer = (e) => (e.type === 'cmd.game_context' ? { player: 'tester', force: 'player', surface: 'nauvis', x: 12.5, y: -3, tick: 600 } : undefined);
    const r = await vscode.lm.invokeTool('pyops_gameContext', { input: {}, toolInvocationToken: undefined });
    const text = r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    const out = JSON.parse(text);
    assert.equal(out.ok, true, text);
    assert.equal(out.surface, 'nauvis');
    assert.equal(out.x, 12.5);
  });
});
