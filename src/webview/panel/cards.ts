// Proposal cards: a block draft (or revision), a plan, or a Lua snippet for the game. The summary
// and the actions stay visible; the full detail — recipes with machines, modules and beacons,
// building counts fractional and whole, imports from blocks and from outside, exports, byproducts,
// energy, TURD needs and conflicts, the solver's diagnosis, the flow diagram — sits in sections
// that remember whether they were open. Pending proposals (from Copilot agent mode or an MCP client)
// use the same cards, with their own buttons' messages and a Dismiss button.
import type { AppliedView, BalanceView, DraftView, FlowView, FromWebview, PanelState, PendingProposalView, PlanView, ProposalRef, ProposalView } from '../protocol';
import { buildings, campaignLines, counted, flowIconKey, groupLines, perSecond, power, powerAndFuel, short, temperature, totalBuildings } from '../format';
import { badge, button, h, icon, picture } from './dom';
import { flowDiagram } from './flowDiagram';

export interface CardContext {
  post(msg: FromWebview): void;
  game: PanelState['game'];
  /** Section open/closed state by key (kept across re-renders). */
  open: Map<string, boolean>;
  /** A section was opened or closed: keep `open` across a reload of the view. */
  toggled(): void;
  busy: Set<string>;
  /** Game icons by `good:`/`recipe:`/`entity:` name (see PanelState.icons). */
  icons: Record<string, string>;
}

export const refKey = (r: ProposalRef) => `${r.conversationId}|${r.messageId}|${r.toolCallId}`;
export const pendingKey = (id: string) => `pending|${id}`;

type BlockProposal = { kind: 'block' | 'update'; draft: DraftView; applied?: AppliedView };
type PlanProposal = { kind: 'plan'; plan: PlanView; applied?: AppliedView };

/** What a card's buttons send: a conversation's proposal is named by its ref, a pending one by its id. */
interface CardActions {
  key: string;
  apply: FromWebview;
  show(blockIndex?: number): FromWebview;
  dismiss?: FromWebview;
  /** Where a pending proposal came from, shown under its headline. */
  origin?: string;
}

const conversationActions = (ref: ProposalRef): CardActions => ({
  key: refKey(ref),
  apply: { type: 'apply', ref },
  show: (blockIndex) => ({ type: 'showInGame', ref, ...(blockIndex !== undefined ? { blockIndex } : {}) }),
});

const SOURCE_TEXT = { vscode: 'Copilot agent mode', mcp: 'an MCP client', terminal: 'pyops tool in a terminal' } as const;

const pendingActions = (p: PendingProposalView): CardActions => ({
  key: pendingKey(p.id),
  apply: { type: 'applyPending', id: p.id },
  show: (blockIndex) => ({ type: 'showPendingInGame', id: p.id, ...(blockIndex !== undefined ? { blockIndex } : {}) }),
  dismiss: { type: 'dismissPending', id: p.id },
  origin: `Drafted by ${SOURCE_TEXT[p.source]}${p.createdAt ? `, ${new Date(p.createdAt).toLocaleString()}` : ''} — not saved until applied.`,
});

const STATUS_TEXT: Record<string, string> = { optimal: 'Solved', infeasible: 'Infeasible', unbounded: 'Unbounded', error: 'Solver error' };

function statusBadge(d: { ok: boolean; status: string }): HTMLElement {
  if (d.status !== 'optimal') return badge(STATUS_TEXT[d.status] ?? d.status, 'error');
  return d.ok ? badge('Solved', 'ok') : badge('Needs attention', 'warn');
}

function section(ctx: CardContext, key: string, title: string, body: Array<Node | null>, openByDefault = false): HTMLElement | null {
  const content = body.filter((x): x is Node => !!x);
  if (!content.length) return null;
  const open = ctx.open.get(key) ?? openByDefault;
  const c = h('vscode-collapsible', { title, open, 'data-section': key }, h('div', { class: 'section-body' }, content));
  // The element's toggle event does not bubble, so the section itself reports the change.
  c.addEventListener('vsc-collapsible-toggle', (e) => {
    ctx.open.set(key, (e as CustomEvent<{ open: boolean }>).detail.open);
    ctx.toggled();
  });
  return c;
}

