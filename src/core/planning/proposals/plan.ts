// submitPlan: several new blocks and updates to existing ones as one plan card, checked for
// one-branch-per-TURD-master across the whole plan. A plan balances itself: a supplier block whose
// goal rate is "fromPlan" is sized from what the plan's other blocks import of that good (less what
// other blocks' byproducts already supply), and the plan reports the balance its blocks leave — the
// same verdicts coherenceAudit gives once it is applied.
import { z } from 'zod';
import type { Project } from '../../db/project';
import type { PlanningContext } from '../context';
import { coherenceAudit, type CoherenceAudit, type SinkAdvice } from '../factory/audit';
import { ENERGY_GOODS, isBalanced } from '../factory/ledger';
import { draftFromSubmit, draftGoods, fromPlanGoods, splitImports, withoutBlock, submitBlockInput, type BlockSupply, type Draft, FROM_PLAN } from './draft';
import { reviseBlockInput, reviseDraft, type RevisionDraft } from './revise';
import { snapshotWithDrafts } from './planFactory';
import { researchLeft } from './research';
import type { ResearchList } from '../queries/researchPath';

export const submitPlanInput = z.object({
  title: z.string().trim().min(1).max(120),
  objective: z.string().trim().min(1).max(2000).describe('what the plan achieves, in one or two sentences'),
  blocks: z.array(submitBlockInput).min(1).max(20),
  updates: z.array(reviseBlockInput).max(20).optional(),
  buildingMaterialsIncluded: z.boolean().default(false).describe('true when the plan also makes the buildings it needs'),
  notes: z.string().max(4000).optional(),
});

export type SubmitPlanInput = z.output<typeof submitPlanInput>;

/** What the plan's blocks leave unbalanced among themselves and with the factory, for the goods they touch. */
export interface PlanBalance {
  /** No good the plan touches is short. */
  ok: boolean;
  balancedLinks: number;
  underSupplied: CoherenceAudit['underSupplied'];
  overProduced: CoherenceAudit['overProduced'];
  unsourcedImports: CoherenceAudit['unsourcedImports'];
  danglingByproducts: CoherenceAudit['danglingByproducts'];
}

export interface PlanDraft {
  kind: 'plan';
  title: string;
  objective: string;
  ok: boolean;
  blocks: Draft[];
  updates: RevisionDraft[];
  buildingMaterialsIncluded: boolean;
  turd: { conflicts: Array<{ master: string; branches: string[] }>; picks: Array<{ master: string; branch: string; state: string }> };
  /** Goals sized from the plan: good, block, rate. */
  sizedFromPlan: Array<{ good: string; block: string; rate: number }>;
  balance: PlanBalance;
  invalid: string[];
  warnings: string[];
  notes?: string;
  /** The research every block and update still needs, as one path in research order with its science cost (absent: none). */
  research?: ResearchList;
}

/** Rounds of re-sizing before giving up on a plan whose suppliers feed each other in a loop. */
const MAX_ROUNDS = 12;
const settled = (a: number, b: number) => Math.abs(a - b) <= 1e-9 + 1e-7 * Math.max(Math.abs(a), Math.abs(b));

