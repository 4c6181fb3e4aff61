// Factorio's mods/mod-list.json: which mods are enabled. Both the sync helper mod and the companion
// mod install edit it, keeping every field they do not know.
import { z } from 'zod';

export const MOD_LIST_FILE = 'mod-list.json';

export const modListSchema = z.looseObject({
  mods: z.array(z.looseObject({ name: z.string(), enabled: z.boolean().optional(), version: z.string().optional() })),
});
export type ModList = z.infer<typeof modListSchema>;
