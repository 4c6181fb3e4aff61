// One row's detail in the block editor: its effects, machine modules, beacons, building pin and
// module presets. Only choices the extension listed for the row are offered (modules that fit its
// machine and recipe, beacons that reach the machine, modules each beacon transmits); locked ones
// are marked with what unlocks them. Every change is sent as one edit of the whole list, so Undo
// restores the row as it was.
import type { BeaconChoiceView, BlockEditMessage, BlockEditorView, ChoiceView, EditorModuleView, EditorRowView, FromBlockEditor } from '../blockEditorProtocol';
import { counted, short } from '../format';
import { button, h } from '../panel/dom';

export interface RowDetailHost {
  edit(e: BlockEditMessage): void;
  post(m: FromBlockEditor): void;
}

type ModuleCount = { name: string; count: number };

/** Usable under the horizon (the core's isUsable, for views). */
export const usable = (c: Pick<ChoiceView, 'state'>): boolean => c.state === 'unlocked' || c.state === 'buildable';
const pct = (x: number) => `${x > 0 ? '+' : ''}${short(x * 100)} %`;
const counts = (list: EditorModuleView[]): ModuleCount[] => list.map((m) => ({ name: m.name, count: m.count }));

function choiceLabel(c: ChoiceView, extra?: string): string {
  return `${usable(c) ? '' : '🔒 '}${c.display}${extra ? ` (${extra})` : ''}${c.needs ? ` — needs ${c.needs}` : ''}`;
}

/** "Speed +50 % · Productivity +10 % · …, one building crafts at ×1.65". */
function effectsLine(r: EditorRowView): HTMLElement | null {
  if (!r.effects) return null;
  const e = r.effects;
  const floor = (k: 'speed' | 'consumption' | 'pollution') =>
    e.capped.includes(k) ? h('span', { class: 'muted', title: 'The game stops this effect at −80 %; more modules of this kind add nothing.' }, ' (the game’s floor)') : null;
  return h('p', { class: 'effects' },
    h('span', { class: 'effect' }, `Speed ${pct(e.speed)}`, floor('speed')), ' · ',
    h('span', { class: 'effect' }, `Productivity ${pct(e.productivity)}`), ' · ',
    h('span', { class: 'effect' }, `Consumption ${pct(e.consumption)}`, floor('consumption')), ' · ',
    h('span', { class: 'effect' }, `Pollution ${pct(e.pollution)}`, floor('pollution')),
    r.speed !== null ? h('span', { class: 'muted' }, ` — each building crafts at speed ${short(r.speed)}`) : null,
    r.beaconBuildings ? h('span', { class: 'muted' }, `, ${counted(r.beaconBuildings, 'beacon building')} to place`) : null,
  );
}

/**
 * A list of modules with a count each, within `slots`: change a module or its count, remove one,
 * add one (it takes the free slots), clear all. `onChange` gets the whole new list.
 */
function moduleList(opts: { label: string; key: string; list: EditorModuleView[]; options: string[]; v: BlockEditorView; slots: number; onChange: (list: ModuleCount[]) => void }): HTMLElement {
  const { list, options, v, slots, key } = opts;
  const used = list.reduce((s, m) => s + m.count, 0);
  const free = Math.max(0, slots - used);
  const option = (name: string, selected: boolean) => {
    const c = v.moduleCatalog[name];
    return h('option', { value: name, selected, title: c?.needs ?? '' }, c ? choiceLabel(c, c.effects) : `${name} (does not fit)`);
  };
  const replace = (i: number, m: ModuleCount | null) => {
    const next = counts(list);
    if (m) next[i] = m;
    else next.splice(i, 1);
    opts.onChange(next);
  };
  return h('div', { class: 'module-list' },
    h('div', { class: 'detail-head' }, h('span', null, `${opts.label} · ${used} of ${counted(slots, 'slot')}`),
      list.length ? button('Clear', () => opts.onChange([]), { icon: 'clear-all', secondary: true, key: `${key}:clear` }) : null),
    list.map((m, i) => h('div', { class: 'module-entry' },
      h('select', { 'aria-label': `${opts.label}: module ${i + 1}`, 'data-key': `${key}:${i}:name`, onchange: (e: Event) => replace(i, { name: (e.target as HTMLSelectElement).value, count: m.count }) },
        (options.includes(m.name) ? options : [m.name, ...options]).map((n) => option(n, n === m.name))),
      ' × ',
      h('input', { type: 'number', min: '1', max: String(m.count + free), step: '1', value: m.count, 'aria-label': `How many ${m.display}`, 'data-key': `${key}:${i}:count`, onchange: (e: Event) => {
        const n = Math.floor(Number((e.target as HTMLInputElement).value));
        if (!(n >= 1)) return replace(i, null);
        replace(i, { name: m.name, count: Math.min(n, m.count + free) });
      } }),
      button(`Remove ${m.display}`, () => replace(i, null), { icon: 'close', iconOnly: true, secondary: true, key: `${key}:${i}:rm` }),
    )),
    free > 0 && options.length
      ? h('select', { class: 'add', 'aria-label': `${opts.label}: add a module`, 'data-key': `${key}:add`, onchange: (e: Event) => {
          const name = (e.target as HTMLSelectElement).value;
          if (name) opts.onChange([...counts(list), { name, count: free }]);
        } }, h('option', { value: '', selected: true }, `Add a module (fills ${counted(free, 'slot')})…`), options.map((n) => option(n, false)))
      : !options.length ? h('p', { class: 'muted' }, 'No module fits here.') : null,
  );
}

