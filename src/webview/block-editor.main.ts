// The block editor (browser side): goals with a rate unit (made, taken in, or a stock within a
// time), recipe rows with machine and fuel pickers (unbuildable machines marked with what unlocks
// them) and, expanded, their modules, beacons, pin and presets (blockEditor/rowDetail.ts),
// made/balanced toggles per good, and the solve result with its flow diagram beside them. Every change goes to the extension as one edit, based on the block
// version this tab shows; the extension answers with the new state (or why it refused).
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-progress-bar/index.js';
import type { BlockEditMessage, BlockEditorView, EditorFlowView, FromBlockEditor, ToBlockEditor } from './blockEditorProtocol';
import { buildings, counted, power, short, temperature } from './format';
import { append, button, clear, h, icon, picture } from './panel/dom';
import { flowDiagram } from './panel/flowDiagram';
import { modulesSummary, rowDetail, usable } from './blockEditor/rowDetail';

declare function acquireVsCodeApi(): { postMessage(m: unknown): void; getState(): unknown; setState(s: unknown): void };

const vscode = acquireVsCodeApi();
const post = (m: FromBlockEditor) => vscode.postMessage(m);

type Unit = 's' | 'min' | 'h';
const PER: Record<Unit, number> = { s: 1, min: 60, h: 3600 };
const saved = (vscode.getState() ?? {}) as { unit?: Unit; open?: string[] };
let unit: Unit = saved.unit && saved.unit in PER ? saved.unit : 's';
/** Rows whose detail (modules, beacons, pin) is shown; kept across reloads of the tab. */
const open = new Set<string>(Array.isArray(saved.open) ? saved.open : []);
// The block's id too: a window reload revives the tab from this state (the extension's panel serializer).
const keep = () => vscode.setState({ unit, open: [...open], blockId: view?.id });
let view: BlockEditorView | undefined;
let busy = false;
let message: { text: string; kind: 'error' | 'gone' } | undefined;

const root = document.getElementById('app')!;

function edit(e: BlockEditMessage): void {
  if (!view) return;
  message = undefined;
  post({ type: 'edit', edit: e, base: view.updatedAt });
}

const rateIn = (perSecond: number) => Number((perSecond * PER[unit]).toPrecision(6));

function flowList(title: string, list: EditorFlowView[], empty?: string): HTMLElement | null {
  if (!list.length) return empty ? h('section', { class: 'flows' }, h('h3', null, title), h('p', { class: 'muted' }, empty)) : null;
  return h(
    'section',
    { class: 'flows' },
    h('h3', null, `${title} (${list.length})`),
    h('ul', null, list.map((f) => h('li', null, picture(f.icon), h('button', { class: 'link', title: `Open ${f.display}`, onclick: () => post({ type: 'openGood', good: f.good }) }, f.display), temperature(f) ? h('span', { class: 'muted' }, ` ${temperature(f)}`) : null, ` ${amount(f)}`))),
  );
}

/** A rate in the chosen unit; energy (counted in MJ/s) as power, whatever the unit. */
function amount(f: { rate: number; energy?: true }): string {
  return f.energy ? power(f.rate * 1e6) : `${short(rateIn(f.rate))}/${unit}`;
}

