// Factory-wide coherence: balanced links between blocks, goods short of supply, surpluses, imports
// nothing in the factory makes, byproducts with nowhere to go, and the final products. Works on
// the cached projections; callers refresh stale blocks first.
import type { Project } from '../../db/project';
import type { GameIndex } from '../gameIndex';
import type { Availability } from '../availability';
import { factoryLedger, isBalanced, ledgerLabel, type LedgerEntry } from './ledger';
import { listBlocks, type BlockRecord } from './blocks';
import type { FactorySnapshot } from './fresh';
import { isDisposalRecipeFor } from '../queries/common';
import { variantBase } from '../queries/variants';

/** Below this rate (items or units per second) a surplus with no consumer is not a product. */
export const AUDIT_TOLERANCE = 1e-3;

export interface CoherenceAudit {
  blocks: number;
  balancedLinks: Array<{ good: string; display: string; rate: number }>;
  underSupplied: Array<{ good: string; display: string; produced: number; consumed: number; shortBy: number; producers: string[]; consumers: string[] }>;
  /** A product made beyond what the other blocks take: where the surplus can go, as for a dangling byproduct. */
  overProduced: Array<{ good: string; display: string; produced: number; consumed: number; surplus: number; producers: string[] } & SinkAdvice>;
  /** Taken but not made by any block — or made only as a byproduct, short of what is taken: `rate` is
   *  then the rest, and `fromByproducts` what the blocks that make it on the side cover. */
  unsourcedImports: Array<{ good: string; display: string; rate: number; consumers: string[]; craftable: boolean; fromByproducts?: { rate: number; producers: string[] } }>;
  danglingByproducts: Array<{ good: string; display: string; rate: number; producers: string[] } & SinkAdvice>;
  finalProducts: Array<{ good: string; display: string; rate: number; producers: string[] }>;
  /** Blocks whose cached solve is stale or failed (their flows may be missing or outdated). */
  notSolved: Array<{ id: string; name: string; status: string | null }>;
}

/**
 * Where a good nobody in the factory takes can go: recipes that use it productively (available now,
 * not barreling), else recipes that only dispose of it. The same advice for a byproduct and for a
 * product's surplus, so a plan's balance answers what `byproductSinks` would for each of them.
 */
export interface SinkAdvice {
  disposal: 'route' | 'void' | 'nowhere';
  topConsumers: string[];
  voidRecipes: string[];
  /** Listed void recipes that cannot be picked yet under the horizon, with the reason. */
  voidsNotSelectable?: Array<{ recipe: string; reason: string }>;
}

const names = (xs: Array<{ blockName: string }>) => [...new Set(xs.map((x) => x.blockName))];

/** Recipes that only dispose of a good: its sole input, no outputs, less of it, or a disposal residue. */
export function voidRecipes(g: GameIndex, good: string): string[] {
  return g.consumersOf(good).filter((r) => isDisposalRecipeFor(g, g.recipes.get(r)!, good));
}

const isBarreling = (g: GameIndex, r: string) => /barrel|canister/.test(r) || /barrel/.test(g.recipes.get(r)?.category ?? '');

/** `snapshot` is a factorySnapshot (or its parts); its `blocks`, when given, are the enabled blocks it was taken over. */
export function coherenceAudit(
  p: Project, g: GameIndex, availability?: Availability,
  snapshot?: Pick<FactorySnapshot, 'flows' | 'resolved' | 'power'> & { blocks?: BlockRecord[] },
): CoherenceAudit {
  const blocks = snapshot?.blocks ?? listBlocks(p, { enabledOnly: true });
  const ledger = factoryLedger(p, snapshot?.flows, blocks);
  // A stale block counts by its in-memory re-solve, which can fail where the stored solve did not;
  // a stale block nobody re-solved has no current status at all.
  const status = (b: BlockRecord) => (snapshot?.resolved.includes(b.id) ? (snapshot.power.get(b.id)?.status ?? null) : b.cache.fresh ? b.cache.status : 'stale');
  const out: CoherenceAudit = {
    blocks: blocks.length, balancedLinks: [], underSupplied: [], overProduced: [], unsourcedImports: [], danglingByproducts: [], finalProducts: [],
    notSolved: blocks.map((b) => ({ id: b.id, name: b.name, status: status(b) })).filter((b) => b.status !== 'optimal'),
  };
  const entries = [...ledger.values()].sort((a, b) => a.key.localeCompare(b.key));
  // A temperature-split fluid's entries say which temperature they are ("Steam 500°").
  for (const e of entries) classify(g, e, out, () => ledgerLabel(e, g.displayOf(e.good)), availability);
  return out;
}

