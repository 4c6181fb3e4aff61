// The solve result of a block: its state (a block solved with something the horizon does not allow
// yet reads as a warning, not a green "solved"), the buildings it places, electric and fuel power,
// imports — a click adds a recipe that makes one, Ctrl+click the best one at once — exports with what
// pins push past their goals, byproducts, fuel bought in, the diagnosis and the notes.
import type { BlockEditorView, EditorFlowView } from '../blockEditorProtocol';
import { counted, power, rate, short, temperature } from '../format';
import { h, icon, picture } from '../panel/dom';
import { amount, type EditorHost } from './host';

const ADD_TIP = 'Click: add a recipe that makes it (it is then made inside). Ctrl+click: add the best one at once.';

/** An import a click turns into a recipe of the block (Ctrl+click: the best one, no questions). */
function addMaker(host: EditorHost, good: string, label: string, key: string): HTMLElement {
  return h('button', { class: 'link add-maker', title: ADD_TIP, 'data-key': key, onclick: (e: Event) => host.post((e as MouseEvent).ctrlKey || (e as MouseEvent).metaKey ? { type: 'addBestMaker', good } : { type: 'pickRecipe', good, role: 'make' }) }, icon('add'), ' ', label);
}

function flowItem(f: EditorFlowView, host: EditorHost, addable: boolean): HTMLElement {
  const t = temperature(f);
  return h('li', null, picture(f.icon),
    addable && f.makeable && !f.energy ? addMaker(host, f.good, f.display, `import:${f.good}`) : h('span', null, f.display),
    t ? h('span', { class: 'muted' }, ` ${t}`) : null,
    ` ${amount(host, f)}`,
    f.energy ? null : h('button', { class: 'link open-good', title: `Open ${f.display}`, 'aria-label': `Open ${f.display}`, onclick: () => host.post({ type: 'openGood', good: f.good }) }, icon('link-external')));
}

function flowList(title: string, list: EditorFlowView[], host: EditorHost, opts: { empty?: string; addable?: boolean } = {}): HTMLElement | null {
  if (!list.length) return opts.empty ? h('section', { class: 'flows' }, h('h3', null, title), h('p', { class: 'muted' }, opts.empty)) : null;
  return h('section', { class: 'flows' }, h('h3', null, `${title} (${list.length})`), h('ul', null, list.map((f) => flowItem(f, host, !!opts.addable))));
}

export function resultSection(v: BlockEditorView, host: EditorHost): HTMLElement {
  const r = v.result;
  if (!r) return h('section', { class: 'result' }, h('h2', null, 'Result'), h('p', { class: 'muted' }, v.stateDetail ?? 'Not solved.'));
  const stateIcon = v.tone === 'ok' ? 'pass' : v.tone === 'warn' ? 'warning' : v.tone === 'info' ? 'info' : 'error';
  const surplus = new Set(r.surplus.map((s) => s.good));
  return h(
    'section',
    { class: 'result' },
    h('h2', null, 'Result'),
    h('p', { class: 'headline' },
      h('span', { class: `badge badge-${v.tone}`, title: v.stateDetail ?? '' }, icon(stateIcon), ` ${v.state}`),
      ' ', h('span', { class: 'figure', title: r.beaconBuildings ? `${counted(r.beaconBuildings, 'beacon building')} among them` : 'Whole buildings to place' }, `${counted(r.buildings, 'building')}${r.beaconBuildings ? ` (${r.beaconBuildings} beacon${r.beaconBuildings === 1 ? '' : 's'})` : ''}`),
      ' · ', h('span', { class: 'figure', title: 'Electric power, beacons included' }, `${power(r.powerW)} electric`),
      r.fuelW > 0 ? [' · ', h('span', { class: 'figure', title: 'Energy the fuel of burner and fluid-burning machines delivers' }, `${power(r.fuelW)} fuel`)] : null,
      ` · ${short(r.pollutionPerMinute)} pollution/min${r.solveMs !== undefined ? ` · solved in ${short(r.solveMs)} ms` : ''}`),
    v.tone === 'warn' && v.stateDetail ? h('p', { class: 'warn' }, icon('warning'), ' ', v.stateDetail) : null,
    r.message ? h('p', { class: 'warn' }, r.message) : null,
    r.unmade.length
      ? h('ul', { class: 'warn unmade' }, r.unmade.map((u) => h('li', null, `${u.display}: ${u.reason} `, u.makeable ? addMaker(host, u.good, 'Add a recipe that makes it', `unmade:${u.good}`) : null)))
      : null,
    r.diagnosis.length
      ? h('section', { class: 'diagnosis' }, h('h3', null, 'Why it cannot be solved'), r.diagnosis.map((c) => h('div', { class: 'card' }, h('p', null, c.message), c.fixes.length ? h('ul', null, c.fixes.map((f) => h('li', null, f))) : null)))
      : null,
    h('div', { class: 'flow-columns' },
      flowList('Imports', r.imports, host, { empty: 'Nothing comes from outside.', addable: true }),
      flowList('Exports', r.exports.filter((f) => !surplus.has(f.good)), host),
      r.surplus.length
        ? h('section', { class: 'flows surplus' }, h('h3', null, `Surplus of pins (${r.surplus.length})`), h('ul', null, r.surplus.map((s) =>
            h('li', { title: `Pinned: ${s.pins.join(', ')}` }, icon('pinned'), ` ${s.display} ${rate(s.rate, host.unit)} over the goal of ${rate(s.goal, host.unit)} — exported`))))
        : null,
      flowList('Byproducts', r.byproducts, host),
      r.fuel.length ? h('section', { class: 'flows' }, h('h3', null, 'Fuel bought in'), h('ul', null, r.fuel.map((f) => h('li', null, `${f.display} ${amount(host, f)}`)))) : null,
    ),
    r.warnings.length ? h('details', { class: 'warnings' }, h('summary', null, counted(r.warnings.length, 'note')), h('ul', null, r.warnings.map((w) => h('li', null, w)))) : null,
  );
}