function flowTable(ctx: CardContext, caption: string, flows: FlowView[], withBlocks = false): HTMLElement | null {
  if (!flows.length) return null;
  return h(
    'table',
    { class: 'data' },
    h('caption', null, caption),
    h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Good'), h('th', { scope: 'col', class: 'num' }, 'Rate'), withBlocks ? h('th', { scope: 'col' }, 'From') : null)),
    h(
      'tbody',
      null,
      flows.map((f) =>
        h('tr', null, h('td', null, picture(ctx.icons[`good:${f.good}`], f.kind === 'fluid' ? 'drop' : 'package'), ' ', f.display, temperature(f) ? ` (${temperature(f)})` : ''), h('td', { class: 'num' }, perSecond(f.rate)), withBlocks ? h('td', null, (f.blocks ?? []).join(', ')) : null),
      ),
    ),
  );
}

/** Module notes shared by several rows: said once under the table instead of on every row. */
function sharedReasons(d: DraftView): Map<string, number> {
  const n = new Map<string, number>();
  for (const r of d.rows) if (r.moduleReason) n.set(r.moduleReason, (n.get(r.moduleReason) ?? 0) + 1);
  return new Map([...n].filter(([, c]) => c > 1));
}

function recipeTable(ctx: CardContext, d: DraftView): HTMLElement | null {
  if (!d.rows.length) return null;
  const shared = sharedReasons(d);
  const table = h(
    'table',
    { class: 'data recipes' },
    h('caption', { class: 'sr-only' }, 'Recipes'),
    h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Recipe'), h('th', { scope: 'col' }, 'Machine'), h('th', { scope: 'col', class: 'num', title: 'Fractional count from the solver → whole buildings to place' }, 'Buildings'))),
    h(
      'tbody',
      null,
      d.rows.map((r) =>
        h(
          'tr',
          null,
          h(
            'td',
            null,
            picture(ctx.icons[`recipe:${r.recipe}`]),
            r.display,
            h('div', { class: 'sub' }, `${counted(r.craftsPerSecond, 'craft')}/s${r.group ? ` · in ${r.group}` : ''}`),
            r.chosenFor ? h('div', { class: 'sub muted', title: `Chain completion picked this recipe for ${r.chosenFor.display}: the first one the planner lists, not the assistant's own choice.${r.chosenFor.others ? ` ${counted(r.chosenFor.others, 'other recipe')} make${r.chosenFor.others === 1 ? 's' : ''} it.` : ' Nothing else makes it.'}` }, `Picked for ${r.chosenFor.display}${r.chosenFor.others ? ` (${counted(r.chosenFor.others, 'other')})` : ''}`) : null,
          ),
          h(
            'td',
            null,
            r.machine ? picture(ctx.icons[`entity:${r.machine}`]) : null,
            r.machineDisplay ?? r.machine ?? '—',
            r.modules.length ? h('div', { class: 'sub' }, icon('extensions'), ' ', r.modules.map((m) => `${m.count}× ${m.display}`).join(', ')) : null,
            r.beacons.length ? h('div', { class: 'sub' }, icon('radio-tower'), ' ', r.beacons.map((b) => `${short(b.count)}× ${b.display}${b.modules.length ? ` (${b.modules.map((m) => `${m.count}× ${m.display}`).join(', ')})` : ''}`).join('; ')) : null,
            r.fuelDisplay ? h('div', { class: 'sub' }, icon('flame'), ' ', r.fuelDisplay) : null,
            r.moduleReason && !shared.has(r.moduleReason) ? h('div', { class: 'sub muted' }, r.moduleReason) : null,
          ),
          h('td', { class: 'num' }, r.machine ? buildings(r.buildings, r.wholeBuildings) : '—'),
        ),
      ),
    ),
  );
  if (!shared.size) return table;
  return h('div', null, table, [...shared].map(([reason, n]) => h('p', { class: 'sub muted table-note' }, icon('info'), ' ', `Modules (${n} rows): ${reason}`)));
}

