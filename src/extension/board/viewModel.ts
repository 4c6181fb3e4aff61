// What the factory board shows: the enabled blocks (state, goals, whole buildings, power, where the
// player put them) and the goods between them — each good's consumers filled from its producers in
// supply order (factory/edges.ts), so a consumer's shortfall and a producer's surplus land where
// the scenario would put them. Read from the stored projections (no solve). No vscode import.
import type { Project } from '../../core/db/project';
import type { GameIndex } from '../../core/planning/gameIndex';
import { blockMachines, byBlock, listBlocks } from '../../core/planning/factory/blocks';
import { factoryLedger } from '../../core/planning/factory/ledger';
import { factoryEdges } from '../../core/planning/factory/edges';
import { blockState } from '../../core/planning/factory/outline';
import { goalRate } from '../../core/planning/block/document';
import { readSupplyPriorities } from '../../core/planning/factory/scenario/inputs';
import { perSecond } from '../../webview/format';
import type { BoardEdgeView, BoardNodeView, BoardView } from '../../webview/boardProtocol';

/** The game icon key of a node: what it makes first, the science block's lab. */
export function nodeIconKey(n: { science: boolean }, lab: string | undefined, firstGoal: string | undefined): string | undefined {
  if (n.science) return lab ? `entity:${lab}` : undefined;
  return firstGoal ? `good:${firstGoal}` : undefined;
}

export function boardView(p: Project, g: Pick<GameIndex, 'displayOf'>, icon?: (key: string) => string | undefined): BoardView {
  const blocks = listBlocks(p, { enabledOnly: true });
  if (!blocks.length) return { project: p.name, nodes: [], edges: [], empty: 'No enabled blocks yet: create one with "PyOps: New Block…" or ask @pyops, and it shows here.' };
  const machines = byBlock(blockMachines(p));
  const order = new Map(blocks.map((b, i) => [b.id, i]));
  const ledger = factoryLedger(p, undefined, blocks);
  const flows = factoryEdges(ledger, readSupplyPriorities(p), order, (x) => g.displayOf(x));
  // What no block makes comes from outside (ores, or a missing block): the Balance lists it; here it
  // is a plain line, and red is kept for a good some block makes but not enough of. A goal nothing
  // takes is the block's product, not a surplus.
  const made = (key: string) => (ledger.get(key)?.producers.length ?? 0) > 0;
  const surplusShown = (x: { key: string; blockId: string }) => {
    const e = ledger.get(x.key);
    return !!e && (e.consumed > 0 || e.producers.some((q) => q.blockId === x.blockId && q.role === 'byproduct'));
  };
  const nodes = blocks.map((b): BoardNodeView => {
    const { state, detail } = blockState(b);
    const ms = machines.get(b.id) ?? [];
    const science = !!b.doc.science;
    const goals = b.doc.goals.map((x) => {
      const r = goalRate(x);
      return `${r.direction === 'consume' ? 'takes ' : ''}${g.displayOf(x.good)} ${perSecond(Math.abs(r.rate))}`;
    });
    const key = nodeIconKey({ science }, b.doc.science?.lab ?? ms[0]?.machine, b.doc.goals[0]?.good);
    const src = key ? icon?.(key) : undefined;
    const goods = (list: typeof flows.surplus, keep: (x: (typeof flows.surplus)[number]) => boolean) =>
      list.filter((x) => x.blockId === b.id && keep(x)).map((x) => ({ good: x.good, label: x.label, rate: x.rate })).sort((x, y) => y.rate - x.rate);
    return {
      id: b.id,
      name: b.name,
      ...(src ? { icon: src } : {}),
      state,
      ...(detail ? { stateDetail: detail } : {}),
      science,
      goals: science ? (b.doc.science?.research ? `research ${g.displayOf(b.doc.science.research.tech)} in ${b.doc.science.research.minutes} min` : 'packs set by hand') : goals.length > 2 ? `${goals.slice(0, 2).join(', ')} +${goals.length - 2}` : goals.join(', '),
      buildings: ms.reduce((n, m) => n + Math.ceil(m.count - 1e-6), 0),
      powerW: b.cache.powerW,
      layout: b.layout,
      surplus: goods(flows.surplus, surplusShown),
      short: goods(flows.short, (x) => made(x.key)),
      imports: goods(flows.short, (x) => !made(x.key)),
    };
  });
  const shortOf = new Set(flows.short.filter((x) => made(x.key)).map((x) => `${x.blockId}|${x.key}`));
  const surplusOf = new Set(flows.surplus.filter(surplusShown).map((x) => `${x.blockId}|${x.key}`));
  const pairs = new Map<string, BoardEdgeView>();
  for (const e of flows.edges) {
    const k = `${e.from}|${e.to}`;
    const edge = pairs.get(k) ?? { from: e.from, to: e.to, goods: [] };
    const had = edge.goods.find((x) => x.label === e.label);
    if (had) had.rate += e.rate;
    else edge.goods.push({ good: e.good, label: e.label, rate: e.rate, short: shortOf.has(`${e.to}|${e.key}`), surplus: surplusOf.has(`${e.from}|${e.key}`) });
    pairs.set(k, edge);
  }
  for (const e of pairs.values()) e.goods.sort((x, y) => y.rate - x.rate);
  return { project: p.name, nodes, edges: [...pairs.values()] };
}
