import assert from 'node:assert/strict';
import { campaignLines, duration, groupLines, power, rate, short, temperature } from '../../../src/webview/format';
import { toDraftView } from '../../../src/extension/proposals/views';
import { draftMarkdown } from '../../../src/extension/chat/proposalSummary';

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
    const md = draftMarkdown(d);
    assert.match(md, /\*\*Makes:\*\* Steam at 500° 5\/s/);
    assert.match(md, /\*\*Imports:\*\* Steam \(150–200°\) 6\/s/);
  });

  it('says what a campaign asks for, the reserve its confidence adds and the rate', () => {
    assert.deepEqual([duration(45), duration(600), duration(5400), duration(172800)], ['45 s', '10 min', '1.5 h', '2 d']);
    const lines = campaignLines({
      duration: 3600, confidence: '95', completed: false,
      quantities: [{ good: 'catalyst', display: 'Catalyst', quantity: 40, planned: 50.94, rate: 50.94 / 3600 }, { good: 'tailings', display: 'Tailings', quantity: -10, planned: 10, rate: -10 / 3600 }],
    });
    assert.deepEqual(lines, ['Make 40 Catalyst within 1 h, 95 % sure: plan 50.9, 0.01/s', 'Use 10 Tailings within 1 h, 95 % sure: 0.0028/s']);
    const view = toDraftView({ campaign: { duration: 60, confidence: 'expected', completed: true, quantities: [{ good: 'catalyst', quantity: 5, planned: 5, rate: 0 }] } });
    assert.deepEqual(campaignLines(view.campaign!), ['Make 5 catalyst within 1 min, on average: completed']);
  });

  it('says how the block runs each composed group', () => {
    const view = toDraftView({ groups: [{ name: 'Circuits', good: 'circuit', referenceRate: 2, scale: 0.5, rate: 1 }], rows: [{ recipe: 'wire', group: 'Circuits' }] });
    assert.deepEqual(groupLines(view.groups!), ['Circuits: module for 2/s circuit, run at ×0.5 (1/s)']);
    assert.equal(view.rows[0].group, 'Circuits');
    assert.ok(draftMarkdown(view).includes('- **Composed groups:** Circuits: module for 2/s circuit, run at ×0.5 \\(1/s\\)'), 'the chat summary names the module (Markdown-escaped)');
  });
});

describe('one formatter for every planning figure', () => {
  it('shows float dust from the solver as zero, in rates and in power', () => {
    assert.equal(power(-2.8e-8), '0 W');
    assert.equal(short(-2.8e-8), '0');
    assert.equal(rate(3e-9), '0/s');
    assert.equal(power(120_000), '120 kW');
    assert.equal(power(3.64e6), '3.64 MW');
    assert.equal(power(512), '512 W');
  });

  it('shows a rate given per second in the unit picked for the block', () => {
    assert.equal(rate(0.5), '0.5/s');
    assert.equal(rate(0.5, 'min'), '30/min');
    assert.equal(rate(0.5, 'h'), '1,800/h');
    assert.equal(rate(1 / 3600, 'h'), '1/h');
  });
});