function beaconsEditor(v: BlockEditorView, r: EditorRowView, host: RowDetailHost): HTMLElement | null {
  if (!r.beaconOptions.length) return null;
  const configs = () => r.beacons.map((b) => ({ beacon: b.beacon, count: b.count, modules: counts(b.modules) }));
  const set = (next: ReturnType<typeof configs>) => host.edit({ kind: 'row-beacons', recipe: r.recipe, beacons: next });
  const beaconOption = (c: BeaconChoiceView | undefined, name: string, selected: boolean) =>
    h('option', { value: name, selected, title: c?.needs ?? '' }, c ? choiceLabel(c, counted(c.slots, 'slot')) : name);
  return h('div', { class: 'beacons' },
    h('div', { class: 'detail-head' }, h('span', null, 'Beacons'), r.beacons.length ? button('Clear', () => set([]), { icon: 'clear-all', secondary: true, key: `beacons:${r.recipe}:clear` }) : null),
    r.beacons.map((b, i) => {
      const c = v.beaconCatalog[b.beacon];
      const change = (patch: Partial<ReturnType<typeof configs>[number]>) => {
        const next = configs();
        next[i] = { ...next[i], ...patch };
        set(next);
      };
      return h('div', { class: 'beacon-entry' },
        h('div', { class: 'module-entry beacon-line' },
          h('select', { 'aria-label': `Beacon ${i + 1} of ${r.display}`, 'data-key': `beacon:${r.recipe}:${i}`, onchange: (e: Event) => change({ beacon: (e.target as HTMLSelectElement).value, modules: [] }) },
            (r.beaconOptions.includes(b.beacon) ? r.beaconOptions : [b.beacon, ...r.beaconOptions]).map((n) => beaconOption(v.beaconCatalog[n], n, n === b.beacon))),
          // The count and its unit stay together; the beacon's name gives way in a narrow tab.
          h('span', { class: 'beacon-count' }, '× ',
            h('input', { type: 'number', min: '0', max: '64', step: 'any', value: b.count, 'aria-label': `${b.display} per machine`, 'data-key': `beacon:${r.recipe}:${i}:count`, onchange: (e: Event) => {
              const n = Number((e.target as HTMLInputElement).value);
              if (!(n >= 0) || n > 64) return;
              change({ count: n });
            } }),
            h('span', { class: 'muted' }, ' per machine')),
          button(`Remove ${b.display}`, () => set(configs().filter((_, j) => j !== i)), { icon: 'close', iconOnly: true, secondary: true, key: `beacon:${r.recipe}:${i}:rm` }),
        ),
        c ? moduleList({ label: `Modules in ${b.display}`, key: `bmod:${r.recipe}:${i}`, list: b.modules, options: c.modules, v, slots: c.slots, onChange: (modules) => change({ modules }) }) : null,
      );
    }),
    h('select', { class: 'add', 'aria-label': `Add a beacon to ${r.display}`, 'data-key': `beacon:${r.recipe}:add`, onchange: (e: Event) => {
      const beacon = (e.target as HTMLSelectElement).value;
      if (beacon) set([...configs(), { beacon, count: 1, modules: [] }]);
    } }, h('option', { value: '', selected: true }, 'Add a beacon…'), r.beaconOptions.map((n) => beaconOption(v.beaconCatalog[n], n, false))),
  );
}