export async function planDraft(ctx: PlanningContext, project: Project, input: SubmitPlanInput, supply: BlockSupply = new Map()): Promise<PlanDraft> {
  const names = input.blocks.map((b) => b.name ?? `${ctx.g.displayOf(draftGoods(b)[0])} (drafted)`);
  // Blocks of the plan supply each other: their goals count as "from blocks" for the others.
  const planSupply = new Map(supply);
  input.blocks.forEach((b, i) => {
    for (const g of draftGoods(b)) planSupply.set(g, [...(planSupply.get(g) ?? []), names[i]]);
  });
  const supplyFor = (i: number) => withoutBlock(planSupply, names[i]);
  const auto = input.blocks.map(fromPlanGoods);
  const rates = input.blocks.map(() => new Map<string, number>());
  const build = (i: number) => draftFromSubmit(ctx, input.blocks[i], supplyFor(i), rates[i]);
  const blocks = await Promise.all(input.blocks.map((_b, i) => build(i)));
  const updates = await Promise.all((input.updates ?? []).map((u) => reviseDraft(ctx, project, u, planSupply)));
  const warnings: string[] = [];

  if (auto.some((a) => a.length)) {
    let converged = false;
    for (let round = 0; round < MAX_ROUNDS && !converged; round++) {
      const next = sizeFromPlan(auto, [...blocks, ...updates]);
      const changed = next.map((m, i) => [...m].some(([g, r]) => !settled(r, rates[i].get(g) ?? 0)));
      converged = !changed.some(Boolean);
      for (let i = 0; i < blocks.length; i++) {
        if (!changed[i]) continue;
        rates[i] = next[i];
        blocks[i] = await build(i);
      }
    }
    if (!converged) warnings.push(`the "${FROM_PLAN}" rates did not settle in ${MAX_ROUNDS} rounds (suppliers feed each other in a loop); give those goals fixed rates`);
  }
  const sizedFromPlan = auto.flatMap((goods, i) => goods.map((good) => ({ good, block: names[i], rate: rates[i].get(good) ?? 0 })));
  for (const s of sizedFromPlan) if (s.rate <= 0) warnings.push(`nothing in the plan imports ${ctx.g.displayOf(s.good)}, so "${s.block}" was sized to 0; give it a rate or drop the block`);

  // A block's byproducts supply the plan's other blocks too — as much as the blocks make. A good the
  // plan's blocks make only on the side (and the factory's blocks not at all) is shared out in
  // proportion to what each block takes; what it leaves uncovered is an external import, as the
  // audit says.
  const all: Draft[] = [...blocks, ...updates];
  const made = new Map<string, number>();
  const taken = new Map<string, number>();
  for (const d of all) {
    for (const f of d.exports) made.set(f.good, (made.get(f.good) ?? 0) + f.rate);
    for (const f of d.imports) taken.set(f.good, (taken.get(f.good) ?? 0) + f.rate);
  }
  const share = (good: string) => {
    const m = made.get(good) ?? 0;
    const t = taken.get(good) ?? 0;
    return planSupply.has(good) || m >= t || isBalanced(m, t) ? 1 : m / t;
  };
  all.forEach((d, i) => {
    const others = new Map(planSupply);
    all.forEach((o, j) => {
      if (j === i) return;
      // exports hold byproducts and goal surplus alike
      for (const f of o.exports) if (!others.get(f.good)?.includes(o.name)) others.set(f.good, [...(others.get(f.good) ?? []), o.name]);
    });
    Object.assign(d, splitImports(d.imports, withoutBlock(others, d.name), share));
  });

  const byMaster = new Map<string, Set<string>>();
  const picks = new Map<string, { master: string; branch: string; state: string }>();
  for (const d of all) {
    for (const r of d.turd.requirements) {
      byMaster.set(r.master, (byMaster.get(r.master) ?? new Set()).add(r.branch));
      picks.set(`${r.master}\0${r.branch}`, { master: r.master, branch: r.branch, state: r.state });
    }
  }
  const conflicts = [...byMaster].filter(([, b]) => b.size > 1).map(([master, b]) => ({ master, branches: [...b].sort() }));
  const invalid = all.flatMap((d) => d.invalid.map((i) => `${d.name}: ${i}`));
  const balance = await planBalance(ctx, project, blocks, updates);
  if (balance.underSupplied.length) warnings.push(`short between blocks: ${balance.underSupplied.map((u) => `${u.display} by ${fmt(u.shortBy)}/s`).join(', ')}`);
  // Balanced is not the same as tidy: what the blocks leave over between them is said too.
  const where = (a: SinkAdvice) => (a.disposal === 'route' ? `route it to ${a.topConsumers.join(', ')}` : a.disposal === 'void' ? `void it with ${a.voidRecipes.join(', ')}` : 'nothing uses or voids it');
  const leftOver = [
    ...balance.overProduced.map((o) => `${o.display} ${fmt(o.surplus)}/s more than the other blocks take (from ${o.producers.map((p) => `"${p}"`).join(', ')}; ${where(o)})`),
    ...balance.danglingByproducts.map((d) => `${d.display} ${fmt(d.rate)}/s nothing takes (from ${d.producers.map((p) => `"${p}"`).join(', ')}; ${where(d)})`),
  ];
  if (leftOver.length) warnings.push(`${balance.ok ? 'balanced, but left' : 'left'} over between blocks: ${leftOver.join('; ')}`);
  const research = researchLeft(ctx, all.flatMap((d) => d.rows));
  return {
    kind: 'plan', title: input.title, objective: input.objective,
    ok: all.every((d) => d.ok) && conflicts.length === 0,
    blocks, updates, buildingMaterialsIncluded: input.buildingMaterialsIncluded,
    turd: { conflicts, picks: [...picks.values()] }, sizedFromPlan, balance, invalid, warnings,
    ...(input.notes ? { notes: input.notes } : {}),
    ...(research ? { research } : {}),
  };
}

/**
 * New rates for the FROM_PLAN goals: per good, what the other blocks import, less what the other
 * blocks (not sized from the plan for that good) already make of it as byproduct or surplus; shared
 * evenly when several blocks are sized for the same good.
 */
function sizeFromPlan(auto: string[][], drafts: Draft[]): Array<Map<string, number>> {
  const suppliers = new Map<string, number[]>();
  auto.forEach((goods, i) => goods.forEach((g) => suppliers.set(g, [...(suppliers.get(g) ?? []), i])));
  const need = new Map<string, number>();
  for (const [good, own] of suppliers) {
    let n = 0;
    drafts.forEach((d, j) => {
      if (own.includes(j)) return;
      for (const f of d.imports) if (f.good === good) n += f.rate;
      for (const f of d.exports) if (f.good === good) n -= f.rate;
    });
    need.set(good, Math.max(0, n) / own.length);
  }
  return auto.map((goods) => new Map(goods.map((g) => [g, need.get(g)!])));
}

async function planBalance(ctx: PlanningContext, project: Project, blocks: Draft[], updates: RevisionDraft[]): Promise<PlanBalance> {
  const snap = await snapshotWithDrafts(project, ctx, { blocks, updates });
  const audit = coherenceAudit(project, ctx.g, ctx.availability, snap);
  const touched = new Set<string>();
  for (const d of [...blocks, ...updates]) for (const f of [...d.imports, ...d.exports, ...d.goals]) if (!ENERGY_GOODS.has(f.good)) touched.add(f.good);
  const mine = <T extends { good: string }>(xs: T[]) => xs.filter((x) => touched.has(x.good));
  const underSupplied = mine(audit.underSupplied);
  return {
    ok: underSupplied.length === 0,
    balancedLinks: mine(audit.balancedLinks).length,
    underSupplied,
    overProduced: mine(audit.overProduced),
    unsourcedImports: mine(audit.unsourcedImports),
    danglingByproducts: mine(audit.danglingByproducts),
  };
}

const fmt = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 1 ? x.toFixed(2) : x.toPrecision(3));