function goalsSection(v: BlockEditorView): HTMLElement {
  const unitSelect = h('select', { 'aria-label': 'Rate unit', 'data-key': 'unit', onchange: (e: Event) => {
    unit = (e.target as HTMLSelectElement).value as Unit;
    keep();
    render();
  } }, (['s', 'min', 'h'] as Unit[]).map((u) => h('option', { value: u, selected: u === unit }, `per ${u === 's' ? 'second' : u === 'min' ? 'minute' : 'hour'}`)));
  return h(
    'section',
    { class: 'goals' },
    h('div', { class: 'section-head' }, h('h2', null, 'Goals'), unitSelect,
      button('Add Goal…', () => post({ type: 'pickGoal' }), { icon: 'add', secondary: true, key: 'add-goal', title: 'A good the block makes' }),
      button('Add Consumed Good…', () => post({ type: 'pickGoal', direction: 'consume' }), { icon: 'sign-in', secondary: true, key: 'add-consume', title: 'A good the block takes in at a rate (a sink)' })),
    v.goals.length
      ? h('table', null, h('tbody', null, v.goals.map((g) => h('tr', null,
          h('td', null, picture(g.icon), h('button', { class: 'link', onclick: () => post({ type: 'openGood', good: g.good }) }, g.display), g.direction === 'consume' ? h('span', { class: 'muted' }, ' (takes)') : null),
          h('td', null, goalAmount(g)),
          h('td', { class: 'actions' }, button('Remove goal', () => edit({ kind: 'goal-remove', index: g.index }), { icon: 'trash', iconOnly: true, secondary: true, key: `goal-rm:${g.index}` })),
        ))))
      : h('p', { class: 'muted' }, 'No goals yet: add what this block should make.'),
  );
}

/** A produce goal is a rate or a stock (an amount within a time window); a consume goal is a rate. */
function goalAmount(g: BlockEditorView['goals'][number]): HTMLElement {
  const rateInput = h('input', { type: 'number', step: 'any', min: '0', value: rateIn(Math.abs(g.rate)), 'aria-label': `Rate of ${g.display} per ${unit}`, 'data-key': `goal:${g.index}`, onchange: (e: Event) => {
    const n = Number((e.target as HTMLInputElement).value);
    if (!Number.isFinite(n) || n < 0) return render();
    edit({ kind: 'goal-rate', index: g.index, rate: n / PER[unit] });
  } });
  if (g.direction === 'consume') return h('span', null, rateInput, ` /${unit}`);
  const mode = h('select', { 'aria-label': `Kind of goal for ${g.display}`, 'data-key': `goal-mode:${g.index}`, onchange: (e: Event) => {
    // Switching keeps the rate: a stock over the default 600 s window makes what the rate made.
    if ((e.target as HTMLSelectElement).value === 'stock') edit({ kind: 'goal-stock', index: g.index, amount: Number((g.rate * 600).toPrecision(6)) || 1, window: 600 });
    else edit({ kind: 'goal-rate', index: g.index, rate: g.rate });
  } }, h('option', { value: 'rate', selected: !g.stock }, 'rate'), h('option', { value: 'stock', selected: !!g.stock }, 'stock'));
  if (!g.stock) return h('span', { class: 'goal-amount' }, mode, ' ', rateInput, ` /${unit}`);
  const stock = g.stock;
  const num = (value: number, label: string, key: string, set: (n: number) => void) =>
    h('input', { type: 'number', step: 'any', min: '0', value, 'aria-label': label, 'data-key': key, onchange: (e: Event) => {
      const n = Number((e.target as HTMLInputElement).value);
      if (!(n > 0)) return render();
      set(n);
    } });
  return h('span', { class: 'goal-amount' }, mode, ' ',
    num(stock.amount, `Amount of ${g.display}`, `goal-amount:${g.index}`, (n) => edit({ kind: 'goal-stock', index: g.index, amount: n, window: stock.window })),
    ' within ',
    num(stock.window, `Time window for ${g.display} in seconds`, `goal-window:${g.index}`, (n) => edit({ kind: 'goal-stock', index: g.index, amount: stock.amount, window: n })),
    h('span', { class: 'muted' }, ` s (${short(rateIn(g.rate))}/${unit})`),
  );
}

/** The machine rule most rows share, when several do: stated once above the table, not on every row. */
function commonRule(v: BlockEditorView): string | undefined {
  const counts = new Map<string, number>();
  for (const r of v.rows) counts.set(r.machineRule, (counts.get(r.machineRule) ?? 0) + 1);
  const [rule, n] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  return n > 1 ? rule : undefined;
}

