// Raw dump → normalized tables. Pure: no files, no database.
import { Ctx, DumpError, type RawDump } from './context';
import { normalizeFluids, normalizeGroups, normalizeItems } from './goods';
import { normalizeRecipes } from './recipes';
import { normalizeBeacons, normalizeCraftingMachines, normalizeLogistics, normalizeResources, readPowerEntities } from './entities';
import { normalizeTechnologies } from './technologies';
import { normalizeTurd } from './turd';
import { validateReferences } from './validate';
import { normalizeIcons } from './icons';
import { synthesize } from '../synthesize';
import { characterSchema, helperExportSchema, resourceSchema, tileSchema } from '../dump/schema';
import { Localizer, type LocaleSources } from '../locale';
import type { GameData } from '../model';

export { DumpError };
export type { RawDump };

/** Name of the prototype the PyOps helper mod adds to data.raw["mod-data"]. */
export const HELPER_EXPORT_NAME = 'pyops-export';

export interface NormalizeResult {
  data: GameData;
  warnings: string[];
  /** Mod name → version, when the helper mod recorded it. */
  mods: Record<string, string> | null;
  factorioVersion: string | null;
  turdReplacementSource: 'helper' | 'inferred' | 'none';
  /** Recipe categories the player character crafts by hand (none when the dump has no character). */
  handCraftingCategories: string[];
}

const REQUIRED_TYPES = ['recipe', 'item', 'fluid'];

export function normalizeDump(raw: RawDump, locale: LocaleSources): NormalizeResult {
  const missing = REQUIRED_TYPES.filter((t) => !raw[t] || typeof raw[t] !== 'object');
  if (missing.length) {
    throw new DumpError([
      `this is not a data.raw dump: it has no ${missing.map((m) => `"${m}"`).join(', ')} table${missing.length > 1 ? 's' : ''} (expected the data-raw-dump.json written by factorio --dump-data)`,
    ]);
  }
  const ctx = new Ctx(raw, new Localizer(locale));
  const helperRaw = (raw['mod-data'] as Record<string, { data?: unknown }> | undefined)?.[HELPER_EXPORT_NAME]?.data;
  const helper = helperRaw === undefined ? undefined : helperExportSchema.safeParse(helperRaw);
  if (helper && !helper.success) ctx.warn(`the helper mod's export is malformed and was ignored: ${helper.error.issues[0]?.message}`);
  const exp = helper?.success ? helper.data : undefined;

  normalizeGroups(ctx);
  normalizeItems(ctx);
  normalizeFluids(ctx);
  normalizeRecipes(ctx);
  normalizeCraftingMachines(ctx);
  const resources = ctx.protos('resource', resourceSchema);
  normalizeResources(ctx, resources);
  const power = readPowerEntities(ctx);
  normalizeBeacons(ctx);
  normalizeLogistics(ctx);
  normalizeTechnologies(ctx);
  validateReferences(ctx);
  if (ctx.problems.length) throw new DumpError(ctx.problems);
  normalizeTurd(ctx, exp?.turd_replacements);
  synthesize(ctx, { ...power, resources, tiles: ctx.protos('tile', tileSchema) });
  if (ctx.problems.length) throw new DumpError(ctx.problems);
  normalizeIcons(ctx);

  const handCraftingCategories = [...new Set(ctx.protos('character', characterSchema).flatMap((c) => c.crafting_categories ?? []))].sort();
  const replacements = ctx.out.turd_replacements;
  return {
    data: ctx.out,
    warnings: ctx.warnings,
    mods: exp?.mods ?? null,
    factorioVersion: exp?.factorio_version ?? null,
    turdReplacementSource: replacements.length ? replacements[0].source : 'none',
    handCraftingCategories,
  };
}
