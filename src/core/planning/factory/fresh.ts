// Current flows of the factory without writing anything: blocks whose cached projection is stale
// (data, horizon or TURD changed) are solved in memory. Read tools use this so they never change
// the project; the app refreshes the stored projections itself when the state changes.
import type { Project } from '../../db/project';
import { blockFlows, blockMachines, byBlock, listBlocks, projectionFlows, type BlockFlowRow, type BlockRecord, type BlockSolver } from './blocks';

export interface FactorySnapshot {
  blocks: BlockRecord[];
  flows: BlockFlowRow[];
  machines: Array<{ block_id: string; machine: string; recipe: string; count: number }>;
  /** Per block: electric power (W) and solve status as of now. */
  power: Map<string, { powerW: number; status: string | null }>;
  /** Blocks solved in memory because their projection was stale. */
  resolved: string[];
}

/** Over the enabled blocks unless `blocks` names others (e.g. one disabled block a caller asked about). */
export async function factorySnapshot(p: Project, solve: BlockSolver, blocks: BlockRecord[] = listBlocks(p, { enabledOnly: true })): Promise<FactorySnapshot> {
  const stored = byBlock(blockFlows(p));
  const storedMachines = byBlock(blockMachines(p));
  const flows: BlockFlowRow[] = [];
  const machines: FactorySnapshot['machines'] = [];
  const power = new Map<string, { powerW: number; status: string | null }>();
  const resolved: string[] = [];
  for (const b of blocks) {
    if (b.cache.fresh) {
      for (const f of stored.get(b.id) ?? []) flows.push(f);
      for (const m of storedMachines.get(b.id) ?? []) machines.push(m);
      power.set(b.id, { powerW: b.cache.powerW ?? 0, status: b.cache.status });
      continue;
    }
    resolved.push(b.id);
    try {
      const r = await solve(b.doc);
      for (const f of projectionFlows(b.id, b.doc, r)) flows.push(f);
      for (const row of r.rows) if (row.machine && row.buildings > 0) machines.push({ block_id: b.id, machine: row.machine, recipe: row.recipe, count: row.buildings });
      power.set(b.id, { powerW: r.powerW, status: r.status });
    } catch {
      power.set(b.id, { powerW: 0, status: 'broken' });
    }
  }
  return { blocks, flows, machines, power, resolved };
}
