// logisticsFor: belts, inserters and loaders for one item flow (domain C.9), with tiers gated by the
// horizon and stack bonuses from the research the horizon counts.
//   belt items/s = speed × 480 × placed stack, placed stack = min(8, 1 + belt stack bonus);
//   inserter swing ticks = max(⌈|pickup − drop length| / extension⌉, ⌈turn / rotation⌉, 1);
//   inserter items/s = 60 / (2 · swing) × hand stack, hand stack = max(1, 1 + base bonus + bonus);
//   loaders move like belts of their speed; counts are ceilings of rate / throughput.
import type { PlanningContext } from '../context';
import type { Inserter } from '../gameIndex';
import { parseInput, requireGood } from './errors';
import { round } from './common';
import { logisticsForInput, type LogisticsForInput } from './schemas';

export const MAX_BELT_STACK = 8;

export interface LogisticsResult {
  good: string;
  display: string;
  rate: number;
  beltStack: number;
  bonuses: { beltStack: number; inserterStack: number; bulkStack: number; source: string };
  belts: Array<{ name: string; display: string; itemsPerSec: number; count: number; saturation: number; preferred?: boolean }>;
  inserters: Array<{ name: string; display: string; bulk: boolean; swingTicks: number; handStack: number; itemsPerSec: number; count: number; preferred?: boolean }>;
  loaders: Array<{ name: string; display: string; itemsPerSec: number; count: number }>;
  /** Tiers left out because the horizon does not reach them. */
  lockedTiers?: string[];
  note?: string;
}

/** Swing time of an inserter in ticks (C.9). */
export function swingTicks(i: Pick<Inserter, 'pickup' | 'dropoff' | 'rotationSpeed' | 'extensionSpeed'>): number {
  const p = i.pickup ?? [0, -1];
  const d = i.dropoff ?? [0, 1.2];
  const lp = Math.hypot(p[0], p[1]);
  const ld = Math.hypot(d[0], d[1]);
  const ext = i.extensionSpeed > 0 ? Math.ceil(Math.abs(lp - ld) / i.extensionSpeed - 1e-9) : 0;
  // Orientation as a fraction of a full turn; the arm turns the short way.
  const turn = (v: [number, number]) => Math.atan2(v[0], -v[1]) / (2 * Math.PI);
  let delta = Math.abs(turn(p as [number, number]) - turn(d as [number, number])) % 1;
  if (delta > 0.5) delta = 1 - delta;
  const rot = i.rotationSpeed > 0 ? Math.ceil(delta / i.rotationSpeed - 1e-9) : 0;
  return Math.max(ext, rot, 1);
}

export function inserterItemsPerSec(swing: number, handStack: number): number {
  return (60 / (2 * swing)) * handStack;
}

export function logisticsFor(ctx: PlanningContext, raw: LogisticsForInput): LogisticsResult {
  const input = parseInput(logisticsForInput, raw, 'logisticsFor');
  const good = requireGood(ctx, input.good);
  const a = ctx.availability;
  const g = ctx.g;
  const prefs = a.state.settings.logistics;

  const bonus = (type: string) => {
    let s = 0;
    for (const t of g.technologies.values()) {
      if (!a.countsTowardBonus(t)) continue;
      for (const b of t.bonuses) if (b.type === type && b.modifier) s += b.modifier;
    }
    return s;
  };
  const beltBonus = bonus('belt-stack-size-bonus');
  const manual = prefs.stackBonus;
  const inserterBonus = manual ?? bonus('inserter-stack-size-bonus');
  const bulkBonus = manual ?? bonus('bulk-inserter-capacity-bonus');
  const bonuses = {
    beltStack: beltBonus,
    inserterStack: inserterBonus,
    bulkStack: bulkBonus,
    source: manual !== undefined ? 'manual stack bonus (planning setting logistics.stackBonus)' : `research counted under the ${a.mode} horizon`,
  };
  const beltStack = Math.min(MAX_BELT_STACK, 1 + Math.max(0, Math.floor(beltBonus)));
  const base = { good: good.name, display: good.display, rate: input.rate, beltStack, bonuses };

  if (good.kind === 'fluid') {
    return { ...base, belts: [], inserters: [], loaders: [], note: `${good.name} is a fluid: it moves through pipes and pumps, not belts or inserters` };
  }

  const locked: string[] = [];
  const gate = (name: string, item: string | null) => {
    const ok = entityReachable(ctx, item);
    if (!ok) locked.push(name);
    return ok;
  };
  const need = (perSec: number) => (perSec > 0 ? Math.ceil(input.rate / perSec - 1e-9) : 0);
  const belts = g.belts
    .filter((b) => b.kind === 'belt' && gate(b.name, b.item))
    .sort((x, y) => x.itemsPerSecond - y.itemsPerSecond || (x.name < y.name ? -1 : 1))
    .map((b) => {
      const per = b.itemsPerSecond * beltStack;
      const count = need(per);
      return { name: b.name, display: b.display, itemsPerSec: round(per), count, saturation: round(input.rate / (count * per), 3), ...(prefs.belt === b.name ? { preferred: true } : {}) };
    });
  const loaders = g.belts
    .filter((b) => b.kind === 'loader' && gate(b.name, b.item))
    .sort((x, y) => x.itemsPerSecond - y.itemsPerSecond || (x.name < y.name ? -1 : 1))
    .map((b) => {
      const per = b.itemsPerSecond * beltStack;
      return { name: b.name, display: b.display, itemsPerSec: round(per), count: need(per) };
    });
  const inserters = g.inserters
    .filter((i) => gate(i.name, i.item))
    .map((i) => {
      const swing = swingTicks(i);
      const hand = Math.max(1, 1 + i.stackSizeBonus + (i.bulk ? bulkBonus : inserterBonus));
      const per = inserterItemsPerSec(swing, hand);
      return { name: i.name, display: i.display, bulk: i.bulk, swingTicks: swing, handStack: hand, itemsPerSec: round(per), count: need(per), ...(prefs.inserter === i.name ? { preferred: true } : {}) };
    })
    .sort((x, y) => x.itemsPerSec - y.itemsPerSec || (x.name < y.name ? -1 : 1));
  const note = !belts.length && !inserters.length ? `no belt or inserter is reachable under the ${a.mode} horizon` : undefined;
  return { ...base, belts, inserters, loaders, ...(locked.length ? { lockedTiers: locked } : {}), ...(note ? { note } : {}) };
}

/** Can the player place this entity under the horizon (a recipe makes its item)? */
function entityReachable(ctx: PlanningContext, item: string | null): boolean {
  if (!item) return false;
  const a = ctx.availability;
  const makers = ctx.g.producersOf(item).filter((r) => !ctx.g.recipes.get(r)!.synthetic);
  // The item's recipe gates alone: placed entities can be crafted by hand.
  return makers.some((r) => {
    const av = a.researchGate(r);
    if (a.mode === 'now') return av.buildableNow;
    return av.availableNow;
  });
}
