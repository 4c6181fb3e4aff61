import assert from 'node:assert/strict';
import { isFactorioRunning } from '../../../../../src/core/gamedata/factorio';

describe('is Factorio running', () => {
  it('on Linux, looks for a process named factorio', async () => {
    assert.equal(await isFactorioRunning({ platform: 'linux', linuxProcessNames: () => ['systemd', 'code', 'factorio'] }), true);
    assert.equal(await isFactorioRunning({ platform: 'linux', linuxProcessNames: () => ['systemd', 'factorio-server-', 'node'] }), false);
  });

  it('on Windows, asks tasklist for factorio.exe', async () => {
    const calls: string[][] = [];
    const running = await isFactorioRunning({
      platform: 'win32',
      exec: async (cmd, args) => {
        calls.push([cmd, ...args]);
        return { code: 0, stdout: '\r\nfactorio.exe                 12345 Console                    1  1,204,560 K\r\n' };
      },
    });
    assert.equal(running, true);
    assert.deepEqual(calls, [['tasklist', '/FI', 'IMAGENAME eq factorio.exe', '/NH']]);
    const idle = await isFactorioRunning({
      platform: 'win32',
      exec: async () => ({ code: 0, stdout: 'INFO: No tasks are running which match the specified criteria.\r\n' }),
    });
    assert.equal(idle, false);
  });

  it('on macOS, asks pgrep for an exact match', async () => {
    let args: string[] = [];
    const probe = (code: number | null) => ({
      platform: 'darwin' as const,
      exec: async (_cmd: string, a: string[]) => {
        args = a;
        return { code, stdout: code === 0 ? '4242\n' : '' };
      },
    });
    assert.equal(await isFactorioRunning(probe(0)), true);
    assert.deepEqual(args, ['-x', 'factorio']);
    assert.equal(await isFactorioRunning(probe(1)), false);
    assert.equal(await isFactorioRunning(probe(null)), false, 'a missing pgrep is not a running game');
  });

  it('answers on this machine without throwing', async () => {
    assert.equal(typeof (await isFactorioRunning()), 'boolean');
  });
});
