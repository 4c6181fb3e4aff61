// The factory ledger: the cached flows of all enabled blocks summed per good — who makes it (and
// in which role), who takes it, and the net. Temperatures fold onto the bare fluid.
import type { Project } from '../../db/project';
import { blockFlows, listBlocks, type BlockFlowRow, type BlockRecord } from './blocks';
import { ELECTRICITY, HEAT } from '../../gamedata/model';

export interface LedgerEntry {
  good: string;
  kind: 'item' | 'fluid';
  producers: Array<{ blockId: string; blockName: string; role: BlockFlowRow['role']; rate: number }>;
  consumers: Array<{ blockId: string; blockName: string; rate: number }>;
  produced: number;
  consumed: number;
  net: number;
}

/** A link is balanced when |net| is below this share of its throughput (the larger of made and taken):
 *  the factory balance view and the coherence audit use the same rule, so a solver's rounding
 *  dust (a 0.002 % surplus) is never reported as over- or under-supply. */
export const BALANCE_TOLERANCE = 0.01;

export function isBalanced(produced: number, consumed: number): boolean {
  return Math.abs(produced - consumed) < BALANCE_TOLERANCE * Math.max(produced, consumed) || Math.abs(produced - consumed) <= 1e-9;
}

/** Goods that are not traded between blocks (power is reported separately). */
export const ENERGY_GOODS = new Set([ELECTRICITY, HEAT]);

/**
 * Per-good ledger of the enabled blocks; `flows` overrides the stored projections (see fresh.ts).
 * `enabled` is the enabled blocks when the caller has already listed them (listing parses every document).
 */
export function factoryLedger(p: Project, flows?: BlockFlowRow[], enabled?: BlockRecord[]): Map<string, LedgerEntry> {
  const blocks = new Map((enabled ?? listBlocks(p, { enabledOnly: true })).map((b) => [b.id, b]));
  const out = new Map<string, LedgerEntry>();
  for (const f of flows ?? blockFlows(p)) {
    const b = blocks.get(f.block_id);
    if (!b || ENERGY_GOODS.has(f.item)) continue;
    const e = out.get(f.item) ?? { good: f.item, kind: f.kind, producers: [], consumers: [], produced: 0, consumed: 0, net: 0 };
    if (f.role === 'import') {
      e.consumers.push({ blockId: b.id, blockName: b.name, rate: f.rate });
      e.consumed += f.rate;
    } else {
      e.producers.push({ blockId: b.id, blockName: b.name, role: f.role, rate: f.rate });
      e.produced += f.rate;
    }
    e.net = e.produced - e.consumed;
    out.set(f.item, e);
  }
  return out;
}