/** "Coal 0.4/s"; the pooled fluid fuel in MW with the fluid behind it. */
function fuelLine(f: DraftView['fuel'][number]): string {
  if (!f.energy) return `Fuel: ${f.display} ${perSecond(f.rate)}`;
  const what = f.burns?.length ? ` — burns ${f.burns.join(', ')}` : f.feeds?.length ? ` — imported; ${f.feeds.join(', ')} can supply it` : ' — imported';
  return `Fuel: ${f.display} ${power(f.rate * 1e6)}${what}`;
}

function list(title: string, items: string[], cls = ''): HTMLElement | null {
  if (!items.length) return null;
  return h('div', { class: `list ${cls}` }, h('h4', null, title), h('ul', null, items.map((i) => h('li', null, i))));
}

function draftHeadline(d: DraftView): string {
  const total = totalBuildings(d);
  const makes = d.goals.map((g) => `${g.display}${temperature(g) ? ` at ${temperature(g)}` : ''} ${perSecond(g.rate)}`).join(', ');
  return [makes && `Makes ${makes}`, d.status === 'optimal' ? `${total} building${total === 1 ? '' : 's'}` : '', d.status === 'optimal' ? powerAndFuel(d) : ''].filter(Boolean).join(' · ');
}

/** Problems that must stay visible: diagnosis, TURD conflicts, invalid names, unmade goals. */
function problems(d: DraftView): HTMLElement | null {
  const items: Node[] = [];
  for (const c of d.diagnosis) items.push(h('li', null, icon('error'), ' ', c.message, c.fixes.length ? h('ul', { class: 'fixes' }, c.fixes.map((f) => h('li', null, f))) : null));
  if (d.message && d.status !== 'optimal') items.push(h('li', null, icon('error'), ' ', d.message));
  for (const c of d.turd.conflicts) items.push(h('li', null, icon('warning'), ' ', `TURD conflict: ${c.masterDisplay} needs one of ${c.branches.join(' or ')}, not both`));
  for (const i of d.invalid) items.push(h('li', null, icon('error'), ' ', i));
  for (const u of d.unmade) items.push(h('li', null, icon('warning'), ' ', `${u.good}: ${u.reason}`));
  if (!items.length) return null;
  return h('div', { class: 'problems', role: 'alert' }, h('ul', null, items));
}

