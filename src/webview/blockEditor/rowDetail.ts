// One row's detail in the block editor: its effects, machine modules, beacons, building pin and module
// presets, then its group, share pins, fluid temperatures and reactor layout. Only choices the
// extension listed for the row are offered (modules that fit its machine and recipe, beacons that
// reach the machine, modules each beacon transmits). Options are short — a name, the lock glyph when
// the horizon does not allow it yet — with the effects and what unlocks it in the tooltip and on a
// line under the choice. Every change is sent as one edit of the whole list, so Undo restores the row.
import type { BeaconChoiceView, BlockEditorView, ChoiceView, EditorModuleView, EditorRowView } from '../blockEditorProtocol';
import { counted, short } from '../format';
import { button, h, icon } from '../panel/dom';
import { numberField } from './fields';
import { groupDoc, LOCK, needsPhrase, type EditorHost } from './host';

type ModuleCount = { name: string; count: number };

/** Usable under the horizon (the core's isUsable, for views). */
export const usable = (c: Pick<ChoiceView, 'state'>): boolean => c.state === 'unlocked' || c.state === 'buildable';
const pct = (x: number) => `${x > 0 ? '+' : ''}${short(x * 100)} %`;
const counts = (list: EditorModuleView[]): ModuleCount[] => list.map((m) => ({ name: m.name, count: m.count }));

/** The option text: the name, after the lock glyph when the horizon does not allow it yet. */
const optionLabel = (c: ChoiceView) => `${usable(c) ? '' : `${LOCK} `}${c.display}`;
/** The tooltip and second line: what it does, and what unlocks it. */
const optionTitle = (c: ChoiceView, what?: string) => [what, usable(c) ? '' : needsPhrase(c.needs)].filter(Boolean).join(' — ');

/** Under a chosen module or beacon: its effects and, when locked, what unlocks it. */
function choiceNote(c: ChoiceView | undefined, what?: string): HTMLElement | null {
  if (!c) return null;
  const locked = !usable(c);
  if (!what && !locked) return null;
  return h('div', { class: `choice-note sub ${locked ? 'warn' : 'muted'}` }, locked ? [icon('lock'), ' '] : null, optionTitle(c, what));
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
    return h('option', { value: name, selected, title: c ? optionTitle(c, c.effects) : 'does not fit' }, c ? optionLabel(c) : `${name} (does not fit)`);
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
    list.map((m, i) => h('div', { class: 'module-block' },
      h('div', { class: 'module-entry' },
        h('select', { 'aria-label': `${opts.label}: module ${i + 1}`, 'data-key': `${key}:${i}:name`, onchange: (e: Event) => replace(i, { name: (e.target as HTMLSelectElement).value, count: m.count }) },
          (options.includes(m.name) ? options : [m.name, ...options]).map((n) => option(n, n === m.name))),
        ' × ',
        numberField({ value: m.count, key: `${key}:${i}:count`, label: `How many ${m.display}`, min: 0, step: '1', class: 'count', commit: (n) => {
          const k = Math.floor(n);
          replace(i, k >= 1 ? { name: m.name, count: Math.min(k, m.count + free) } : null);
        } }),
        button(`Remove ${m.display}`, () => replace(i, null), { icon: 'close', iconOnly: true, secondary: true, key: `${key}:${i}:rm` }),
      ),
      choiceNote(v.moduleCatalog[m.name], v.moduleCatalog[m.name]?.effects),
    )),
    free > 0 && options.length
      ? h('select', { class: 'add', 'aria-label': `${opts.label}: add a module`, 'data-key': `${key}:add`, onchange: (e: Event) => {
          const name = (e.target as HTMLSelectElement).value;
          if (name) opts.onChange([...counts(list), { name, count: free }]);
        } }, h('option', { value: '', selected: true }, `Add a module (${counted(free, 'free slot')})…`), options.map((n) => option(n, false)))
      : !options.length ? h('p', { class: 'muted' }, 'No module fits here.') : null,
  );
}

