// What the player sets for the whole factory: factory pins (a good at a rate the factory must deliver;
// negative = a supply from outside the factory must absorb) and supply priorities (per good, the
// order in which its supplier blocks grow, or fixed shares). Kept as two planning-settings rows, each
// change one undoable action; validated on read, so a hand-edited project gives defaults, not errors.
import { z } from 'zod';
import type { Project } from '../../../db/project';

const good = z.string().trim().min(1).max(200);

export const factoryPinSchema = z.object({
  good,
  /** Per second; negative = the factory must take this much in from outside. */
  rate: z.number().finite().min(-1e9).max(1e9),
  /** Fluids: the exact temperature wanted (else any). */
  temperature: z.number().finite().optional(),
});
export type FactoryPin = z.output<typeof factoryPinSchema>;

export const supplyPrioritySchema = z.object({
  good,
  /** Supplier block ids, first grown first. Blocks not named come after, in the default order. */
  order: z.array(z.string().min(1).max(100)).max(100).default([]),
  /** Fixed shares instead of an order: block id → fraction of the good's demand (summing to ≤ 1). */
  shares: z.record(z.string().min(1).max(100), z.number().min(0).max(1)).optional(),
});
export type SupplyPriority = z.output<typeof supplyPrioritySchema>;

const pinsSchema = z.array(factoryPinSchema).max(500);
const prioritiesSchema = z.array(supplyPrioritySchema).max(500);

const PINS_KEY = 'factory_pins';
const PRIORITIES_KEY = 'supply_priorities';

function readJson<T>(p: Project, key: string, schema: z.ZodType<T>, fallback: T): T {
  const raw = p.query<{ value: string }>('SELECT value FROM main.planning_settings WHERE key = ?', [key])[0]?.value;
  if (raw === undefined) return fallback;
  try {
    const r = schema.safeParse(JSON.parse(raw));
    return r.success ? r.data : fallback;
  } catch {
    return fallback;
  }
}

function putJson(db: Project['db'], key: string, value: unknown): void {
  db.run('INSERT INTO main.planning_settings(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [key, JSON.stringify(value)]);
}

function writeJson(p: Project, key: string, value: unknown, label: string): void {
  p.write((db) => putJson(db, key, value), { undo: label });
}

/** Store pins inside a write the caller makes (Balance Factory saves the pins it balanced to). */
export function putFactoryPins(db: Project['db'], pins: FactoryPin[]): void {
  putJson(db, PINS_KEY, pinsSchema.parse(pins));
}

export function readFactoryPins(p: Project): FactoryPin[] {
  return readJson(p, PINS_KEY, pinsSchema, []);
}

export function readSupplyPriorities(p: Project): SupplyPriority[] {
  return readJson(p, PRIORITIES_KEY, prioritiesSchema, []);
}

/** The key a pin is stored under: one pin per good (and temperature). */
const pinKey = (x: Pick<FactoryPin, 'good' | 'temperature'>) => `${x.good}@${x.temperature ?? ''}`;

/** Replace the factory pins (one undoable action). Duplicates keep the last. */
export function writeFactoryPins(p: Project, pins: FactoryPin[], label = 'Set factory pins'): FactoryPin[] {
  const parsed = pinsSchema.parse(pins);
  const out = [...new Map(parsed.map((x) => [pinKey(x), x])).values()];
  writeJson(p, PINS_KEY, out, label);
  return out;
}

/** Set (rate) or remove (null) one pin, leaving the others. */
export function setFactoryPin(p: Project, pin: { good: string; temperature?: number }, rate: number | null): FactoryPin[] {
  const rest = readFactoryPins(p).filter((x) => pinKey(x) !== pinKey(pin));
  const next = rate === null ? rest : [...rest, { ...pin, rate }];
  return writeFactoryPins(p, next, rate === null ? `Unpin ${pin.good}` : `Pin ${pin.good} at ${rate}/s`);
}

/** Set (or clear, with null) one good's supply priority. */
export function setSupplyPriority(p: Project, priority: SupplyPriority | { good: string; clear: true }): SupplyPriority[] {
  const rest = readSupplyPriorities(p).filter((x) => x.good !== priority.good);
  const next = 'clear' in priority ? rest : [...rest, supplyPrioritySchema.parse(priority)];
  writeJson(p, PRIORITIES_KEY, prioritiesSchema.parse(next), 'clear' in priority ? `Default supply order for ${priority.good}` : `Supply order for ${priority.good}`);
  return next;
}
