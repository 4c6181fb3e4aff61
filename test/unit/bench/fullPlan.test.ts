// The full-plan script reads tool results as a model does: the `in`/`out` texts of recipe candidates,
// and the candidate whose main output is the good it was asked for, among those a building runs.
import assert from 'node:assert/strict';
import { leftOver, parseSide, pickCandidate, type PlanView } from '../../../bench/fullPlan';

describe('the full-plan script', () => {
  it('reads amounts, probabilities and temperatures out of an in/out text', () => {
    assert.deepEqual(parseSide('2 lab-instrument + 4 alien-sample01'), [{ good: 'lab-instrument', amount: 2 }, { good: 'alien-sample01', amount: 4 }]);
    assert.deepEqual(parseSide('40 coal-gas + 1 iron-oxide @30%'), [{ good: 'coal-gas', amount: 40 }, { good: 'iron-oxide', amount: 0.3 }]);
    assert.deepEqual(parseSide('2.026 steam(250°)'), [{ good: 'steam', amount: 2.026 }]);
    assert.deepEqual(parseSide('nothing'), []);
  });

  it('takes the first candidate a building runs whose main output is the good', () => {
    const cs = [
      { recipe: 'burn-solid-fuel', state: 'unlocked', in: '1 solid-fuel', out: '1 ash', machine: 'none — no machine can run recipe burn-solid-fuel (category burning)' },
      { recipe: 'tar-distilation', state: 'buildable', in: '350 tar', out: '500 flue-gas + 100 carbon-dioxide + 1 rich-clay' },
      { recipe: 'rich-clay', state: 'buildable', in: '25 ash + 500 water', out: '10 rich-clay' },
    ];
    assert.equal(pickCandidate('rich-clay', cs)?.recipe, 'rich-clay', 'not a recipe that makes it as a trace byproduct');
    assert.equal(pickCandidate('ash', cs.slice(0, 1)), undefined, 'no building runs the virtual fuel burning');
    assert.equal(pickCandidate('flue-gas', cs)?.recipe, 'tar-distilation');
    assert.equal(pickCandidate('x', [{ recipe: 'a', state: 'buildable', in: '1 y', out: '1 z + 5 w' }])?.recipe, 'a', 'else the first a building runs');
    // Only what the horizon allows: a graph's candidates (no state) are buildable; a locked one is never taken.
    const steam = [
      { recipe: 'simik-boiler-steam', state: 'needs-research', in: '500 pressured-water', out: '500 pressured-steam' },
      { recipe: 'heat-exchanger-steam', in: '75 pressured-water', out: '75 pressured-steam' },
    ];
    assert.equal(pickCandidate('pressured-steam', steam)?.recipe, 'heat-exchanger-steam');
    assert.equal(pickCandidate('pressured-steam', steam.slice(0, 1)), undefined, 'nothing selectable: the good stays an import');
  });

  it('counts as left over a byproduct no other block of the plan takes, reading a shortened view\'s missing lists as empty', () => {
    const block = (name: string, extra: object) => ({ name, status: 'optimal', ok: true, rows: [], ...extra });
    const plan = {
      ok: true, updates: [], balance: { underSupplied: [] }, warnings: [],
      blocks: [
        block('pack', { byproducts: [{ good: 'meat', rate: 0.2 }, { good: 'bones', rate: 0.1 }, { good: 'dust', rate: 0 }], importsFromBlocks: [{ good: 'blood', rate: 1 }] }),
        block('blood', { byproducts: [{ good: 'meat', rate: 0.5 }], importsExternal: [{ good: 'bones', rate: 0.05 }] }),
        block('other', {}),
      ],
    } as unknown as PlanView;
    // Bones are taken by the blood block; meat by nobody (from either block, named once); dust runs at zero.
    assert.deepEqual(leftOver(plan), ['meat']);
    assert.deepEqual(leftOver(undefined), []);
  });
});
