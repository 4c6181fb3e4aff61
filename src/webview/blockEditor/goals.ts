// The goals of a block: made or taken in at a rate in the block's unit, or a stock within a time
// window; the unit picker lives here and is remembered per block by the extension.
import type { BlockEditorView } from '../blockEditorProtocol';
import { UNIT_NAMES, rate, type RateUnit } from '../format';
import { button, h, picture } from '../panel/dom';
import { numberField } from './fields';
import { inUnit, perSecondOf, type EditorHost } from './host';

type Goal = BlockEditorView['goals'][number];

export function goalsSection(v: BlockEditorView, host: EditorHost): HTMLElement {
  const unitSelect = h('select', { 'aria-label': 'Rate unit', 'data-key': 'unit', onchange: (e: Event) => host.post({ type: 'unit', unit: (e.target as HTMLSelectElement).value as RateUnit }) },
    (Object.keys(UNIT_NAMES) as RateUnit[]).map((u) => h('option', { value: u, selected: u === host.unit }, UNIT_NAMES[u])));
  return h(
    'section',
    { class: 'goals' },
    h('div', { class: 'section-head' }, h('h2', null, 'Goals'), unitSelect,
      button('Add Goal…', () => host.post({ type: 'pickGoal' }), { icon: 'add', secondary: true, key: 'add-goal', title: 'A good the block makes' }),
      button('Add Consumed Good…', () => host.post({ type: 'pickGoal', direction: 'consume' }), { icon: 'sign-in', secondary: true, key: 'add-consume', title: 'A good the block takes in at a rate (a sink)' })),
    v.goals.length
      ? h('table', { class: 'goals-table' }, h('tbody', null, v.goals.map((g) => h('tr', null,
          h('td', null, picture(g.icon), h('button', { class: 'link', onclick: () => host.post({ type: 'openGood', good: g.good }) }, g.display), g.direction === 'consume' ? h('span', { class: 'muted' }, ' (takes)') : null),
          h('td', null, goalAmount(g, host)),
          h('td', { class: 'actions' }, button('Remove goal', () => host.edit({ kind: 'goal-remove', index: g.index }), { icon: 'trash', iconOnly: true, secondary: true, key: `goal-rm:${g.index}` })),
        ))))
      : h('p', { class: 'muted' }, 'No goals yet: add what this block should make.'),
  );
}

/** A produce goal is a rate or a stock (an amount within a time window); a consume goal is a rate. */
function goalAmount(g: Goal, host: EditorHost): HTMLElement {
  const rateInput = numberField({
    value: inUnit(host, Math.abs(g.rate)), key: `goal:${g.index}`, label: `Rate of ${g.display} per ${host.unit}`, min: 0,
    commit: (n) => host.edit({ kind: 'goal-rate', index: g.index, rate: perSecondOf(host, n) }),
  });
  if (g.direction === 'consume') return h('span', { class: 'goal-amount' }, rateInput, ` /${host.unit}`);
  const mode = h('select', { 'aria-label': `Kind of goal for ${g.display}`, 'data-key': `goal-mode:${g.index}`, onchange: (e: Event) => {
    // Switching keeps the rate: a stock over the default 600 s window makes what the rate made.
    if ((e.target as HTMLSelectElement).value === 'stock') host.edit({ kind: 'goal-stock', index: g.index, amount: Number((g.rate * 600).toPrecision(6)) || 1, window: 600 });
    else host.edit({ kind: 'goal-rate', index: g.index, rate: g.rate });
  } }, h('option', { value: 'rate', selected: !g.stock }, 'rate'), h('option', { value: 'stock', selected: !!g.stock }, 'stock'));
  if (!g.stock) return h('span', { class: 'goal-amount' }, mode, ' ', rateInput, ` /${host.unit}`);
  const stock = g.stock;
  return h('span', { class: 'goal-amount' }, mode, ' ',
    numberField({ value: stock.amount, key: `goal-amount:${g.index}`, label: `Amount of ${g.display}`, min: 0, valid: (n) => n > 0, commit: (n) => host.edit({ kind: 'goal-stock', index: g.index, amount: n, window: stock.window }) }),
    ' within ',
    numberField({ value: stock.window, key: `goal-window:${g.index}`, label: `Time window for ${g.display} in seconds`, min: 0, valid: (n) => n > 0, commit: (n) => host.edit({ kind: 'goal-stock', index: g.index, amount: stock.amount, window: n }) }),
    h('span', { class: 'muted' }, ` s (${rate(g.rate, host.unit)})`),
  );
}
