// The recipe rows of a block: each with its machine and fuel, what it takes and gives per unit of
// time, modules (the detail opens under the row), buildings and power; a recipe or machine the horizon
// does not allow yet carries the lock and what unlocks it; an idle row says why, with the fix one
// click away; rows of a group sit under the group's heading (a composed group with its module's goal).
// The table's columns are fixed shares of the tab, so it fits a 700 px tab without scrolling sideways.
import type { BlockEditorView, EditorGroupView, EditorRowView, RowIOView } from '../blockEditorProtocol';
import { buildings, power, rate, short } from '../format';
import { button, h, icon, picture } from '../panel/dom';
import { numberField } from './fields';
import { amount, groupDoc, inUnit, LOCK, needsPhrase, perSecondOf, type EditorHost } from './host';
import { modulesSummary, rowDetail, usable } from './rowDetail';

/** The machine rule most rows share, when several do: stated once above the table, not on every row. */
function commonRule(v: BlockEditorView): string | undefined {
  const counts = new Map<string, number>();
  for (const r of v.rows) counts.set(r.machineRule, (counts.get(r.machineRule) ?? 0) + 1);
  const [rule, n] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  return n > 1 ? rule : undefined;
}

/** The machine rule in a few words: no trailing detail, no "not buildable" note (the machine cell says that). */
const stripParens = (s: string) => s.replace(/; not buildable yet.*$/, '').replace(/\s*\([^()]*\)$/, '');

/** What the row takes, burns, gives and leaves (a burnt result), each a line of "1.2/min Iron plate" chips. */
function ioLines(r: EditorRowView, host: EditorHost): HTMLElement | null {
  if (!r.io.length || r.disabled) return null;
  const chip = (x: RowIOView) => {
    const text = amount(host, { rate: Math.abs(x.rate), energy: x.energy });
    return h('span', { class: 'io', title: `${x.display}: ${text}` }, picture(x.icon), h('span', { class: 'io-rate' }, text), ' ', x.display);
  };
  const line = (word: string, list: RowIOView[], cls: string) => (list.length ? h('div', { class: `io-line sub ${cls}` }, h('span', { class: 'io-word muted' }, word), list.map(chip)) : null);
  return h('div', { class: 'io-lines' },
    line('takes', r.io.filter((x) => x.rate < 0 && !x.fuel), 'io-in'),
    line('burns', r.io.filter((x) => x.rate < 0 && x.fuel), 'io-fuel'),
    line('gives', r.io.filter((x) => x.rate > 0 && !x.fuel), 'io-out'),
    line('leaves', r.io.filter((x) => x.rate > 0 && x.fuel), 'io-fuel'));
}

function recipeCell(r: EditorRowView, v: BlockEditorView, host: EditorHost, common: string | undefined, ambiguous: boolean): HTMLElement {
  return h('td', { class: 'recipe-cell' },
    h('div', { class: 'recipe-name' }, picture(r.icon), r.display, ambiguous ? h('span', { class: 'sub muted' }, ` (${r.recipe})`) : null,
      r.recipeLock ? h('span', { class: 'lock', title: `Not usable under the horizon: ${needsPhrase(r.recipeLock.needs)}` }, ' ', icon('lock', 'locked')) : null),
    r.recipeLock ? h('div', { class: 'sub warn' }, icon('lock'), ` Locked — ${needsPhrase(r.recipeLock.needs)}`) : null,
    r.machineRule !== common ? h('div', { class: 'sub muted', title: r.machineRule }, stripParens(r.machineRule)) : null,
    r.advice.map((a, i) => h('div', { class: 'sub idle' }, icon(a.idle ? 'debug-pause' : 'flame'), ` ${a.reason} `,
      h('span', { class: 'fixes' }, a.fixes.map((f, j) => button(f.label, () => host.edit(f.edit), { icon: j === 0 ? 'lightbulb' : undefined, secondary: true, key: `fix:${r.recipe}:${i}:${j}` }))))),
    r.pinNote ? h('div', { class: 'sub warn' }, icon('pinned'), ' ', r.pinNote) : null,
    ioLines(r, host),
  );
}

