// What the factory scenario would take from the project as it is now, for the Factory Balance view
// before (or after) a recalculation: the pins with their source, and the goods several enabled blocks
// make, each with its suppliers in the order they fill consumers. Read from the stored projections
// (no solve); no vscode import, so it is tested on a real project.
import type { Project } from '../../core/db/project';
import type { GameIndex } from '../../core/planning/gameIndex';
import { blockFlows, listBlocks, scienceBlock } from '../../core/planning/factory/blocks';
import { factoryLedger, type LedgerEntry } from '../../core/planning/factory/ledger';
import { supplyOrder } from '../../core/planning/factory/edges';
import { readFactoryPins, readSupplyPriorities, type SupplyPriority } from '../../core/planning/factory/scenario/inputs';
import type { ScenarioPin } from '../../core/planning/factory/scenario/scenario';
import { pinsNow, type SupplyGood } from '../views/scenarioView';

export interface ScenarioNow {
  pins: ScenarioPin[];
  priorities: SupplyPriority[];
  suppliers: SupplyGood[];
}

/** Goods two or more enabled blocks make (as a goal or a byproduct), suppliers in supply order. */
export function supplyGoods(p: Project, g: Pick<GameIndex, 'displayOf'>, priorities: SupplyPriority[] = readSupplyPriorities(p), ledger?: Map<string, LedgerEntry>): SupplyGood[] {
  const blocks = listBlocks(p, { enabledOnly: true });
  const order = new Map(blocks.map((b, i) => [b.id, i]));
  const byGood = new Map<string, LedgerEntry>();
  // A fluid split by temperature is one good to order: its suppliers are the union of its entries'.
  for (const e of (ledger ?? factoryLedger(p, undefined, blocks)).values()) {
    const had = byGood.get(e.good);
    byGood.set(e.good, had ? { ...had, producers: [...had.producers, ...e.producers] } : e);
  }
  const out: SupplyGood[] = [];
  for (const e of byGood.values()) {
    const seen = new Map<string, string>();
    for (const x of supplyOrder(e, priorities, order)) if (!seen.has(x.blockId)) seen.set(x.blockId, x.blockName);
    if (seen.size < 2) continue;
    out.push({ good: e.good, display: g.displayOf(e.good), blocks: [...seen].map(([id, name]) => ({ id, name })) });
  }
  return out.sort((a, b) => a.display.localeCompare(b.display));
}

/**
 * The pins, priorities and multi-supplier goods now. `finals`: the audit's final products (goal goods
 * no enabled block takes), which the scenario keeps at their rate until pinned.
 */
export function scenarioNow(p: Project, g: Pick<GameIndex, 'displayOf' | 'goods'>, finals: Array<{ good: string; display: string; rate: number }>): ScenarioNow {
  const priorities = readSupplyPriorities(p);
  const lab = scienceBlock(p);
  const science = lab?.enabled
    ? blockFlows(p, lab.id)
        .filter((f) => f.role === 'import' && g.goods.has(f.item) && !g.goods.get(f.item)!.synthetic)
        .map((f) => ({ good: f.item, display: g.displayOf(f.item), rate: f.rate }))
    : [];
  return { pins: pinsNow(readFactoryPins(p), science, finals, (x) => g.displayOf(x)), priorities, suppliers: supplyGoods(p, g, priorities) };
}