export function draftDetails(ctx: CardContext, key: string, d: DraftView, opts: { flowOpen?: boolean } = {}): Array<HTMLElement | null> {
  const energy = [
    `Power: ${power(d.powerW)}`,
    d.fuelW > 0 ? `Fuel energy: ${power(d.fuelW)}` : '',
    d.heatW ? `Heat: ${power(d.heatW)}${d.heatSourceNeeded ? ` — needs a heat source${d.heatSources.length ? ` (${d.heatSources.join(', ')})` : ''}` : ''}` : '',
    `Pollution: ${short(d.pollutionPerMinute)}/min`,
    ...d.fuel.map(fuelLine),
  ].filter(Boolean);
  const turd = d.turd.requirements.map((q) => `${q.masterDisplay} → ${q.branchDisplay} (${q.state}) for ${q.recipe}`);
  const rev = d.revision;
  const changes = rev
    ? [
        rev.oldRate !== null && d.goals[0] ? `Rate: ${perSecond(rev.oldRate)} → ${perSecond(d.goals[0].rate)}` : '',
        rev.recipesAdded.length ? `Adds: ${rev.recipesAdded.join(', ')}` : '',
        rev.recipesRemoved.length ? `Removes: ${rev.recipesRemoved.join(', ')}` : '',
        rev.newByproducts.length ? `New byproducts: ${rev.newByproducts.join(', ')}` : '',
      ].filter(Boolean)
    : [];
  const diagram = flowDiagram(d.flow, d.name, { key: `${key}:flow`, icon: (n) => ctx.icons[flowIconKey(n)] });
  return [
    problems(d),
    changes.length ? list('Changes', changes) : null,
    d.campaign ? list('Campaign', campaignLines(d.campaign)) : null,
    d.groups?.length ? list('Composed groups', groupLines(d.groups)) : null,
    section(ctx, `${key}:recipes`, `Recipes and buildings (${d.rows.length})`, [recipeTable(ctx, d)], true),
    section(ctx, `${key}:flows`, 'Imports, exports and byproducts', [
      flowTable(ctx, 'Imports from blocks', d.importsFromBlocks, true),
      flowTable(ctx, 'Imports from outside', d.importsExternal),
      d.subBlocksNeeded.length ? list('Left to supplier blocks', d.subBlocksNeeded.map((s) => `${s.display} ${perSecond(s.rate)}`)) : null,
      flowTable(ctx, 'Exports', d.exports),
      flowTable(ctx, 'Byproducts', d.byproducts),
    ]),
    section(ctx, `${key}:energy`, 'Power, heat and pollution', [list('Energy', energy), turd.length ? list('TURD requirements', turd) : null]),
    diagram ? section(ctx, `${key}:flow`, 'Flow diagram', [diagram], opts.flowOpen) : null,
    d.warnings.length ? list('Warnings', d.warnings, 'warnings') : null,
    d.notes ? h('p', { class: 'notes' }, d.notes) : null,
  ];
}

function appliedLine(p: { applied?: AppliedView }): HTMLElement | null {
  const a = p.applied;
  if (!a) return null;
  const when = a.at ? new Date(a.at).toLocaleString() : '';
  return h('p', { class: `applied${a.undone ? ' undone' : ''}` }, icon(a.undone ? 'discard' : 'check'), ' ', a.undone ? `Applied ${when}, then undone — it can be applied again.` : `Applied ${when} (${[a.created.length ? `${a.created.length} created` : '', a.updated.length ? `${a.updated.length} updated` : ''].filter(Boolean).join(', ')}).`);
}

function gameButton(ctx: CardContext, label: string, onClick: () => void, key: string): HTMLElement {
  return button(label, onClick, { icon: 'play', secondary: true, disabled: !ctx.game.linked, title: ctx.game.linked ? label : `${label} — ${ctx.game.detail}`, key });
}

function originLine(act: CardActions): HTMLElement | null {
  return act.origin ? h('p', { class: 'sub muted origin' }, icon('inbox'), ' ', act.origin) : null;
}

function dismissButton(ctx: CardContext, act: CardActions): HTMLElement | null {
  const msg = act.dismiss;
  return msg ? button('Dismiss', () => ctx.post(msg), { icon: 'close', secondary: true, disabled: ctx.busy.has(act.key), key: `${act.key}:dismiss` }) : null;
}

function blockCard(ctx: CardContext, p: BlockProposal, act: CardActions): HTMLElement {
  const key = act.key;
  const d = p.draft;
  const applyLabel = p.kind === 'update' ? 'Apply Revision' : 'Create Block';
  const done = !!p.applied && !p.applied.undone;
  return h(
    'article',
    { class: 'card', 'data-ref': key, 'aria-label': `${p.kind === 'update' ? 'Revision' : 'Block proposal'}: ${d.name}` },
    h('header', null, icon(p.kind === 'update' ? 'edit' : 'symbol-structure'), h('h3', null, d.name), statusBadge(d), p.kind === 'update' ? badge('Revision') : null),
    h('p', { class: 'headline' }, draftHeadline(d)),
    originLine(act),
    appliedLine(p),
    h(
      'div',
      { class: 'actions' },
      button(done ? `${applyLabel} Again` : applyLabel, () => ctx.post(act.apply), { icon: p.kind === 'update' ? 'check' : 'add', secondary: done, disabled: ctx.busy.has(key), key: `${key}:apply` }),
      gameButton(ctx, 'Show in Game', () => ctx.post(act.show()), `${key}:game`),
      dismissButton(ctx, act),
    ),
    draftDetails(ctx, key, d, { flowOpen: true }),
  );
}