function classify(g: GameIndex, e: LedgerEntry, out: CoherenceAudit, display: (n: string) => string, availability?: Availability): void {
  const primary = e.producers.some((x) => x.role === 'primary' || x.role === 'stock');
  if (e.producers.length && e.consumers.length) {
    if (isBalanced(e.produced, e.consumed)) out.balancedLinks.push({ good: e.good, display: display(e.good), rate: e.consumed });
    // Blocks that make a good only on the side supply what they make, not what is taken: the rest is
    // an import like one nothing makes. Calling it a shortfall would make a plan worse for a burner
    // that leaves a trace of ash than for no burner at all.
    else if (e.net < 0 && !primary) out.unsourcedImports.push({ ...unsourced(g, e, -e.net, display, availability), fromByproducts: { rate: e.produced, producers: names(e.producers) } });
    else if (e.net < 0) out.underSupplied.push({ good: e.good, display: display(e.good), produced: e.produced, consumed: e.consumed, shortBy: -e.net, producers: names(e.producers), consumers: names(e.consumers) });
    else if (primary) out.overProduced.push({ good: e.good, display: display(e.good), produced: e.produced, consumed: e.consumed, surplus: e.net, producers: names(e.producers), ...sinkAdvice(g, e.good, availability) });
    else out.danglingByproducts.push(dangling(g, e, e.net, display, availability));
    return;
  }
  if (e.consumers.length) {
    out.unsourcedImports.push(unsourced(g, e, e.consumed, display, availability));
    return;
  }
  if (e.produced <= AUDIT_TOLERANCE) return;
  if (primary) out.finalProducts.push({ good: e.good, display: display(e.good), rate: e.produced, producers: names(e.producers) });
  else out.danglingByproducts.push(dangling(g, e, e.produced, display, availability));
}

function unsourced(g: GameIndex, e: LedgerEntry, rate: number, display: (n: string) => string, availability?: Availability): CoherenceAudit['unsourcedImports'][number] {
  const craftable = g.producersOf(e.good).some((r) => !availability || availability.recipe(r).availableNow);
  return { good: e.good, display: display(e.good), rate, consumers: names(e.consumers), craftable };
}

function dangling(g: GameIndex, e: LedgerEntry, rate: number, display: (n: string) => string, availability?: Availability): CoherenceAudit['danglingByproducts'][number] {
  return { good: e.good, display: display(e.good), rate, producers: names(e.producers), ...sinkAdvice(g, e.good, availability) };
}

export function sinkAdvice(g: GameIndex, good: string, availability?: Availability): SinkAdvice {
  const all = voidRecipes(g, good);
  // Selectable voids first: the one named is the one the player can use today when there is one.
  const voids = availability ? [...all].sort((a, b) => Number(!availability.recipe(a).selectable) - Number(!availability.recipe(b).selectable) || (a < b ? -1 : 1)) : all;
  const listed = voids.slice(0, 2);
  const locked = availability ? listed.filter((r) => !availability.recipe(r).selectable).map((r) => ({ recipe: r, reason: `not selectable yet under the ${availability.mode} horizon: ${availability.recipe(r).lockReason ?? 'locked'}` })) : [];
  // A recipe's temperature variants (FactorioLab lists one per water temperature) are one consumer:
  // the first of a family stands for it, so three names are three different uses.
  const families = new Set<string>();
  const productive = g
    .consumersOf(good)
    .filter((r) => !voids.includes(r) && !isBarreling(g, r) && (!availability || availability.recipe(r).availableNow))
    .sort()
    .filter((r) => {
      const family = variantBase(g, r) ?? r;
      if (families.has(family)) return false;
      families.add(family);
      return true;
    });
  return {
    disposal: productive.length ? 'route' : voids.length ? 'void' : 'nowhere',
    topConsumers: productive.slice(0, 3), voidRecipes: listed, ...(locked.length ? { voidsNotSelectable: locked } : {}),
  };
}