function rowsSection(v: BlockEditorView): HTMLElement {
  const common = commonRule(v);
  // Py names some recipes alike ("Crushed iron" crushes ore and also smelts it): tell them apart.
  const seen = new Map<string, number>();
  for (const r of v.rows) seen.set(r.display, (seen.get(r.display) ?? 0) + 1);
  return h(
    'section',
    { class: 'rows' },
    h('div', { class: 'section-head' }, h('h2', null, `Recipes (${v.rows.length})`), button('Add Recipe…', () => post({ type: 'pickRecipe' }), { icon: 'add', secondary: true, key: 'add-recipe' })),
    common ? h('p', { class: 'sub muted rule-note', title: common }, `Machines: ${common.replace(/\s*\([^()]*\)$/, '')}, unless a row says otherwise.`) : null,
    v.rows.length
      ? h('table', null,
          h('thead', null, h('tr', null, h('th', null, 'Recipe'), h('th', null, 'Machine and fuel'), h('th', null, 'Modules'), h('th', { class: 'num' }, 'Buildings'), h('th', { class: 'num' }, 'Power'), h('th', null, ''))),
          h('tbody', null, v.rows.flatMap((r) => {
            const machine = h('select', { 'aria-label': `Machine for ${r.display}`, 'data-key': `machine:${r.recipe}`, onchange: (e: Event) => {
              const value = (e.target as HTMLSelectElement).value;
              edit({ kind: 'row-machine', recipe: r.recipe, machine: value || null });
            } },
              h('option', { value: '', selected: !r.pinnedMachine }, `Default${r.machineDisplay && !r.pinnedMachine ? ` (${r.machineDisplay})` : ''}`),
              r.machineOptions.map((m) => h('option', { value: m.name, selected: r.pinnedMachine === m.name, title: m.needs ?? '' }, `${usable(m) ? '' : '🔒 '}${m.display} ×${short(m.speed)}${m.needs ? ` — needs ${m.needs}` : ''}`)),
            );
            const fuel = r.fuelOptions.length
              ? h('select', { 'aria-label': `Fuel for ${r.display}`, 'data-key': `fuel:${r.recipe}`, onchange: (e: Event) => {
                  const value = (e.target as HTMLSelectElement).value;
                  edit({ kind: 'row-fuel', recipe: r.recipe, fuel: value || null });
                } },
                  h('option', { value: '', selected: !r.pinnedFuel }, `Default${r.fuelDisplay && !r.pinnedFuel ? ` (${r.fuelDisplay})` : ''}`),
                  r.fuelOptions.map((f) => h('option', { value: f.name, selected: r.pinnedFuel === f.name }, f.display)),
                )
              : null;
            const fuelLine = fuel ? h('label', null, h('span', { class: 'muted' }, 'Fuel '), fuel) : r.fuelDisplay ? h('span', { class: 'muted' }, `Fuel: ${r.fuelDisplay}`) : null;
            const expanded = open.has(r.recipe);
            const toggle = () => {
              if (expanded) open.delete(r.recipe);
              else open.add(r.recipe);
              keep();
              render();
            };
            const main = h('tr', { class: r.disabled ? 'disabled' : undefined },
              h('td', null, h('div', null, picture(r.icon), r.display, seen.get(r.display)! > 1 ? h('span', { class: 'sub muted' }, ` (${r.recipe})`) : null), r.machineRule !== common ? h('div', { class: 'sub muted', title: r.machineRule }, r.machineRule.replace(/\s*\([^()]*\)$/, '')) : null, r.machineWarning ? h('div', { class: 'sub warn' }, icon('warning'), ' ', r.machineWarning) : null),
              // Fuel under the machine: most rows burn nothing, and a column of dashes cost the table its width.
              h('td', { class: 'machine-cell' }, machine, fuelLine ? h('div', { class: 'fuel' }, fuelLine) : null),
              h('td', { class: 'modules-cell' }, h('button', { class: 'link', 'aria-expanded': String(expanded), 'data-key': `expand:${r.recipe}`, title: `${expanded ? 'Hide' : 'Show'} the modules, beacons and pin of ${r.display}`, onclick: toggle }, icon(expanded ? 'chevron-down' : 'chevron-right'), ' ', modulesSummary(r))),
              h('td', { class: 'num' }, r.buildings !== null && r.wholeBuildings !== null ? buildings(r.buildings, r.wholeBuildings) : '—'),
              h('td', { class: 'num' }, r.powerW !== null && r.powerW > 0 ? power(r.powerW) : '—'),
              h('td', { class: 'actions' },
                button(r.disabled ? 'Enable row' : 'Disable row', () => edit({ kind: 'row-disable', recipe: r.recipe, disabled: !r.disabled }), { icon: r.disabled ? 'eye' : 'eye-closed', iconOnly: true, secondary: true, key: `row-dis:${r.recipe}` }),
                button('Remove recipe', () => edit({ kind: 'row-remove', recipe: r.recipe }), { icon: 'trash', iconOnly: true, secondary: true, key: `row-rm:${r.recipe}` }),
              ),
            );
            return expanded ? [main, h('tr', { class: 'detail' }, h('td', { colspan: 6 }, rowDetail(v, r, { edit, post })))] : [main];
          })))
      : h('p', { class: 'muted' }, 'No recipes yet: add the recipes the block should run.'),
  );
}

