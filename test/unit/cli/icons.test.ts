// `pyops icons extract`: the sample world's data with icons pointing into a made-up install (the
// game's data/ folder, with the fake Factorio executable in bin/) and a mods folder holding a zip,
// one PNG bomb among them. It prints the report VS Code shows, --json the summary, finds the mods
// folder of a portable install by itself, and stops its extraction thread on Ctrl+C.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { run } from '../../../src/cli/main';
import { Project } from '../../../src/core/db/project';
import { importGameData } from '../../../src/core/gamedata/import';
import { iconCacheDir, readManifest } from '../../../src/core/gamedata/icons/cache';
import { REPO, SAMPLE_DUMP, SAMPLE_WORLD, tempDir } from '../../helpers/paths';
import { capture } from '../../helpers/cliIO';
import { png, pngClaiming, solid, writeFile, zip } from '../../helpers/iconFiles';

type Raw = Record<string, Record<string, Record<string, unknown>>>;

/** A project whose game data names icons: `edit` sets them on the raw dump before the import. */
async function projectWithIcons(dir: string, edit: (raw: Raw) => void): Promise<string> {
  const raw = JSON.parse(fs.readFileSync(SAMPLE_DUMP, 'utf8')) as Raw;
  edit(raw);
  const dump = path.join(dir, 'dump');
  writeFile(path.join(dump, 'data-raw-dump.json'), JSON.stringify(raw));
  for (const f of fs.readdirSync(SAMPLE_WORLD)) if (f.endsWith('-locale.json')) fs.copyFileSync(path.join(SAMPLE_WORLD, f), path.join(dump, f));
  const file = path.join(dir, 'icons.pyops');
  const p = await Project.create(file);
  try {
    await importGameData(p, dump);
  } finally {
    p.close();
  }
  return file;
}

/** An install folder as the game has it: bin/x64/factorio (the fake one) and data/. */
function install(dir: string): string {
  const root = path.join(dir, 'factorio');
  writeFile(path.join(root, 'bin', 'x64', 'factorio'), fs.readFileSync(path.join(REPO, 'test', 'fixtures', 'fake-factorio', 'factorio')));
  fs.mkdirSync(path.join(root, 'data', 'base'), { recursive: true });
  return root;
}

