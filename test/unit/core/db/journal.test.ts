import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { JournalWriter, readJournal, parseJournal, crc32, type JournalFrame } from '../../../../src/core/db/journal';
import { tempDir } from '../../../helpers/paths';
import { framesEnd } from '../../../helpers/journalBytes';

const frame = (i: number, text = 'x'): JournalFrame => ({ changes: [{ table: 'notes', rowid: i, row: { id: `n${i}`, body: text } }] });
const ids = (frames: JournalFrame[]) => frames.map((f) => f.changes[0].rowid);

const SECTOR = 512;
const big = (i: number) => frame(i, 'b'.repeat(1500 + i * 37));

describe('journal', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = tempDir();
    file = path.join(dir, 'p.pyops.journal');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('grows the file ahead of the frames, and the zero tail reads as the clean end', () => {
    const w = JournalWriter.create(file, 7);
    for (let i = 0; i < 3; i++) w.append(frame(i));
    const onDisk = fs.statSync(file).size;
    assert.ok(onDisk > w.size, 'the file is longer than its frames');
    assert.equal(onDisk % (1024 * 1024), 0);
    w.close();
    const r = readJournal(file, 7)!;
    assert.deepEqual(ids(r.frames), [0, 1, 2]);
    assert.equal(r.torn, false);
    assert.equal(r.validBytes, framesEnd(fs.readFileSync(file)));
  });

  it('grows again when frames outrun the reserve, keeping every frame', () => {
    const w = JournalWriter.create(file, 1);
    const big = 'y'.repeat(300_000);
    for (let i = 0; i < 8; i++) w.append(frame(i, big));
    w.close();
    assert.ok(fs.statSync(file).size >= 3 * 1024 * 1024);
    assert.deepEqual(ids(readJournal(file, 1)!.frames), [0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('stops at a frame whose last sectors never reached the disk, and resumes cleanly after it', () => {
    const w = JournalWriter.create(file, 2);
    w.append(big(0));
    w.append(big(1));
    w.close();
    const buf = fs.readFileSync(file);
    // A crash mid-append loses whole sectors: the frame's last one is still the preallocated zeros.
    const end = framesEnd(buf);
    buf.fill(0, Math.floor((end - 1) / SECTOR) * SECTOR, end);
    fs.writeFileSync(file, buf);
    const r = readJournal(file, 2)!;
    assert.deepEqual(ids(r.frames), [0]);
    assert.equal(r.torn, true);

    const again = JournalWriter.resume(file, 2, r.validBytes, r.frames.length);
    again.append(frame(2, 'short'));
    again.close();
    const after = readJournal(file, 2)!;
    assert.deepEqual(ids(after.frames), [0, 2], 'the torn frame is gone, the new one follows the last good frame');
    assert.equal(after.torn, false);
  });

  it('treats a frame whose header never reached the disk as torn, not as the end', () => {
    const w = JournalWriter.create(file, 3);
    w.append(big(0));
    const start = w.size;
    w.append(big(1));
    w.close();
    const buf = fs.readFileSync(file);
    buf.fill(0, start, Math.ceil((start + 8) / SECTOR) * SECTOR); // the payload's later sectors landed, the header's did not
    fs.writeFileSync(file, buf);
    const r = readJournal(file, 3)!;
    assert.deepEqual(ids(r.frames), [0]);
    assert.equal(r.torn, true);
  });

  it('ignores a journal of another generation', () => {
    const w = JournalWriter.create(file, 4);
    w.append(frame(0));
    w.close();
    const r = readJournal(file, 5)!;
    assert.equal(r.stale, true);
    assert.equal(r.newer, false);
    assert.equal(readJournal(file, 3)!.newer, true, 'a journal newer than the file is not stale');
  });

  it('reads an old "PYJ1" journal (no header checksum)', () => {
    const body = Buffer.from(JSON.stringify(frame(5)), 'utf8');
    const head = Buffer.alloc(8);
    head.writeUInt32LE(body.length, 0);
    head.writeUInt32LE(crc32(body), 4);
    fs.writeFileSync(file, Buffer.concat([Buffer.from('PYJ1'), Buffer.from([9, 0, 0, 0]), head, body, Buffer.alloc(100)]));
    const r = readJournal(file, 9)!;
    assert.deepEqual(ids(r.frames), [5]);
    assert.deepEqual(r.damage, []);
  });

  describe('damage is never a torn tail', () => {
    function journalOf(n: number): { buf: Buffer; starts: number[] } {
      const w = JournalWriter.create(file, 6);
      const starts: number[] = [];
      for (let i = 0; i < n; i++) {
        starts.push(w.size);
        w.append(frame(i, `task ${i}`));
      }
      w.close();
      return { buf: fs.readFileSync(file), starts };
    }

    it('a flipped byte in a middle frame: the frames after it are kept, the bad one is reported', () => {
      const { buf, starts } = journalOf(20);
      buf[starts[7] + 20] ^= 0x01;
      fs.writeFileSync(file, buf);
      const r = readJournal(file, 6)!;
      assert.deepEqual(ids(r.frames), [0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
      assert.equal(r.torn, false);
      assert.deepEqual(r.damage, [{ offset: starts[7], length: starts[8] - starts[7] }]);
      assert.equal(r.validBytes, starts[7], 'appends would continue only after the intact prefix');
    });

    it('a flipped byte in the last frame is damage, not a crash mid-append', () => {
      const { buf, starts } = journalOf(5);
      buf[starts[4] + 30] ^= 0x40;
      fs.writeFileSync(file, buf);
      const r = readJournal(file, 6)!;
      assert.deepEqual(ids(r.frames), [0, 1, 2, 3]);
      assert.equal(r.torn, false);
      assert.equal(r.damage.length, 1);
    });

    it("a last frame whose length word grew is damage (the zero tail inside it is not sector-shaped)", () => {
      const { buf, starts } = journalOf(5);
      buf[starts[4] + 1] ^= 0x02;
      fs.writeFileSync(file, buf);
      const r = readJournal(file, 6)!;
      assert.equal(r.torn, false);
      assert.equal(r.damage.length, 1);
    });

    it('a flipped generation byte is a damaged header, never a stale journal', () => {
      const { buf } = journalOf(3);
      buf[4] ^= 0x04; // generation 6 -> 2, older than the file's
      fs.writeFileSync(file, buf);
      const r = readJournal(file, 6)!;
      assert.equal(r.headerDamaged, true);
      assert.equal(r.stale, false);
      assert.deepEqual(ids(r.frames), [0, 1, 2]);
    });
  });

  describe('what the save record proves', () => {
    /** A journal of `n` frames whose last one ends exactly on a sector boundary (the padding starts a new sector). */
    function sectorAlignedJournal(n: number): { buf: Buffer; starts: number[]; end: number } {
      const w = JournalWriter.create(file, 8);
      const starts: number[] = [];
      for (let i = 0; i < n - 1; i++) {
        starts.push(w.size);
        w.append(frame(i, `task ${i} `.repeat(9)));
      }
      starts.push(w.size);
      // Longer than a sector, so its last sector holds nothing of the frames before it.
      let text = 'last '.repeat(120);
      while ((w.size + 8 + Buffer.byteLength(JSON.stringify(frame(n - 1, text)))) % SECTOR !== 0) text += 'x';
      w.append(frame(n - 1, text));
      w.close();
      // Only the frames and a few sectors of padding: copying the whole preallocated megabyte per
      // flip would make the exhaustive tests below slow, and the reader needs no more.
      const whole = fs.readFileSync(file);
      const end = framesEnd(whole);
      assert.equal(end % SECTOR, 0, 'the last frame ends on a sector boundary');
      return { buf: Buffer.from(whole.subarray(0, end + 4 * SECTOR)), starts, end };
    }

    it('a grown length word on a last frame that ends on a sector boundary is damage, and the save is still read', () => {
      const { buf, starts } = sectorAlignedJournal(6);
      // +512: the frame now claims one more sector, all zeros — exactly what a torn append leaves.
      buf[starts[5] + 1] ^= 0x02;
      const r = parseJournalBytes(buf);
      assert.equal(r.torn, false, 'not taken for a crash mid-append');
      assert.deepEqual(ids(r.frames), [0, 1, 2, 3, 4, 5], 'the payload still matches its checksum, so the save is served');
      assert.equal(r.repaired, 1);
      assert.deepEqual(r.damage, [{ offset: starts[5], length: 4 }]);
    });

    it('a last save whose final sector was lost after it was acknowledged is damage when the record counts it, a torn tail when it does not', () => {
      const { buf, end } = sectorAlignedJournal(6);
      buf.fill(0, end - SECTOR, end);
      const unrecorded = parseJournalBytes(buf);
      assert.equal(unrecorded.torn, true, 'without proof of the save this shape is a crash mid-append');
      const recorded = parseJournalBytes(buf, { generation: 8, saves: 6 });
      assert.equal(recorded.torn, false);
      assert.equal(recorded.missing, 1);
      assert.equal(recorded.damage.length, 1);
      const lagging = parseJournalBytes(buf, { generation: 8, saves: 5 });
      assert.equal(lagging.torn, true, 'a record that never saw the last save acknowledged proves nothing about it');
      assert.equal(lagging.missing, 0);
      assert.equal(parseJournalBytes(buf, { generation: 7, saves: 6 }).torn, true, "another generation's record says nothing about this journal");
    });

    it('a journal that ends cleanly short of the recorded saves is missing them', () => {
      const { buf, starts } = sectorAlignedJournal(6);
      buf.fill(0, starts[4]);
      const r = parseJournalBytes(buf, { generation: 8, saves: 6 });
      assert.deepEqual(ids(r.frames), [0, 1, 2, 3]);
      assert.deepEqual(r.damage, []);
      assert.equal(r.missing, 2);
    });

    it('stray bits in the zero padding are no save: not damage, not a lost save, zeroed by the next append', () => {
      const { buf, end } = sectorAlignedJournal(4);
      let tried = 0;
      for (let at = end; at < end + 3 * SECTOR; at += 7) {
        for (const record of [undefined, { generation: 8, saves: 4 }]) {
          const b = Buffer.from(buf);
          b[at] ^= 1 << (at % 8);
          const r = parseJournalBytes(b, record);
          assert.deepEqual(ids(r.frames), [0, 1, 2, 3], `flip at ${at}`);
          assert.deepEqual(r.damage, [], `flip at ${at}`);
          assert.equal(r.missing, 0);
          assert.equal(r.noise, true, `flip at ${at}`);
          tried++;
        }
      }
      assert.ok(tried > 200);
      const b = Buffer.from(buf);
      b[end + 100] = 0x5a;
      fs.writeFileSync(file, b);
      const r = readJournal(file, 8)!;
      const w = JournalWriter.resume(file, 8, r.validBytes, r.frames.length);
      w.close();
      assert.equal(fs.readFileSync(file)[end + 100], 0);
    });

    for (const [aligned, record] of [[true, true], [false, true], [true, false]] as const) {
      it(`every single-bit flip of a journal${aligned ? ' whose last save ends on a sector boundary' : ''}${record ? '' : ' without a save record'} either serves every save or is reported`, () => {
        const built = aligned ? sectorAlignedJournal(8) : (() => {
          const w = JournalWriter.create(file, 8);
          for (let i = 0; i < 8; i++) w.append(frame(i, `save ${i} `.repeat(i * 5 + 1)));
          w.close();
          const b = fs.readFileSync(file);
          return { buf: Buffer.from(b.subarray(0, framesEnd(b) + 4 * SECTOR)), end: framesEnd(b) };
        })();
        const { buf, end } = built;
        const all = [0, 1, 2, 3, 4, 5, 6, 7];
        const tally = { flips: 0, servedWhole: 0, reported: 0, silentlyDropped: 0 };
        for (let byte = 0; byte < end + 64; byte++) {
          for (let bit = 0; bit < 8; bit++) {
            const b = Buffer.from(buf);
            b[byte] ^= 1 << bit;
            const r = parseJournalBytes(b, record ? { generation: 8, saves: 8 } : undefined);
            tally.flips++;
            const whole = ids(r.frames).join() === all.join();
            const reported = r.headerDamaged || r.damage.length > 0 || r.missing > 0;
            if (reported) tally.reported++;
            else if (whole) tally.servedWhole++;
            else tally.silentlyDropped++;
            if (byte >= end) assert.ok(whole && !reported, `a flip in the padding at ${byte} is no lost save`);
          }
        }
        console.log(`      (${tally.flips} single-bit flips: ${tally.reported} reported, ${tally.servedWhole} harmless (padding), ${tally.silentlyDropped} silently dropped)`);
        assert.equal(tally.silentlyDropped, 0);
      });
    }
  });
});

function parseJournalBytes(buf: Buffer, confirmed?: { generation: number; saves: number }) {
  return parseJournal(buf, 8, confirmed);
}
