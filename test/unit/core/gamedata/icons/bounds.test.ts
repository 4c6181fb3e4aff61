// Hostile source files cost bounded time and memory, measured in a child process that runs the
// extraction exactly as the extension does (on its thread) under a watchdog: a PNG whose header
// declares 30000×30000 pixels, zips whose entries inflate to gigabytes (declared honestly or not),
// and zips whose directory claims 4 GB — which aborted Node 20 outright. Each refused icon is named
// in the summary, and the harmless icon beside them is still drawn.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { IconExtractSummary, IconSpecRow } from '../../../../../src/core/gamedata/icons/extract';
import type { IconLayer } from '../../../../../src/core/gamedata/icons/spec';
import { runBounded, type BoundedRun } from '../../../../helpers/boundedChild';
import { tempDir } from '../../../../helpers/paths';
import { deflatedZeros, pngClaiming, solid, writeFile, zip } from '../../../../helpers/iconFiles';

const CHILD = path.join(path.dirname(new URL(import.meta.url).pathname), 'extractChild.ts');
/** Peak resident memory allowed for the whole child (Node, tsx, the icon thread and its work). */
const MAX_RSS_MB = 300;
const GiB = 1024 ** 3;

const layer = (icon: string): IconLayer => ({ icon, size: 4, scale: 8, shift: [0, 0], tint: null, floating: false });
const row = (name: string, icon: string): IconSpecRow => ({ kind: 'item', name, spec: { canvas: 32, layers: [layer(icon)] } });

interface Outcome {
  run: BoundedRun;
  summary?: IconExtractSummary;
  error?: string;
  maxRssMb?: number;
}

describe('icon extraction under hostile files', function () {
  this.timeout(120_000);
  let dir: string;
  let folders: { gameData: string; mods: string };
  beforeEach(() => {
    dir = tempDir();
    folders = { gameData: path.join(dir, 'install', 'data'), mods: path.join(dir, 'user', 'mods') };
    writeFile(path.join(folders.gameData, 'base', 'icons', 'plate.png'), solid(4, 4, [255, 0, 0, 255]));
    fs.mkdirSync(folders.mods, { recursive: true });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function extractInChild(specs: IconSpecRow[]): Promise<Outcome> {
    const jobFile = path.join(dir, 'job.json');
    fs.writeFileSync(jobFile, JSON.stringify({ projectFile: path.join(dir, 'p.pyops'), specs: [row('plate', '__base__/icons/plate.png'), ...specs], folders }));
    const run = await runBounded(CHILD, [jobFile], { rssMb: 1500, seconds: 60 });
    const out = run.stdout ? (JSON.parse(run.stdout) as Omit<Outcome, 'run'>) : {};
    return { run, ...out };
  }

  function assertBounded(o: Outcome): IconExtractSummary {
    assert.equal(o.run.killed, undefined, `the watchdog stopped the child: ${o.run.killed}`);
    assert.equal(o.run.signal, null, `the child died of ${o.run.signal}: ${o.run.stderr.slice(0, 400)}`);
    assert.equal(o.run.code, 0, o.run.stderr.slice(0, 400));
    assert.ok(o.summary, `no summary: ${o.error ?? o.run.stderr.slice(0, 400)}`);
    assert.ok(o.maxRssMb! <= MAX_RSS_MB, `peak resident memory ${o.maxRssMb} MB (sampled ${o.run.sampledPeakMb} MB)`);
    assert.ok(o.run.sampledPeakMb <= MAX_RSS_MB, `sampled resident memory ${o.run.sampledPeakMb} MB`);
    assert.equal(o.summary.extracted, 1, 'the harmless icon is still drawn');
    return o.summary;
  }

  it('refuses a PNG whose header declares 30000×30000 pixels before decoding it', async () => {
    writeFile(path.join(folders.gameData, 'base', 'icons', 'bomb.png'), pngClaiming(30000, 30000));
    assert.ok(fs.statSync(path.join(folders.gameData, 'base', 'icons', 'bomb.png')).size < 100);
    const s = assertBounded(await extractInChild([row('bomb', '__base__/icons/bomb.png')]));
    assert.equal(s.refused, 1);
    assert.equal(s.refusedIcons[0].icon, 'item:bomb');
    assert.match(s.refusedIcons[0].reason, /__base__\/icons\/bomb\.png declares 30,000×30,000 pixels/);
  });

  it('refuses zip entries that inflate to gigabytes, whether their directory says so or not', async () => {
    const honest = deflatedZeros(2 * GiB);
    const lying = deflatedZeros(GiB);
    const entries: Parameters<typeof zip>[0] = {};
    for (let i = 0; i < 4; i++) {
      entries[`bombs/icons/big-${i}.png`] = { stored: honest, method: 8, size: 2 * GiB };
      entries[`bombs/icons/liar-${i}.png`] = { stored: lying, method: 8, size: 100_000 };
    }
    writeFile(path.join(folders.mods, 'bombs_1.0.0.zip'), zip(entries));
    const specs = Object.keys(entries).map((e) => row(path.basename(e, '.png'), `__bombs__/${e.slice('bombs/'.length)}`));
    const s = assertBounded(await extractInChild(specs));
    assert.equal(s.missing, 8);
    assert.equal(s.refused, 8);
    assert.deepEqual(s.refusedIcons.map((r) => r.icon).sort(), specs.map((r) => `item:${r.name}`).sort());
    assert.match(s.refusedIcons.find((r) => r.icon === 'item:big-0')!.reason, /big-0\.png is 2,048 MB, over the 16 MB PyOps reads for one icon file/);
    assert.match(s.refusedIcons.find((r) => r.icon === 'item:liar-0')!.reason, /liar-0\.png inflates to more than the 100,000 bytes its directory declares/);
  });

  it('does not abort on zips whose directory claims 4 GB', async () => {
    // A directory entry claiming 4 GB stored, one claiming 4 GB inflated, and an archive whose end
    // record claims a 4 GB directory: Node 20 aborted (SIGABRT) when asked to read that much at once.
    const tiny = Buffer.from([0x03, 0x00]);
    writeFile(path.join(folders.mods, 'stored4g_1.0.0.zip'), zip({ 'stored4g/a.png': { stored: tiny, method: 8, size: 1000, compressedSize: 0xfffffff0 } }));
    writeFile(path.join(folders.mods, 'inflated4g_1.0.0.zip'), zip({ 'inflated4g/a.png': { stored: tiny, method: 8, size: 0xfffffff0 } }));
    const dir4g = zip({ 'dir4g/a.png': solid(4, 4, [0, 0, 255, 255]) });
    dir4g.writeUInt32LE(0xfffffff0, dir4g.length - 22 + 12);
    writeFile(path.join(folders.mods, 'dir4g_1.0.0.zip'), dir4g);
    for (const f of fs.readdirSync(folders.mods)) assert.ok(fs.statSync(path.join(folders.mods, f)).size < 400, f);
    const s = assertBounded(await extractInChild([row('a', '__stored4g__/a.png'), row('b', '__inflated4g__/a.png'), row('c', '__dir4g__/a.png')]));
    assert.equal(s.missing, 3);
    const reasons = s.missingReasons.map((r) => r.reason).join('\n');
    assert.match(reasons, /stored4g_1\.0\.0\.zip: stored4g\/a\.png: its directory entry claims 4,096 MB .*damaged/);
    assert.match(reasons, /inflated4g.*4,096 MB, over the 16 MB/);
    assert.match(reasons, /dir4g_1\.0\.0\.zip: its directory claims 4,096 MB .*damaged/);
  });
});
