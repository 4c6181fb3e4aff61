// "Sync game data from Factorio" through the command, against the fake Factorio executable
// (a Node script that behaves like the game's --dump-data / --dump-prototype-locale).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import fs from 'node:fs';
import path from 'node:path';
import { api, env, workDir, sampleWorld } from './helpers';

describe('PyOps: Sync Game Data from Factorio', () => {
  const cfg = () => vscode.workspace.getConfiguration('pyops');
  let userData: string;
  let fake: string;

  before(() => {
    const dir = workDir('sync');
    userData = path.join(dir, 'factorio-user-data');
    fs.mkdirSync(path.join(userData, 'mods'), { recursive: true });
    fs.writeFileSync(path.join(userData, 'mods', 'mod-list.json'), JSON.stringify({ mods: [{ name: 'base', enabled: true }] }, null, 2));
    fake = path.join(env('PYOPS_TEST_REPO'), 'test', 'fixtures', 'fake-factorio', 'factorio');
    fs.chmodSync(fake, 0o755);
    process.env.FAKE_FACTORIO_USERDATA = userData;
    process.env.FAKE_FACTORIO_SAMPLE = sampleWorld().dir;
  });

  after(async () => {
    delete process.env.FAKE_FACTORIO_USERDATA;
    delete process.env.FAKE_FACTORIO_MODE;
    await cfg().update('factorio.executablePath', undefined, vscode.ConfigurationTarget.Global);
    await cfg().update('factorio.userDataPath', undefined, vscode.ConfigurationTarget.Global);
  });

  it('dumps through the helper mod, removes it again, and imports the result', async () => {
    const { projects, recentCommandErrors } = await api();
    await cfg().update('factorio.executablePath', fake, vscode.ConfigurationTarget.Global);
    await cfg().update('factorio.userDataPath', userData, vscode.ConfigurationTarget.Global);
    const modList = fs.readFileSync(path.join(userData, 'mods', 'mod-list.json'));
    await vscode.commands.executeCommand('pyops.project.new', { file: path.join(path.dirname(userData), 'synced.pyops'), name: 'Synced factory' });
    const summary = await vscode.commands.executeCommand<{ counts: Record<string, number>; turdReplacementSource: string }>('pyops.gamedata.sync');
    assert.ok(summary, JSON.stringify(recentCommandErrors().at(-1)));
    assert.equal(summary.counts.items, 44);
    assert.equal(summary.turdReplacementSource, 'helper', 'the helper mod was active during the dump');
    assert.equal(projects.active?.counts(['recipes'])['recipes'], 60);
    assert.deepEqual(fs.readFileSync(path.join(userData, 'mods', 'mod-list.json')), modList, 'mod-list.json is back as it was');
    assert.ok(!fs.existsSync(path.join(userData, 'mods', 'pyops-dump-helper')), 'the helper mod is removed');
  });

  it("reports Factorio's error banner even when it exits with 0, and still removes the helper", async () => {
    const { recentCommandErrors } = await api();
    process.env.FAKE_FACTORIO_MODE = 'banner';
    try {
      const r = await vscode.commands.executeCommand('pyops.gamedata.sync');
      assert.equal(r, undefined);
      assert.match(recentCommandErrors().at(-1)?.message ?? '', /error/i);
      assert.ok(!fs.existsSync(path.join(userData, 'mods', 'pyops-dump-helper')));
    } finally {
      delete process.env.FAKE_FACTORIO_MODE;
    }
  });
});

describe('PyOps: companion mod install', () => {
  const cfg = () => vscode.workspace.getConfiguration('pyops');
  after(async () => {
    await cfg().update('factorio.executablePath', undefined, vscode.ConfigurationTarget.Global);
    await cfg().update('factorio.userDataPath', undefined, vscode.ConfigurationTarget.Global);
  });

  it('copies the PyOps Link mod into the mods folder stamped with the game version, and removes it again', async () => {
    const dir = workDir('mod-install');
    const userData = path.join(dir, 'factorio-user-data');
    fs.mkdirSync(path.join(userData, 'mods'), { recursive: true });
    const fake = path.join(env('PYOPS_TEST_REPO'), 'test', 'fixtures', 'fake-factorio', 'factorio');
    fs.chmodSync(fake, 0o755);
    await cfg().update('factorio.executablePath', fake, vscode.ConfigurationTarget.Global);
    await cfg().update('factorio.userDataPath', userData, vscode.ConfigurationTarget.Global);
    process.env.FAKE_FACTORIO_VERSION = '2.1.12';
    try {
      const r = await vscode.commands.executeCommand<{ modDir: string; factorioVersion: string }>('pyops.game.installMod', { mode: 'copy' });
      assert.ok(r, 'installed');
      const info = JSON.parse(fs.readFileSync(path.join(r.modDir, 'info.json'), 'utf8'));
      assert.equal(info.factorio_version, '2.1');
      assert.ok(fs.existsSync(path.join(r.modDir, 'control.lua')));
      const removed = await vscode.commands.executeCommand<{ removed: string[] }>('pyops.game.removeMod');
      assert.equal(removed.removed.length, 1);
      assert.ok(!fs.existsSync(r.modDir));
    } finally {
      delete process.env.FAKE_FACTORIO_VERSION;
    }
  });
});
