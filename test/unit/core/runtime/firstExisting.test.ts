// A shipped file is looked for place by place, and a later place (a package resolve) is never named
// once an earlier one has the file.
import assert from 'node:assert/strict';
import { firstExisting } from '../../../../src/core/runtime/firstExisting';

describe('firstExisting', () => {
  it('takes the first place that has the file and names none after it', () => {
    const named: string[] = [];
    const place = (f: string | undefined) => () => (named.push(String(f)), f);
    const there = new Set(['/b/x.wasm', '/c/x.wasm']);
    assert.equal(firstExisting([place('/a/x.wasm'), place(undefined), place('/b/x.wasm'), place('/c/x.wasm')], (f) => there.has(f), 'x.wasm'), '/b/x.wasm');
    assert.deepEqual(named, ['/a/x.wasm', 'undefined', '/b/x.wasm']);
  });

  it('passes over a place that cannot be named, and gives the first named place, else the fallback, when none has it', () => {
    const cannot = () => {
      throw new Error('Cannot find module');
    };
    assert.equal(firstExisting([cannot, () => '/a/x.wasm', () => '/b/x.wasm'], () => false, 'x.wasm'), '/a/x.wasm');
    assert.equal(firstExisting([cannot, () => undefined], () => false, 'x.wasm'), 'x.wasm');
  });
});
