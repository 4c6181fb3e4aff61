// The block document: what the user (or a proposal) decided for one production block. The solver
// sizes exactly these recipes; it never adds one. Stored as JSON in blocks.data; everything solved
// from it is a cache. Rates are per second; names are internal names.
import { z } from 'zod';
import { campaignSchema } from './campaign';

const name = z.string().trim().min(1, 'must be a non-empty internal name').max(200);
const rate = z.number().finite();

export const moduleCountSchema = z.object({ name, count: z.number().int().min(1).max(64) });
export const beaconConfigSchema = z.object({
  beacon: name,
  modules: z.array(moduleCountSchema).max(16).default([]),
  count: z.number().min(0).max(64).describe('beacons affecting each machine'),
  shared: z.number().min(1).max(64).optional().describe('machines sharing one beacon building'),
});

export const goalSchema = z
  .object({
    good: name,
    /** Items (or fluid units) per second; negative or direction "consume" makes it a sink. */
    rate: rate.optional(),
    direction: z.enum(['produce', 'consume']).optional(),
    /** Fluids: the exact temperature wanted (else any produced temperature counts). */
    temperature: z.number().finite().optional(),
    /** Stock goal: make `amount` within `window` seconds (default 600). */
    stock: z.object({ amount: z.number().positive(), window: z.number().positive().default(600) }).optional(),
  })
  .refine((g) => g.rate !== undefined || g.stock !== undefined, { message: 'a goal needs a rate or a stock amount' });

export const rowSchema = z.object({
  recipe: name,
  machine: name.optional(),
  modules: z.array(moduleCountSchema).max(16).optional(),
  beacons: z.array(beaconConfigSchema).max(4).optional(),
  fuel: name.optional(),
  disabled: z.boolean().optional(),
  /** fluid → temperature this row takes (narrowing an ingredient's accepted range to one produced temperature). */
  fluidTemperatures: z.record(z.string(), z.number().finite()).optional(),
  /** Reactor arrangement (x by y), for the neighbour bonus of heat producers. */
  reactorLayout: z.object({ x: z.number().int().min(1).max(20), y: z.number().int().min(1).max(20) }).optional(),
});

export const pinSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('count'), recipe: name, buildings: z.number().min(0) }),
  z.object({ kind: z.literal('cap'), recipe: name, buildings: z.number().min(0) }),
  z.object({
    kind: z.literal('share'),
    /** The consuming row that takes a share of what the block makes of `good`. */
    recipe: name,
    good: name,
    share: z.number().min(0).max(1),
    base: z.enum(['remaining', 'total']).default('remaining'),
  }),
]);

export const drainSchema = z.union([name, z.object({ good: name, recipe: name.optional() })]);

export const rowGroupSchema = z.object({
  name: z.string().trim().min(1, 'a group needs a name').max(120),
  /** Recipes of the block's rows that belong to the group. */
  recipes: z.array(name).min(1).max(400),
  /**
   * A composed group is solved on its own, as a module making `goal` at its reference rate, and enters
   * the block as one synthetic recipe (ingredients = the module's net imports, products = its net
   * exports incl. the goal, cost = its machine-seconds) that the block scales linearly. Pins on its
   * rows apply inside the module at the reference rate. Without `composed`, the group only organises
   * rows for display.
   */
  composed: z
    .object({
      goal: z.object({ good: name, rate: z.number().positive().max(1e9), temperature: z.number().finite().optional() }),
      /** Goods covered inside the module (net ≥ 0); default: everything its rows make. */
      made: z.array(name).max(400).optional(),
      /** Byproducts balanced inside the module (net = 0). */
      drains: z.array(drainSchema).max(100).optional(),
    })
    .optional(),
});

/**
 * A science block: the project's lab bank. Its labs are one pool that consumes every pack, so what it
 * needs is lab time, not a lab count per pack. Either `research` derives the packs from technologies
 * to research in a time (re-derived on every solve, so modules and research bonuses follow), or
 * `packs` gives consumption rates by hand, each with the lab time one pack of it takes (the time
 * that makes labs follow a hand-set rate; derived values are kept when the player switches).
 */
