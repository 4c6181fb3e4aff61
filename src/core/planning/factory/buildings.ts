// The whole buildings a solved block places: per row its machines (the fractional count rounded up)
// and its beacon buildings (whole, shared as the row says). One count for the block editor, the
// Factory view, the Factory Balance and the building bill, so they never disagree.
import type { BeaconConfig } from '../effects';
import { beaconsPlaced, wholeBuildings } from '../effects';
import type { BlockDoc } from '../block/document';

type Beacons = Array<Pick<BeaconConfig, 'beacon' | 'count' | 'shared'>>;

export interface PlacedRow {
  recipe: string;
  machine: string | null;
  /** The solver's fractional count. */
  buildings: number;
  beacons?: Beacons;
}

export interface Placed {
  entity: string;
  count: number;
  /** A beacon building (not a machine running the recipe). */
  beacon: boolean;
  recipe: string;
}

/** Per row: its whole machines and, for each beacon configuration, its beacon buildings. */
export function placedBuildings(rows: PlacedRow[]): Placed[] {
  const out: Placed[] = [];
  for (const r of rows) {
    if (!r.machine || !(r.buildings > 1e-9)) continue;
    const n = wholeBuildings(r.buildings);
    if (n > 0) out.push({ entity: r.machine, count: n, beacon: false, recipe: r.recipe });
    for (const b of r.beacons ?? []) {
      const placed = beaconsPlaced(b, r.buildings);
      if (placed > 0) out.push({ entity: b.beacon, count: placed, beacon: true, recipe: r.recipe });
    }
  }
  return out;
}

/** A stored block's machines (its projection) with the beacons its document gives each row. */
export function rowsOfBlock(doc: Pick<BlockDoc, 'recipes'>, machines: Array<{ recipe: string; machine: string; count: number }>): PlacedRow[] {
  const beacons = new Map(doc.recipes.map((r) => [r.recipe, r.beacons ?? []]));
  return machines.map((m) => ({ recipe: m.recipe, machine: m.machine, buildings: m.count, beacons: beacons.get(m.recipe) ?? [] }));
}

/** Summed per entity, most first. */
export function countByEntity(placed: Placed[]): Array<{ entity: string; count: number; beacon: boolean }> {
  const by = new Map<string, { entity: string; count: number; beacon: boolean }>();
  for (const p of placed) {
    const e = by.get(p.entity);
    if (e) e.count += p.count;
    else by.set(p.entity, { entity: p.entity, count: p.count, beacon: p.beacon });
  }
  return [...by.values()].sort((a, b) => b.count - a.count || a.entity.localeCompare(b.entity));
}
