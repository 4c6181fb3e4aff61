// Extraction into the cache beside a project: one picture per distinct icon, a manifest mapping each
// prototype to it, pictures kept when nothing changed, redrawn (and the old file removed) when a
// source file changes, and a missing or broken file costing only its own icon.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { extractIcons, describeIconSummary, type IconSpecRow } from '../../../../../src/core/gamedata/icons/extract';
import { goodIconFile, iconCacheDir, readManifest, MANIFEST_FILE } from '../../../../../src/core/gamedata/icons/cache';
import type { IconLayer } from '../../../../../src/core/gamedata/icons/spec';
import { tempDir } from '../../../../helpers/paths';
import { pixelOf, solid, writeFile, zip } from '../../../../helpers/iconFiles';

const layer = (icon: string, over: Partial<IconLayer> = {}): IconLayer => ({ icon, size: 4, scale: 8, shift: [0, 0], tint: null, floating: false, ...over });
const row = (kind: IconSpecRow['kind'], name: string, ...layers: IconLayer[]): IconSpecRow => ({ kind, name, spec: { canvas: 32, layers } });

describe('icon extraction', () => {
  let dir: string;
  let project: string;
  let folders: { gameData: string; mods: string };
  beforeEach(() => {
    dir = tempDir();
    project = path.join(dir, 'work', 'p.pyops');
    folders = { gameData: path.join(dir, 'install', 'data'), mods: path.join(dir, 'user', 'mods') };
    // A red plate in base (with a 2 px mipmap beside it), a green gear in a zipped mod.
    writeFile(path.join(folders.gameData, 'base', 'icons', 'plate.png'), solid(6, 4, [255, 0, 0, 255]));
    writeFile(path.join(folders.mods, 'gears_1.0.0.zip'), zip({ 'gears_1.0.0/icons/gear.png': solid(4, 4, [0, 255, 0, 255]) }, { deflate: true }));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const specs = () => [
    row('item', 'plate', layer('__base__/icons/plate.png')),
    row('recipe', 'plate', layer('__base__/icons/plate.png')),
    row('fluid', 'gear-oil', layer('__gears__/icons/gear.png'), layer('__base__/icons/plate.png', { scale: 4, shift: [8, 8] })),
    row('entity', 'ghost', layer('__gone__/icons/ghost.png')),
  ];

  it('draws one picture per distinct icon and maps every prototype to it', async () => {
    const s = await extractIcons(project, 'fp1', specs(), { folders, size: 8 });
    assert.deepEqual([s.extracted, s.drawn, s.missing], [3, 2, 1]);
    assert.match(s.missingReasons[0].reason, /mod "gone" is not in/);
    assert.equal(describeIconSummary(s), 'icons: 3 extracted (2 new), 1 missing');
    const m = readManifest(project)!;
    assert.equal(m.fingerprint, 'fp1');
    assert.equal(m.icons['item:plate'], m.icons['recipe:plate']);
    assert.equal(m.icons['entity:ghost'], undefined);
    const plate = fs.readFileSync(path.join(iconCacheDir(project), m.icons['item:plate']));
    assert.deepEqual(pixelOf(plate, 7, 7), [255, 0, 0, 255]);
    // Gear fills the slot; the plate sits in the bottom-right quarter over it.
    const oil = fs.readFileSync(path.join(iconCacheDir(project), goodIconFile(m, 'gear-oil')!));
    assert.deepEqual(pixelOf(oil, 1, 1), [0, 255, 0, 255]);
    assert.deepEqual(pixelOf(oil, 6, 6), [255, 0, 0, 255]);
    assert.deepEqual(fs.readdirSync(iconCacheDir(project)).sort(), [MANIFEST_FILE, ...new Set(Object.values(m.icons))].sort());
  });

  it('keeps pictures whose sources did not change, and replaces those whose did', async () => {
    await extractIcons(project, 'fp1', specs(), { folders, size: 8 });
    const before = readManifest(project)!;
    const again = await extractIcons(project, 'fp1', specs(), { folders, size: 8 });
    assert.equal(again.drawn, 0);
    assert.deepEqual(readManifest(project)!.icons, before.icons);

    writeFile(path.join(folders.mods, 'gears_1.0.0.zip'), zip({ 'gears_1.0.0/icons/gear.png': solid(4, 4, [0, 0, 255, 255]) }));
    const changed = await extractIcons(project, 'fp2', specs(), { folders, size: 8 });
    assert.equal(changed.drawn, 1);
    const after = readManifest(project)!;
    assert.equal(after.icons['item:plate'], before.icons['item:plate']);
    assert.notEqual(after.icons['fluid:gear-oil'], before.icons['fluid:gear-oil']);
    assert.equal(fs.existsSync(path.join(iconCacheDir(project), before.icons['fluid:gear-oil'])), false);
  });

  it('counts a file that is not a PNG as missing and draws the rest', async () => {
    writeFile(path.join(folders.gameData, 'base', 'icons', 'plate.png'), 'not a png');
    const s = await extractIcons(project, 'fp1', specs(), { folders, size: 8 });
    assert.equal(s.extracted, 0);
    assert.equal(s.missing, 4);
    assert.match(s.missingReasons.map((r) => r.reason).join('\n'), /plate\.png could not be drawn/);
  });

  it('shows no icons for a manifest it did not write', () => {
    writeFile(path.join(iconCacheDir(project), MANIFEST_FILE), JSON.stringify({ format: 1, icons: { 'item:x': '../../etc/passwd' } }));
    assert.equal(readManifest(project), undefined);
    assert.equal(readManifest(path.join(dir, 'nothing.pyops')), undefined);
  });
});
