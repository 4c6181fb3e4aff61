// The science block editor (browser side): the research the labs do (a technology and the minutes,
// "Derive from a technology…") or the packs set by hand with their rates, the lab, its modules and
// beacons, and the result beside them — labs, research speed, productivity, power, pack rates per
// second and per minute, the technologies in research order and those skipped with why. Every change
// goes to the extension as one edit, based on the block version this tab shows.
import { nextEditorState, type EditorNotice } from './editorProtocol';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-progress-bar/index.js';
import type { FromScienceEditor, ScienceEditMessage, ScienceEditorView, ScienceResultView, ToScienceEditor } from './scienceEditorProtocol';
import { counted, power, short } from './format';
import { append, badge, button, clear, h, icon, picture } from './panel/dom';
import { beaconSettings, moduleSlots, modulesText } from './scienceEditor/labModules';

declare function acquireVsCodeApi(): { postMessage(m: unknown): void; getState(): unknown; setState(s: unknown): void };

const vscode = acquireVsCodeApi();
const post = (m: FromScienceEditor) => vscode.postMessage(m);

type Unit = 's' | 'min' | 'h';
const PER: Record<Unit, number> = { s: 1, min: 60, h: 3600 };
const saved = (vscode.getState() ?? {}) as { unit?: Unit };
let unit: Unit = saved.unit && saved.unit in PER ? saved.unit : 'min';
let view: ScienceEditorView | undefined;
let busy = false;
let message: EditorNotice | undefined;
const root = document.getElementById('app')!;

function edit(e: ScienceEditMessage): void {
  if (!view) return;
  message = undefined;
  post({ type: 'edit', edit: e, base: view.updatedAt });
}

const inUnit = (perSecond: number) => Number((perSecond * PER[unit]).toPrecision(6));

function unitSelect(): HTMLElement {
  return h('select', { 'aria-label': 'Rate unit', 'data-key': 'unit', onchange: (e: Event) => {
    unit = (e.target as HTMLSelectElement).value as Unit;
    vscode.setState({ unit });
    render();
  } }, (['s', 'min', 'h'] as Unit[]).map((u) => h('option', { value: u, selected: u === unit }, `per ${u === 's' ? 'second' : u === 'min' ? 'minute' : 'hour'}`)));
}

function researchSection(v: ScienceEditorView): HTMLElement {
  const derive = button('Derive from a Technology…', () => post({ type: 'pickTech' }), { icon: 'mortar-board', key: 'derive', title: 'Research a technology (and its unresearched prerequisites) in a time: the packs and labs follow' });
  if (!v.research) {
    return h('section', { class: 'research' },
      h('div', { class: 'section-head' }, h('h2', null, 'Research'), derive),
      h('p', { class: 'muted' }, v.packs.length ? 'The pack rates are set by hand. Derive them from a technology to size the labs for research in a time.' : 'Nothing to research yet: derive the packs from a technology, or add packs by hand.'),
    );
  }
  const r = v.research;
  return h('section', { class: 'research' },
    h('div', { class: 'section-head' }, h('h2', null, 'Research'), derive),
    h('p', { class: 'research-line' },
      h('strong', null, r.display), r.researched ? h('span', { class: 'muted' }, ' (researched already)') : null, ' within ',
      h('input', { type: 'number', min: '0', step: 'any', value: r.minutes, 'aria-label': 'Minutes to research it in', 'data-key': 'minutes', onchange: (e: Event) => {
        const n = Number((e.target as HTMLInputElement).value);
        if (n > 0) edit({ kind: 'research-minutes', minutes: n });
        else render();
      } }),
      ' minutes'),
    h('label', { class: 'check' },
      h('input', { type: 'checkbox', checked: r.prerequisites, 'data-key': 'prereqs', onchange: () => edit({ kind: 'research-prerequisites', on: !r.prerequisites }) }),
      ' also research the prerequisites not researched yet'),
  );
}

