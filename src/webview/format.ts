// Number formatting shared by every view that shows planning figures — the block editor, the side
// panel's cards, the flow diagram, the Factory view and the Factory Balance — so one figure reads the
// same everywhere: rates in the unit the player picked, power in W/kW/MW/GW, building counts
// (fractional and whole), token counts. Pure functions, no DOM.
import type { CampaignView, DraftView } from './protocol';

/** Below this a figure is float dust from the solver (a "−2.8e-8 W"), shown as 0. */
const NOISE = 1e-6;

/** A number with about three significant digits, trailing zeros dropped; float dust is 0. */
export function short(n: number): string {
  if (!Number.isFinite(n)) return '—';
  const a = Math.abs(n);
  if (a < NOISE) return '0';
  if (a >= 1000) return Math.round(n).toLocaleString('en-US');
  if (a >= 100) return n.toFixed(0);
  if (a >= 10) return trim(n.toFixed(1));
  if (a >= 0.01) return trim(n.toFixed(2));
  return n.toPrecision(2);
}

const trim = (s: string) => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);

/** "1 craft", "2.5 crafts": the noun agrees with the number as it is shown. */
export function counted(n: number, one: string, many = `${one}s`): string {
  const s = short(n);
  return `${s} ${s === '1' ? one : many}`;
}

export function perSecond(n: number): string {
  return `${short(n)}/s`;
}

/** Rates per second, per minute or per hour. */
export type RateUnit = 's' | 'min' | 'h';
export const PER_UNIT: Record<RateUnit, number> = { s: 1, min: 60, h: 3600 };
export const UNIT_NAMES: Record<RateUnit, string> = { s: 'per second', min: 'per minute', h: 'per hour' };

/** A rate given per second, in `unit`: "2.5/s", "150/min". */
export function rate(perSec: number, unit: RateUnit = 's'): string {
  return `${short(perSec * PER_UNIT[unit])}/${unit}`;
}

/** A fluid flow's temperature: the exact one of an output ("165°") or the range an import accepts
 *  ("150–200°", "≥400°", "≤101°"); '' for items and fluids that take any temperature. */
export function temperature(f: { temperature?: number; minTemperature?: number | null; maxTemperature?: number | null }): string {
  const t = (x: number) => (Number.isInteger(x) ? String(x) : short(x));
  if (typeof f.temperature === 'number') return `${t(f.temperature)}°`;
  const lo = typeof f.minTemperature === 'number' ? f.minTemperature : null;
  const hi = typeof f.maxTemperature === 'number' ? f.maxTemperature : null;
  if (lo !== null && hi !== null) return lo === hi ? `${t(lo)}°` : `${t(lo)}–${t(hi)}°`;
  if (lo !== null) return `≥${t(lo)}°`;
  if (hi !== null) return `≤${t(hi)}°`;
  return '';
}

/** Power in W, kW, MW or GW (never "MJ/s"); under a milliwatt it is float dust, 0 W. */
export function power(watts: number): string {
  const a = Math.abs(watts);
  if (a < 1e-3) return '0 W';
  if (a >= 1e9) return `${short(watts / 1e9)} GW`;
  if (a >= 1e6) return `${short(watts / 1e6)} MW`;
  if (a >= 1e3) return `${short(watts / 1e3)} kW`;
  return `${short(watts)} W`;
}

/** "2.34 → 3": the solver's fractional count and the whole buildings to place. */
export function buildings(fractional: number, whole: number): string {
  return `${short(fractional)} → ${whole}`;
}

/** Electric power, plus the energy burnt as fuel when there is some: "1.2 MW + 3 MW fuel". */
export function powerAndFuel(d: { powerW: number; fuelW?: number }): string {
  const fuel = d.fuelW ?? 0;
  if (!(fuel > 0)) return power(d.powerW);
  return d.powerW > 0 ? `${power(d.powerW)} + ${power(fuel)} fuel` : `${power(fuel)} fuel`;
}

/** Whole buildings a draft places (rows without a machine place none). */
export function totalBuildings(d: Pick<DraftView, 'rows'>): number {
  return d.rows.reduce((s, r) => s + (r.machine ? r.wholeBuildings : 0), 0);
}

export function tokens(n: number): string {
  if (n >= 1e6) return `${trim((n / 1e6).toFixed(n >= 1e7 ? 0 : 1))}M`;
  if (n >= 1e3) return `${trim((n / 1e3).toFixed(n >= 1e5 ? 0 : 1))}k`;
  return String(Math.round(n));
}

export function percent(ratio: number): string {
  return `${Math.round(ratio * 100)}%`;
}

/** "45 s", "10 min", "1.5 h", "2 d". */
export function duration(seconds: number): string {
  if (seconds >= 86400) return `${short(seconds / 86400)} d`;
  if (seconds >= 3600) return `${short(seconds / 3600)} h`;
  if (seconds >= 60) return `${short(seconds / 60)} min`;
  return `${short(seconds)} s`;
}

/** One line per campaign quantity: what the player asked for, the reserve the confidence adds, the rate. */
export function campaignLines(c: CampaignView): string[] {
  const sure = c.confidence === 'expected' ? 'on average' : `${c.confidence} % sure`;
  return c.quantities.map((q) => {
    const verb = q.quantity < 0 ? 'Use' : 'Make';
    const plan = c.completed ? 'completed' : `${q.planned !== Math.abs(q.quantity) ? `plan ${short(q.planned)}, ` : ''}${perSecond(Math.abs(q.rate))}`;
    return `${verb} ${short(Math.abs(q.quantity))} ${q.display} within ${duration(c.duration)}, ${sure}: ${plan}`;
  });
}

/** One line per composed group: the module, its reference rate and the scale the block runs it at. */
export function groupLines(groups: NonNullable<DraftView['groups']>): string[] {
  return groups.map((x) => `${x.name}: module for ${perSecond(x.referenceRate)} ${x.display}, run at ×${short(x.scale)} (${perSecond(x.rate)})`);
}

/** A flow diagram node's icon key: node ids are `r:<recipe>` / `g:<good>`, icon keys `recipe:` / `good:`. */
export const flowIconKey = (n: { id: string; kind: 'recipe' | 'good' }): string => `${n.kind}:${n.id.slice(2)}`;
