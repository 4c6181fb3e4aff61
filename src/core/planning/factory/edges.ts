// Who feeds whom: the factory ledger turned into edges between blocks, for the factory board and the
// balance. Each good's consumers are filled from its producers in supply-priority order — the
// player's order for the good, else the blocks whose goal it is before those that make it as a
// byproduct, then the Factory view's order — so a surplus lands on the last supplier and a shortage
// on the last consumer. Temperature-split fluids are filled per entry (the ledger has matched ranges).
import type { LedgerEntry } from './ledger';
import { ledgerLabel } from './ledger';
import type { SupplyPriority } from './scenario/inputs';

export interface FactoryEdge {
  good: string;
  /** The ledger entry (a temperature-split fluid has several per good). */
  key: string;
  label: string;
  from: string;
  to: string;
  rate: number;
}

export interface FactoryEdges {
  edges: FactoryEdge[];
  /** Per good key: what producers make beyond every consumer (by producer), and what consumers lack. */
  surplus: Array<{ key: string; good: string; label: string; blockId: string; rate: number }>;
  short: Array<{ key: string; good: string; label: string; blockId: string; rate: number }>;
}

/** Producers of one entry in the order they fill consumers. */
export function supplyOrder(e: LedgerEntry, priorities: SupplyPriority[], blockOrder: Map<string, number>): LedgerEntry['producers'] {
  const pr = priorities.find((x) => x.good === e.good);
  const shares = pr?.shares ?? {};
  const rank = (blockId: string) => {
    const at = pr?.order.indexOf(blockId) ?? -1;
    if (at >= 0) return at;
    if (shares[blockId] !== undefined) return -1 - shares[blockId];
    return 1000;
  };
  const goalFirst = (role: string) => (role === 'byproduct' ? 1 : 0);
  return [...e.producers].sort((a, b) => rank(a.blockId) - rank(b.blockId) || goalFirst(a.role) - goalFirst(b.role) || (blockOrder.get(a.blockId) ?? 0) - (blockOrder.get(b.blockId) ?? 0));
}

const EPS = 1e-9;

export function factoryEdges(ledger: Map<string, LedgerEntry>, priorities: SupplyPriority[], blockOrder: Map<string, number>, displayOf: (good: string) => string): FactoryEdges {
  const out: FactoryEdges = { edges: [], surplus: [], short: [] };
  for (const e of ledger.values()) {
    const label = ledgerLabel(e, displayOf(e.good));
    // One supplier per block: a block with the good as goal and byproduct is one source.
    const merged = new Map<string, number>();
    for (const p of supplyOrder(e, priorities, blockOrder)) merged.set(p.blockId, (merged.get(p.blockId) ?? 0) + p.rate);
    const supply = [...merged].map(([blockId, rate]) => ({ blockId, left: rate }));
    const consumers = new Map<string, number>();
    for (const c of e.consumers) consumers.set(c.blockId, (consumers.get(c.blockId) ?? 0) + c.rate);
    const ordered = [...consumers].sort((a, b) => (blockOrder.get(a[0]) ?? 0) - (blockOrder.get(b[0]) ?? 0));
    let si = 0;
    for (const [to, want] of ordered) {
      let need = want;
      while (need > EPS && si < supply.length) {
        const s = supply[si];
        const take = Math.min(need, s.left);
        if (take > EPS && s.blockId !== to) out.edges.push({ good: e.good, key: e.key, label, from: s.blockId, to, rate: take });
        s.left -= take;
        need -= take;
        if (s.left <= EPS) si++;
      }
      if (need > EPS * Math.max(1, want)) out.short.push({ key: e.key, good: e.good, label, blockId: to, rate: need });
    }
    for (const s of supply) if (s.left > EPS * Math.max(1, e.produced)) out.surplus.push({ key: e.key, good: e.good, label, blockId: s.blockId, rate: s.left });
  }
  return out;
}
