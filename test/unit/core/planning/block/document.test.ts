// The block document grows (campaign, row groups) without changing what stored documents parse to.
import assert from 'node:assert/strict';
import { goalGoods, parseBlockDoc } from '../../../../../src/core/planning/block/document';

describe('block document', () => {
  it('parses a document stored before campaigns and groups to the same shape', () => {
    const stored = { version: 1, goals: [{ good: 'circuit', rate: 2 }], recipes: [{ recipe: 'circuit' }, { recipe: 'wire', machine: 'assembler' }], made: ['wire'], drains: [], pins: [] };
    assert.deepEqual(parseBlockDoc(stored), stored);
    assert.deepEqual(parseBlockDoc(JSON.parse(JSON.stringify(parseBlockDoc(stored)))), stored, 'stable through a save');
  });

  it('takes display and composed groups, and names every good the document sets a goal for', () => {
    const doc = parseBlockDoc({
      goals: [{ good: 'arm', rate: 1 }],
      campaign: { duration: 600, quantities: [{ good: 'catalyst', quantity: 4 }] },
      recipes: [{ recipe: 'arm' }, { recipe: 'circuit' }, { recipe: 'wire' }],
      groups: [{ name: 'Shown together', recipes: ['arm'] }, { name: 'Circuits', recipes: ['circuit', 'wire'], composed: { goal: { good: 'circuit', rate: 2 } } }],
    });
    assert.equal(doc.groups?.length, 2);
    assert.deepEqual(goalGoods(doc), ['arm', 'catalyst', 'circuit']);
  });

  it('says what is wrong with a composed group', () => {
    assert.throws(() => parseBlockDoc({ groups: [{ name: 'Circuits', recipes: ['circuit'], composed: { goal: { good: 'circuit', rate: 0 } } }] }), /groups\.0\.composed\.goal\.rate/);
    assert.throws(() => parseBlockDoc({ groups: [{ name: '', recipes: ['circuit'] }] }), /groups\.0\.name: a group needs a name/);
  });
});
