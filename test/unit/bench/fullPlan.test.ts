// The full-plan script reads tool results as a model does: the `in`/`out` texts of recipe candidates,
// and the candidate whose main output is the good it was asked for, among those a building runs.
import assert from 'node:assert/strict';
import { parseSide, pickCandidate } from '../../../bench/fullPlan';

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
  });
});
