// The factory balance as the Factory Balance view shows it: one snapshot of the enabled blocks
// (stale ones solved in memory, nothing written) feeding the coherence audit the assistant sees,
// the power totals, and the building bill (whole machines per block and recipe, summed per machine).
import type { Project } from '../../db/project';
import type { PlanningContext } from '../context';
import { coherenceAudit, type CoherenceAudit } from './audit';
import { byBlock, type BlockSolver } from './blocks';
import { placedBuildings, rowsOfBlock } from './buildings';
import { factorySnapshot } from './fresh';
import { factoryPower, type FactoryPower } from './power';

export interface FactoryBalance {
  audit: CoherenceAudit;
  power: FactoryPower;
  /** Whole buildings of the enabled blocks (machines and beacon buildings), most first. */
  buildings: Array<{ machine: string; display: string; count: number; beacon: boolean; blocks: Array<{ id: string; name: string; count: number }> }>;
}

export async function factoryBalance(p: Project, pc: PlanningContext, solve: BlockSolver): Promise<FactoryBalance> {
  const snap = await factorySnapshot(p, solve);
  const audit = coherenceAudit(p, pc.g, pc.availability, snap);
  const power = await factoryPower(p, pc.g, solve, 10, snap);
  const names = new Map(snap.blocks.map((b) => [b.id, b.name]));
  const machinesOf = byBlock(snap.machines);
  const bill = new Map<string, Map<string, number>>();
  const beacons = new Set<string>();
  for (const b of snap.blocks) {
    // Rounded up per block and recipe, beacons whole per row: as the Factory view, the block editor
    // and the building bill tool count them.
    for (const x of placedBuildings(rowsOfBlock(b.doc, machinesOf.get(b.id) ?? []))) {
      const per = bill.get(x.entity) ?? new Map<string, number>();
      per.set(b.id, (per.get(b.id) ?? 0) + x.count);
      bill.set(x.entity, per);
      if (x.beacon) beacons.add(x.entity);
    }
  }
  const buildings = [...bill].map(([machine, per]) => ({
    machine,
    display: pc.g.displayOf(machine),
    count: [...per.values()].reduce((a, b) => a + b, 0),
    beacon: beacons.has(machine),
    blocks: [...per].map(([id, count]) => ({ id, name: names.get(id) ?? id, count })).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
  }));
  buildings.sort((a, b) => b.count - a.count || a.display.localeCompare(b.display));
  return { audit, power, buildings };
}