function resultSection(v: BlockEditorView): HTMLElement {
  const r = v.result;
  if (!r) return h('section', { class: 'result' }, h('h2', null, 'Result'), h('p', { class: 'muted' }, v.stateDetail ?? 'Not solved.'));
  return h(
    'section',
    { class: 'result' },
    h('h2', null, 'Result'),
    h('p', { class: 'headline' },
      h('span', { class: `badge badge-${v.state === 'solved' ? 'ok' : v.state === 'disabled' ? 'info' : 'error'}` }, v.state),
      ` ${power(r.powerW)} electric · ${short(r.pollutionPerMinute)} pollution/min${r.solveMs !== undefined ? ` · solved in ${short(r.solveMs)} ms` : ''}`),
    r.message ? h('p', { class: 'warn' }, r.message) : null,
    r.unmade.length ? h('ul', { class: 'warn' }, r.unmade.map((u) => h('li', null, `${u.display}: ${u.reason}`))) : null,
    r.diagnosis.length
      ? h('section', { class: 'diagnosis' }, h('h3', null, 'Why it cannot be solved'), r.diagnosis.map((c) => h('div', { class: 'card' }, h('p', null, c.message), c.fixes.length ? h('ul', null, c.fixes.map((f) => h('li', null, f))) : null)))
      : null,
    h('div', { class: 'flow-columns' },
      flowList('Imports', r.imports, 'Nothing comes from outside.'),
      flowList('Exports', r.exports),
      flowList('Byproducts', r.byproducts),
      r.fuel.length ? h('section', { class: 'flows' }, h('h3', null, 'Fuel bought in'), h('ul', null, r.fuel.map((f) => h('li', null, `${f.display} ${amount(f)}`)))) : null,
    ),
    r.warnings.length ? h('details', { class: 'warnings' }, h('summary', null, counted(r.warnings.length, 'note')), h('ul', null, r.warnings.map((w) => h('li', null, w)))) : null,
  );
}