export const scienceSchema = z.object({
  /** The lab prototype; default: the fastest buildable lab that takes every pack. */
  lab: name.optional(),
  modules: z.array(moduleCountSchema).max(16).default([]),
  beacons: z.array(beaconConfigSchema).max(4).default([]),
  research: z
    .object({
      tech: name,
      /** Research it (and the prerequisites not yet researched) within this many minutes. */
      minutes: z.number().positive().max(1e6),
      /** Include the unresearched prerequisites (default true). */
      prerequisites: z.boolean().default(true),
    })
    .optional(),
  packs: z
    .array(
      z.object({
        pack: name,
        /** Packs consumed per second. */
        rate: z.number().min(0).max(1e6),
        /** Lab-seconds (at research speed 1, before productivity) that consuming one pack takes. */
        labSeconds: z.number().positive().max(1e7).optional(),
      }),
    )
    .max(40)
    .default([]),
});

export const blockDocSchema = z.object({
  version: z.literal(1).default(1),
  goals: z.array(goalSchema).max(20).default([]),
  /** "Make N within T (at a confidence)": adds goals at planned / duration until completed. */
  campaign: campaignSchema.optional(),
  recipes: z.array(rowSchema).max(400).default([]),
  /** Goods whose use must be covered inside the block (net ≥ 0). */
  made: z.array(name).max(400).default([]),
  /** Byproducts to balance inside the block (net = 0). */
  drains: z.array(drainSchema).max(100).default([]),
  pins: z.array(pinSchema).max(100).default([]),
  /** Row groups: display groups, or composed groups solved as nested modules. */
  groups: z.array(rowGroupSchema).max(50).optional(),
  /** Good → rot per second: solved outside the LP and added as byproducts afterwards. */
  spoilRates: z.record(z.string(), z.number().min(0)).optional(),
  notes: z.string().max(20_000).optional(),
  /** Present on the project's science block (its lab bank): it has no recipes or goals of its own. */
  science: scienceSchema.optional(),
});

export type BlockDoc = z.output<typeof blockDocSchema>;
export type BlockDocInput = z.input<typeof blockDocSchema>;
export type Goal = z.output<typeof goalSchema>;
export type Row = z.output<typeof rowSchema>;
export type Pin = z.output<typeof pinSchema>;
export type RowGroup = z.output<typeof rowGroupSchema>;
export type Science = z.output<typeof scienceSchema>;

/** Parse a block document with errors a user or a model can act on. */
export function parseBlockDoc(value: unknown): BlockDoc {
  const r = blockDocSchema.safeParse(value);
  if (r.success) return r.data;
  const msgs = r.error.issues.slice(0, 8).map((i) => `${i.path.length ? i.path.join('.') : 'block'}: ${i.message}`);
  throw new Error(`The block document is not valid: ${msgs.join('; ')}`);
}

/** Normalized goal: solver rate per second and its direction. */
export function goalRate(g: Goal): { rate: number; direction: 'produce' | 'consume'; stock: boolean } {
  if (g.stock) return { rate: g.stock.amount / g.stock.window, direction: 'produce', stock: true };
  const r = g.rate ?? 0;
  const direction = g.direction ?? (r < 0 ? 'consume' : 'produce');
  return { rate: direction === 'consume' ? -Math.abs(r) : Math.abs(r), direction, stock: false };
}

/** Every good the document sets a goal for: its goals, its campaign's quantities, its composed groups' goals. */
export function goalGoods(doc: Pick<BlockDoc, 'goals' | 'campaign' | 'groups'>): string[] {
  return [
    ...new Set([
      ...doc.goals.map((x) => x.good),
      ...(doc.campaign?.quantities ?? []).map((x) => x.good),
      ...(doc.groups ?? []).flatMap((x) => (x.composed ? [x.composed.goal.good] : [])),
    ]),
  ];
}

export function drainGood(d: z.output<typeof drainSchema>): string {
  return typeof d === 'string' ? d : d.good;
}
