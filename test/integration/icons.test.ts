// Game icons inside a real VS Code: a project imported from a dump file has no pictures until
// "Extract Icons from Factorio" reads them from a (made-up) install and mods folder — one icon in
// the game's base folder, one in a zipped mod — after which the Factory view, the Factory Balance
// and the block editor show them. A PNG bomb among them is refused by the extraction thread (the
// bundled one, as users run it) and named in the summary.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import fs from 'node:fs';
import path from 'node:path';
import { createBlock } from '../../src/core/planning/factory/blocks';
import { solverFor } from '../../src/core/assistant/tools/context';
import { planningContext } from '../../src/core/planning/context';
import { iconCacheDir } from '../../src/core/gamedata/icons/cache';
import type { IconExtractSummary } from '../../src/core/gamedata/icons/extract';
import { png, pngClaiming, writeFile, zip, type Rgba } from '../helpers/iconFiles';
import { api, sampleWorld, uiRequest, waitFor, workDir } from './helpers';

/** A 64 px disc (and its 32 px mipmap beside it), so a wrong crop or scale shows. */
function disc(color: Rgba): Buffer {
  return png(96, 64, (x, y) => {
    const [cx, cy, r] = x < 64 ? [32, 32, 28] : [80, 16, 14];
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r ? color : [0, 0, 0, 0];
  });
}

describe('PyOps game icons', () => {
  const cfg = () => vscode.workspace.getConfiguration('pyops');
  let dir: string;
  let gears: string;

  before(async function () {
    this.timeout(60_000);
    dir = workDir('icons');
    const install = path.join(dir, 'factorio');
    const userData = path.join(dir, 'factorio-user-data');
    writeFile(path.join(install, 'bin', 'x64', 'factorio'), '#!/bin/sh\n');
    writeFile(path.join(install, 'data', 'base', 'graphics', 'gear.png'), disc([230, 140, 30, 255]));
    writeFile(path.join(install, 'data', 'base', 'graphics', 'bomb.png'), pngClaiming(30000, 30000));
    writeFile(path.join(userData, 'mods', 'sampleicons_1.0.0.zip'), zip({ 'sampleicons/graphics/plate.png': disc([90, 120, 200, 255]) }, { deflate: true }));
    const world = sampleWorld();
    const raw = JSON.parse(fs.readFileSync(world.dump, 'utf8'));
    raw.item.gear.icon = '__base__/graphics/gear.png';
    raw.item['ferrite-plate'].icon = '__sampleicons__/graphics/plate.png';
    raw.item.ash.icon = '__base__/graphics/bomb.png';
    raw['assembling-machine'].press.icons = [{ icon: '__base__/graphics/gear.png' }, { icon: '__sampleicons__/graphics/plate.png', scale: 0.25, shift: [8, 8] }];
    const data = path.join(dir, 'dump');
    writeFile(path.join(data, 'data-raw-dump.json'), JSON.stringify(raw));
    for (const f of fs.readdirSync(world.dir)) if (f.endsWith('-locale.json')) fs.copyFileSync(path.join(world.dir, f), path.join(data, f));
    await vscode.commands.executeCommand('pyops.project.new', { file: path.join(dir, 'icons.pyops'), name: 'Icons' });
    await vscode.commands.executeCommand('pyops.gamedata.import', { source: path.join(data, 'data-raw-dump.json') });
    await vscode.commands.executeCommand('pyops.planning.setHorizon', { mode: 'future' });
    const { projects } = await api();
    const p = projects.require();
    gears = await createBlock(p, solverFor(planningContext(p)), { name: 'Gears', doc: { goals: [{ good: 'gear', rate: 2 }], recipes: [{ recipe: 'gear' }] } });
    await cfg().update('factorio.executablePath', path.join(install, 'bin', 'x64', 'factorio'), vscode.ConfigurationTarget.Global);
    await cfg().update('factorio.userDataPath', userData, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await cfg().update('factorio.executablePath', undefined, vscode.ConfigurationTarget.Global);
    await cfg().update('factorio.userDataPath', undefined, vscode.ConfigurationTarget.Global);
  });

  it('shows the usual symbols before any extraction', async () => {
    const { factory } = await api();
    const block = await waitFor(() => factory.current()?.blocks.find((b) => b.id === gears && b.state === 'solved'), 'the solved block in the Factory view');
    assert.ok(factory.getTreeItem({ kind: 'block', block }).iconPath instanceof vscode.ThemeIcon);
  });

  it('extracts the icons from the game and mods folders and shows them in the views and the block editor', async () => {
    const { factory, icons, projects, recentCommandErrors, blockEditors } = await api();
    const s = await vscode.commands.executeCommand<IconExtractSummary>('pyops.gamedata.extractIcons');
    assert.ok(s, JSON.stringify(recentCommandErrors().at(-1)));
    assert.equal(s.missing, s.refused, JSON.stringify(s.missingReasons));
    assert.ok(s.refusedIcons.some((r) => r.icon === 'item:ash' && /declares 30,000×30,000 pixels/.test(r.reason)), JSON.stringify(s.refusedIcons));
    assert.equal(icons.good('ash'), undefined, 'the refused icon keeps its usual symbol');
    assert.ok(s.extracted >= 4, `extracted ${s.extracted}`);
    assert.ok(icons.count >= 4);
    const cache = iconCacheDir(projects.require().file);
    const block = await waitFor(() => factory.current()?.blocks.find((b) => b.id === gears && b.state === 'solved'), 'the solved block');
    const blockIcon = factory.getTreeItem({ kind: 'block', block }).iconPath;
    assert.ok(blockIcon instanceof vscode.Uri, 'a solved block shows its goal\'s picture');
    assert.equal(path.dirname(blockIcon.fsPath), cache);
    assert.ok(fs.existsSync(blockIcon.fsPath));
    assert.ok(icons.icon('entity', 'press'));
    await vscode.commands.executeCommand('pyops.factory.focus');
    const tree = await uiRequest({ screenshot: { file: 'icons-factory-view.png', element: 'sidebar' } });
    assert.deepEqual(tree.failures, []);

    // Only this block's editor open, so the check below looks at its tab.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('pyops.block.edit', { blockId: gears });
    const view = await waitFor(() => blockEditors.lastView.get(gears), 'the block editor state');
    assert.match(view.goals[0].icon ?? '', /^https?:|^vscode-/, 'the goal carries a webview URI for its picture');
    assert.ok(view.rows[0].icon);
    const editor = await uiRequest({ webview: 'Ask @pyops about this block', webviewIncludes: ['Goals', 'Recipes (1)'], timeoutMs: 15_000, screenshot: { file: 'icons-block-editor.png', element: 'page' } });
    assert.deepEqual(editor.failures, []);
    // The flow diagram's nodes carry the same pictures.
    assert.equal(view.flow.nodes.find((n) => n.id === `r:${view.rows[0].recipe}`)?.icon, view.rows[0].icon);
    assert.equal(view.flow.nodes.find((n) => n.id === `g:${view.goals[0].good}`)?.icon, view.goals[0].icon);
    const flow = await uiRequest({ webview: 'Ask @pyops about this block', webviewReveal: 'Flow', timeoutMs: 15_000, screenshot: { file: 'icons-block-editor-flow.png', element: 'page' } });
    assert.deepEqual(flow.failures, []);
  });
});