function packsSection(v: ScienceEditorView): HTMLElement {
  return h('section', { class: 'packs' },
    h('div', { class: 'section-head' }, h('h2', null, `Packs (${v.packs.length})`), unitSelect(),
      button('Add Pack…', () => post({ type: 'pickPack' }), { icon: 'add', secondary: true, key: 'add-pack', disabled: !v.packOptions.length })),
    v.mode === 'research' && v.packs.length ? h('p', { class: 'sub muted' }, 'Derived from the research. Editing a rate switches to packs set by hand; each pack keeps its lab time.') : null,
    v.packs.length
      ? h('table', null,
          h('thead', null, h('tr', null, h('th', null, 'Pack'), h('th', { class: 'num' }, `Rate /${unit}`), h('th', { class: 'num', title: 'Lab-seconds one pack keeps a lab of speed 1 busy' }, 'Lab time'), h('th', null, ''))),
          h('tbody', null, v.packs.map((p) => h('tr', null,
            h('td', null, picture(p.icon), h('button', { class: 'link', title: `Open ${p.display}`, onclick: () => post({ type: 'openGood', good: p.pack }) }, p.display)),
            h('td', { class: 'num' }, h('input', { type: 'number', min: '0', step: 'any', value: inUnit(p.rate), 'aria-label': `${p.display} per ${unit}`, 'data-key': `rate:${p.pack}`, onchange: (e: Event) => {
              const n = Number((e.target as HTMLInputElement).value);
              if (n >= 0 && Number.isFinite(n)) edit({ kind: 'pack-rate', pack: p.pack, rate: n / PER[unit] });
              else render();
            } })),
            h('td', { class: 'num muted' }, p.labSeconds === null ? 'typical' : `${short(p.labSeconds)} s`),
            h('td', { class: 'actions' }, button(`Remove ${p.display}`, () => edit({ kind: 'pack-remove', pack: p.pack }), { icon: 'trash', iconOnly: true, secondary: true, key: `rm:${p.pack}` })),
          ))))
      : h('p', { class: 'muted' }, 'No packs yet.'),
  );
}

function labSection(v: ScienceEditorView): HTMLElement {
  const lab = v.lab;
  const select = h('select', { 'aria-label': 'Lab', 'data-key': 'lab', onchange: (e: Event) => {
    const value = (e.target as HTMLSelectElement).value;
    edit({ kind: 'lab', lab: value || null });
  } },
    h('option', { value: '', selected: !lab.pinned }, `Fastest that takes every pack${lab.currentDisplay && !lab.pinned ? ` (${lab.currentDisplay})` : ''}`),
    lab.options.map((o) => {
      const locked = !(o.state === 'unlocked' || o.state === 'buildable');
      const why = o.refuses.length ? ` — does not take ${o.refuses.length} of the packs` : o.needs ? ` — needs ${o.needs}` : '';
      return h('option', { value: o.name, selected: lab.pinned === o.name, disabled: o.refuses.length > 0, title: o.needs ?? '' }, `${locked ? '🔒 ' : ''}${o.display} ×${short(o.speed)}${why}`);
    }),
  );
  return h('section', { class: 'lab' },
    h('div', { class: 'section-head' }, h('h2', null, 'Labs')),
    h('label', { class: 'lab-pick' }, h('span', { class: 'muted' }, 'Lab '), select),
    v.moduleNote ? h('p', { class: 'muted' }, v.moduleNote) : null,
    h('div', { class: 'detail-grid' },
      v.moduleSlots > 0 ? moduleSlots({ title: 'Lab modules', key: 'mod', list: v.modules, options: v.moduleOptions, catalog: v.moduleCatalog, slots: v.moduleSlots, onChange: (modules) => edit({ kind: 'modules', modules }) }) : null,
      beaconSettings({ key: 'beacon', list: v.beacons, options: v.beaconOptions, catalog: v.beaconCatalog, modules: v.moduleCatalog, onChange: (beacons) => edit({ kind: 'beacons', beacons }) }),
    ),
  );
}

const pct = (x: number) => `${x > 0 ? '+' : ''}${short(x * 100)} %`;

function figure(label: string, value: string, detail?: string): HTMLElement {
  return h('div', { class: 'figure' }, h('div', { class: 'figure-label muted' }, label), h('div', { class: 'figure-value' }, value), detail ? h('div', { class: 'figure-detail sub muted' }, detail) : null);
}

