// The `cmd.show_block` payload: a solved block as the in-game summary panel draws it. The app
// fills it from a solve (rows, counts, display names); the mod only lays it out. Caps keep the
// message to a handful of datagrams.
import { z } from 'zod';

const name = z.string().min(1).max(200);
const label = z.string().max(200);
const rate = z.number().refine(Number.isFinite, 'must be finite');

export const showBlockGood = z.object({
  name,
  kind: z.enum(['item', 'fluid']).default('item'),
  /** Per second. */
  rate,
  display: label.optional(),
  belts: z.number().min(0).optional(),
  inserters: z.number().min(0).optional(),
  /** "fuel" or "burnt" for fuel flows. */
  note: z.string().max(40).optional(),
});

export const showBlockRecipe = z.object({
  recipe: name,
  recipeDisplay: label.optional(),
  machine: name,
  machineDisplay: label.optional(),
  /** Buildings, rounded up. */
  count: z.number().min(0).max(1e6),
  modules: z.array(name).max(20).default([]),
  beacons: z.array(z.object({ beacon: name, count: z.number().min(0).max(1000), modules: z.array(name).max(20).default([]) })).max(10).default([]),
  products: z.array(showBlockGood).max(20).default([]),
  ingredients: z.array(showBlockGood).max(20).default([]),
});

export const showBlockPayload = z.object({
  blockId: z.string().max(100).optional(),
  name: label.min(1),
  powerW: rate.optional(),
  heatW: rate.optional(),
  logistics: z.object({ belt: name.optional(), mover: name.optional(), moverKind: z.string().max(40).optional() }).optional(),
  recipes: z.array(showBlockRecipe).max(60),
  inputs: z.array(showBlockGood).max(60).default([]),
  outputs: z.array(showBlockGood).max(60).default([]),
});

export type ShowBlockPayload = z.input<typeof showBlockPayload>;
