// factoryPower: electric demand of the enabled blocks against what their generators make.
// Generation is counted from the blocks' solved machines running power recipes at base speed.
import type { Project } from '../../db/project';
import type { GameIndex } from '../gameIndex';
import { ELECTRICITY } from '../../gamedata/model';
import type { BlockSolver } from './blocks';
import { factorySnapshot, type FactorySnapshot } from './fresh';

export interface FactoryPower {
  blocks: number;
  totalDemandW: number;
  totalGenerationW: number;
  netW: number;
  topConsumers: Array<{ blockId: string; name: string; powerW: number }>;
  generators: Array<{ blockId: string; name: string; machine: string; count: number; generationW: number }>;
  truncated: boolean;
}

/** Over the enabled blocks, or over `snapshot` (e.g. the factory with a draft plan applied). */
export async function factoryPower(p: Project, g: GameIndex, solve: BlockSolver, limit = 10, snapshot?: FactorySnapshot): Promise<FactoryPower> {
  const snap = snapshot ?? (await factorySnapshot(p, solve));
  const names = new Map(snap.blocks.map((b) => [b.id, b.name]));
  const consumers = snap.blocks.map((b) => ({ blockId: b.id, name: b.name, powerW: snap.power.get(b.id)?.powerW ?? 0 })).sort((a, b) => b.powerW - a.powerW);
  const generators: FactoryPower['generators'] = [];
  for (const m of snap.machines) {
    const rec = g.recipes.get(m.recipe);
    const machine = g.machines.get(m.machine);
    const out = rec?.products.find((x) => x.name === ELECTRICITY);
    if (!rec || !machine || !out) continue;
    const perBuildingW = ((machine.speed / Math.max(rec.energy, 1e-9)) * out.amount * out.probability) * 1e6;
    generators.push({ blockId: m.block_id, name: names.get(m.block_id) ?? m.block_id, machine: m.machine, count: m.count, generationW: perBuildingW * m.count });
  }
  generators.sort((a, b) => b.generationW - a.generationW);
  const demand = consumers.reduce((s, c) => s + c.powerW, 0);
  const gen = generators.reduce((s, x) => s + x.generationW, 0);
  return {
    blocks: snap.blocks.length, totalDemandW: demand, totalGenerationW: gen, netW: gen - demand,
    topConsumers: consumers.filter((c) => c.powerW > 0).slice(0, limit), generators: generators.slice(0, limit),
    truncated: consumers.filter((c) => c.powerW > 0).length > limit || generators.length > limit,
  };
}