function beaconsEditor(v: BlockEditorView, r: EditorRowView, host: EditorHost): HTMLElement | null {
  if (!r.beaconOptions.length) return null;
  const configs = () => r.beacons.map((b) => ({ beacon: b.beacon, count: b.count, modules: counts(b.modules) }));
  const set = (next: ReturnType<typeof configs>) => host.edit({ kind: 'row-beacons', recipe: r.recipe, beacons: next });
  const beaconOption = (c: BeaconChoiceView | undefined, name: string, selected: boolean) =>
    h('option', { value: name, selected, title: c ? optionTitle(c, counted(c.slots, 'module slot')) : '' }, c ? optionLabel(c) : name);
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
            numberField({ value: b.count, key: `beacon:${r.recipe}:${i}:count`, label: `${b.display} per machine`, min: 0, max: 64, class: 'count', commit: (n) => change({ count: n }) }),
            h('span', { class: 'muted' }, ' per machine')),
          button(`Remove ${b.display}`, () => set(configs().filter((_, j) => j !== i)), { icon: 'close', iconOnly: true, secondary: true, key: `beacon:${r.recipe}:${i}:rm` }),
        ),
        choiceNote(c),
        c ? moduleList({ label: `Modules in ${b.display}`, key: `bmod:${r.recipe}:${i}`, list: b.modules, options: c.modules, v, slots: c.slots, onChange: (modules) => change({ modules }) }) : null,
      );
    }),
    h('select', { class: 'add', 'aria-label': `Add a beacon to ${r.display}`, 'data-key': `beacon:${r.recipe}:add`, onchange: (e: Event) => {
      const beacon = (e.target as HTMLSelectElement).value;
      if (beacon) set([...configs(), { beacon, count: 1, modules: [] }]);
    } }, h('option', { value: '', selected: true }, 'Add a beacon…'), r.beaconOptions.map((n) => beaconOption(v.beaconCatalog[n], n, false))),
  );
}

function pinEditor(r: EditorRowView, host: EditorHost): HTMLElement {
  const pin = r.pin;
  const set = (p: EditorRowView['pin']) => host.edit({ kind: 'row-pin', recipe: r.recipe, pin: p });
  return h('div', { class: 'pin' },
    h('label', null, 'Buildings ',
      h('select', { 'aria-label': `Pin the buildings of ${r.display}`, 'data-key': `pin:${r.recipe}`, onchange: (e: Event) => {
        const kind = (e.target as HTMLSelectElement).value;
        if (kind !== 'count' && kind !== 'cap') return set(null);
        set({ kind, buildings: pin?.buildings ?? r.wholeBuildings ?? 1 });
      } },
        h('option', { value: '', selected: !pin }, 'as the goals need'),
        h('option', { value: 'count', selected: pin?.kind === 'count' }, 'exactly'),
        h('option', { value: 'cap', selected: pin?.kind === 'cap' }, 'at most'),
      )),
    pin ? numberField({ value: pin.buildings, key: `pin:${r.recipe}:n`, label: `Pinned buildings of ${r.display}`, min: 0, class: 'count', commit: (n) => set({ kind: pin.kind, buildings: n }) }) : null,
  );
}

function presetsEditor(v: BlockEditorView, r: EditorRowView, host: EditorHost): HTMLElement | null {
  if (!r.moduleOptions.length && !r.beaconOptions.length) return null;
  return h('div', { class: 'presets' },
    v.presets.length
      ? h('select', { 'aria-label': `Apply a module preset to ${r.display}`, 'data-key': `preset:${r.recipe}`, onchange: (e: Event) => {
          const preset = (e.target as HTMLSelectElement).value;
          if (preset) host.edit({ kind: 'row-preset', recipe: r.recipe, preset });
        } }, h('option', { value: '', selected: true }, 'Apply a preset…'), v.presets.map((p) => h('option', { value: p.id, title: p.summary }, p.name)))
      : null,
    button('Save as Preset…', () => host.post({ type: 'savePreset', recipe: r.recipe }), { icon: 'save', secondary: true, disabled: !r.modules.length && !r.beacons.length, title: "Save this row's modules and beacons as a named preset", key: `preset-save:${r.recipe}` }),
  );
}

