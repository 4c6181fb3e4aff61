// The mod's chunk.lua against the app's chunking.ts: the same frames both ways, and the mod-side
// reassembly rules (duplicates, reordering, expiry after TIMEOUT_TICKS, bounded pending set).
import assert from 'node:assert/strict';
import { Reassembler, splitMessage } from '../../../src/core/bridge/chunking';
import { MOD_MAX_MESSAGE } from '../../../src/core/bridge/protocol';
import { createVM, type ModVM } from '../../mod/harness';

const TEXT = JSON.stringify({ rows: Array.from({ length: 300 }, (_, i) => ({ n: i, s: `värde-€-${i}-${'x'.repeat(i % 17)}` })) });
const lua = (s: string) => JSON.stringify(s);

describe('companion mod chunking (chunk.lua)', () => {
  let vm: ModVM;
  beforeEach(() => {
    vm = createVM({ setup: 'C.default_world(); C.add_player({ name = "alice" })' });
  });
  afterEach(() => vm.close());

  it("has the reassembly limits the app checks its commands against", () => {
    assert.deepEqual(vm.run('local chunk = require("scripts.chunk"); return { parts = chunk.MAX_PARTS, bytes = chunk.MAX_BYTES }'), MOD_MAX_MESSAGE);
  });

  it('splits like the app and the app reassembles its frames', () => {
    const frames = vm.run<string[]>(`local chunk = require("scripts.chunk"); return chunk.split(${lua(TEXT)}, 3000, "m1x1")`);
    assert.ok(frames.length >= 4);
    const r = new Reassembler();
    let done: Buffer | undefined;
    for (const f of [...frames].reverse()) {
      const buf = Buffer.from(f, 'utf8');
      assert.ok(buf.length <= 3000, `${buf.length}`);
      const o = r.accept(buf, 'mod');
      if (o.kind === 'complete') done = o.message;
    }
    assert.equal(done?.toString('utf8'), TEXT);
    assert.deepEqual(vm.run(`local chunk = require("scripts.chunk"); return chunk.split("short", 3000, "m2")`), ['short']);
  });

  it('reassembles the app\'s frames, ignoring duplicates and order', () => {
    const frames = splitMessage(TEXT, 3500, 'a1').map((b) => b.toString('utf8'));
    const order = [frames[2], frames[0], frames[0], ...frames.slice(3), frames[1]];
    const results = vm.run<string[]>(`
      local chunk = require("scripts.chunk")
      local store, out = {}, {}
      for _, f in ipairs(${JSON.stringify(order).replace(/^\[/, '{').replace(/\]$/, '}')}) do out[#out + 1] = chunk.accept(store, "1", f, 10) end
      return out`);
    assert.equal(results.filter((r) => r === 'duplicate').length, 1);
    assert.equal(results[results.length - 1], TEXT);
    assert.ok(results.slice(0, -1).every((r) => r === 'partial' || r === 'duplicate'));
  });

  it('expires incomplete messages and bounds how many wait', () => {
    const r = vm.run<{ before: number; after: number; flood: number; bad: string[] }>(`
      local chunk = require("scripts.chunk")
      local store = {}
      chunk.accept(store, "1", "PYC1 a 1 2\\nxx", 100)
      local before = table_size(store)
      chunk.sweep(store, 100 + chunk.TIMEOUT_TICKS - 1)
      local mid = table_size(store)
      chunk.sweep(store, 100 + chunk.TIMEOUT_TICKS)
      local after = table_size(store)
      for i = 1, 40 do chunk.accept(store, "1", "PYC1 f" .. i .. " 1 2\\nx", 200 + i) end
      local bad = {}
      for _, f in ipairs({ "PYC1 a 0 2\\nx", "PYC1 a 3 2\\nx", "PYC1 a 1 1\\nx", "PYC1 a 1 99\\nx", "PYC1 a/b 1 2\\nx", "nonsense" }) do bad[#bad + 1] = chunk.accept({}, "1", f, 1) end
      assert(mid == 1)
      return { before = before, after = after, flood = table_size(store), bad = bad }`);
    assert.deepEqual(r, { before: 1, after: 0, flood: 16, bad: ['invalid', 'invalid', 'invalid', 'invalid', 'invalid', 'invalid'] });
  });
});
