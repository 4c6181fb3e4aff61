import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import path from 'node:path';
import { bridgeCommand, pairingCodeFor } from '../../../../src/cli/commands/bridge';
import { relayCommand } from '../../../../src/cli/commands/relay';
import { UsageError } from '../../../../src/cli/args';
import type { CliIO } from '../../../../src/cli/io';
import { Bridge } from '../../../../src/core/bridge/bridge';
import { RelayServer } from '../../../../src/core/bridge/relay/server';
import { FakeGame } from '../../../fixtures/fake-game/peer';
import { eventually, makeProject } from './helpers';

function capture(): CliIO & { lines: string[]; errors: string[] } {
  const io = { lines: [] as string[], errors: [] as string[], out: (t: string) => void io.lines.push(t), err: (t: string) => void io.errors.push(t) };
  return io;
}

const portFrom = (lines: string[], re: RegExp) => Number(lines.map((l) => re.exec(l)?.[1]).find(Boolean));

describe('pyops bridge / pyops relay', function () {
  this.timeout(10_000);
  let ctx: Awaited<ReturnType<typeof makeProject>>;
  beforeEach(async () => {
    ctx = await makeProject();
    ctx.project.close(); // the command opens it itself
  });
  afterEach(() => ctx.dispose());

  it('runs the bridge for a project and prints listening, link and snapshots until stopped', async () => {
    const io = capture();
    const ac = new AbortController();
    const env = { PYOPS_CONFIG_DIR: path.join(ctx.dir, 'config') };
    const done = bridgeCommand(['--project', ctx.project.file, '--port', '0'], io, { signal: ac.signal, env });
    await eventually(() => io.lines.some((l) => /listening on 127\.0\.0\.1:\d+/.test(l)), 3000, 'listening');
    const port = portFrom(io.lines, /listening on 127\.0\.0\.1:(\d+)/);
    assert.match(io.lines[0], /for "bridge"/);
    const pairing = io.lines.find((l) => l.startsWith('Pairing code: '))?.split(' ')[2];
    assert.equal(pairing, await pairingCodeFor(env), 'the printed code is the stored one');
    const game = await FakeGame.start({ appPort: port, playerName: 'alice', pairing });
    await game.ping();
    await game.send('state.research', { researched: ['a', 'b'] });
    await eventually(() => io.lines.some((l) => l.startsWith('Snapshot research')), 3000, 'snapshot line');
    await game.close();
    ac.abort();
    assert.equal(await done, 0);
    assert.ok(io.lines.some((l) => /^Game linked: alice from 127\.0\.0\.1:\d+, mod 0\.1\.0, protocol 1$/.test(l)), io.lines.join('\n'));
    assert.ok(io.lines.includes('Snapshot research: 2 rows, changed'));
    assert.match(io.lines[io.lines.length - 1], /^Stopped\. Datagrams in 2/);
  });

  it('fails with a one-line reason when the port is taken, and rejects bad arguments', async () => {
    const blocker = dgram.createSocket('udp4');
    await new Promise<void>((r) => blocker.bind(0, '127.0.0.1', () => r()));
    try {
      const io = capture();
      assert.equal(await bridgeCommand(['--project', ctx.project.file, '--port', String(blocker.address().port)], io, { signal: new AbortController().signal }), 1);
      assert.equal(io.errors.length, 1, 'one line on stderr');
      assert.match(io.errors[0], /already in use.*pick another port in the --port option/);
      assert.ok(!io.lines.some((l) => /in use/.test(l)), 'the reason is not repeated on stdout');
    } finally {
      await new Promise<void>((r) => blocker.close(() => r()));
    }
    await assert.rejects(bridgeCommand([], capture()), UsageError);
    await assert.rejects(bridgeCommand(['--project', ctx.project.file, '--port', 'x'], capture()), /--port must be/);
    await assert.rejects(relayCommand([], capture()), /missing --to/);
    await assert.rejects(relayCommand(['--to', 'http://x'], capture()), /ws:\/\//);
  });

  it('relays the game to a bridge over WebSocket from the command line', async () => {
    const bridge = new Bridge({ port: 0 });
    await bridge.start();
    const server = new RelayServer({ bridge });
    const info = await server.start();
    const io = capture();
    const ac = new AbortController();
    const done = relayCommand(['--to', info.url, '--token', info.token, '--port', '0'], io, { signal: ac.signal });
    await eventually(() => io.lines.some((l) => l.startsWith('Connected to PyOps')), 3000, 'connected');
    const game = await FakeGame.start({ appPort: portFrom(io.lines, /UDP 127\.0\.0\.1:(\d+)/) });
    await game.ping();
    assert.equal(bridge.status().peer?.route.via, 'relay');
    await game.close();
    ac.abort();
    assert.equal(await done, 0);
    assert.match(io.lines[io.lines.length - 1], /^Stopped\. Relayed 1 datagrams from the game and 1 to it/);
    // a wrong token ends the command with a reason
    const bad = capture();
    assert.equal(await relayCommand(['--to', `${info.url}?token=nope`, '--port', '0'], bad, { signal: new AbortController().signal }), 1);
    assert.match(bad.errors.join('\n'), /relay refused: the relay token was refused/);
    await server.stop();
    await bridge.stop();
  });
});
