import assert from 'node:assert/strict';
import { Reassembler, isChunkFrame, parseChunk, splitMessage } from '../../../../src/core/bridge/chunking';

function shuffled<T>(a: T[], seed = 7): T[] {
  const out = [...a];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const text = JSON.stringify({ type: 'state.built', payload: { machines: Array.from({ length: 400 }, (_, i) => ({ machine: `machine-${i}`, recipe: `ré-cipe-€-${i}`, count: i })) } });

describe('bridge chunking', () => {
  it('leaves a message that fits in one datagram alone', () => {
    const d = splitMessage('{"type":"bridge.ping"}', 3500, 'x');
    assert.equal(d.length, 1);
    assert.equal(isChunkFrame(d[0]), false);
  });

  it('splits a big message into frames within the limit, cut on UTF-8 boundaries', () => {
    const frames = splitMessage(text, 3500, 'm1');
    assert.ok(frames.length > 3);
    for (const f of frames) {
      assert.ok(f.length <= 3500, `frame of ${f.length} bytes`);
      const c = parseChunk(f)!;
      assert.ok(c);
      // each slice decodes as UTF-8 without replacement characters
      assert.ok(!c.body.toString('utf8').includes('\uFFFD'));
    }
  });

  it('reassembles parts in order, reordered and with duplicates', () => {
    const frames = splitMessage(text, 3500, 'm2');
    for (const order of [frames, [...frames].reverse(), shuffled(frames)]) {
      const r = new Reassembler();
      const results: Buffer[] = [];
      for (const f of [order[0], order[1], order[0], ...order.slice(2), order[1]]) {
        const o = r.accept(f, 'peer');
        if (o.kind === 'complete') results.push(o.message);
      }
      assert.equal(results.length, 1);
      assert.equal(results[0].toString('utf8'), text);
    }
  });

  it('counts repeated parts as duplicates and never completes twice', () => {
    const frames = splitMessage(text, 3500, 'm3');
    const r = new Reassembler();
    assert.equal(r.accept(frames[0], 'p').kind, 'partial');
    assert.equal(r.accept(frames[0], 'p').kind, 'duplicate');
  });

  it('discards a message whose part was lost once the timeout passes', () => {
    let t = 0;
    const r = new Reassembler({ timeoutMs: 5000, maxParts: 256, maxMessageBytes: 1 << 20, maxPending: 8 }, () => t);
    const frames = splitMessage(text, 3500, 'm4');
    for (const f of frames.slice(1)) assert.equal(r.accept(f, 'p').kind, 'partial');
    assert.equal(r.size, 1);
    t = 4999;
    r.sweep();
    assert.equal(r.size, 1);
    t = 5000;
    assert.equal(r.sweep(), 1);
    assert.equal(r.size, 0);
    assert.equal(r.expired, 1);
    // the late first part starts a new (incomplete) message instead of completing the old one
    assert.equal(r.accept(frames[0], 'p').kind, 'partial');
  });

  it('keeps messages from different sources apart', () => {
    const a = splitMessage(text, 3500, 'same');
    const r = new Reassembler();
    for (const f of a.slice(0, -1)) r.accept(f, 'peer-a');
    assert.equal(r.accept(a[a.length - 1], 'peer-b').kind, 'partial');
    assert.equal(r.accept(a[a.length - 1], 'peer-a').kind, 'complete');
  });

  it('rejects malformed headers, inconsistent part counts and oversized messages', () => {
    const r = new Reassembler({ timeoutMs: 1000, maxParts: 8, maxMessageBytes: 100, maxPending: 2 });
    for (const bad of ['PYC1 ', 'PYC1 id 1\n', 'PYC1 id 0 2\nx', 'PYC1 id 3 2\nx', 'PYC1 id 1 1\nx', 'PYC1 i/d 1 2\nx', 'PYC1 id 01 2\nx', 'PYC1 id 1 9\nx', `PYC1 ${'x'.repeat(70)} 1 2\nx`]) {
      assert.equal(r.accept(Buffer.from(bad), 'p').kind, 'invalid', bad);
    }
    assert.equal(r.accept(Buffer.from('PYC1 a 1 3\nx'), 'p').kind, 'partial');
    assert.equal(r.accept(Buffer.from('PYC1 a 2 4\nx'), 'p').kind, 'invalid');
    assert.equal(r.accept(Buffer.from('PYC1 big 1 2\n' + 'x'.repeat(101)), 'p').kind, 'invalid');
  });

  it('gives each source its own slots: one source sending fresh ids never evicts another\'s parts', () => {
    const r = new Reassembler({ timeoutMs: 60_000, maxParts: 8, maxMessageBytes: 1000, maxPending: 3, maxSources: 2 });
    assert.equal(r.accept(Buffer.from('PYC1 game 1 2\nhello '), 'game').kind, 'partial');
    for (let i = 0; i < 1000; i++) r.accept(Buffer.from(`PYC1 f${i} 1 2\nx`), 'flood');
    assert.equal(r.size, 1 + 3, 'the flood holds its own 3 slots, no more');
    const done = r.accept(Buffer.from('PYC1 game 2 2\nworld'), 'game');
    assert.equal(done.kind, 'complete');
    assert.equal(done.kind === 'complete' && done.message.toString(), 'hello world');
    // A third source pushes out the least recently active one, not the one just heard from.
    r.accept(Buffer.from('PYC1 g2 1 2\nx'), 'game');
    r.accept(Buffer.from('PYC1 n1 1 2\nx'), 'newcomer');
    assert.equal(r.accept(Buffer.from('PYC1 g2 2 2\ny'), 'game').kind, 'complete');
  });

  it('bounds the number of incomplete messages held at once', () => {
    const r = new Reassembler({ timeoutMs: 60_000, maxParts: 8, maxMessageBytes: 1000, maxPending: 3 });
    for (let i = 0; i < 10; i++) r.accept(Buffer.from(`PYC1 id${i} 1 2\nx`), 'p');
    assert.equal(r.size, 3);
    assert.equal(r.expired, 7);
  });
});
