// The checks that bound an extraction, one by one and in-process: a zip entry's declared sizes
// (per file, ratio, against the archive's real size) and an inflate that stops at the declared
// size; a PNG's declared pixels and an interlaced PNG's image data before decoding; and the whole
// run's totals, which refuse the icons past them by name.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { ZipArchive } from '../../../../../src/core/gamedata/icons/zip';
import { decodePng } from '../../../../../src/core/gamedata/icons/picture';
import { drawIcons } from '../../../../../src/core/gamedata/icons/draw';
import { DEFAULT_ICON_LIMITS, type IconLimits } from '../../../../../src/core/gamedata/icons/limits';
import type { IconSpecRow } from '../../../../../src/core/gamedata/icons/extract';
import { tempDir } from '../../../../helpers/paths';
import { deflatedZeros, pngClaiming, solid, writeFile, zip } from '../../../../helpers/iconFiles';

const MiB = 1024 * 1024;
const refused = { name: 'IconRefusal' };

describe('icon extraction limits', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function entryOf(entries: Parameters<typeof zip>[0], name: string, limits?: IconLimits): Promise<Buffer> {
    const file = path.join(dir, `${Object.keys(entries).length}-${Math.random()}.zip`);
    writeFile(file, zip(entries));
    const z = await ZipArchive.open(file);
    try {
      return await z.read(z.entries.get(name)!, limits);
    } finally {
      await z.close();
    }
  }

  it('refuses a zip entry by its declared size before reading it', async () => {
    const tiny = zlib.deflateRawSync(Buffer.alloc(10));
    await assert.rejects(entryOf({ 'm/a.png': { stored: tiny, method: 8, size: 17 * MiB } }, 'm/a.png'), { ...refused, message: /m\/a\.png is 17 MB, over the 16 MB PyOps reads for one icon file/ });
  });

  it('refuses an entry that would inflate more than 100:1, and keeps small ones whatever their ratio', async () => {
    const zeros = deflatedZeros(16 * MiB);
    const limits = { ...DEFAULT_ICON_LIMITS, maxFileBytes: 32 * MiB };
    await assert.rejects(entryOf({ 'm/a.png': { stored: zeros, method: 8, size: 16 * MiB } }, 'm/a.png', limits), { ...refused, message: /would inflate .* to 16 MB, more than the 100:1/ });
    const small = Buffer.alloc(500_000);
    assert.deepEqual(await entryOf({ 'm/b.png': { stored: zlib.deflateRawSync(small), method: 8, size: small.length } }, 'm/b.png'), small);
  });

  it('stops inflating at the size the directory declares', async () => {
    await assert.rejects(entryOf({ 'm/a.png': { stored: deflatedZeros(64 * MiB), method: 8, size: 1000 } }, 'm/a.png'), { ...refused, message: /inflates to more than the 1,000 bytes its directory declares/ });
    await assert.rejects(entryOf({ 'm/a.png': { stored: zlib.deflateRawSync(Buffer.alloc(10)), method: 8, size: 1000 } }, 'm/a.png'), /inflates to 10 bytes, not the 1,000 bytes its directory declares \(the zip is damaged\)/);
  });

  it('calls a directory entry damaged when its sizes do not fit the archive', async () => {
    await assert.rejects(entryOf({ 'm/a.png': { stored: Buffer.from('abc'), method: 0, size: 3, compressedSize: 5000 } }, 'm/a.png'), /claims 5,000 bytes at offset 0 in a \d+ bytes file \(the zip is damaged\)/);
    await assert.rejects(entryOf({ 'm/a.png': { stored: Buffer.from('abc'), method: 0, size: 2 } }, 'm/a.png'), /stored, yet its two sizes differ/);
  });

  it('refuses a PNG by its declared pixels before decoding it', () => {
    assert.throws(() => decodePng(pngClaiming(30000, 30000), DEFAULT_ICON_LIMITS, 'bomb.png'), { ...refused, message: /bomb\.png declares 30,000×30,000 pixels/ });
    assert.throws(() => decodePng(pngClaiming(9000, 1)), { ...refused, message: /9,000×1 pixels, more than the 4,194,304 pixels, 8,192 a side, PyOps decodes/ });
    assert.throws(() => decodePng(pngClaiming(3000, 3000)), refused);
  });

  it('refuses an interlaced PNG whose image data inflates past its pixels, and decodes an honest one', () => {
    assert.throws(() => decodePng(pngClaiming(16, 16, { interlaced: true, idat: zlib.deflateSync(Buffer.alloc(4 * MiB)) })), { ...refused, message: /more image data than its 16×16 pixels need/ });
    // Adam7 on one pixel: only the first pass holds it (a filter byte, then RGBA).
    const one = decodePng(pngClaiming(1, 1, { interlaced: true, idat: zlib.deflateSync(Buffer.from([0, 10, 20, 30, 255])) }));
    assert.deepEqual(Array.from(one.data), [10, 20, 30, 255]);
  });

  it('refuses the icons past the run\'s totals of bytes read and pixels decoded, by name', async () => {
    const gameData = path.join(dir, 'data');
    const specs: IconSpecRow[] = [];
    for (const i of [1, 2, 3]) {
      writeFile(path.join(gameData, 'base', `${i}.png`), solid(4, 4, [i, 0, 0, 255]));
      specs.push({ kind: 'item', name: `i${i}`, spec: { canvas: 32, layers: [{ icon: `__base__/${i}.png`, size: 4, scale: 8, shift: [0, 0], tint: null, floating: false }] } });
    }
    const bytes = fs.statSync(path.join(gameData, 'base', '1.png')).size;
    const job = (limits: Partial<IconLimits>, name: string) => ({ projectFile: path.join(dir, `${name}.pyops`), fingerprint: 'fp', specs, folders: { gameData }, pins: {}, size: 8, limits: { ...DEFAULT_ICON_LIMITS, ...limits } });

    const byBytes = await drawIcons(job({ maxTotalBytes: 2 * bytes + 1 }, 'bytes'));
    assert.deepEqual([byBytes.extracted, byBytes.refused], [2, 1]);
    assert.match(byBytes.refusedIcons[0].reason, /was not read: this extraction already read \d+ bytes of source files, and its limit is \d+ bytes/);

    const byPixels = await drawIcons(job({ maxTotalPixels: 40 }, 'pixels'));
    assert.deepEqual([byPixels.extracted, byPixels.refused], [2, 1]);
    assert.match(byPixels.refusedIcons[0].reason, /was not decoded: this extraction already decoded 32 pixels, and its limit is 40/);
  });
});