function planCard(ctx: CardContext, p: PlanProposal, act: CardActions): HTMLElement {
  const key = act.key;
  const plan: PlanView = p.plan;
  const done = !!p.applied && !p.applied.undone;
  const conflicts = plan.turd.conflicts.map((c) => `${c.masterDisplay}: ${c.branches.join(' or ')}`);
  return h(
    'article',
    { class: 'card plan', 'data-ref': key, 'aria-label': `Plan: ${plan.title}` },
    h('header', null, icon('list-tree'), h('h3', null, plan.title), plan.ok ? badge('Ready', 'ok') : badge('Needs attention', 'warn')),
    h('p', { class: 'headline' }, plan.objective),
    h('p', { class: 'sub' }, `${plan.blocks.length} new block${plan.blocks.length === 1 ? '' : 's'}, ${plan.updates.length} update${plan.updates.length === 1 ? '' : 's'}${plan.buildingMaterialsIncluded ? ' · building materials included' : ''}`),
    originLine(act),
    appliedLine(p),
    h('div', { class: 'actions' }, button(done ? 'Apply Plan Again' : 'Apply Plan', () => ctx.post(act.apply), { icon: 'check-all', secondary: done, disabled: ctx.busy.has(key), key: `${key}:apply` }), dismissButton(ctx, act)),
    conflicts.length || plan.invalid.length ? h('div', { class: 'problems', role: 'alert' }, h('ul', null, [...conflicts.map((c) => h('li', null, icon('warning'), ' TURD conflict: ', c)), ...plan.invalid.map((i) => h('li', null, icon('error'), ' ', i))])) : null,
    plan.turd.picks.length ? list('TURD branches this plan uses', plan.turd.picks.map((k) => `${k.masterDisplay} → ${k.branchDisplay} (${k.state})`)) : null,
    [...plan.blocks.map((b, i) => ({ b, i, kind: 'New block' })), ...plan.updates.map((b, i) => ({ b, i: plan.blocks.length + i, kind: 'Update' }))].map(({ b, i, kind }) =>
      section(
        ctx,
        `${key}:block:${i}`,
        `${kind}: ${b.name} — ${STATUS_TEXT[b.status] ?? b.status}`,
        [
          h('p', { class: 'headline' }, draftHeadline(b)),
          kind === 'New block' ? h('div', { class: 'actions' }, gameButton(ctx, 'Show in Game', () => ctx.post(act.show(i)), `${key}:game:${i}`)) : null,
          ...draftDetails(ctx, `${key}:b${i}`, b),
        ],
        i === 0,
      ),
    ),
    plan.notes ? h('p', { class: 'notes' }, plan.notes) : null,
  );
}