describe('pyops icons extract', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function sample() {
    const root = install(dir);
    const mods = path.join(dir, 'user', 'mods');
    writeFile(path.join(root, 'data', 'base', 'graphics', 'gear.png'), solid(64, 64, [230, 140, 30, 255]));
    writeFile(path.join(root, 'data', 'base', 'graphics', 'bomb.png'), pngClaiming(30000, 30000));
    writeFile(path.join(mods, 'sampleicons_1.0.0.zip'), zip({ 'sampleicons/graphics/plate.png': solid(64, 64, [90, 120, 200, 255]) }, { deflate: true }));
    const project = await projectWithIcons(dir, (raw) => {
      raw.item.gear.icon = '__base__/graphics/gear.png';
      raw.item['ferrite-plate'].icon = '__sampleicons__/graphics/plate.png';
      raw.item['ash'].icon = '__base__/graphics/bomb.png';
    });
    return { root, mods, project };
  }

  it('extracts from the install and the mods folder and prints the report VS Code shows', async () => {
    const { root, mods, project } = await sample();
    const io = capture();
    assert.equal(await run(['icons', 'extract', project, '--factorio', root, '--mods', mods], io), 0, io.stderr);
    const lines = io.stdout.trim().split('\n');
    assert.equal(lines.length, 1);
    // The item and the recipes that show their product's icon are refused together, for one reason.
    assert.match(
      lines[0],
      /^Icons: \d+ extracted \(\d+ new\), 3 missing\. Refused 3, which keep their usual symbol: ((item|recipe):[a-z-]+, ){2}(item|recipe):[a-z-]+ \(__base__\/graphics\/bomb\.png declares 30,000×30,000 pixels, more than the 4,194,304 pixels, 8,192 a side, PyOps decodes for one icon\)\. \(\d+\.\d s\)$/,
    );
    assert.match(lines[0], /[:,] item:ash[ ,]/);
    const m = readManifest(project)!;
    assert.ok(m.icons['item:gear'] && m.icons['item:ferrite-plate']);
    assert.equal(m.icons['item:ash'], undefined);

    const json = capture();
    assert.equal(await run(['icons', 'extract', project, '--factorio', root, '--mods', mods, '--json'], json), 0, json.stderr);
    const s = JSON.parse(json.stdout);
    assert.equal(s.gameData, path.join(root, 'data'));
    assert.equal(s.mods, mods);
    assert.equal(s.drawn, 0, 'the second run finds every picture in the cache');
    assert.equal(s.extracted, Object.keys(m.icons).length);
    assert.ok(s.refusedIcons.some((r: { icon: string }) => r.icon === 'item:ash'));
  });

  it('takes the mods folder of a portable install when --mods is not given', async () => {
    const { root, mods, project } = await sample();
    // A zip install keeps its user data, mods/ included, in the install folder.
    fs.writeFileSync(path.join(root, 'config-path.cfg'), 'config-path=__PATH__executable__/../../config\nuse-system-read-write-data-directories=false\n');
    fs.renameSync(mods, path.join(root, 'mods'));
    const io = capture();
    assert.equal(await run(['icons', 'extract', project, '--factorio', root, '--json'], io), 0, io.stderr);
    assert.equal(JSON.parse(io.stdout).mods, path.join(root, 'mods'));
    assert.ok(readManifest(project)!.icons['item:ferrite-plate']);
  });

  it('says what is wrong with the arguments', async () => {
    const { root, project } = await sample();
    for (const argv of [['icons'], ['icons', 'draw', project], ['icons', 'extract', project], ['icons', 'extract', '--factorio', root]]) {
      const io = capture();
      assert.equal(await run(argv, io), 2, argv.join(' '));
      assert.match(io.stderr, /pyops icons extract <project-file> --factorio <install-folder> \[--mods <mods-folder>\] \[--json\]/);
    }
    const notInstall = capture();
    assert.equal(await run(['icons', 'extract', project, '--factorio', path.join(root, 'bin')], notInstall), 1);
    assert.match(notInstall.stderr, /^pyops: .*bin has no data folder; --factorio takes the Factorio install folder \(the one holding bin\/ and data\/\)\.\n$/);
    const noMods = capture();
    assert.equal(await run(['icons', 'extract', project, '--factorio', root, '--mods', path.join(dir, 'none')], noMods), 1);
    assert.match(noMods.stderr, /--mods .*none is not a folder/);
    const help = capture();
    await run(['--help'], help);
    assert.match(help.stdout, /pyops icons extract <project-file>/);
  });

  it('stops the extraction on Ctrl+C and keeps what was there', async () => {
    const root = install(dir);
    // Every item, recipe and technology with its own 1024 px picture: seconds of decoding.
    const big = png(1024, 1024, (x, y) => [(x * 7) & 255, (y * 13) & 255, (x ^ y) & 255, 255]);
    let n = 0;
    const project = await projectWithIcons(dir, (raw) => {
      for (const kind of ['item', 'recipe', 'technology']) {
        for (const proto of Object.values(raw[kind])) {
          const file = `graphics/${n++}.png`;
          writeFile(path.join(root, 'data', 'base', file), big);
          Object.assign(proto, { icon: `__base__/${file}`, icon_size: 1024 });
        }
      }
    });
    const cache = iconCacheDir(project);
    fs.mkdirSync(path.join(dir, 'mods'));
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO, 'src', 'cli', 'index.ts'), 'icons', 'extract', project, '--factorio', root, '--mods', path.join(dir, 'mods')], { cwd: REPO });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Ctrl+C once the thread has drawn its first picture.
    while (!(fs.existsSync(cache) && fs.readdirSync(cache).some((f) => f.endsWith('.png')))) {
      assert.equal(child.exitCode, null, `the extraction ended before it could be interrupted: ${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill('SIGINT');
    assert.equal(await exited, 1, stderr);
    assert.match(stderr, /^pyops: Icon extraction was cancelled; the icons extracted before stay in use\.\n$/);
    const pictures = fs.readdirSync(cache).filter((f) => f.endsWith('.png'));
    assert.ok(pictures.length < n, `${pictures.length} of ${n} pictures drawn`);
    assert.equal(readManifest(project), undefined, 'a cancelled first run leaves no manifest');
  });
});
