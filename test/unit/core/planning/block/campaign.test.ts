// Campaign goals: the Poisson reserve is pinned against tabulated chi-square quantiles (the smallest
// mean λ with P(X ≥ k) ≥ p is χ²_{2k}(p)/2) and against a Poisson tail summed here term by term.
import assert from 'node:assert/strict';
import { campaignGoals, campaignReport, EXACT_POISSON_LIMIT, plannedQuantity, poissonAtLeast, poissonMeanFor } from '../../../../../src/core/planning/block/campaign';
import { parseBlockDoc } from '../../../../../src/core/planning/block/document';

/** P(X ≥ k), X ~ Poisson(λ), by the textbook sum (fine for λ well below 700). */
function tail(k: number, lambda: number): number {
  let term = Math.exp(-lambda);
  let below = 0;
  for (let i = 0; i < k; i++) {
    below += term;
    term *= lambda / (i + 1);
  }
  return 1 - below;
}

describe('campaign goals', () => {
  it('matches tabulated chi-square quantiles: λ = χ²_{2k}(p) / 2', () => {
    // k = 1: P(X ≥ 1) = 1 − e^{−λ} ⇒ λ = ln(1/(1−p)).
    assert.ok(Math.abs(poissonMeanFor(1, '95') - Math.log(20)) < 1e-9);
    assert.ok(Math.abs(poissonMeanFor(1, '90') - Math.log(10)) < 1e-9);
    // χ²_20(0.90) = 28.412, χ²_20(0.95) = 31.410, χ²_80(0.90) = 96.578, χ²_80(0.95) = 101.879 (standard tables, 3 decimals).
    assert.ok(Math.abs(poissonMeanFor(10, '90') - 28.412 / 2) < 1e-3);
    assert.ok(Math.abs(poissonMeanFor(10, '95') - 31.41 / 2) < 1e-3);
    assert.ok(Math.abs(poissonMeanFor(40, '90') - 96.578 / 2) < 1e-3);
    assert.ok(Math.abs(poissonMeanFor(40, '95') - 101.879 / 2) < 1e-3);
  });

  it('is the smallest mean reaching the confidence (checked on a tail summed here)', () => {
    for (const k of [2, 7, 40, 150]) {
      for (const [c, p] of [['90', 0.9], ['95', 0.95]] as const) {
        const lambda = poissonMeanFor(k, c);
        assert.ok(tail(k, lambda) >= p - 1e-9, `k=${k} ${c}%: P(X ≥ k) = ${tail(k, lambda)} at λ = ${lambda}`);
        assert.ok(tail(k, lambda * (1 - 1e-6)) < p, `k=${k} ${c}%: a smaller mean already reaches it`);
        assert.ok(Math.abs(poissonAtLeast(k, lambda) - tail(k, lambda)) < 1e-9);
      }
    }
  });

  it('rounds the quantity up to whole items and stays exact where the textbook sum underflows', () => {
    assert.equal(poissonMeanFor(39.2, '95'), poissonMeanFor(40, '95'));
    // k = 800, λ ≈ 850: e^{−λ} underflows to 0 in the plain sum; the rescaled sum still meets the confidence exactly.
    const lambda = poissonMeanFor(800, '95');
    assert.ok(lambda > 800 && lambda < 900);
    assert.ok(Math.abs(poissonAtLeast(800, lambda) - 0.95) < 1e-9);
    // Beyond the exact range the normal approximation λ − z√λ = k − ½ takes over without a jump.
    const k = EXACT_POISSON_LIMIT;
    const exact = poissonMeanFor(k, '95');
    const approx = poissonMeanFor(k + 1, '95');
    assert.ok(approx - exact > 0.5 && approx - exact < 2, `step ${approx - exact} across the limit`);
    const z = 1.6448536269514722;
    assert.ok(Math.abs(approx - z * Math.sqrt(approx) - (k + 0.5)) < 1e-6);
  });

  it('sizes "40 from a probabilistic recipe within 1 h, 95 % sure" and consumes with a negative quantity', () => {
    const c = parseBlockDoc({ campaign: { duration: 3600, confidence: '95', quantities: [{ good: 'catalyst', quantity: 40 }, { good: 'tailings', quantity: -100 }] } }).campaign;
    const goals = campaignGoals(c);
    assert.ok(Math.abs(goals[0].rate - 101.879 / 2 / 3600) < 1e-6);
    assert.ok(goals[1].rate < 0 && Math.abs(-goals[1].rate * 3600 - poissonMeanFor(100, '95')) < 1e-9);
    assert.equal(plannedQuantity(40, 'expected'), 40);
    assert.deepEqual(campaignGoals({ ...c!, completedAt: '2026-12-01T10:00:00Z' }), [], 'a completed campaign sizes nothing');
    const done = campaignReport({ ...c!, completedAt: '2026-12-01T10:00:00Z' })!;
    assert.equal(done.completed, true);
    assert.deepEqual(done.quantities.map((q) => q.rate), [0, 0]);
  });

  it('leaves documents without a campaign as they were and refuses a zero quantity', () => {
    const doc = parseBlockDoc({ goals: [{ good: 'catalyst', rate: 1 }] });
    assert.equal(doc.campaign, undefined);
    assert.equal(parseBlockDoc({ campaign: { duration: 60, quantities: [{ good: 'catalyst', quantity: 5 }] } }).campaign?.confidence, 'expected');
    assert.throws(() => parseBlockDoc({ campaign: { duration: 60, quantities: [{ good: 'catalyst', quantity: 0 }] } }), /campaign\.quantities\.0\.quantity: a campaign quantity must not be 0/);
    assert.throws(() => parseBlockDoc({ campaign: { duration: 60, confidence: '99', quantities: [{ good: 'catalyst', quantity: 5 }] } }), /campaign\.confidence/);
  });
});
