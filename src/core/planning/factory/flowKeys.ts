// Goods between blocks, kept apart by temperature: a block's export of a fluid is a supply at the
// exact temperature it leaves at, an import a demand over the range its consumers accept (steam at
// 165° and at 500° are different supplies; a turbine taking up to 1000° can use either). Items and
// fluids without temperatures have one key on each side. A flow vector maps keys to rates: supplies
// positive, demands negative.
import type { BlockFlowRow } from './blocks';
import { ELECTRICITY, HEAT } from '../../gamedata/model';

/** Goods that are not traded between blocks (power is reported separately). */
export const ENERGY_GOODS = new Set([ELECTRICITY, HEAT]);

export interface SupplyKey {
  side: 'supply';
  id: string;
  good: string;
  kind: 'item' | 'fluid';
  /** Exact temperature it leaves at; undefined = not temperature-qualified. */
  temperature?: number;
}

export interface DemandKey {
  side: 'demand';
  id: string;
  good: string;
  kind: 'item' | 'fluid';
  /** Accepted range; null = open (any). */
  min: number | null;
  max: number | null;
}

export type FlowKey = SupplyKey | DemandKey;

export const supplyKey = (good: string, kind: 'item' | 'fluid', temperature?: number | null): SupplyKey => ({
  side: 'supply', id: `s:${good}@${temperature ?? '*'}`, good, kind, ...(temperature !== undefined && temperature !== null ? { temperature } : {}),
});

export const demandKey = (good: string, kind: 'item' | 'fluid', min: number | null = null, max: number | null = null): DemandKey => ({
  side: 'demand', id: `d:${good}[${min ?? ''},${max ?? ''}]`, good, kind, min, max,
});

/** Can this supply feed this demand? Same good, and its temperature within the accepted range. */
export function compatible(s: SupplyKey, d: DemandKey): boolean {
  if (s.good !== d.good) return false;
  if (s.temperature === undefined) return true;
  return (d.min === null || s.temperature >= d.min - 1e-9) && (d.max === null || s.temperature <= d.max + 1e-9);
}

/** "steam 165°", "steam ≤ 100°", "steam 150–500°", or the plain name. */
export function keyLabel(k: FlowKey, display: string): string {
  if (k.side === 'supply') return k.temperature === undefined ? display : `${display} ${fmtT(k.temperature)}°`;
  if (k.min === null && k.max === null) return display;
  if (k.min !== null && k.max !== null) return k.min === k.max ? `${display} ${fmtT(k.min)}°` : `${display} ${fmtT(k.min)}–${fmtT(k.max)}°`;
  return k.min !== null ? `${display} ≥ ${fmtT(k.min)}°` : `${display} ≤ ${fmtT(k.max!)}°`;
}

const fmtT = (t: number) => (Number.isInteger(t) ? String(t) : t.toFixed(1));

export type FlowVector = Map<string, number>;

/** The keys seen so far, and the goods left out of the vectors (energy goods unless power is traded). */
export interface FlowSpace {
  keys: Map<string, FlowKey>;
  skip: ReadonlySet<string>;
}

export const flowSpace = (skip: ReadonlySet<string> = ENERGY_GOODS): FlowSpace => ({ keys: new Map(), skip });

/** A block's projection rows as keys and a vector. */
export function vectorOf(rows: BlockFlowRow[], space: FlowSpace): FlowVector {
  const { keys } = space;
  const v: FlowVector = new Map();
  for (const f of rows) {
    if (space.skip.has(f.item) || !(f.rate > 0)) continue;
    const k =
      f.role === 'import'
        ? demandKey(f.item, f.kind, f.temperature_mode === 'range' ? f.temperature_min : f.temperature_mode === 'exact' ? f.temperature_min : null, f.temperature_mode === 'range' ? f.temperature_max : f.temperature_mode === 'exact' ? f.temperature_max : null)
        : supplyKey(f.item, f.kind, f.temperature_mode === 'exact' ? f.temperature_min : null);
    keys.set(k.id, k);
    v.set(k.id, (v.get(k.id) ?? 0) + (k.side === 'supply' ? f.rate : -f.rate));
  }
  return v;
}

/** a + s·b, in place on a. */
export function addScaled(a: FlowVector, b: FlowVector, s: number): FlowVector {
  if (s === 0) return a;
  for (const [k, v] of b) a.set(k, (a.get(k) ?? 0) + s * v);
  return a;
}
