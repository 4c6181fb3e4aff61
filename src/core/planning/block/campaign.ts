// Campaign goals (domain A "Block"): "make N of X within T". The block is sized for a rate of
// planned / duration. With `expected` the plan is N itself. With a 90 % or 95 % confidence the output
// is treated as a Poisson count (random outputs — a 10 % byproduct, a probabilistic breeder — arrive
// in clumps): the plan is the smallest mean λ with P(X ≥ ⌈N⌉) ≥ confidence, so that by the deadline
// at least N came out in 9 (or 19) campaigns out of 10 (or 20). For a deterministic recipe the
// reserve is a safety margin, not a necessity; the report shows it next to the quantity.
import { z } from 'zod';

const name = z.string().trim().min(1, 'must be a non-empty internal name').max(200);

export const campaignConfidence = z.enum(['expected', '90', '95']);
export type CampaignConfidence = z.output<typeof campaignConfidence>;

export const campaignSchema = z.object({
  /** Seconds the campaign runs. */
  duration: z.number().positive().max(1e9).describe('seconds the campaign runs'),
  quantities: z
    .array(
      z.object({
        good: name,
        /** How many to make over the campaign; negative = to consume (a sink campaign). */
        quantity: z.number().finite().refine((q) => q !== 0, 'a campaign quantity must not be 0 (negative consumes)'),
        temperature: z.number().finite().optional(),
      }),
    )
    .min(1)
    .max(20),
  confidence: campaignConfidence.default('expected'),
  /** Set when the campaign is done: its goals stop sizing the block. */
  completedAt: z.string().max(40).optional(),
});
export type Campaign = z.output<typeof campaignSchema>;

/** One-sided standard normal quantiles of the supported confidences. */
const Z: Record<Exclude<CampaignConfidence, 'expected'>, number> = { '90': 1.2815515655446004, '95': 1.6448536269514722 };
const P: Record<Exclude<CampaignConfidence, 'expected'>, number> = { '90': 0.9, '95': 0.95 };

/** Beyond this count the tail comes from the normal approximation: exact summation costs O(k) per
 *  bisection step (≈10 ms at this limit), and the approximation's relative error in λ is < 1e-4 there.
 *  The rescaled sum has no underflow at λ > 745, so the exact range reaches well past the 700 where
 *  a naive e^{−λ}·λ^i/i! breaks down. */
export const EXACT_POISSON_LIMIT = 100_000;

/** P(X ≥ k) for X ~ Poisson(λ): 1 − e^{−λ}·Σ_{i<k} λ^i/i!, summed with a running rescale so that
 *  neither e^{−λ} underflows nor λ^i/i! overflows for large λ. */
export function poissonAtLeast(k: number, lambda: number): number {
  if (k <= 0) return 1;
  if (!(lambda > 0)) return 0;
  const SCALE = 1e200;
  let term = 1;
  let sum = 1;
  let logScale = 0;
  for (let i = 1; i < k; i++) {
    term *= lambda / i;
    sum += term;
    if (sum > SCALE) {
      sum /= SCALE;
      term /= SCALE;
      logScale += Math.log(SCALE);
    }
  }
  const below = Math.exp(Math.log(sum) + logScale - lambda);
  return Math.min(1, Math.max(0, 1 - below));
}

/**
 * The smallest Poisson mean λ with P(X ≥ ⌈quantity⌉) ≥ confidence. Exact by bisection up to
 * EXACT_POISSON_LIMIT; beyond it the continuity-corrected normal approximation
 * λ − z·√λ = k − ½ is solved in closed form.
 */
export function poissonMeanFor(quantity: number, confidence: Exclude<CampaignConfidence, 'expected'>): number {
  const k = Math.ceil(quantity - 1e-9);
  if (k <= 0) return 0;
  const z = Z[confidence];
  if (k > EXACT_POISSON_LIMIT) {
    const root = (z + Math.sqrt(z * z + 4 * (k - 0.5))) / 2;
    return root * root;
  }
  const p = P[confidence];
  let lo = 0;
  let hi = k + 10 * Math.sqrt(k) + 10;
  while (poissonAtLeast(k, hi) < p) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (poissonAtLeast(k, mid) >= p) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** How many a campaign plans for (the block makes this many on average over the duration). */
export function plannedQuantity(quantity: number, confidence: CampaignConfidence): number {
  const q = Math.abs(quantity);
  return confidence === 'expected' ? q : poissonMeanFor(q, confidence);
}

export interface CampaignGoal {
  good: string;
  /** Signed: produce > 0, consume < 0 (per second). */
  rate: number;
  temperature?: number;
  quantity: number;
  planned: number;
}

/** The goals a campaign adds to its block; none once it is completed. */
export function campaignGoals(c: Campaign | undefined): CampaignGoal[] {
  if (!c || c.completedAt) return [];
  return c.quantities.map((x) => {
    const planned = plannedQuantity(x.quantity, c.confidence);
    return { good: x.good, rate: (Math.sign(x.quantity) * planned) / c.duration, ...(x.temperature !== undefined ? { temperature: x.temperature } : {}), quantity: x.quantity, planned };
  });
}

export interface CampaignReport {
  duration: number;
  confidence: CampaignConfidence;
  /** The campaign is done: its quantities size nothing (rates 0). */
  completed: boolean;
  quantities: Array<{ good: string; quantity: number; planned: number; rate: number }>;
}

/** What a campaign asks of its block, for the solve result: quantity, planned (with the reserve) and rate. */
export function campaignReport(c: Campaign | undefined): CampaignReport | undefined {
  if (!c) return undefined;
  const completed = !!c.completedAt;
  return {
    duration: c.duration, confidence: c.confidence, completed,
    quantities: c.quantities.map((x) => {
      const planned = plannedQuantity(x.quantity, c.confidence);
      return { good: x.good, quantity: x.quantity, planned, rate: completed ? 0 : (Math.sign(x.quantity) * planned) / c.duration };
    }),
  };
}
