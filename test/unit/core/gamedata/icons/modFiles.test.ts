// Finding `__mod__/path` in the game's data folder and the user's mods folder (folders, versioned
// folders, zips with any top folder), and reading single entries out of zips, zip64 included.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ModFiles } from '../../../../../src/core/gamedata/icons/modFiles';
import { readModPins } from '../../../../../src/core/gamedata/icons/modPins';
import { ZipArchive } from '../../../../../src/core/gamedata/icons/zip';
import { tempDir } from '../../../../helpers/paths';
import { writeFile, zip } from '../../../../helpers/iconFiles';

async function text(files: ModFiles, p: string): Promise<string> {
  const r = await files.resolve(p);
  if (!r.ok) return `missing: ${r.reason}`;
  return (await r.file.read()).toString();
}

describe('icon source files', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  for (const opts of [{}, { deflate: true }, { zip64: true }, { deflate: true, zip64: true }]) {
    it(`reads entries of a zip (${JSON.stringify(opts)})`, async () => {
      const file = path.join(dir, 'a.zip');
      const big = Buffer.alloc(5000, 'x');
      writeFile(file, zip({ 'top/a.txt': Buffer.from('alpha'), 'top/sub/b.bin': big }, opts));
      const z = await ZipArchive.open(file);
      try {
        assert.deepEqual([...z.entries.keys()], ['top/a.txt', 'top/sub/b.bin']);
        assert.equal((await z.read(z.entries.get('top/a.txt')!)).toString(), 'alpha');
        assert.deepEqual(await z.read(z.entries.get('top/sub/b.bin')!), big);
      } finally {
        await z.close();
      }
    });
  }

  it('refuses a file that is not a zip, saying so', async () => {
    const file = path.join(dir, 'bad.zip');
    writeFile(file, 'not a zip at all');
    await assert.rejects(ZipArchive.open(file), /not a zip file/);
  });

  it('resolves the game\'s own mods in data/ and the others in mods/', async () => {
    const data = path.join(dir, 'install', 'data');
    const mods = path.join(dir, 'user', 'mods');
    writeFile(path.join(data, 'base', 'graphics', 'icons', 'a.png'), 'base-a');
    writeFile(path.join(mods, 'devmod', 'g', 'x.png'), 'dev');
    writeFile(path.join(mods, 'foldermod_1.2.0', 'g', 'x.png'), 'folder-1.2.0');
    // Zips: the newest version wins, and the top folder's name does not matter.
    writeFile(path.join(mods, 'zipmod_1.9.0.zip'), zip({ 'zipmod_1.9.0/g/x.png': Buffer.from('zip-1.9') }));
    writeFile(path.join(mods, 'zipmod_1.10.0.zip'), zip({ 'whatever/g/x.png': Buffer.from('zip-1.10') }, { deflate: true }));
    const files = new ModFiles({ gameData: data, mods });
    try {
      assert.equal(await text(files, '__base__/graphics/icons/a.png'), 'base-a');
      assert.equal(await text(files, '__devmod__/g/x.png'), 'dev');
      assert.equal(await text(files, '__foldermod__/g/x.png'), 'folder-1.2.0');
      assert.equal(await text(files, '__zipmod__/g/x.png'), 'zip-1.10');
      assert.match(await text(files, '__zipmod__/g/none.png'), /missing: .*zipmod_1\.10\.0\.zip has no g\/none\.png/);
      assert.match(await text(files, '__nomod__/g/x.png'), /missing: mod "nomod" is not in/);
      assert.match(await text(files, '__base__/graphics/none.png'), /missing: .*does not exist/);
    } finally {
      await files.close();
    }
  });

  it('takes the version mod-list.json pins over the newest', async () => {
    const mods = path.join(dir, 'mods');
    writeFile(path.join(mods, 'm_1.0.0.zip'), zip({ 'm_1.0.0/i.png': Buffer.from('old') }));
    writeFile(path.join(mods, 'm_2.0.0.zip'), zip({ 'm_2.0.0/i.png': Buffer.from('new') }));
    writeFile(path.join(mods, 'mod-list.json'), JSON.stringify({ mods: [{ name: 'm', enabled: true, version: '1.0.0' }] }));
    assert.deepEqual(readModPins(mods), { m: '1.0.0' });
    const files = new ModFiles({ mods }, undefined, readModPins(mods));
    try {
      assert.equal(await text(files, '__m__/i.png'), 'old');
    } finally {
      await files.close();
    }
  });

  it('gives a stamp that changes with a zip entry\'s content', async () => {
    const mods = path.join(dir, 'mods');
    const stampOf = async (content: string) => {
      writeFile(path.join(mods, 'm_1.0.0.zip'), zip({ 'm/i.png': Buffer.from(content) }));
      const files = new ModFiles({ mods });
      const r = await files.resolve('__m__/i.png');
      await files.close();
      assert.ok(r.ok);
      return r.file.stamp;
    };
    assert.notEqual(await stampOf('one'), await stampOf('two'));
  });
});
