// Module presets: a named set of machine modules and beacon configurations, applied to block rows
// by the editor and read by the assistant with the other planning settings. Stored in the project
// (table module_presets, data validated on read); every change is one undoable action. A preset names
// modules and beacons, not a machine: whether it fits a row is decided when it is applied
// (moduleFit.ts), since the same preset serves many recipes.
import { z } from 'zod';
import type { Project } from '../db/project';
import type { GameIndex } from './gameIndex';
import { newId } from '../work/ids';
import { beaconConfigSchema, moduleCountSchema } from './block/document';
import { beaconMisfit } from './effects';
import { mergeModules } from './moduleFit';

const presetDataSchema = z.object({
  modules: z.array(moduleCountSchema).max(16).default([]),
  beacons: z.array(beaconConfigSchema).max(4).default([]),
});
export const presetNameSchema = z.string().trim().min(1, 'a preset needs a name').max(80);

export type PresetData = z.output<typeof presetDataSchema>;
export interface ModulePreset extends PresetData {
  id: string;
  name: string;
}

export class PresetError extends Error {
  override name = 'PresetError';
}

/** Every preset, by name; a row whose data no longer parses (hand-edited) is left out rather than failing the list. */
export function listPresets(p: Project): ModulePreset[] {
  const out: ModulePreset[] = [];
  for (const r of p.query<{ id: string; name: string; data: string }>('SELECT id, name, data FROM main.module_presets')) {
    let raw: unknown;
    try {
      raw = JSON.parse(r.data);
    } catch {
      continue;
    }
    const d = presetDataSchema.safeParse(raw);
    if (d.success) out.push({ id: r.id, name: r.name, ...d.data });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** The preset of that name (exact, else ignoring case, as names are unique ignoring case). */
export function findPresetByName(presets: ModulePreset[], name: string): ModulePreset | undefined {
  const n = name.trim();
  return presets.find((x) => x.name === n) ?? presets.find((x) => x.name.toLowerCase() === n.toLowerCase());
}

export function getPreset(p: Project, id: string): ModulePreset {
  const hit = listPresets(p).find((x) => x.id === id);
  if (!hit) throw new PresetError(`There is no module preset ${id} (deleted, or undone); pick another.`);
  return hit;
}

function uniqueName(p: Project, name: string, except?: string): string {
  const n = presetNameSchema.parse(name);
  const clash = listPresets(p).find((x) => x.id !== except && x.name.toLowerCase() === n.toLowerCase());
  if (clash) throw new PresetError(`A module preset named "${clash.name}" exists already; choose another name.`);
  return n;
}

/** The preset's modules and beacons checked against the game data: known, placeable, fitting their beacon. */
export function checkedPresetData(g: GameIndex, data: z.input<typeof presetDataSchema>): PresetData {
  const d = presetDataSchema.parse(data);
  const modules = mergeModules(d.modules);
  const beacons = d.beacons.filter((b) => b.count > 0).map((b) => ({ ...b, modules: mergeModules(b.modules) }));
  if (!modules.length && !beacons.length) throw new PresetError('A module preset needs modules or a beacon; it was given neither.');
  for (const m of [...modules, ...beacons.flatMap((b) => b.modules)]) {
    const mod = g.modules.get(m.name);
    if (!mod || mod.hidden) throw new PresetError(`The game data has no module ${m.name} to place.`);
  }
  for (const b of beacons) {
    const beacon = g.beacons.get(b.beacon);
    if (!beacon || beacon.hidden) throw new PresetError(`The game data has no beacon ${b.beacon} to place.`);
    for (const m of b.modules) {
      const why = beaconMisfit(g.modules.get(m.name)!, beacon);
      if (why) throw new PresetError(`${g.modules.get(m.name)!.display} cannot go into ${beacon.display}: ${why}.`);
    }
  }
  return { modules, beacons };
}

/** Save a new preset (one undoable action); returns it. */
export function createPreset(p: Project, g: GameIndex, input: { name: string } & z.input<typeof presetDataSchema>): ModulePreset {
  const name = uniqueName(p, input.name);
  const data = checkedPresetData(g, input);
  const id = newId('mp');
  p.write((db) => db.run('INSERT INTO main.module_presets(id, name, data) VALUES (?, ?, ?)', [id, name, JSON.stringify(data)]), { undo: `Create module preset "${name}"` });
  return { id, name, ...data };
}

export function renamePreset(p: Project, id: string, name: string): ModulePreset {
  const cur = getPreset(p, id);
  const n = uniqueName(p, name, id);
  if (n === cur.name) return cur;
  p.write((db) => db.run('UPDATE main.module_presets SET name = ? WHERE id = ?', [n, id]), { undo: `Rename module preset "${cur.name}" to "${n}"` });
  return { ...cur, name: n };
}

/** Delete a preset (one undoable action). Rows it was applied to keep their modules: applying copies them. */
export function deletePreset(p: Project, id: string): void {
  const cur = getPreset(p, id);
  p.write((db) => db.run('DELETE FROM main.module_presets WHERE id = ?', [id]), { undo: `Delete module preset "${cur.name}"` });
}

/** "2 × Speed module 2; 8 × Beacon (2 × Speed module 2)" — a preset, or a row's modules, in words. */
export function describeModules(display: (name: string) => string, d: PresetData): string {
  const mods = (ms: PresetData['modules']) => ms.map((m) => `${m.count} × ${display(m.name)}`).join(', ');
  const parts = [
    ...(d.modules.length ? [mods(d.modules)] : []),
    ...d.beacons.map((b) => `${Number(b.count.toPrecision(4))} × ${display(b.beacon)}${b.modules.length ? ` (${mods(b.modules)})` : ''}${b.shared && b.shared > 1 ? `, shared by ${b.shared}` : ''}`),
  ];
  return parts.join('; ') || 'no modules';
}

/** Every preset with its contents in words, as the Factory view and the block editor list them. */
export function presetSummaries(p: Project, display: (name: string) => string): Array<{ id: string; name: string; summary: string }> {
  return listPresets(p).map((x) => ({ id: x.id, name: x.name, summary: describeModules(display, x) }));
}
