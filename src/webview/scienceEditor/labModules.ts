// The lab's modules and beacons in the science editor: only what the extension listed for the lab
// (modules that fit it running research, beacons that reach it, the modules each beacon takes),
// locked ones marked with what unlocks them. Each change sends the whole new list, so Undo restores
// the lab as it was. Styled by the block editor's stylesheet (module-list, module-entry, …).
import type { BeaconChoiceView, ChoiceView, EditorBeaconView, EditorModuleView, ModuleChoiceView } from '../blockEditorProtocol';
import { counted, short } from '../format';
import { button, h } from '../panel/dom';

export type ModuleCount = { name: string; count: number };
export type BeaconSetting = { beacon: string; count: number; modules: ModuleCount[] };

const usable = (c: Pick<ChoiceView, 'state'>) => c.state === 'unlocked' || c.state === 'buildable';
const label = (c: ChoiceView, extra?: string) => `${usable(c) ? '' : '🔒 '}${c.display}${extra ? ` (${extra})` : ''}${c.needs ? ` — needs ${c.needs}` : ''}`;
const counts = (list: EditorModuleView[]): ModuleCount[] => list.map((m) => ({ name: m.name, count: m.count }));

function numberInput(value: number, aria: string, key: string, opts: { min: number; max?: number; step?: string }, commit: (n: number) => void): HTMLElement {
  return h('input', {
    type: 'number', min: String(opts.min), ...(opts.max !== undefined ? { max: String(opts.max) } : {}), step: opts.step ?? 'any', value, 'aria-label': aria, 'data-key': key,
    onchange: (e: Event) => commit(Number((e.target as HTMLInputElement).value)),
  });
}

/** Modules with a count each within `slots`: change, remove, add (it fills the free slots), clear. */
export function moduleSlots(o: { title: string; key: string; list: EditorModuleView[]; options: string[]; catalog: Record<string, ModuleChoiceView>; slots: number; onChange: (list: ModuleCount[]) => void }): HTMLElement {
  const used = o.list.reduce((s, m) => s + m.count, 0);
  const free = Math.max(0, o.slots - used);
  const option = (name: string, selected: boolean) => {
    const c = o.catalog[name];
    return h('option', { value: name, selected, title: c?.needs ?? '' }, c ? label(c, c.effects) : `${name} (does not fit)`);
  };
  const replace = (i: number, m: ModuleCount | null) => {
    const next = counts(o.list);
    if (m) next[i] = m;
    else next.splice(i, 1);
    o.onChange(next);
  };
  return h('div', { class: 'module-list' },
    h('div', { class: 'detail-head' }, h('span', null, `${o.title} · ${used} of ${counted(o.slots, 'slot')}`),
      o.list.length ? button('Clear', () => o.onChange([]), { icon: 'clear-all', secondary: true, key: `${o.key}:clear` }) : null),
    o.list.map((m, i) => h('div', { class: 'module-entry' },
      h('select', { 'aria-label': `${o.title}: module ${i + 1}`, 'data-key': `${o.key}:${i}`, onchange: (e: Event) => replace(i, { name: (e.target as HTMLSelectElement).value, count: m.count }) },
        (o.options.includes(m.name) ? o.options : [m.name, ...o.options]).map((n) => option(n, n === m.name))),
      ' × ',
      numberInput(m.count, `How many ${m.display}`, `${o.key}:${i}:count`, { min: 1, max: m.count + free, step: '1' }, (n) => replace(i, n >= 1 ? { name: m.name, count: Math.min(Math.floor(n), m.count + free) } : null)),
      button(`Remove ${m.display}`, () => replace(i, null), { icon: 'close', iconOnly: true, secondary: true, key: `${o.key}:${i}:rm` }),
    )),
    free > 0 && o.options.length
      ? h('select', { class: 'add', 'aria-label': `${o.title}: add a module`, 'data-key': `${o.key}:add`, onchange: (e: Event) => {
          const name = (e.target as HTMLSelectElement).value;
          if (name) o.onChange([...counts(o.list), { name, count: free }]);
        } }, h('option', { value: '', selected: true }, `Add a module (fills ${counted(free, 'slot')})…`), o.options.map((n) => option(n, false)))
      : !o.options.length ? h('p', { class: 'muted' }, 'No module fits here.') : null,
  );
}

/** Beacons reaching each lab, each with its count per lab and its modules. */
export function beaconSettings(o: { key: string; list: EditorBeaconView[]; options: string[]; catalog: Record<string, BeaconChoiceView>; modules: Record<string, ModuleChoiceView>; onChange: (list: BeaconSetting[]) => void }): HTMLElement | null {
  if (!o.options.length) return null;
  const now = (): BeaconSetting[] => o.list.map((b) => ({ beacon: b.beacon, count: b.count, modules: counts(b.modules) }));
  const option = (name: string, selected: boolean) => {
    const c = o.catalog[name];
    return h('option', { value: name, selected, title: c?.needs ?? '' }, c ? label(c, counted(c.slots, 'slot')) : name);
  };
  return h('div', { class: 'beacons' },
    h('div', { class: 'detail-head' }, h('span', null, 'Beacons'), o.list.length ? button('Clear', () => o.onChange([]), { icon: 'clear-all', secondary: true, key: `${o.key}:clear` }) : null),
    o.list.map((b, i) => {
      const change = (patch: Partial<BeaconSetting>) => {
        const next = now();
        next[i] = { ...next[i], ...patch };
        o.onChange(next);
      };
      const c = o.catalog[b.beacon];
      return h('div', { class: 'beacon-entry' },
        h('div', { class: 'module-entry beacon-line' },
          h('select', { 'aria-label': `Beacon ${i + 1}`, 'data-key': `${o.key}:${i}`, onchange: (e: Event) => change({ beacon: (e.target as HTMLSelectElement).value, modules: [] }) },
            (o.options.includes(b.beacon) ? o.options : [b.beacon, ...o.options]).map((n) => option(n, n === b.beacon))),
          h('span', { class: 'beacon-count' }, '× ',
            numberInput(b.count, `${b.display} per lab`, `${o.key}:${i}:count`, { min: 0, max: 64 }, (n) => n >= 0 && n <= 64 && change({ count: n })),
            h('span', { class: 'muted' }, ' per lab')),
          button(`Remove ${b.display}`, () => o.onChange(now().filter((_, j) => j !== i)), { icon: 'close', iconOnly: true, secondary: true, key: `${o.key}:${i}:rm` }),
        ),
        c ? moduleSlots({ title: `Modules in ${b.display}`, key: `${o.key}:${i}:mod`, list: b.modules, options: c.modules, catalog: o.modules, slots: c.slots, onChange: (modules) => change({ modules }) }) : null,
      );
    }),
    h('select', { class: 'add', 'aria-label': 'Add a beacon', 'data-key': `${o.key}:add`, onchange: (e: Event) => {
      const beacon = (e.target as HTMLSelectElement).value;
      if (beacon) o.onChange([...now(), { beacon, count: 1, modules: [] }]);
    } }, h('option', { value: '', selected: true }, 'Add a beacon…'), o.options.map((n) => option(n, false))),
  );
}

/** "2 × Speed module S1 · 4 × Beacon tower" for a summary line. */
export function modulesText(modules: EditorModuleView[], beacons: EditorBeaconView[]): string {
  return [...modules.map((m) => `${m.count} × ${m.display}`), ...beacons.map((b) => `${short(b.count)} × ${b.display}`)].join(' · ') || 'none';
}