function resultSection(v: ScienceEditorView): HTMLElement {
  const r: ScienceResultView | null = v.result;
  if (!r) return h('section', { class: 'result' }, h('h2', null, 'Result'), h('p', { class: v.state === 'solved' ? 'muted' : 'warn' }, v.stateDetail ?? 'Not solved.'));
  const research = r.research;
  return h('section', { class: 'result' },
    h('h2', null, 'Result'),
    h('p', { class: 'headline' }, badge(v.state, v.state === 'solved' ? 'ok' : v.state === 'disabled' ? 'info' : 'error'), ` ${r.labDisplay}${v.modules.length || v.beacons.length ? ` with ${modulesText(v.modules, v.beacons)}` : ''}`),
    h('div', { class: 'figures' },
      figure('Labs', `${short(r.labs)} → ${r.wholeLabs}`, `${short(r.labSecondsPerSecond)} lab-seconds per second`),
      figure('Research speed', `×${short(r.labSpeed)}`, r.bonuses.speed ? `research bonus ${pct(r.bonuses.speed)}` : 'per lab'),
      figure('Productivity', pct(r.productivity), r.bonuses.productivity ? `research bonus ${pct(r.bonuses.productivity)}` : undefined),
      figure('Power', power(r.powerW), `${short(r.pollutionPerMinute)} pollution/min${r.beaconBuildings ? ` · ${counted(r.beaconBuildings, 'beacon')}` : ''}`),
    ),
    r.packs.length
      ? h('table', { class: 'pack-rates' },
          h('thead', null, h('tr', null, h('th', null, 'Packs used'), h('th', { class: 'num' }, 'per second'), h('th', { class: 'num' }, 'per minute'))),
          h('tbody', null, r.packs.map((p) => h('tr', null, h('td', null, picture(p.icon), p.display), h('td', { class: 'num' }, short(p.perSecond)), h('td', { class: 'num' }, short(p.perSecond * 60))))))
      : null,
    research
      ? h('section', { class: 'techs' },
          h('h3', null, `Researched in order (${research.techs.length}) · ${short(research.totalUnits)} units in ${short(research.minutes)} min`),
          research.alreadyResearched ? h('p', { class: 'muted' }, `${research.display} is researched already.`) : null,
          research.techs.length
            ? h('ol', null, research.techs.map((t) => h('li', { title: t.packs.map((p) => `${short(p.amount)} × ${p.display}`).join(', ') }, t.display, h('span', { class: 'muted' }, ` · ${short(t.units)} units`))))
            : null,
          research.skipped.length
            ? h('details', null, h('summary', null, `Not researched in labs (${research.skipped.length})`), h('ul', null, research.skipped.map((s) => h('li', null, s.display, h('span', { class: 'muted' }, ` — ${s.reason}`)))))
            : null,
        )
      : null,
    r.warnings.length ? h('details', { class: 'warnings', open: true }, h('summary', null, counted(r.warnings.length, 'note')), h('ul', null, r.warnings.map((w) => h('li', null, w)))) : null,
  );
}

function render(): void {
  const focused = (document.activeElement as HTMLElement | null)?.getAttribute?.('data-key') ?? (document.activeElement?.closest?.('[data-focus-key]') as HTMLElement | null)?.getAttribute('data-focus-key');
  clear(root);
  if (!view) {
    root.appendChild(h('p', { class: 'muted' }, message?.text ?? 'Loading the science block…'));
    return;
  }
  const v = view;
  append(root, [
    h('header', { class: 'editor-head' },
      h('h1', { class: 'name' }, icon('beaker'), ` ${v.name}`),
      h('div', { class: 'head-actions' },
        button('Undo', () => post({ type: 'undo' }), { icon: 'discard', secondary: true, disabled: !v.undoLabel, title: v.undoLabel ? `Undo "${v.undoLabel}" (Ctrl+Z)` : 'Nothing to undo', key: 'undo' }),
        button('Redo', () => post({ type: 'redo' }), { icon: 'redo', secondary: true, disabled: !v.redoLabel, title: v.redoLabel ? `Redo "${v.redoLabel}" (Ctrl+Shift+Z)` : 'Nothing to redo', key: 'redo' }),
      ),
    ),
    busy ? h('vscode-progress-bar', { 'aria-label': 'Solving' }) : h('div', { class: 'progress-placeholder' }),
    message ? h('div', { class: `message ${message.kind}`, role: 'alert' }, icon(message.kind === 'gone' ? 'info' : 'error'), ' ', message.text) : null,
    v.stateDetail && v.state !== 'solved' ? h('p', { class: 'warn' }, v.stateDetail) : null,
    h('div', { class: 'columns' },
      h('div', { class: 'left' }, researchSection(v), packsSection(v), labSection(v)),
      h('div', { class: 'right' }, resultSection(v)),
    ),
  ]);
  if (focused) (root.querySelector(`[data-key="${CSS.escape(focused)}"], [data-focus-key="${CSS.escape(focused)}"]`) as HTMLElement | null)?.focus();
}

window.addEventListener('message', (e: MessageEvent<ToScienceEditor>) => {
  ({ view, busy, message } = nextEditorState({ view, busy, message }, e.data));
  render();
});

render();
post({ type: 'ready' });