function machineCell(r: EditorRowView, host: EditorHost): HTMLElement {
  const machine = h('select', { 'aria-label': `Machine for ${r.display}`, 'data-key': `machine:${r.recipe}`, onchange: (e: Event) => {
    const value = (e.target as HTMLSelectElement).value;
    host.edit({ kind: 'row-machine', recipe: r.recipe, machine: value || null });
  } },
    h('option', { value: '', selected: !r.pinnedMachine }, `Default${r.machineDisplay && !r.pinnedMachine ? ` (${r.machineDisplay})` : ''}`),
    r.machineOptions.map((m) => h('option', { value: m.name, selected: r.pinnedMachine === m.name, title: usable(m) ? '' : needsPhrase(m.needs) }, `${usable(m) ? '' : `${LOCK} `}${m.display} ×${short(m.speed)}`)),
  );
  // The machine it runs on when the horizon does not allow it yet: the lock and what unlocks it, said once.
  const locked = r.machineOptions.find((m) => m.name === (r.machineWarning ? r.machine : r.pinnedMachine) && !usable(m));
  const fuel = r.fuelOptions.length
    ? h('label', { class: 'fuel-pick' }, h('span', { class: 'muted' }, 'Fuel '),
        h('select', { 'aria-label': `Fuel for ${r.display}`, 'data-key': `fuel:${r.recipe}`, onchange: (e: Event) => {
          const value = (e.target as HTMLSelectElement).value;
          host.edit({ kind: 'row-fuel', recipe: r.recipe, fuel: value || null });
        } },
          h('option', { value: '', selected: !r.pinnedFuel }, r.fuelDefault),
          r.fuelOptions.map((f) => h('option', { value: f.name, selected: r.pinnedFuel === f.name }, f.kind === 'fluid' ? `Burn ${f.display}` : f.display))))
    : r.fuelDisplay ? h('span', { class: 'muted' }, `Fuel: ${r.fuelDisplay}`) : null;
  return h('td', { class: 'machine-cell' }, machine,
    locked ? h('div', { class: 'sub warn' }, icon('lock'), ` ${locked.display}: ${needsPhrase(locked.needs)}`) : r.machineWarning ? h('div', { class: 'sub warn' }, icon('warning'), ` ${r.machineWarning}`) : null,
    fuel ? h('div', { class: 'fuel' }, fuel) : null);
}

function rowLines(r: EditorRowView, v: BlockEditorView, host: EditorHost, common: string | undefined, ambiguous: boolean): HTMLElement[] {
  const expanded = host.isOpen(r.recipe);
  const lockedParts = [...r.modules.map((m) => m.name), ...r.beacons.flatMap((b) => [b.beacon, ...b.modules.map((m) => m.name)])].some((n) => {
    const c = v.moduleCatalog[n] ?? v.beaconCatalog[n];
    return c && !usable(c);
  });
  const main = h('tr', { class: `row${r.disabled ? ' disabled' : ''}${r.group ? ' in-group' : ''}${r.advice.length ? ' idle-row' : ''}` },
    recipeCell(r, v, host, common, ambiguous),
    machineCell(r, host),
    h('td', { class: 'modules-cell' }, h('button', { class: 'link', 'aria-expanded': String(expanded), 'data-key': `expand:${r.recipe}`, title: `${expanded ? 'Hide' : 'Show'} the modules, beacons, pin and more of ${r.display}`, onclick: () => host.toggle(r.recipe) },
      icon(expanded ? 'chevron-down' : 'chevron-right'), ' ', lockedParts ? h('span', { title: 'Some of these are not usable under the horizon yet' }, icon('lock', 'locked'), ' ') : null, modulesSummary(r))),
    h('td', { class: 'num' },
      r.buildings !== null && r.wholeBuildings !== null ? buildings(r.buildings, r.wholeBuildings) : '—',
      r.beaconBuildings ? h('div', { class: 'sub muted', title: 'Beacon buildings to place for this row' }, `+${r.beaconBuildings} beacon${r.beaconBuildings === 1 ? '' : 's'}`) : null),
    h('td', { class: 'num' },
      r.powerW !== null && r.powerW > 0 ? h('div', { title: r.beaconPowerW ? `${power(r.beaconPowerW)} of it for the beacons` : 'Electric power' }, power(r.powerW)) : r.fuelW ? null : '—',
      r.fuelW ? h('div', { class: 'sub fuel-power', title: 'Energy the fuel delivers' }, `${power(r.fuelW)} fuel`) : null),
    h('td', { class: 'actions' },
      button(r.disabled ? 'Enable row' : 'Disable row', () => host.edit({ kind: 'row-disable', recipe: r.recipe, disabled: !r.disabled }), { icon: r.disabled ? 'eye' : 'eye-closed', iconOnly: true, secondary: true, key: `row-dis:${r.recipe}` }),
      button('Remove recipe', () => host.edit({ kind: 'row-remove', recipe: r.recipe }), { icon: 'trash', iconOnly: true, secondary: true, key: `row-rm:${r.recipe}` }),
    ),
  );
  return expanded ? [main, h('tr', { class: `detail${r.group ? ' in-group' : ''}` }, h('td', { colspan: 6 }, rowDetail(v, r, host)))] : [main];
}

