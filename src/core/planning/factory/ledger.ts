// The factory ledger: the cached flows of all enabled blocks per good — who makes it (and in which
// role), who takes it, and the net. A fluid whose supplies and demands do not all match in
// temperature is split into the supplies it really has (steam at 165° and at 500° are different
// goods to a consumer taking at most 165°): each supply temperature is an entry, filled into the
// demands whose range accepts it, and demand no supply can meet is an entry of its own.
import type { Project } from '../../db/project';
import { blockFlows, listBlocks, type BlockFlowRow, type BlockRecord } from './blocks';
import { compatible, demandKey, ENERGY_GOODS, keyLabel, supplyKey, type DemandKey, type SupplyKey } from './flowKeys';

export interface LedgerEntry {
  /** The map key: the good, or `good@T` / `good[min,max]` for a temperature-split fluid. */
  key: string;
  good: string;
  kind: 'item' | 'fluid';
  /** Exact temperature of the supplies in this entry (temperature-split fluids). */
  temperature?: number;
  /** Accepted range of unmet demand (the entry of demand no supply's temperature fits). */
  range?: { min: number | null; max: number | null };
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

export { ENERGY_GOODS };

/** "Steam 165°" for a split entry, else the display name. */
export function ledgerLabel(e: Pick<LedgerEntry, 'good' | 'kind' | 'temperature' | 'range'>, display: string): string {
  if (e.temperature !== undefined) return keyLabel(supplyKey(e.good, e.kind, e.temperature), display);
  if (e.range) return keyLabel(demandKey(e.good, e.kind, e.range.min, e.range.max), display);
  return display;
}

/** Every entry of one good (a temperature-split fluid has several). */
export function ledgerEntriesOf(ledger: Map<string, LedgerEntry>, good: string): LedgerEntry[] {
  return [...ledger.values()].filter((e) => e.good === good);
}

/**
 * Per-good ledger of the enabled blocks; `flows` overrides the stored projections (see fresh.ts).
 * `enabled` is the enabled blocks when the caller has already listed them (listing parses every document).
 */
export function factoryLedger(p: Project, flows?: BlockFlowRow[], enabled?: BlockRecord[]): Map<string, LedgerEntry> {
  const blocks = new Map((enabled ?? listBlocks(p, { enabledOnly: true })).map((b) => [b.id, b]));
  const perGood = new Map<string, BlockFlowRow[]>();
  for (const f of flows ?? blockFlows(p)) {
    if (!blocks.has(f.block_id) || ENERGY_GOODS.has(f.item)) continue;
    const l = perGood.get(f.item);
    if (l) l.push(f);
    else perGood.set(f.item, [f]);
  }
  const out = new Map<string, LedgerEntry>();
  for (const [good, rows] of perGood) {
    for (const e of entriesOf(good, rows, (id) => blocks.get(id)!.name)) out.set(e.key, e);
  }
  return out;
}

const keyOfRow = (f: BlockFlowRow): SupplyKey | DemandKey =>
  f.role === 'import'
    ? demandKey(f.item, f.kind, f.temperature_mode ? f.temperature_min : null, f.temperature_mode ? f.temperature_max : null)
    : supplyKey(f.item, f.kind, f.temperature_mode === 'exact' ? f.temperature_min : null);

function entriesOf(good: string, rows: BlockFlowRow[], nameOf: (id: string) => string): LedgerEntry[] {
  const kind = rows[0].kind;
  const supplies = rows.filter((f) => f.role !== 'import');
  const demands = rows.filter((f) => f.role === 'import');
  const sKeys = supplies.map(keyOfRow) as SupplyKey[];
  const dKeys = demands.map(keyOfRow) as DemandKey[];
  const whole = sKeys.every((s) => dKeys.every((d) => compatible(s, d)));
  const entry = (key: string, extra: Partial<LedgerEntry> = {}): LedgerEntry => ({ key, good, kind, producers: [], consumers: [], produced: 0, consumed: 0, net: 0, ...extra });
  if (whole) {
    const e = entry(good);
    for (const f of supplies) {
      e.producers.push({ blockId: f.block_id, blockName: nameOf(f.block_id), role: f.role, rate: f.rate });
      e.produced += f.rate;
    }
    for (const f of demands) {
      e.consumers.push({ blockId: f.block_id, blockName: nameOf(f.block_id), rate: f.rate });
      e.consumed += f.rate;
    }
    e.net = e.produced - e.consumed;
    return [e];
  }
  // Split by supply temperature. Supplies in rising temperature each fill the open demands that
  // accept them, the narrowest upper bound first: optimal for points feeding intervals. A supply
  // without a temperature fits anything and goes last.
  const groups = new Map<string, { key: SupplyKey; rows: BlockFlowRow[] }>();
  supplies.forEach((f, i) => {
    const k = sKeys[i];
    const gr = groups.get(k.id) ?? { key: k, rows: [] };
    gr.rows.push(f);
    groups.set(k.id, gr);
  });
  const order = [...groups.values()].sort((a, b) => (a.key.temperature ?? Infinity) - (b.key.temperature ?? Infinity));
  const left = demands.map((f) => f.rate);
  const out: LedgerEntry[] = [];
  for (const gr of order) {
    const e = entry(`${good}@${gr.key.temperature ?? '*'}`, gr.key.temperature !== undefined ? { temperature: gr.key.temperature } : {});
    for (const f of gr.rows) {
      e.producers.push({ blockId: f.block_id, blockName: nameOf(f.block_id), role: f.role, rate: f.rate });
      e.produced += f.rate;
    }
    let avail = e.produced;
    const open = demands.map((_f, i) => i).filter((i) => left[i] > 0 && compatible(gr.key, dKeys[i])).sort((a, b) => (dKeys[a].max ?? Infinity) - (dKeys[b].max ?? Infinity));
    for (const i of open) {
      if (avail <= 0) break;
      const take = Math.min(avail, left[i]);
      avail -= take;
      left[i] -= take;
      e.consumers.push({ blockId: demands[i].block_id, blockName: nameOf(demands[i].block_id), rate: take });
      e.consumed += take;
    }
    e.net = e.produced - e.consumed;
    out.push(e);
  }
  // Demand no supply fits (or not enough of), per accepted range.
  const unmet = new Map<string, LedgerEntry>();
  demands.forEach((f, i) => {
    if (!(left[i] > 1e-12)) return;
    const k = dKeys[i];
    const e = unmet.get(k.id) ?? entry(`${good}[${k.min ?? ''},${k.max ?? ''}]`, { range: { min: k.min, max: k.max } });
    e.consumers.push({ blockId: f.block_id, blockName: nameOf(f.block_id), rate: left[i] });
    e.consumed += left[i];
    e.net = -e.consumed;
    unmet.set(k.id, e);
  });
  return [...out, ...unmet.values()];
}