/** The row's group: none, one of the block's groups, or a new one (named in VS Code). */
function groupPicker(v: BlockEditorView, r: EditorRowView, host: EditorHost): HTMLElement {
  const NEW = '\u0000new';
  return h('label', { class: 'more-item' }, 'Group ',
    h('select', { 'aria-label': `Group of ${r.display}`, 'data-key': `group:${r.recipe}`, onchange: (e: Event) => {
      const to = (e.target as HTMLSelectElement).value;
      if (to === NEW) return host.post({ type: 'newGroup', recipe: r.recipe });
      const from = v.groups.find((g) => g.name === r.group);
      const target = v.groups.find((g) => g.name === to);
      if (target) host.edit({ kind: 'group', name: target.name, group: groupDoc(target, { recipes: [...target.recipes, r.recipe] }) });
      else if (from) {
        const rest = from.recipes.filter((x) => x !== r.recipe);
        host.edit({ kind: 'group', name: from.name, group: rest.length ? groupDoc(from, { recipes: rest }) : null });
      }
    } },
      h('option', { value: '', selected: !r.group }, 'none'),
      v.groups.map((g) => h('option', { value: g.name, selected: r.group === g.name }, g.name)),
      h('option', { value: NEW }, 'New group…')));
}

/** Share pins: this row takes a fraction of what the block makes of a good. */
function sharesEditor(r: EditorRowView, host: EditorHost): HTMLElement | null {
  if (!r.shares.length && !r.shareGoods.length) return null;
  const left = r.shareGoods.filter((g) => !r.shares.some((s) => s.good === g.good));
  return h('div', { class: 'more-item shares' },
    r.shares.map((s) => h('div', { class: 'share' }, 'Takes ',
      numberField({ value: Number((s.share * 100).toPrecision(6)), key: `share:${r.recipe}:${s.good}`, label: `Share of ${s.display} for ${r.display} in percent`, min: 0, max: 100, class: 'count', commit: (n) => host.edit({ kind: 'pin-share', recipe: r.recipe, good: s.good, share: { share: n / 100, base: s.base } }) }),
      ` % of the `,
      h('select', { 'aria-label': `Share of what ${s.display}`, 'data-key': `share-base:${r.recipe}:${s.good}`, onchange: (e: Event) => host.edit({ kind: 'pin-share', recipe: r.recipe, good: s.good, share: { share: s.share, base: (e.target as HTMLSelectElement).value as 'remaining' | 'total' } }) },
        h('option', { value: 'remaining', selected: s.base === 'remaining' }, 'remaining'), h('option', { value: 'total', selected: s.base === 'total' }, 'total')),
      ` ${s.display}`,
      button(`Remove the share of ${s.display}`, () => host.edit({ kind: 'pin-share', recipe: r.recipe, good: s.good, share: null }), { icon: 'close', iconOnly: true, secondary: true, key: `share-rm:${r.recipe}:${s.good}` }))),
    left.length
      ? h('select', { class: 'add', 'aria-label': `Give ${r.display} a share of a good`, 'data-key': `share-add:${r.recipe}`, onchange: (e: Event) => {
          const good = (e.target as HTMLSelectElement).value;
          if (good) host.edit({ kind: 'pin-share', recipe: r.recipe, good, share: { share: 0.5, base: 'remaining' } });
        } }, h('option', { value: '', selected: true }, 'Take a share of…'), left.map((g) => h('option', { value: g.good }, g.display)))
      : null,
  );
}

