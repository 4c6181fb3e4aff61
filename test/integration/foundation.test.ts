// The foundation inside a real VS Code: activation, project commands, import, status bar.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { spawn } from 'node:child_process';
import { api, checkInWorkbench, uiRequest, waitFor, workDir, EXTENSION_ID, sampleWorld } from './helpers';

describe('PyOps extension (foundation)', () => {
  it('activates on the Node extension host and contributes its commands', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, 'extension installed');
    await ext.activate();
    assert.equal(ext.isActive, true);
    const commands = await vscode.commands.getCommands(true);
    for (const c of ['pyops.project.new', 'pyops.project.open', 'pyops.project.openSample', 'pyops.gamedata.import', 'pyops.gamedata.sync', 'pyops.project.backup', 'pyops.project.restore']) {
      assert.ok(commands.includes(c), `command ${c}`);
    }
    assert.match(process.version, /^v2[2-9]\./, 'runs on a modern Node extension host');
  });

  it('creates a project and imports the sample world through the commands', async () => {
    const { projects, recentCommandErrors } = await api();
    const dir = workDir('create-import');
    const file = path.join(dir, 'integration.pyops');
    const created = await vscode.commands.executeCommand<string>('pyops.project.new', { file, name: 'Integration factory' });
    assert.equal(created, file, JSON.stringify(recentCommandErrors()));
    assert.ok(fs.existsSync(file));
    assert.equal(projects.active?.name, 'Integration factory');
    const summary = await vscode.commands.executeCommand<{ counts: Record<string, number> }>('pyops.gamedata.import', { source: sampleWorld().dump });
    assert.ok(summary, JSON.stringify(recentCommandErrors()));
    assert.equal(summary.counts.items, 44);
    assert.equal(summary.counts.recipes, 49);
    assert.equal(summary.counts.synthesizedRecipes, 11);
    assert.equal(summary.counts.turdMasters, 1);
    assert.equal(projects.active?.counts(['recipes'])['recipes'], 60);
    assert.ok(fs.existsSync(file + '.gamedata'));
  });

  it('opens the built-in sample project with its game data', async () => {
    const { projects, walkthroughShown } = await api();
    const firstRun = !walkthroughShown();
    const file = await vscode.commands.executeCommand<string>('pyops.project.openSample');
    assert.ok(file && fs.existsSync(file));
    assert.equal(projects.active?.name, 'Sample world');
    assert.equal(projects.active?.hasGameData(), true);
    assert.equal(projects.active?.counts(['items'])['items'], 44);
    // First run: the walkthrough is in sight beside the Factory view (later runs open it no more: workbench.test.ts).
    const labels = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label));
    const tabs = firstRun ? await waitFor(() => labels().some((l) => /Welcome|Walkthrough|Get started with PyOps/i.test(l)) && labels(), 'the walkthrough tab') : labels();
    // The Factory view has followed the switch (no block of the suites before this one is left).
    const ui = await uiRequest({ sidebarExcludes: ['Gear line', 'Hand-made circuits'], screenshot: { file: 'first-run-sample.png', element: 'page' } });
    assert.deepEqual(ui.failures, [], tabs.join(', '));
  });

  it('backs up a project and restores the backup', async () => {
    const { projects } = await api();
    const dir = workDir('backup');
    const file = path.join(dir, 'b.pyops');
    await vscode.commands.executeCommand('pyops.project.new', { file, name: 'Backup me' });
    await vscode.commands.executeCommand('pyops.gamedata.import', { source: sampleWorld().dump });
    projects.require().write((db) => db.run("INSERT INTO notes(id, title, body, created_at, updated_at) VALUES ('n1', 'Remember', '', 't', 't')"));
    const backup = await vscode.commands.executeCommand<string>('pyops.project.backup', { dest: path.join(dir, 'b.pyops-backup') });
    assert.ok(backup && fs.existsSync(backup));
    projects.require().write((db) => db.run('DELETE FROM notes'));
    const restored = await vscode.commands.executeCommand<string>('pyops.project.restore', { backup, file });
    assert.equal(restored, file);
    assert.equal(projects.active?.counts(['notes'])['notes'], 1);
    assert.equal(projects.active?.counts(['items'])['items'], 44);
  });

  it('reports a file that is not a project without touching it', async () => {
    const { recentCommandErrors } = await api();
    const dir = workDir('bad');
    const file = path.join(dir, 'bad.pyops');
    fs.writeFileSync(file, 'not a database');
    const r = await vscode.commands.executeCommand('pyops.project.open', { file });
    assert.equal(r, undefined);
    assert.match(recentCommandErrors().at(-1)?.message ?? '', /not a PyOps project/);
    assert.equal(fs.readFileSync(file, 'utf8'), 'not a database');
  });

  it('opens a project held by another window read-only, with a clear notice, and takes it over once that window is gone', async function () {
    this.timeout(60_000);
    const { projects } = await api();
    const dir = workDir('read-only');
    const file = path.join(dir, 'shared.pyops');
    await vscode.commands.executeCommand('pyops.project.new', { file, name: 'Shared factory' });
    projects.close();
    // Another window is another extension host process holding the project's lock.
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      fs.writeFileSync(file + '.lock', JSON.stringify({ pid: other.pid, host: os.hostname(), app: 'vscode (other window)', since: new Date().toISOString() }));
      await vscode.commands.executeCommand('pyops.project.open', { file });
      assert.equal(projects.active?.readOnly, true);
      assert.match(projects.active?.readOnlyReason ?? '', /open in another PyOps window \(vscode \(other window\)/);
      const r = await vscode.commands.executeCommand('pyops.gamedata.import', { source: sampleWorld().dump });
      assert.equal(r, undefined, 'a read-only project refuses imports');
      const ro = await uiRequest({ statusBarIncludes: ['Shared factory (read-only'] });
      assert.deepEqual(ro.failures, []);
    } finally {
      other.kill();
    }
    // The other window is gone (its process ended without a word): the project is taken over for editing.
    const p = await waitFor(() => projects.active && !projects.active.readOnly && projects.active.file === file && projects.active, 'the project taken over', 20_000);
    assert.equal(p.name, 'Shared factory');
    const ui = await uiRequest({ statusBarIncludes: ['Shared factory'], pageSelectorsAbsent: ['#workbench\\.parts\\.statusbar :text("read-only")'], screenshot: { file: 'taken-over.png', element: 'page' } });
    assert.deepEqual(ui.failures, []);
    projects.close();
  });

  it('shows the active project in the status bar', async () => {
    const { projects } = await api();
    const dir = workDir('status');
    await vscode.commands.executeCommand('pyops.project.new', { file: path.join(dir, 'status.pyops'), name: 'Status bar factory' });
    assert.equal(projects.active?.name, 'Status bar factory');
    // The runner reads the rendered status bar (the extension host cannot see it).
    const failures = await checkInWorkbench({ statusBarIncludes: ['Status bar factory'], screenshot: { file: 'status-bar.png', element: 'statusbar' } });
    assert.deepEqual(failures, []);
  });
});
