// The planning-settings tool: horizon, science packs, completed research, favourite machines and
// fuel, excluded recipes, mining productivity, module presets — one undoable change per call, names
// checked first.
import { defineTool, plural, type AnyTool } from '../types';
import { planning } from '../context';
import { changePlanningSettings, changeSettingsForModel, changeSettingsInput } from '../../../planning/settingsChange';

export const settingsTools: AnyTool[] = [
  defineTool({
    name: 'changePlanningSettings',
    displayName: 'Change planning settings',
    tier: 'write',
    tags: ['settings'],
    description:
      "Changes the project's planning settings when the user asks for it or agrees: horizon (now/target/future), its target and what a target covers (horizonScope `make` = able to make the target: its research plus the research its ingredient chains and machines need, the default for a science pack; `research` = the target technology's prerequisite closure), the science packs they produce, completed research (add/remove; prerequisites and dependants follow), favourite machine per crafting category (or for every category a machine crafts), favourite burner fuel and favourite fluid for fluid-burning machines, excluded recipes (names or globs), mining productivity (percent or from research), module presets (named sets of machine modules and beacons that drafts name as a row's or block's `preset`: add, rename, remove). Give only what changes; every name is checked (unknown ones come back with suggestions, nothing saved). One undoable change; blocks re-solve afterwards. Returns what changed and the resulting settings; a target horizon also comes back as `horizon`, naming the technologies `make` added to the prerequisite closure.",
    input: changeSettingsInput,
    run: (i, ctx) => changePlanningSettings(planning(ctx), ctx.project, i),
    forModel: (o) => changeSettingsForModel(o),
    describe: (_i, o) => (o.changes.length ? `Changed ${plural(o.changes.length, 'planning setting')}: ${o.changes.map((c) => c.setting).join(', ')}` : 'Planning settings already as asked (nothing changed)'),
  }),
];
