// The rest of a block's document: which goods must be made inside or balanced to zero, its campaign
// ("make N within T, this sure"), and the spoil rates of goods that rot in its flows.
import type { BlockEditorView, EditorCampaignView } from '../blockEditorProtocol';
import { duration, power, rate } from '../format';
import { button, h, icon } from '../panel/dom';
import { numberField } from './fields';
import { inUnit, perSecondOf, type EditorHost } from './host';

export function goodsSection(v: BlockEditorView, host: EditorHost): HTMLElement | null {
  if (!v.goods.length) return null;
  return h(
    'details',
    { class: 'goods', open: v.goods.some((g) => g.made || g.drained) },
    h('summary', null, `Goods inside the block (${v.goods.length}) — require them made inside, or balance a byproduct to zero`),
    h('table', null, h('tbody', null, v.goods.map((g) => h('tr', null,
      h('td', null, g.display),
      h('td', { class: 'num' }, `${g.net > 0 ? '+' : ''}${g.energy ? power(g.net * 1e6) : rate(g.net, host.unit)}`),
      h('td', null, h('label', null, h('input', { type: 'checkbox', checked: g.made, 'data-key': `made:${g.good}`, onchange: () => host.edit({ kind: 'good-made', good: g.good, on: !g.made }) }), ' made inside')),
      h('td', null, h('label', null, h('input', { type: 'checkbox', checked: g.drained, 'data-key': `drain:${g.good}`, onchange: () => host.edit({ kind: 'good-drain', good: g.good, on: !g.drained }) }), ' balanced')),
    )))),
  );
}

type Campaign = NonNullable<Extract<Parameters<EditorHost['edit']>[0], { kind: 'campaign' }>['campaign']>;

function campaignDoc(c: EditorCampaignView, change: Partial<Campaign> = {}): Campaign {
  return {
    duration: c.duration, confidence: c.confidence, quantities: c.quantities.map((q) => ({ good: q.good, quantity: q.quantity })),
    ...(c.completedAt ? { completedAt: c.completedAt } : {}), ...change,
  };
}

export function campaignSection(v: BlockEditorView, host: EditorHost): HTMLElement {
  const c = v.campaign;
  const add = button(c ? 'Add a Quantity…' : 'Start a Campaign…', () => host.post({ type: 'pickCampaignGood' }), { icon: 'add', secondary: true, key: 'campaign-add', title: 'Size the block to make an amount within a time ("make 400 within an hour")' });
  if (!c) return h('details', { class: 'campaign' }, h('summary', null, 'Campaign — make an amount within a time'), h('p', { class: 'muted' }, 'None. ', add));
  const set = (change: Partial<Campaign>) => host.edit({ kind: 'campaign', campaign: campaignDoc(c, change) });
  const minutes = Number((c.duration / 60).toPrecision(6));
  return h('details', { class: 'campaign', open: true },
    h('summary', null, `Campaign — ${c.completedAt ? 'completed' : `within ${duration(c.duration)}`}`),
    h('div', { class: 'campaign-head' },
      'Within ', numberField({ value: minutes, key: 'campaign-duration', label: 'Campaign duration in minutes', min: 0, valid: (n) => n > 0, class: 'count', commit: (n) => set({ duration: n * 60 }) }), ' min, ',
      h('select', { 'aria-label': 'Campaign confidence', 'data-key': 'campaign-confidence', onchange: (e: Event) => set({ confidence: (e.target as HTMLSelectElement).value as Campaign['confidence'] }) },
        h('option', { value: 'expected', selected: c.confidence === 'expected' }, 'on average'),
        h('option', { value: '90', selected: c.confidence === '90' }, '90 % sure'),
        h('option', { value: '95', selected: c.confidence === '95' }, '95 % sure')),
      ' ',
      c.completedAt
        ? button('Reopen', () => {
            const { completedAt: _done, ...open } = campaignDoc(c);
            host.edit({ kind: 'campaign', campaign: open });
          }, { icon: 'debug-restart', secondary: true, key: 'campaign-reopen' })
        : button('Mark Completed', () => set({ completedAt: new Date().toISOString() }), { icon: 'check', secondary: true, key: 'campaign-done', title: 'The campaign is done: its quantities stop sizing the block' }),
      button('Remove the campaign', () => host.edit({ kind: 'campaign', campaign: null }), { icon: 'trash', iconOnly: true, secondary: true, key: 'campaign-rm' })),
    h('table', null, h('tbody', null, c.quantities.map((q, i) => h('tr', null,
      h('td', null, q.quantity < 0 ? 'Use ' : 'Make ', numberField({ value: Math.abs(q.quantity), key: `campaign-q:${q.good}`, label: `Campaign quantity of ${q.display}`, min: 0, valid: (n) => n > 0, class: 'count', commit: (n) => {
        const quantities = c.quantities.map((x, j) => ({ good: x.good, quantity: j === i ? Math.sign(x.quantity) * n : x.quantity }));
        set({ quantities });
      } }), ` ${q.display}`),
      h('td', { class: 'muted' }, q.planned !== Math.abs(q.quantity) ? `plans ${Number(q.planned.toPrecision(4))} · ` : '', c.completedAt ? 'completed' : rate(Math.abs(q.rate), host.unit)),
      h('td', { class: 'actions' }, c.quantities.length > 1 ? button(`Remove ${q.display} from the campaign`, () => set({ quantities: campaignDoc(c).quantities.filter((_, j) => j !== i) }), { icon: 'close', iconOnly: true, secondary: true, key: `campaign-rm:${q.good}` }) : null),
    )))),
    h('p', null, add),
  );
}

export function spoilSection(v: BlockEditorView, host: EditorHost): HTMLElement | null {
  const s = v.spoil;
  if (!s.rates.length && !s.candidates.length) return null;
  return h('details', { class: 'spoil', open: s.rates.length > 0 },
    h('summary', null, `Spoiling (${s.rates.length}) — what rots in the block's flows becomes a byproduct`),
    s.rates.map((x) => h('div', { class: 'spoil-line' }, icon('watch'), ` ${x.display} rots at `,
      numberField({ value: inUnit(host, x.rate), key: `spoil:${x.good}`, label: `Spoil rate of ${x.display} per ${host.unit}`, min: 0, class: 'count', commit: (n) => host.edit({ kind: 'spoil-rate', good: x.good, rate: perSecondOf(host, n) }) }),
      ` /${host.unit} into ${x.result} `,
      button(`Remove the spoil rate of ${x.display}`, () => host.edit({ kind: 'spoil-rate', good: x.good, rate: null }), { icon: 'close', iconOnly: true, secondary: true, key: `spoil-rm:${x.good}` }))),
    s.candidates.length
      ? h('select', { class: 'add', 'aria-label': 'Let a good spoil', 'data-key': 'spoil-add', onchange: (e: Event) => {
          const good = (e.target as HTMLSelectElement).value;
          if (good) host.edit({ kind: 'spoil-rate', good, rate: 0 });
        } }, h('option', { value: '', selected: true }, 'Let a good spoil…'), s.candidates.map((x) => h('option', { value: x.good }, x.display)))
      : null,
  );
}
