// What a model reads of a scenario: the same answer with its lists bounded (the largest first) and
// the bookkeeping (fingerprint, timings, update stamps) left out.
import type { ScenarioResult } from './scenario';

const CAP = 40;
const round = (v: number) => Number(v.toPrecision(5));

function capped<T>(xs: T[], map: (x: T) => unknown): { items: unknown[]; more?: number } {
  return { items: xs.slice(0, CAP).map(map), ...(xs.length > CAP ? { more: xs.length - CAP } : {}) };
}

export function scenarioForModel(r: ScenarioResult): unknown {
  const goods = (xs: ScenarioResult['rawInputs']) => capped(xs, (x) => ({ good: x.good, label: x.label, rate: round(x.rate), blocks: x.blocks.slice(0, 6) }));
  return {
    status: r.status,
    ...(r.message ? { message: r.message } : {}),
    balanced: r.balanced,
    pins: r.pins.map((p) => ({ good: p.good, rate: round(p.rate), source: p.source, ...(p.temperature !== undefined ? { temperature: p.temperature } : {}) })),
    goalChanges: capped(r.goalChanges, (c) => ({ blockId: c.blockId, block: c.block, good: c.good, direction: c.direction, current: round(c.current), next: round(c.next) })),
    unchanged: r.unchanged,
    unsupplied: capped(r.unsupplied, (x) => ({ good: x.good, label: x.label, rate: round(x.rate), reason: x.reason, newBlock: x.newBlock, blocks: x.blocks.slice(0, 6) })),
    overproduced: goods(r.overproduced),
    rawInputs: goods(r.rawInputs),
    ...(r.excluded.length ? { excluded: r.excluded.map((x) => ({ block: x.name, reason: x.reason })) } : {}),
    ...(r.assumed?.science ? { science: { labs: round(r.assumed.science.labs), packs: r.assumed.science.packs.map((p) => ({ pack: p.pack, rate: round(p.rate) })) } } : {}),
    ...(r.warnings.length ? { warnings: r.warnings } : {}),
  };
}