function goodsSection(v: BlockEditorView): HTMLElement | null {
  if (!v.goods.length) return null;
  return h(
    'details',
    { class: 'goods', open: v.goods.some((g) => g.made || g.drained) },
    h('summary', null, `Goods inside the block (${v.goods.length}) — require them made inside, or balance a byproduct to zero`),
    h('table', null, h('tbody', null, v.goods.map((g) => h('tr', null,
      h('td', null, g.display),
      h('td', { class: 'num' }, `${g.net >= 0 ? '+' : ''}${g.energy ? power(g.net * 1e6) : `${short(rateIn(g.net))}/${unit}`}`),
      h('td', null, h('label', null, h('input', { type: 'checkbox', checked: g.made, 'data-key': `made:${g.good}`, onchange: () => edit({ kind: 'good-made', good: g.good, on: !g.made }) }), ' made inside')),
      h('td', null, h('label', null, h('input', { type: 'checkbox', checked: g.drained, 'data-key': `drain:${g.good}`, onchange: () => edit({ kind: 'good-drain', good: g.good, on: !g.drained }) }), ' balanced')),
    )))),
  );
}

function render(): void {
  const focused = (document.activeElement as HTMLElement | null)?.getAttribute?.('data-key') ?? (document.activeElement?.closest?.('[data-focus-key]') as HTMLElement | null)?.getAttribute('data-focus-key');
  clear(root);
  if (!view) {
    root.appendChild(h('p', { class: 'muted' }, message?.text ?? 'Loading the block…'));
    return;
  }
  const v = view;
  const name = h('input', { class: 'name', value: v.name, 'aria-label': 'Block name', 'data-key': 'name', onchange: (e: Event) => {
    const n = (e.target as HTMLInputElement).value.trim();
    if (n && n !== v.name) edit({ kind: 'rename', name: n });
  } });
  append(root, [
    h('header', { class: 'editor-head' },
      name,
      h('div', { class: 'head-actions' },
        button('Undo', () => post({ type: 'undo' }), { icon: 'discard', secondary: true, disabled: !v.undoLabel, title: v.undoLabel ? `Undo "${v.undoLabel}" (Ctrl+Z)` : 'Nothing to undo', key: 'undo' }),
        button('Redo', () => post({ type: 'redo' }), { icon: 'redo', secondary: true, disabled: !v.redoLabel, title: v.redoLabel ? `Redo "${v.redoLabel}" (Ctrl+Shift+Z)` : 'Nothing to redo', key: 'redo' }),
        button('Ask @pyops about this block', () => post({ type: 'ask' }), { icon: 'comment-discussion', key: 'ask' }),
      ),
    ),
    busy ? h('vscode-progress-bar', { 'aria-label': 'Solving' }) : h('div', { class: 'progress-placeholder' }),
    message ? h('div', { class: `message ${message.kind}`, role: 'alert' }, icon(message.kind === 'gone' ? 'info' : 'error'), ' ', message.text) : null,
    v.stateDetail && v.state !== 'solved' ? h('p', { class: 'warn' }, v.stateDetail) : null,
    h('div', { class: 'columns' }, h('div', { class: 'left' }, goalsSection(v), rowsSection(v), goodsSection(v)), h('div', { class: 'right' }, resultSection(v))),
    // Across the whole tab: a Py block's diagram is wide, and a column would shrink its labels unreadable.
    v.result && v.flow.nodes.length ? h('section', { class: 'flow-section' }, h('h2', null, 'Flow'), flowDiagram(v.flow, v.name, { key: v.id, icon: (n) => n.icon })) : null,
  ]);
  if (focused) (root.querySelector(`[data-key="${CSS.escape(focused)}"], [data-focus-key="${CSS.escape(focused)}"]`) as HTMLElement | null)?.focus();
}

window.addEventListener('message', (e: MessageEvent<ToBlockEditor>) => {
  const m = e.data;
  if (m.type === 'state') {
    const first = view?.id !== m.view.id;
    view = m.view;
    if (first) keep();
    if (message?.kind === 'gone') message = undefined;
  } else if (m.type === 'busy') busy = m.busy;
  else if (m.type === 'error') message = { text: m.message, kind: 'error' };
  else if (m.type === 'gone') message = { text: m.message, kind: 'gone' };
  render();
});

render();
post({ type: 'ready' });
