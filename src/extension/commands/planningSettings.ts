// Planning settings beyond the horizon, from the Factory view or the palette: favourite machine per
// crafting category, favourite fuel, excluded recipes, mining productivity, module presets. They go
// through the same validated core changes the assistant's settings tool uses (one undoable action,
// names checked), so the tree, the drafts and the assistant all read the same settings. Presets are
// made in the block editor (a row's modules); here they are listed, renamed and deleted.
import * as vscode from 'vscode';
import { z } from 'zod';
import { planningContext } from '../../core/planning/context';
import { changePlanningSettings, changeSettingsInput, solidFuels, type ChangeSettingsInput } from '../../core/planning/settingsChange';
import { readSettings } from '../../core/planning/settings';
import { burnableFluids } from '../../core/planning/energy';
import { deletePreset, describeModules, getPreset, listPresets, presetNameSchema, renamePreset } from '../../core/planning/modulePresets';
import type { ProjectManager } from '../projectManager';
import { objectArg } from './args';
import { withData } from './planning';
import { registerCommand } from './register';

export function registerPlanningSettingsCommands(projects: ProjectManager): vscode.Disposable[] {
  const context = () => {
    const { p } = withData(projects);
    return { p, pc: planningContext(p) };
  };
  const apply = (input: ChangeSettingsInput) => {
    const { p, pc } = context();
    const r = changePlanningSettings(pc, p, changeSettingsInput.parse(input));
    projects.touch();
    return r;
  };
  return [
    registerCommand('pyops.planning.setFavoriteMachine', async (arg?: unknown) => {
      const a = objectArg(arg, z.object({ category: z.string().min(1).optional(), machine: z.string().min(1).nullable().optional() }));
      const { p, pc } = context();
      const g = pc.g;
      let category = a?.category;
      if (!category) {
        const cats = [...new Set([...g.machines.values()].flatMap((m) => m.categories))].sort();
        const favs = readSettings(p).favorite_machines;
        const pick = await vscode.window.showQuickPick(cats.map((c) => ({ label: c, description: favs[c] ? `favourite: ${g.displayOf(favs[c])}` : undefined })), { title: 'Favourite machine for which crafting category?', matchOnDescription: true });
        if (!pick) return undefined;
        category = pick.label;
      }
      let machine = a?.machine;
      if (machine === undefined) {
        const machines = [...g.machines.values()].filter((m) => m.categories.includes(category!)).sort((x, y) => y.speed - x.speed);
        if (!machines.length) throw new Error(`No machine crafts "${category}".`);
        const items = [
          ...machines.map((m) => ({ label: m.display, description: `${m.name} · speed ${m.speed}`, detail: pc.availability.machine(m.name).buildableNow ? undefined : 'not buildable under the horizon yet', name: m.name as string | null })),
          { label: 'No favourite', description: 'drafts use the fastest buildable machine', name: null as string | null },
        ];
        const pick = await vscode.window.showQuickPick(items, { title: `Favourite machine for ${category}` });
        if (!pick) return undefined;
        machine = pick.name;
      }
      return apply({ favoriteMachines: [{ category, machine: machine ?? null }] } as ChangeSettingsInput);
    }),
    registerCommand('pyops.planning.setFavoriteFuel', async (arg?: unknown) => {
      // `fuel` a solid fuel (burners), `fluid` a fluid (fluid burners); null clears that favourite.
      const a = objectArg(arg, z.object({ fuel: z.string().min(1).nullable().optional(), fluid: z.string().min(1).nullable().optional() }).refine((x) => x.fuel !== undefined || x.fluid !== undefined, 'give fuel or fluid'));
      if (a) return apply({ ...(a.fuel !== undefined ? { favoriteFuel: a.fuel } : {}), ...(a.fluid !== undefined ? { favoriteFluidFuel: a.fluid } : {}) } as ChangeSettingsInput);
      const { pc } = context();
      const mj = (f: string) => `${((pc.g.goods.get(f)?.fuelValueJ ?? 0) / 1e6).toFixed(1)} MJ`;
      type Item = vscode.QuickPickItem & { set?: ChangeSettingsInput };
      const sep = (label: string): Item => ({ label, kind: vscode.QuickPickItemKind.Separator });
      const fuels = solidFuels(pc.g).sort((x, y) => (pc.g.goods.get(y)!.fuelValueJ ?? 0) - (pc.g.goods.get(x)!.fuelValueJ ?? 0));
      const fluids = burnableFluids(pc.g);
      const s = pc.availability.state.settings;
      const pick = await vscode.window.showQuickPick<Item>(
        [
          sep('Burner machines (solid fuel)'),
          ...fuels.map((f): Item => ({ label: pc.g.displayOf(f), description: `${f} · ${mj(f)}${s.favorite_fuel === f ? ' · current' : ''}`, set: { favoriteFuel: f } as ChangeSettingsInput })),
          { label: 'Default choice', description: 'the first allowed of the usual fuels', set: { favoriteFuel: null } as ChangeSettingsInput },
          sep('Fluid-burning machines'),
          ...fluids.map((f): Item => ({ label: f.display, description: `${f.name} · ${mj(f.name)}${s.favorite_fluid_fuel === f.name ? ' · current' : ''}`, set: { favoriteFluidFuel: f.name } as ChangeSettingsInput })),
          { label: 'Fluid fuel by its energy', description: 'any fluid, counted in MJ (the default)', set: { favoriteFluidFuel: null } as ChangeSettingsInput },
        ],
        { title: 'Favourite fuel (machines burn it unless a block row picks another)', matchOnDescription: true },
      );
      return pick?.set ? apply(pick.set) : undefined;
    }),
    registerCommand('pyops.planning.editExclusions', async (arg?: unknown) => {
      const a = objectArg(arg, z.object({ add: z.array(z.string()).default([]), remove: z.array(z.string()).default([]) }));
      if (a) return apply({ excludedRecipes: a } as ChangeSettingsInput);
      const { p } = context();
      const current = readSettings(p).exclusions;
      const ADD = '$(add) Add a recipe name or pattern…';
      const pick = await vscode.window.showQuickPick([{ label: ADD, pattern: '' }, ...current.map((x) => ({ label: x, pattern: x, picked: true }))], {
        title: 'Excluded recipes (untick to include again)', canPickMany: true,
      });
      if (!pick) return undefined;
      const keep = new Set(pick.filter((x) => x.pattern).map((x) => x.pattern));
      const remove = current.filter((x) => !keep.has(x));
      let add: string[] = [];
      if (pick.some((x) => x.label === ADD)) {
        const v = await vscode.window.showInputBox({ title: 'Exclude recipes', placeHolder: 'a recipe name, or a pattern such as ee-* (name, category or subgroup)' });
        if (v?.trim()) add = [v.trim()];
      }
      if (!add.length && !remove.length) return undefined;
      return apply({ excludedRecipes: { add, remove } } as ChangeSettingsInput);
    }),
    registerCommand('pyops.planning.managePresets', async (arg?: unknown) => {
      const a = objectArg(arg, z.object({ presetId: z.string().min(1).optional() }));
      const { p, pc } = context();
      let id = a?.presetId;
      if (!id) {
        const presets = listPresets(p);
        if (!presets.length) {
          void vscode.window.showInformationMessage("PyOps: no module presets yet. In a block's editor, open a row's modules and use Save as Preset….");
          return undefined;
        }
        id = (await vscode.window.showQuickPick(presets.map((x) => ({ label: x.name, description: describeModules((n) => pc.g.displayOf(n), x), id: x.id })), { title: 'Module presets', matchOnDescription: true }))?.id;
        if (!id) return undefined;
      }
      const preset = getPreset(p, id);
      const action = await vscode.window.showQuickPick([{ label: '$(edit) Rename…', action: 'rename' }, { label: '$(trash) Delete', action: 'delete' }], { title: `Module preset "${preset.name}"` });
      if (action?.action === 'rename') return vscode.commands.executeCommand('pyops.planning.renamePreset', { presetId: id });
      if (action?.action === 'delete') return vscode.commands.executeCommand('pyops.planning.deletePreset', { presetId: id });
      return undefined;
    }),
    registerCommand('pyops.planning.renamePreset', async (arg?: unknown) => {
      const a = objectArg(arg, z.object({ presetId: z.string().min(1), name: presetNameSchema.optional() }));
      if (!a) return vscode.commands.executeCommand('pyops.planning.managePresets');
      const p = projects.requireWritable();
      const preset = getPreset(p, a.presetId);
      const name = a.name ?? (await vscode.window.showInputBox({ title: `Rename module preset "${preset.name}"`, value: preset.name, validateInput: (v) => (v.trim() ? undefined : 'A preset needs a name') }));
      if (!name) return undefined;
      const r = renamePreset(p, preset.id, name);
      projects.touch();
      return r.name;
    }),
    registerCommand('pyops.planning.deletePreset', async (arg?: unknown) => {
      const a = objectArg(arg, z.object({ presetId: z.string().min(1) }));
      if (!a) return vscode.commands.executeCommand('pyops.planning.managePresets');
      const p = projects.requireWritable();
      const preset = getPreset(p, a.presetId);
      deletePreset(p, preset.id);
      projects.touch();
      // Undoable like every change, so no confirmation dialog: say how to get it back.
      void vscode.window.showInformationMessage(`PyOps: deleted module preset "${preset.name}" (rows keep their modules; Undo brings the preset back).`);
      return preset.id;
    }),
    registerCommand('pyops.planning.setMiningProductivity', async (arg?: unknown) => {
      const a = objectArg(arg, z.object({ value: z.union([z.number(), z.literal('research')]) }));
      let value = a?.value;
      if (value === undefined) {
        const v = await vscode.window.showInputBox({
          title: 'Mining productivity', prompt: 'A bonus in percent (20 = +20 %), or "research" to take it from researched technologies',
          validateInput: (x) => (x.trim() === 'research' || (x.trim() !== '' && Number.isFinite(Number(x)) && Number(x) >= 0) ? undefined : 'A number of percent (0 or more), or "research"'),
        });
        if (v === undefined) return undefined;
        value = v.trim() === 'research' ? 'research' : Number(v);
      }
      return apply({ miningProductivity: value } as ChangeSettingsInput);
    }),
  ];
}
