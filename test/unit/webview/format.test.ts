import assert from 'node:assert/strict';
import { temperature } from '../../../src/webview/format';
import { toDraftView } from '../../../src/extension/proposals/views';

describe('side panel: fluid temperatures', () => {
  it('shows an exact temperature, a range, or one open bound', () => {
    assert.equal(temperature({ temperature: 500 }), '500°');
    assert.equal(temperature({ minTemperature: 150, maxTemperature: 200 }), '150–200°');
    assert.equal(temperature({ minTemperature: 4000, maxTemperature: 4000 }), '4000°');
    assert.equal(temperature({ minTemperature: null, maxTemperature: 101 }), '≤101°');
    assert.equal(temperature({ minTemperature: 400, maxTemperature: null }), '≥400°');
    assert.equal(temperature({}), '');
  });

  it('keeps the ranges of imports and the temperature of goals from a stored draft', () => {
    const d = toDraftView({
      goals: [{ good: 'steam', display: 'Steam', rate: 5, temperature: 500 }],
      importsExternal: [{ good: 'steam', display: 'Steam', kind: 'fluid', rate: 6, minTemperature: 150, maxTemperature: 200 }],
      exports: [{ good: 'water', display: 'Water', kind: 'fluid', rate: 1, temperature: 15 }],
    });
    assert.deepEqual(d.goals[0], { good: 'steam', display: 'Steam', rate: 5, temperature: 500 });
    assert.equal(temperature(d.importsExternal[0]), '150–200°');
    assert.equal(temperature(d.exports[0]), '15°');
  });
});