function evalCard(ctx: CardContext, p: Extract<ProposalView, { kind: 'eval' }>): HTMLElement {
  const key = refKey(p.ref);
  const r = p.eval.result;
  return h(
    'article',
    { class: 'card eval', 'data-ref': key, 'aria-label': 'Lua for the game' },
    h('header', null, icon('terminal'), h('h3', null, 'Lua for the game'), r ? badge(r.ok ? 'Ran' : 'Failed', r.ok ? 'ok' : 'error') : badge('Not run')),
    p.eval.note ? h('p', { class: 'headline' }, p.eval.note) : null,
    h('pre', { class: 'code', tabindex: 0, 'aria-label': 'Lua code' }, h('code', null, p.eval.code)),
    h(
      'div',
      { class: 'actions' },
      gameButton(ctx, 'Run in Game', () => ctx.post({ type: 'runEval', ref: p.ref }), `${key}:run`),
      r ? button('Send Result to Chat', () => ctx.post({ type: 'sendEvalResult', ref: p.ref }), { icon: 'comment', secondary: true, key: `${key}:send` }) : null,
    ),
    ctx.game.linked ? null : h('p', { class: 'sub muted' }, icon('info'), ' ', ctx.game.detail),
    r ? h('div', { class: `eval-result${r.ok ? '' : ' failed'}` }, h('h4', null, r.ok ? `Result${r.truncated ? ' (cut by the game)' : ''}` : 'The game refused or failed'), h('pre', { tabindex: 0 }, r.text || '(empty)')) : null,
  );
}

/** Balance Factory: the goal of every block the scenario resizes, and what no block supplies. */
function balanceCard(ctx: CardContext, p: { balance: BalanceView; applied?: AppliedView }, act: CardActions): HTMLElement {
  const key = act.key;
  const b = p.balance;
  const done = !!p.applied && !p.applied.undone;
  const changes = b.goalChanges.map((c) => `${c.block}: ${c.display} ${perSecond(c.current)} → ${perSecond(c.next)}`);
  return h(
    'article',
    { class: 'card balance', 'data-ref': key, 'aria-label': 'Balance factory' },
    h('header', null, icon('law'), h('h3', null, 'Balance factory'), b.ok ? (b.unsupplied.length ? badge('Short of supply', 'warn') : badge('Balanced', 'ok')) : badge('Not solved', 'error')),
    h('p', { class: 'headline' }, b.ok ? `${counted(b.goalChanges.length, 'goal')} to change, ${b.unchanged} unchanged` : (b.message ?? b.status)),
    b.science ? h('p', { class: 'sub' }, `${b.science.name}${b.science.research ? ` — research ${b.science.research}` : ''}: ${b.science.labs.toFixed(1)} labs, ${b.science.packs.map((x) => `${x.display} ${perSecond(x.rate)}`).join(', ')}, ${power(b.science.powerW)}`) : null,
    originLine(act),
    appliedLine(p),
    h('div', { class: 'actions' }, button(done ? 'Balance Again' : 'Balance Factory', () => ctx.post(act.apply), { icon: 'law', secondary: done, disabled: ctx.busy.has(key) || !b.ok, key: `${key}:apply` }), dismissButton(ctx, act)),
    list('Goal changes', changes),
    list('No block supplies', b.unsupplied.map((u) => `${u.label} ${perSecond(u.rate)} — ${u.newBlock}`), 'problems'),
    list('Left over', b.overproduced.map((x) => `${x.label} ${perSecond(x.rate)}`)),
    list('Raw inputs', b.rawInputs.slice(0, 8).map((x) => `${x.label} ${perSecond(x.rate)}`)),
    list('Left out', b.excluded.map((x) => `${x.name}: ${x.reason}`)),
    list('Warnings', b.warnings),
  );
}

export function proposalCard(ctx: CardContext, p: ProposalView): HTMLElement {
  if (p.kind === 'plan') return planCard(ctx, p, conversationActions(p.ref));
  if (p.kind === 'eval') return evalCard(ctx, p);
  if (p.kind === 'balance') return balanceCard(ctx, p, conversationActions(p.ref));
  return blockCard(ctx, p, conversationActions(p.ref));
}

export function pendingCard(ctx: CardContext, p: PendingProposalView): HTMLElement {
  if (p.kind === 'balance') return balanceCard(ctx, p, pendingActions(p));
  return p.kind === 'plan' ? planCard(ctx, p, pendingActions(p)) : blockCard(ctx, p, pendingActions(p));
}