function pinEditor(r: EditorRowView, host: RowDetailHost): HTMLElement {
  const pin = r.pin;
  const set = (p: EditorRowView['pin']) => host.edit({ kind: 'row-pin', recipe: r.recipe, pin: p });
  return h('div', { class: 'pin' },
    h('label', null, 'Buildings ',
      h('select', { 'aria-label': `Pin the buildings of ${r.display}`, 'data-key': `pin:${r.recipe}`, onchange: (e: Event) => {
        const kind = (e.target as HTMLSelectElement).value;
        if (kind !== 'count' && kind !== 'cap') return set(null);
        set({ kind, buildings: pin?.buildings ?? r.wholeBuildings ?? 1 });
      } },
        h('option', { value: '', selected: !pin }, 'as the goals need (no pin)'),
        h('option', { value: 'count', selected: pin?.kind === 'count' }, 'exactly'),
        h('option', { value: 'cap', selected: pin?.kind === 'cap' }, 'at most'),
      )),
    pin
      ? h('input', { type: 'number', min: '0', step: 'any', value: pin.buildings, 'aria-label': `Pinned buildings of ${r.display}`, 'data-key': `pin:${r.recipe}:n`, onchange: (e: Event) => {
          const n = Number((e.target as HTMLInputElement).value);
          if (n >= 0) set({ kind: pin.kind, buildings: n });
        } })
      : null,
  );
}

function presetsEditor(v: BlockEditorView, r: EditorRowView, host: RowDetailHost): HTMLElement | null {
  if (!r.moduleOptions.length && !r.beaconOptions.length) return null;
  return h('div', { class: 'presets' },
    v.presets.length
      ? h('select', { 'aria-label': `Apply a module preset to ${r.display}`, 'data-key': `preset:${r.recipe}`, onchange: (e: Event) => {
          const preset = (e.target as HTMLSelectElement).value;
          if (preset) host.edit({ kind: 'row-preset', recipe: r.recipe, preset });
        } }, h('option', { value: '', selected: true }, 'Apply a module preset…'), v.presets.map((p) => h('option', { value: p.id, title: p.summary }, `${p.name} — ${p.summary}`)))
      : null,
    button('Save as Preset…', () => host.post({ type: 'savePreset', recipe: r.recipe }), { icon: 'save', secondary: true, disabled: !r.modules.length && !r.beacons.length, title: "Save this row's modules and beacons as a named preset", key: `preset-save:${r.recipe}` }),
  );
}

/** The detail of one row, shown under it when expanded. */
export function rowDetail(v: BlockEditorView, r: EditorRowView, host: RowDetailHost): HTMLElement {
  return h('div', { class: 'row-detail' },
    effectsLine(r),
    r.moduleNote ? h('p', { class: 'muted' }, r.moduleNote) : null,
    h('div', { class: 'detail-grid' },
      r.moduleSlots > 0 ? moduleList({ label: 'Machine modules', key: `mod:${r.recipe}`, list: r.modules, options: r.moduleOptions, v, slots: r.moduleSlots, onChange: (modules) => host.edit({ kind: 'row-modules', recipe: r.recipe, modules }) }) : null,
      beaconsEditor(v, r, host),
    ),
    h('div', { class: 'detail-foot' }, pinEditor(r, host), presetsEditor(v, r, host)),
  );
}

/** The row's modules in a few words, for the table cell. */
export function modulesSummary(r: EditorRowView): string {
  const mods = r.modules.map((m) => `${m.count} × ${m.display}`);
  const beacons = r.beacons.map((b) => `${short(b.count)} × ${b.display}`);
  const pin = r.pin ? [`${r.pin.kind === 'count' ? 'exactly' : '≤'} ${short(r.pin.buildings)}`] : [];
  return [...mods, ...beacons, ...pin].join(' · ') || (r.moduleSlots || r.beaconOptions.length ? 'none' : '—');
}
