import assert from 'node:assert/strict';
import type { UIMessage, UIMessageChunk } from 'ai';
import { RunStore, hasContent, type CloseReason } from '../../../../src/core/assistant/runs/store';

const delta = (d: string): UIMessageChunk => ({ type: 'text-delta', id: 't', delta: d });

function collector() {
  const got: UIMessageChunk[] = [];
  const closed: CloseReason[] = [];
  return { got, closed, sub: { onChunk: (c: UIMessageChunk) => void got.push(c), onClose: (r: CloseReason) => void closed.push(r) } };
}

describe('assistant run store', () => {
  it('replays buffered chunks to a late subscriber, then follows live ones', () => {
    const runs = new RunStore();
    const run = runs.start('c1');
    run.push({ type: 'start' });
    run.push(delta('a'));
    const late = collector();
    const off = runs.subscribe('c1', late.sub)!;
    assert.deepEqual(late.got.map((c) => c.type), ['start', 'text-delta']);
    run.push(delta('b'));
    assert.equal(late.got.length, 3);
    off();
    run.push(delta('c'));
    assert.equal(late.got.length, 3, 'a detached subscriber gets nothing more');
    assert.equal(run.signal.aborted, false, 'a disconnect is not a cancellation');
    assert.equal(run.chunks.length, 4, 'the run keeps buffering');
    runs.finish(run);
    assert.equal(runs.get('c1'), undefined);
    assert.equal(runs.subscribe('c1', collector().sub), undefined, 'no run → nothing to follow (HTTP 204)');
  });

  it('closes subscribers when the run finishes, and replays a finished run with an immediate close', () => {
    const runs = new RunStore();
    const run = runs.start('c1');
    const a = collector();
    run.subscribe(a.sub);
    run.push(delta('x'));
    runs.finish(run);
    assert.deepEqual(a.closed, ['done']);
    const b = collector();
    run.subscribe(b.sub);
    assert.deepEqual([b.got.length, b.closed], [1, ['done']]);
  });

  it('aborts and replaces the previous run of the same conversation only', () => {
    const runs = new RunStore();
    const first = runs.start('c1');
    const other = runs.start('c2');
    const sub = collector();
    first.subscribe(sub.sub);
    const second = runs.start('c1');
    assert.equal(first.signal.aborted, true);
    assert.deepEqual(sub.closed, ['replaced']);
    assert.equal(runs.get('c1'), second);
    assert.equal(other.signal.aborted, false);
    // The replaced run finishing later does not drop its successor.
    runs.finish(first);
    assert.equal(runs.get('c1'), second);
    assert.notEqual(first.streamId, second.streamId);
  });

  it('stops explicitly: abort, save the partial assistant message, close subscribers, remove the run', async () => {
    const runs = new RunStore();
    const run = runs.start('c1');
    const partial: UIMessage = { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'half an answer' }] };
    const saved: UIMessage[] = [];
    run.snapshot = () => partial;
    run.persist = (m) => void saved.push(m);
    const sub = collector();
    run.subscribe(sub.sub);
    const r = await runs.stop('c1');
    assert.deepEqual(r, { stopped: true, saved: partial });
    assert.equal(run.signal.aborted, true);
    assert.deepEqual(saved, [partial]);
    assert.deepEqual(sub.closed, ['stopped']);
    assert.equal(runs.get('c1'), undefined);
    assert.deepEqual(await runs.stop('c1'), { stopped: false });
    // The host's copy of the partial message wins when it sends one.
    const run2 = runs.start('c2');
    const got: UIMessage[] = [];
    run2.persist = (m) => void got.push(m);
    run2.snapshot = () => partial;
    const hostCopy: UIMessage = { id: 'a2', role: 'assistant', parts: [{ type: 'text', text: 'host copy' }] };
    await runs.stop('c2', hostCopy);
    assert.deepEqual(got, [hostCopy]);
    // Nothing worth saving: no write.
    const run3 = runs.start('c3');
    let writes = 0;
    run3.persist = () => void writes++;
    run3.snapshot = () => ({ id: 'a3', role: 'assistant', parts: [{ type: 'step-start' }] });
    await runs.stop('c3');
    assert.equal(writes, 0);
    assert.equal(hasContent({ id: 'x', role: 'assistant', parts: [{ type: 'step-start' }, { type: 'text', text: '' }] }), false);
  });

  it('isolates a throwing subscriber from the others', () => {
    const runs = new RunStore();
    const run = runs.start('c1');
    run.subscribe({ onChunk: () => { throw new Error('view crashed'); } });
    const ok = collector();
    run.subscribe(ok.sub);
    run.push(delta('a'));
    assert.equal(ok.got.length, 1);
  });
});