/** A group's heading row: its rows below it; a composed group as a module making its goal at a rate. */
function groupHead(g: EditorGroupView, v: BlockEditorView, host: EditorHost): HTMLElement {
  const def = (composed: EditorGroupView['composed'] | null) => groupDoc(g, { composed });
  const outputs = [...new Set(v.rows.filter((r) => g.recipes.includes(r.recipe)).flatMap((r) => r.io.filter((x) => x.rate > 0 && !x.energy).map((x) => x.good)))];
  const firstOut = v.rows.filter((r) => g.recipes.includes(r.recipe)).flatMap((r) => r.io.filter((x) => x.rate > 0 && !x.energy))[0];
  const c = g.composed;
  return h('tr', { class: 'group-head' }, h('td', { colspan: 6 },
    h('div', { class: 'group-line' },
      icon(c ? 'package' : 'folder-opened'), h('strong', null, ` ${g.name}`), h('span', { class: 'muted' }, ` · ${g.recipes.length} row${g.recipes.length === 1 ? '' : 's'}`),
      c
        ? h('span', { class: 'group-module' }, ' — a module making ',
            h('select', { 'aria-label': `What the module ${g.name} makes`, 'data-key': `group-good:${g.name}`, onchange: (e: Event) => host.edit({ kind: 'group', name: g.name, group: def({ ...c, good: (e.target as HTMLSelectElement).value }) }) },
              [...new Set([c.good, ...outputs])].map((good) => h('option', { value: good, selected: good === c.good }, v.rows.flatMap((r) => r.io).find((x) => x.good === good)?.display ?? (good === c.good ? c.display : good)))),
            ' at ',
            numberField({ value: inUnit(host, c.rate), key: `group-rate:${g.name}`, label: `Reference rate of ${g.name} per ${host.unit}`, min: 0, valid: (n) => n > 0, class: 'short', commit: (n) => host.edit({ kind: 'group', name: g.name, group: def({ ...c, rate: perSecondOf(host, n) }) }) }),
            ` /${host.unit}`,
            h('span', { class: 'muted' }, c.scale !== null ? `, run at ×${short(c.scale)} (${rate(c.rate * c.scale, host.unit)})` : ''))
        : null,
      h('span', { class: 'group-actions' },
        c
          ? button('Solve as rows', () => host.edit({ kind: 'group', name: g.name, group: def(null) }), { icon: 'list-flat', secondary: true, key: `group-flat:${g.name}`, title: 'Keep the rows grouped for display only; the block sizes each row itself' })
          : firstOut
            ? button('Solve as a module', () => host.edit({ kind: 'group', name: g.name, group: def({ good: firstOut.good, display: firstOut.display, rate: firstOut.rate || 1, scale: null }) }), { icon: 'package', secondary: true, key: `group-compose:${g.name}`, title: 'Solve these rows on their own as one module, which the block scales like one recipe' })
            : null,
        button(`Ungroup ${g.name}`, () => host.edit({ kind: 'group', name: g.name, group: null }), { icon: 'close', iconOnly: true, secondary: true, key: `group-rm:${g.name}` }),
      ),
    )));
}

export function rowsSection(v: BlockEditorView, host: EditorHost): HTMLElement {
  const common = commonRule(v);
  // Py names some recipes alike ("Crushed iron" crushes ore and also smelts it): tell them apart.
  const seen = new Map<string, number>();
  for (const r of v.rows) seen.set(r.display, (seen.get(r.display) ?? 0) + 1);
  // Rows of a group follow its heading, where its first row stands in the document.
  const body: HTMLElement[] = [];
  const done = new Set<string>();
  for (const r of v.rows) {
    if (done.has(r.recipe)) continue;
    const g = r.group ? v.groups.find((x) => x.name === r.group) : undefined;
    const members = g ? v.rows.filter((x) => x.group === g.name) : [r];
    if (g) body.push(groupHead(g, v, host));
    for (const m of members) {
      done.add(m.recipe);
      body.push(...rowLines(m, v, host, common, seen.get(m.display)! > 1));
    }
  }
  return h(
    'section',
    { class: 'rows' },
    h('div', { class: 'section-head' }, h('h2', null, `Recipes (${v.rows.length})`),
      h('div', { class: 'head-actions' },
        v.goals.length ? button('Complete Chain', () => host.post({ type: 'completeChain' }), { icon: 'sparkle', secondary: true, key: 'complete-chain', title: 'Add the first-listed recipe for every good the block still imports, down to raw goods, commodities (10 or more recipes use them) and goods other blocks make. One undoable change.' }) : null,
        button('Add Recipe…', () => host.post({ type: 'pickRecipe' }), { icon: 'add', secondary: true, key: 'add-recipe', title: "A recipe for a good: the block's imports are listed first" }))),
    common ? h('p', { class: 'sub muted rule-note', title: common }, `Machines: ${stripParens(common)}, unless a row says otherwise.`) : null,
    v.rows.length
      ? h('table', { class: 'rows-table' },
          h('colgroup', null, h('col', { class: 'c-recipe' }), h('col', { class: 'c-machine' }), h('col', { class: 'c-modules' }), h('col', { class: 'c-count' }), h('col', { class: 'c-power' }), h('col', { class: 'c-actions' })),
          h('thead', null, h('tr', null, h('th', null, 'Recipe'), h('th', null, 'Machine and fuel'), h('th', null, 'Modules'), h('th', { class: 'num', title: 'Buildings' }, 'Buildings'), h('th', { class: 'num', title: 'Power' }, 'Power'), h('th', null, ''))),
          h('tbody', null, body))
      : h('p', { class: 'muted' }, v.goals.length ? 'No recipes yet: Complete Chain adds the whole chain for the goals, or click a goal or an import under Result to add the recipe that makes it.' : 'No recipes yet: add a goal, then Complete Chain adds its chain, or click a goal or an import under Result to add the recipe that makes it.'),
  );
}
