// Extraction writes and deletes only in its own cache and reads only from the game's folders: a
// cache folder that is a link (or holds links) leaves the user's files where it points
// byte-identical, and source paths that step out with `..`, through a linked mod folder, file or
// zip, or by a zip entry's own name are refused and named in the summary.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { extractIcons, type IconSpecRow } from '../../../../../src/core/gamedata/icons/extract';
import { drawIcons, type IconExtractSummary } from '../../../../../src/core/gamedata/icons/draw';
import { iconCacheDir, MANIFEST_FILE, readManifest } from '../../../../../src/core/gamedata/icons/cache';
import { DEFAULT_ICON_LIMITS } from '../../../../../src/core/gamedata/icons/limits';
import type { IconLayer } from '../../../../../src/core/gamedata/icons/spec';
import { tempDir } from '../../../../helpers/paths';
import { solid, writeFile, zip } from '../../../../helpers/iconFiles';

const layer = (icon: string): IconLayer => ({ icon, size: 4, scale: 8, shift: [0, 0], tint: null, floating: false });
const row = (name: string, icon: string): IconSpecRow => ({ kind: 'item', name, spec: { canvas: 32, layers: [layer(icon)] } });

/** Every file below `dir` (links not followed) with a hash of its bytes, or where a link points. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const p = path.join(e.parentPath ?? e.path, e.name);
    const rel = path.relative(dir, p);
    if (e.isSymbolicLink()) out[rel] = `link → ${fs.readlinkSync(p)}`;
    else if (e.isFile()) out[rel] = crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex');
  }
  return out;
}

describe('icon extraction stays inside its folders', () => {
  let dir: string;
  let project: string;
  let outside: string;
  let folders: { gameData: string; mods: string };
  beforeEach(() => {
    dir = tempDir();
    project = path.join(dir, 'work', 'p.pyops');
    outside = path.join(dir, 'elsewhere');
    folders = { gameData: path.join(dir, 'install', 'data'), mods: path.join(dir, 'user', 'mods') };
    writeFile(path.join(folders.gameData, 'base', 'icons', 'plate.png'), solid(4, 4, [255, 0, 0, 255]));
    // The user's own files outside the game's folders, some named like PyOps' own.
    writeFile(path.join(outside, '0123456789abcdef01234567.png'), solid(4, 4, [1, 2, 3, 255]));
    writeFile(path.join(outside, 'manifest.json'), '{"mine": true}');
    writeFile(path.join(outside, 'notes.txt'), 'keep me');
    writeFile(path.join(outside, 'half.png.0a1b.tmp'), 'keep me too');
    writeFile(path.join(outside, 'secret.png'), solid(4, 4, [0, 0, 255, 255]));
    fs.mkdirSync(folders.mods, { recursive: true });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const draw = (specs: IconSpecRow[], f = folders): Promise<IconExtractSummary> =>
    drawIcons({ projectFile: project, fingerprint: 'fp', specs, folders: f, pins: {}, size: 8, limits: DEFAULT_ICON_LIMITS });

  it('refuses a cache folder that is a symbolic link and leaves its target untouched', async () => {
    fs.mkdirSync(path.dirname(project), { recursive: true });
    fs.symlinkSync(outside, iconCacheDir(project));
    const before = snapshot(outside);
    await assert.rejects(extractIcons(project, 'fp', [row('plate', '__base__/icons/plate.png')], { folders, size: 8 }), /icon cache .* is a symbolic link.*Remove the link \(not its target\)/);
    assert.deepEqual(snapshot(outside), before);
    assert.ok(fs.lstatSync(iconCacheDir(project)).isSymbolicLink(), 'the link itself is left as it was');
    assert.equal(readManifest(project), undefined, 'no icons show through the link');
  });

  it('replaces links inside the cache instead of writing or deleting through them', async () => {
    await draw([row('plate', '__base__/icons/plate.png')]);
    const cache = iconCacheDir(project);
    const picture = readManifest(project)!.icons['item:plate'];
    // The drawn picture, the manifest and an unused picture name all become links to the user's files.
    fs.rmSync(path.join(cache, picture));
    fs.symlinkSync(path.join(outside, 'secret.png'), path.join(cache, picture));
    fs.rmSync(path.join(cache, MANIFEST_FILE));
    fs.symlinkSync(path.join(outside, 'manifest.json'), path.join(cache, MANIFEST_FILE));
    fs.symlinkSync(path.join(outside, 'notes.txt'), path.join(cache, 'ffffffffffffffffffffffff.png'));
    const before = snapshot(outside);

    const s = await draw([row('plate', '__base__/icons/plate.png')]);
    assert.equal(s.drawn, 1, 'the linked picture is drawn again, not taken as drawn');
    assert.deepEqual(snapshot(outside), before);
    assert.ok(fs.lstatSync(path.join(cache, picture)).isFile());
    assert.ok(fs.lstatSync(path.join(cache, MANIFEST_FILE)).isFile());
    assert.equal(fs.existsSync(path.join(cache, 'ffffffffffffffffffffffff.png')), false);
    assert.equal(readManifest(project)!.icons['item:plate'], picture);
  });

  it('refuses `..` in a path, in a mod name and in a zip entry\'s name', async () => {
    writeFile(path.join(dir, 'install', 'secret.png'), solid(4, 4, [0, 0, 255, 255]));
    writeFile(path.join(folders.mods, 'zz_1.0.0.zip'), zip({ 'zz/../escape.png': solid(4, 4, [0, 255, 0, 255]), 'zz/ok.png': solid(4, 4, [0, 255, 0, 255]) }));
    const s = await draw([
      row('plate', '__base__/icons/plate.png'),
      row('up', '__base__/../../secret.png'),
      row('mod-up', '__..__/secret.png'),
      row('zip-up', '__zz__/../escape.png'),
      row('zip-ok', '__zz__/ok.png'),
    ]);
    assert.equal(s.extracted, 2);
    assert.deepEqual(s.refusedIcons.map((r) => r.icon).sort(), ['item:mod-up', 'item:up', 'item:zip-up']);
    assert.match(s.refusedIcons.find((r) => r.icon === 'item:up')!.reason, /__base__\/\.\.\/\.\.\/secret\.png steps outside its mod's folder/);
    assert.deepEqual(Object.keys(readManifest(project)!.icons).sort(), ['item:plate', 'item:zip-ok']);
  });

  it('refuses mod folders, files and zips that are links leading outside the game\'s folders', async () => {
    writeFile(path.join(outside, 'evilmod', 'icons', 'a.png'), solid(4, 4, [9, 9, 9, 255]));
    fs.symlinkSync(path.join(outside, 'evilmod'), path.join(folders.mods, 'evilmod'));
    fs.symlinkSync(path.join(outside, 'secret.png'), path.join(folders.gameData, 'base', 'icons', 'link.png'));
    writeFile(path.join(outside, 'z.zip'), zip({ 'z/a.png': solid(4, 4, [9, 9, 9, 255]) }));
    fs.symlinkSync(path.join(outside, 'z.zip'), path.join(folders.mods, 'z_1.0.0.zip'));
    const before = snapshot(outside);
    const s = await draw([row('plate', '__base__/icons/plate.png'), row('folder', '__evilmod__/icons/a.png'), row('file', '__base__/icons/link.png'), row('zip', '__z__/a.png')]);
    assert.equal(s.extracted, 1);
    assert.equal(s.refused, 3);
    for (const r of s.refusedIcons) assert.match(r.reason, /leads to .*elsewhere.*, outside the game's data folder and the mods folder/);
    assert.deepEqual(snapshot(outside), before);
  });

  it('follows links that stay inside, and game folders that are themselves links', async () => {
    const real = path.join(dir, 'drive', 'factorio-data');
    fs.mkdirSync(path.dirname(real));
    fs.renameSync(folders.gameData, real);
    fs.symlinkSync(real, folders.gameData);
    fs.symlinkSync(path.join(real, 'base', 'icons', 'plate.png'), path.join(real, 'base', 'icons', 'alias.png'));
    const s = await draw([row('plate', '__base__/icons/plate.png'), row('alias', '__base__/icons/alias.png')]);
    assert.deepEqual([s.extracted, s.refused], [2, 0]);
  });
});
