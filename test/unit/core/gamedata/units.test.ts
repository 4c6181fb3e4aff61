import assert from 'node:assert/strict';
import { humanize, parseEnergy } from '../../../../src/core/gamedata/units';

describe('SI energy strings', () => {
  it('reads watts and joules with SI prefixes', () => {
    assert.equal(parseEnergy('150kW', 'W'), 150_000);
    assert.equal(parseEnergy('2.5MJ', 'J'), 2_500_000);
    assert.equal(parseEnergy('1.8MW'), 1_800_000);
    assert.equal(parseEnergy('0.2kJ'), 200);
    assert.equal(parseEnergy('2GW'), 2e9);
    assert.equal(parseEnergy('60W'), 60);
    assert.equal(parseEnergy('1e3kW'), 1e6);
    assert.equal(parseEnergy(42), 42);
  });
  it('rejects other text and the wrong unit', () => {
    assert.equal(parseEnergy('fast'), undefined);
    assert.equal(parseEnergy('150kW', 'J'), undefined);
    assert.equal(parseEnergy('150 kilowatts'), undefined);
    assert.equal(parseEnergy(undefined), undefined);
  });
  it('humanizes internal names as a display fallback', () => {
    assert.equal(humanize('iron-gear-wheel'), 'Iron gear wheel');
    assert.equal(humanize('py_science'), 'Py science');
  });
});
