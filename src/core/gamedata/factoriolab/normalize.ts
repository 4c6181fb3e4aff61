// A FactorioLab data set → the same normalized tables a dump fills. Pure: no files, no database.
// What the format does not carry is listed once (`lacks`) and never made up: no icons, no pollution
// per recipe, no inserters, no electricity producers, no research unit counts, no hand crafting.
import { validateReferences } from '../normalize/validate';
import { synthesize } from '../synthesize';
import type { GameData } from '../model';
import { FlabCtx } from './entries';
import { flabGoods } from './goods';
import { flabMachines, flabProducers } from './machines';
import { flabRecipes } from './recipes';
import { flabTechnologies } from './technologies';
import { flabError } from './read';
import type { FlabData } from './schema';

export interface FlabNormalizeResult {
  data: GameData;
  warnings: string[];
  /** What the format cannot say, in words for the import summary. */
  lacks: string[];
  /** Mod name → version (the game's own `base` left out). */
  mods: Record<string, string>;
  factorioVersion: string | null;
}

const NO_POWER = { boilers: [], generators: [], burnerGenerators: [], solarPanels: [], reactors: [], offshorePumps: [], resources: [], tiles: [] };

export function normalizeFlab(data: FlabData): FlabNormalizeResult {
  const f = new FlabCtx(data);
  flabGoods(f);
  const producers = flabProducers(f);
  flabMachines(f, producers);
  flabRecipes(f, producers);
  flabTechnologies(f);
  validateReferences(f.ctx);
  if (f.ctx.problems.length) throw flabError(f.ctx.problems);
  // Burning fuels into their burnt results (and fluids into the fluid-fuel pool) as a dump gets them.
  synthesize(f.ctx, NO_POWER);
  if (f.ctx.problems.length) throw flabError(f.ctx.problems);
  const { base, ...mods } = data.version;
  return { data: f.ctx.out, warnings: f.ctx.warnings, lacks: lacksOf(f), mods, factorioVersion: base ?? null };
}

function lacksOf(f: FlabCtx): string[] {
  const out = f.ctx.out;
  const lacks = [
    'icons (the set\'s sprite sheet is not read; views show their usual symbols)',
    'pollution per recipe (machines carry their own)',
    'inserters',
    'electricity producers (steam engines, turbines, solar panels): electricity is always imported',
    'research unit counts (technologies carry their science packs and time per unit)',
    'which recipes the player crafts by hand (no recipe is marked as hand-craftable)',
  ];
  const untyped = out.crafting_machines.filter((m) => m.energy_source === null).length;
  if (untyped) lacks.push(`the energy source of ${untyped} machine${untyped === 1 ? '' : 's'} (heat- or self-powered): their energy is not counted`);
  if (out.recipes.some((r) => r.kind === 'spoiling')) lacks.push('spoil times (spoiling is planned 1:1, without its duration)');
  if (f.data.items.some((e) => e.technology?.prodUpgrades?.length)) lacks.push('research productivity amounts');
  if (f.data.version.pyalienlife) lacks.push('TURD choices (branch upgrades appear only as their modules and -turd machine variants)');
  return lacks;
}