/** Fluid ingredients taken at one produced temperature (or any in the accepted range). */
function temperaturesEditor(r: EditorRowView, host: EditorHost): HTMLElement | null {
  if (!r.temperatures.length) return null;
  const range = (t: EditorRowView['temperatures'][number]) => (t.min !== null && t.max !== null ? `${t.min}–${t.max}°` : t.min !== null ? `≥${t.min}°` : t.max !== null ? `≤${t.max}°` : 'any');
  return h('div', { class: 'more-item temps' }, r.temperatures.map((t) => h('label', { class: 'temp' }, `${t.display} at `,
    h('select', { 'aria-label': `Temperature of ${t.display} for ${r.display}`, 'data-key': `temp:${r.recipe}:${t.fluid}`, onchange: (e: Event) => {
      const value = (e.target as HTMLSelectElement).value;
      host.edit({ kind: 'row-temperature', recipe: r.recipe, fluid: t.fluid, temperature: value === '' ? null : Number(value) });
    } },
      h('option', { value: '', selected: t.chosen === null }, `any it accepts (${range(t)})`),
      [...new Set([...t.offered, ...(t.chosen !== null ? [t.chosen] : [])])].sort((a, b) => a - b).map((x) => h('option', { value: String(x), selected: t.chosen === x }, `${short(x)}°`))))));
}

/** Heat producers with a neighbour bonus: the reactors' arrangement, x by y. */
function reactorEditor(r: EditorRowView, host: EditorHost): HTMLElement | null {
  const re = r.reactor;
  if (!re) return null;
  const layout = re.layout;
  const set = (x: number, y: number) => host.edit({ kind: 'row-reactor', recipe: r.recipe, layout: { x, y } });
  return h('div', { class: 'more-item reactor' }, 'Reactors ',
    numberField({ value: layout?.x ?? 1, key: `reactor-x:${r.recipe}`, label: `Reactors across for ${r.display}`, min: 1, max: 20, step: '1', class: 'count', valid: Number.isInteger, commit: (n) => set(n, layout?.y ?? 1) }),
    ' × ',
    numberField({ value: layout?.y ?? 1, key: `reactor-y:${r.recipe}`, label: `Reactors down for ${r.display}`, min: 1, max: 20, step: '1', class: 'count', valid: Number.isInteger, commit: (n) => set(layout?.x ?? 1, n) }),
    h('span', { class: 'muted' }, ` — neighbour bonus ${short(re.bonus * 100)} %: heat ×${short(re.multiplier)}`),
    layout ? button('Remove the layout', () => host.edit({ kind: 'row-reactor', recipe: r.recipe, layout: null }), { icon: 'close', iconOnly: true, secondary: true, key: `reactor-rm:${r.recipe}` }) : null,
  );
}

/** The detail of one row, shown under it when expanded. */
export function rowDetail(v: BlockEditorView, r: EditorRowView, host: EditorHost): HTMLElement {
  return h('div', { class: 'row-detail' },
    effectsLine(r),
    r.moduleNote ? h('p', { class: 'muted' }, r.moduleNote) : null,
    h('div', { class: 'detail-grid' },
      r.moduleSlots > 0 ? moduleList({ label: 'Machine modules', key: `mod:${r.recipe}`, list: r.modules, options: r.moduleOptions, v, slots: r.moduleSlots, onChange: (modules) => host.edit({ kind: 'row-modules', recipe: r.recipe, modules }) }) : null,
      beaconsEditor(v, r, host),
    ),
    h('div', { class: 'detail-foot' }, pinEditor(r, host), presetsEditor(v, r, host)),
    h('div', { class: 'detail-more' }, groupPicker(v, r, host), sharesEditor(r, host), temperaturesEditor(r, host), reactorEditor(r, host)),
  );
}

/** The row's modules in a few words, for the table cell. */
export function modulesSummary(r: EditorRowView): string {
  const mods = r.modules.map((m) => `${m.count} × ${m.display}`);
  const beacons = r.beacons.map((b) => `${short(b.count)} × ${b.display}`);
  const pin = r.pin ? [`${r.pin.kind === 'count' ? 'exactly' : '≤'} ${short(r.pin.buildings)}`] : [];
  return [...mods, ...beacons, ...pin].join(' · ') || (r.moduleSlots || r.beaconOptions.length ? 'none' : '—');
}
