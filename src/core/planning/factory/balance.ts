// The factory balance as the Factory Balance view shows it: one snapshot of the enabled blocks
// (stale ones solved in memory, nothing written) feeding the coherence audit the assistant sees,
// the power totals, and the building bill (whole machines per block and recipe, summed per machine).
import type { Project } from '../../db/project';
import type { PlanningContext } from '../context';
import { coherenceAudit, type CoherenceAudit } from './audit';
import type { BlockSolver } from './blocks';
import { factorySnapshot } from './fresh';
import { factoryPower, type FactoryPower } from './power';

export interface FactoryBalance {
  audit: CoherenceAudit;
  power: FactoryPower;
  /** Whole buildings of the enabled blocks, most first; beacons are not in the stored projections. */
  buildings: Array<{ machine: string; display: string; count: number; blocks: Array<{ id: string; name: string; count: number }> }>;
}

export async function factoryBalance(p: Project, pc: PlanningContext, solve: BlockSolver): Promise<FactoryBalance> {
  const snap = await factorySnapshot(p, solve);
  const audit = coherenceAudit(p, pc.g, pc.availability, snap);
  const power = await factoryPower(p, pc.g, solve, 10, snap);
  const names = new Map(snap.blocks.map((b) => [b.id, b.name]));
  const bill = new Map<string, Map<string, number>>();
  for (const m of snap.machines) {
    // Rounded up per block and recipe, as the Factory view and the building bill tool count them.
    const whole = Math.ceil(m.count - 1e-6);
    if (whole <= 0) continue;
    const per = bill.get(m.machine) ?? new Map<string, number>();
    per.set(m.block_id, (per.get(m.block_id) ?? 0) + whole);
    bill.set(m.machine, per);
  }
  const buildings = [...bill].map(([machine, per]) => ({
    machine,
    display: pc.g.displayOf(machine),
    count: [...per.values()].reduce((a, b) => a + b, 0),
    blocks: [...per].map(([id, count]) => ({ id, name: names.get(id) ?? id, count })).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
  }));
  buildings.sort((a, b) => b.count - a.count || a.display.localeCompare(b.display));
  return { audit, power, buildings };
}
