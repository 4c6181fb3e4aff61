// The extraction runs on its own thread: progress comes back while it works, a cancel ends the
// thread at once (nothing more is written, the manifest of the run before stays), errors cross
// back in their own words, and the thread's heap has a ceiling that is reported when reached.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { extractIcons, type IconSpecRow } from '../../../../../src/core/gamedata/icons/extract';
import { iconCacheDir, readManifest } from '../../../../../src/core/gamedata/icons/cache';
import { runningIconThreads } from '../../../../../src/core/gamedata/icons/thread';
import { tempDir } from '../../../../helpers/paths';
import { png, writeFile } from '../../../../helpers/iconFiles';

const layer = (icon: string, size: number) => ({ icon, size, scale: 32 / size, shift: [0, 0] as [number, number], tint: null, floating: false });

describe('icon extraction thread', function () {
  this.timeout(60_000);
  let dir: string;
  let project: string;
  let folders: { gameData: string };
  beforeEach(() => {
    dir = tempDir();
    project = path.join(dir, 'p.pyops');
    folders = { gameData: path.join(dir, 'data') };
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** `n` distinct 256 px pictures with noise in them: seconds of decoding and drawing in all. */
  function manyIcons(n: number): IconSpecRow[] {
    const specs: IconSpecRow[] = [];
    for (let i = 0; i < n; i++) {
      writeFile(path.join(folders.gameData, 'base', `${i}.png`), png(256, 256, (x, y) => [(x * 31 + i) & 255, (y * 17 + i) & 255, (x ^ y) & 255, 255]));
      specs.push({ kind: 'item', name: `i${i}`, spec: { canvas: 32, layers: [layer(`__base__/${i}.png`, 256)] } });
    }
    return specs;
  }

  it('reports progress from its thread and ends the thread with the run', async () => {
    const specs = manyIcons(4);
    const seen: Array<[number, number, number]> = [];
    const s = await extractIcons(project, 'fp', specs, { folders, onProgress: (done, total) => seen.push([done, total, runningIconThreads()]) });
    assert.equal(s.extracted, 4);
    assert.deepEqual(seen.at(-1), [4, 4, 1], 'the last report comes from a thread still running');
    assert.equal(runningIconThreads(), 0);
  });

  it('stops the thread at once on cancel, keeping the icons of the run before', async () => {
    const specs = manyIcons(80);
    await extractIcons(project, 'fp', specs.slice(0, 1), { folders });
    const manifest = readManifest(project);
    const abort = new AbortController();
    let threadsWhenCancelled = 0;
    const run = extractIcons(project, 'fp2', specs, {
      folders,
      signal: abort.signal,
      onProgress: (done) => {
        if (done >= 1 && !abort.signal.aborted) {
          threadsWhenCancelled = runningIconThreads();
          abort.abort();
        }
      },
    });
    await assert.rejects(run, { name: 'IconsCancelled', message: /cancelled; the icons extracted before stay in use/ });
    assert.equal(threadsWhenCancelled, 1);
    assert.equal(runningIconThreads(), 0, 'the thread is gone when the call settles');
    const files = fs.readdirSync(iconCacheDir(project)).sort();
    assert.ok(files.length < specs.length, `${files.length} files: the run did not go on to the end`);
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(fs.readdirSync(iconCacheDir(project)).sort(), files, 'nothing is written after the cancel');
    assert.deepEqual(readManifest(project), manifest);
  });

  it('refuses to start when already cancelled', async () => {
    const abort = new AbortController();
    abort.abort();
    await assert.rejects(extractIcons(project, 'fp', [], { folders, signal: abort.signal }), { name: 'IconsCancelled' });
    assert.equal(fs.existsSync(iconCacheDir(project)), false);
  });

  it('brings an error back from the thread in its own words', async () => {
    writeFile(iconCacheDir(project), 'a file where the cache folder goes');
    await assert.rejects(extractIcons(project, 'fp', [], { folders }), { name: 'IconCacheError', message: /is a file, not a folder/ });
  });

  it('stops a thread that outgrows its heap ceiling and says so', async () => {
    // 200,000 specs are tens of MB of objects on the thread's heap: far over a 16 MB ceiling.
    const specs: IconSpecRow[] = Array.from({ length: 200_000 }, (_, i) => ({ kind: 'item', name: `item-with-a-long-name-${i}`, spec: { canvas: 32, layers: [layer(`__base__/icons/missing-${i}.png`, 64)] } }));
    await assert.rejects(extractIcons(project, 'fp', specs, { folders, limits: { workerHeapMb: 16 } }), /needed more than the 16 MB of memory it may use and was stopped; the icons extracted before stay in use/);
    assert.equal(runningIconThreads(), 0);
  });
});
