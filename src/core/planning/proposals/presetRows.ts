// Module presets in drafts: a row may name a preset, and a block may name a default preset for its
// rows that give no modules, beacons or preset of their own. A preset is applied as the block editor
// applies it — exactly its modules and beacons, all or nothing, checked by moduleFit's rules against
// the row's machine — so a row with a preset is not auto-filled. A preset that does not fit a row is
// left off that row and said so (the row's moduleReason and the draft's warnings); the row then gets
// what it would have had without it. A preset name the project does not have is an input error.
import type { PlanningContext } from '../context';
import type { Row } from '../block/document';
import { findPresetByName, listPresets, type ModulePreset } from '../modulePresets';
import { rowBeaconsMisfit, rowModulesMisfit, rowTarget } from '../moduleFit';
import { QueryError } from '../queries/errors';

/** A draft row as the tools take it: a block row that may name a module preset. */
export type DraftRow = Row & { preset?: string };

export interface PresetRows {
  rows: Row[];
  /** recipe → what the preset did on the row (applied, or why not). */
  moduleReasons: Record<string, string>;
  warnings: string[];
}

const SHOWN = 4;

/** The rows with their presets expanded; throws a QueryError naming the project's presets for an unknown name. */
export function expandPresets(ctx: PlanningContext, rows: DraftRow[], blockPreset?: string): PresetRows {
  const { g, availability: a } = ctx;
  const named = rows.some((r) => r.preset) || blockPreset !== undefined;
  const presets = named && ctx.project ? listPresets(ctx.project) : [];
  const resolve = (name: string): ModulePreset => {
    const hit = findPresetByName(presets, name);
    if (hit) return hit;
    const have = presets.length ? `the project's presets: ${presets.map((x) => `"${x.name}"`).join(', ')}` : 'the project has no module presets yet';
    throw new QueryError(`no module preset named "${name}"; ${have}. Use one of them, give the row's modules and beacons instead, or save a preset with changePlanningSettings (modulePresets.add) when the user wants one.`);
  };
  const fallback = blockPreset !== undefined ? resolve(blockPreset) : undefined;
  const moduleReasons: Record<string, string> = {};
  const warnings: string[] = [];
  const leftOff: string[] = [];
  const out = rows.map(({ preset: own, ...row }): Row => {
    const preset = own !== undefined ? resolve(own) : !row.modules && !row.beacons ? fallback : undefined;
    // An unknown recipe is reported by the draft's name check.
    if (!preset || !g.recipes.has(row.recipe)) return row;
    const t = rowTarget(g, a, row);
    const why = typeof t === 'string' ? t : (rowModulesMisfit(g, t, preset.modules) ?? rowBeaconsMisfit(g, t, preset.beacons));
    const whose = own !== undefined ? `module preset "${preset.name}"` : `the block's module preset "${preset.name}"`;
    if (!why) {
      moduleReasons[row.recipe] = whose;
      const { beacons: _beacons, ...rest } = row;
      return { ...rest, modules: preset.modules, ...(preset.beacons.length ? { beacons: preset.beacons } : {}) };
    }
    moduleReasons[row.recipe] = `${whose} does not fit (${why}), so it was left off`;
    const name = g.recipes.get(row.recipe)!.display;
    if (own !== undefined) warnings.push(`Module preset "${preset.name}" does not fit ${name}: ${why}; it was left off the row.`);
    else leftOff.push(`${name} (${why})`);
    return row;
  });
  if (leftOff.length) {
    const more = leftOff.length > SHOWN ? `; and ${leftOff.length - SHOWN} more` : '';
    warnings.push(`The block's module preset "${fallback!.name}" was left off ${leftOff.length} row${leftOff.length === 1 ? '' : 's'} it does not fit: ${leftOff.slice(0, SHOWN).join('; ')}${more}.`);
  }
  return { rows: out, moduleReasons, warnings };
}
