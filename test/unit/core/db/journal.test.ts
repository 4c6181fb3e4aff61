import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { JournalWriter, readJournal, crc32, type JournalFrame } from '../../../../src/core/db/journal';
import { tempDir } from '../../../helpers/paths';

const frame = (i: number, text = 'x'): JournalFrame => ({ changes: [{ table: 'notes', rowid: i, row: { id: `n${i}`, body: text } }] });
const ids = (frames: JournalFrame[]) => frames.map((f) => f.changes[0].rowid);

/** Index just past the last non-zero byte: where the frames end inside the preallocated file. */
const SECTOR = 512;
const big = (i: number) => frame(i, 'b'.repeat(1500 + i * 37));

function framesEnd(buf: Buffer): number {
  let end = buf.length;
  while (end > 0 && buf[end - 1] === 0) end--;
  return end;
}

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
});
