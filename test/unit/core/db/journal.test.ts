import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { JournalWriter, readJournal, type JournalFrame } from '../../../../src/core/db/journal';
import { tempDir } from '../../../helpers/paths';

const frame = (i: number, text = 'x'): JournalFrame => ({ changes: [{ table: 'notes', rowid: i, row: { id: `n${i}`, body: text } }] });
const ids = (frames: JournalFrame[]) => frames.map((f) => f.changes[0].rowid);

/** Index just past the last non-zero byte: where the frames end inside the preallocated file. */
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

  it('stops at a frame whose last bytes never reached the disk, and resumes cleanly after it', () => {
    const w = JournalWriter.create(file, 2);
    w.append(frame(0));
    w.append(frame(1));
    w.close();
    const buf = fs.readFileSync(file);
    buf.fill(0, framesEnd(buf) - 4, framesEnd(buf));
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
    w.append(frame(0));
    const start = w.size;
    w.append(frame(1));
    w.close();
    const buf = fs.readFileSync(file);
    buf.fill(0, start, start + 8); // the payload landed, its length and checksum did not
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
    assert.deepEqual(r.frames, []);
  });
});
