// The Scenario part of the Factory Balance view, as plain nodes (no vscode import, so unit tests
// build it from a real scenario): a header with its state, the pins with their source, the goods
// several blocks make with their supply order, and the last result — goal changes (good, block,
// current → next), goods no block can supply (with what a new block would have to make), raw
// inputs, what is left over, blocks left out and the solver's notes. A result computed from other
// inputs is shown, marked stale.
import type { ScenarioPin, ScenarioResult } from '../../core/planning/factory/scenario/scenario';
import type { FactoryPin, SupplyPriority } from '../../core/planning/factory/scenario/inputs';

export interface ScenarioNode {
  id: string;
  label: string;
  description?: string;
  tooltip?: string;
  /** A codicon, and its theme colour. */
  icon: string;
  color?: string;
  /** Shown with the good's game icon when there is one. */
  good?: string;
  contextValue?: string;
  command?: { command: string; title: string; args: unknown[] };
  children?: ScenarioNode[];
  /** Expanded when it first shows (children only). */
  open?: boolean;
  /** What the pin and supply commands act on when invoked on this node. */
  pin?: { good: string; display: string; rate: number; source: ScenarioPin['source']; temperature?: number };
  supply?: { good: string; display: string };
}

/** A good several enabled blocks make, with its suppliers in the order they fill consumers. */
export interface SupplyGood {
  good: string;
  display: string;
  blocks: Array<{ id: string; name: string }>;
}

export interface HeldScenario {
  result: ScenarioResult;
  /** The project changed since (pins, priorities, a block, the horizon): Balance Factory refuses it. */
  stale: boolean;
  /** Undo label of the Balance Factory that applied it. */
  applied?: string;
}

export interface ScenarioViewInput {
  /** The pins as the scenario would take them now (see `pinsNow`), or as the fresh result took them. */
  pins: ScenarioPin[];
  priorities: SupplyPriority[];
  suppliers: SupplyGood[];
  held?: HeldScenario;
  /** A recalculation in progress: its message and fraction done. */
  running?: { message: string; fraction: number };
  /** A rate per second as the view shows it ("2.5/s"). */
  rate: (perSecond: number) => string;
  /** Local time of day of a result ("14:02"). */
  time?: (iso: string) => string;
}

const SOURCE: Record<ScenarioPin['source'], string> = { pin: 'yours', science: 'science block', 'final-product': 'final product' };
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const names = (xs: string[]) => (xs.length > 3 ? `${xs.slice(0, 3).join(', ')} +${xs.length - 3}` : xs.join(', '));

/**
 * The pins the scenario takes from the project as it is: the player's, then the science block's pack
 * demand (a player's pin on the same good overrides it), then the final products (goal goods no
 * block takes) not pinned — the rule `factoryScenario` applies, for the view before a recalculation.
 */
export function pinsNow(
  stored: FactoryPin[], science: Array<{ good: string; display: string; rate: number }>, finals: Array<{ good: string; display: string; rate: number }>, display: (good: string) => string,
): ScenarioPin[] {
  const out: ScenarioPin[] = stored.map((x) => ({ good: x.good, display: display(x.good), rate: x.rate, ...(x.temperature !== undefined ? { temperature: x.temperature } : {}), source: 'pin' }));
  const pinned = new Set(stored.map((x) => x.good));
  for (const s of science) {
    if (pinned.has(s.good)) continue;
    const had = out.find((x) => x.good === s.good && x.source === 'science');
    if (had) had.rate += s.rate;
    else out.push({ good: s.good, display: s.display, rate: s.rate, source: 'science' });
  }
  const taken = new Set(out.filter((x) => x.rate > 0).map((x) => x.good));
  for (const f of finals) if (!taken.has(f.good)) out.push({ good: f.good, display: f.display, rate: f.rate, source: 'final-product' });
  return out;
}

/** "2", "2/s", "120/min", "7200/h" → per second; a message when it is no rate. */
export function parseRate(text: string): number | string {
  const m = /^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*(?:\/\s*(s|sec|second|min|minute|h|hour))?\s*$/i.exec(text);
  if (!m) return 'A rate such as 2, 2/s, 120/min or 7200/h (negative: a supply from outside the factory must absorb)';
  const per = /^m/i.test(m[2] ?? '') ? 60 : /^h/i.test(m[2] ?? '') ? 3600 : 1;
  const v = Number(m[1]) / per;
  if (!Number.isFinite(v) || Math.abs(v) > 1e9) return 'That rate is out of range';
  if (v === 0) return 'A pin of 0 asks for nothing; remove the pin instead';
  return v;
}

function pinNode(p: ScenarioPin, input: ScenarioViewInput): ScenarioNode {
  const temp = p.temperature !== undefined ? ` ${p.temperature}°` : '';
  const why =
    p.source === 'pin'
      ? p.rate < 0 ? 'Your pin: the factory takes this much in from outside and must use it.' : 'Your pin: the factory must deliver this much.'
      : p.source === 'science'
        ? "The science block's pack demand. Pin the good to set another rate."
        : 'A goal no block takes, kept at its current rate until you pin it.';
  return {
    id: `scenario:pin:${p.good}:${p.temperature ?? ''}:${p.source}`,
    label: `${p.display}${temp}`,
    description: `${input.rate(p.rate)} · ${SOURCE[p.source]}`,
    tooltip: `${p.display} (${p.good})${temp} — ${why}`,
    icon: p.source === 'pin' ? 'pinned' : p.source === 'science' ? 'beaker' : 'star-full',
    good: p.good,
    contextValue: `pyops.scenario.pin.${p.source}`,
    pin: { good: p.good, display: p.display, rate: p.rate, source: p.source, ...(p.temperature !== undefined ? { temperature: p.temperature } : {}) },
  };
}

function supplyNode(s: SupplyGood, priorities: SupplyPriority[]): ScenarioNode {
  const pr = priorities.find((x) => x.good === s.good);
  const name = new Map(s.blocks.map((b) => [b.id, b.name]));
  const shares = pr?.shares && Object.keys(pr.shares).length ? pr.shares : undefined;
  const how = shares
    ? `shares: ${Object.entries(shares).map(([id, f]) => `${name.get(id) ?? 'a removed block'} ${Number((f * 100).toPrecision(3))} %`).join(', ')}`
    : `${s.blocks.map((b) => b.name).join(' → ')}${pr?.order.length ? '' : ' (default)'}`;
  return {
    id: `scenario:supply:${s.good}`,
    label: s.display,
    description: how,
    tooltip: `${s.display} is made by ${plural(s.blocks.length, 'block')}. ${shares ? 'Each supplier makes its share of what the factory needs.' : 'Consumers are filled from the first block, then the next.'} Right-click to set the order or shares.`,
    icon: 'list-ordered',
    good: s.good,
    contextValue: pr ? 'pyops.scenario.supply.set' : 'pyops.scenario.supply',
    supply: { good: s.good, display: s.display },
  };
}

function group(id: string, label: string, icon: string, children: ScenarioNode[], opts: { color?: string; open?: boolean; empty?: string; contextValue?: string; tooltip?: string; suffix?: string } = {}): ScenarioNode {
  return {
    id: `scenario:${id}`,
    label,
    description: `${children.length}${opts.suffix ?? ''}`,
    icon,
    ...(opts.color ? { color: opts.color } : {}),
    ...(opts.contextValue ? { contextValue: opts.contextValue } : {}),
    ...(opts.tooltip ? { tooltip: opts.tooltip } : {}),
    children: children.length || !opts.empty ? children : [{ id: `scenario:${id}:empty`, label: opts.empty, icon: 'info' }],
    open: opts.open ?? true,
  };
}

const goodOpen = (good: string) => ({ command: 'pyops.good.open', title: 'Open Good', args: [{ good }] });

/** The groups of a result: goal changes, goods no block can supply, raw inputs, left over, blocks left out, notes. */
function resultGroups(h: HeldScenario, input: ScenarioViewInput): ScenarioNode[] {
  const r = h.result;
  const rate = input.rate;
  if (r.status !== 'optimal') {
    return [group('failed', 'Scenario not solved', 'error', [{ id: 'scenario:failed:message', label: r.message ?? `The scenario ended ${r.status}.`, icon: 'info', tooltip: r.message }], { color: 'problemsErrorIcon.foreground' })];
  }
  const changes = r.goalChanges.map((c): ScenarioNode => ({
    id: `scenario:change:${c.blockId}:${c.goalIndex}`,
    label: c.display,
    description: `${c.block}: ${rate(c.current)} → ${rate(c.next)}`,
    tooltip: `${c.direction === 'consume' ? 'Takes' : 'Makes'} ${c.display} in "${c.block}": ${rate(c.current)} now, ${rate(c.next)} balanced (${c.next >= c.current ? '+' : ''}${Number((((c.next - c.current) / Math.max(c.current, 1e-9)) * 100).toPrecision(3))} %). Click to open the block.`,
    icon: c.next > c.current ? 'arrow-up' : 'arrow-down',
    good: c.good,
    contextValue: 'pyops.scenario.change',
    command: { command: 'pyops.block.edit', title: 'Edit Block', args: [{ blockId: c.blockId }] },
  }));
  const goods = (kind: string, list: ScenarioResult['rawInputs'], describe: (x: ScenarioResult['rawInputs'][number]) => { description: string; tooltip: string }): ScenarioNode[] =>
    list.map((x) => ({ id: `scenario:${kind}:${x.label}`, label: x.label, ...describe(x), icon: 'circle-small', good: x.good, contextValue: 'pyops.balance.good', command: goodOpen(x.good) }));
  const REASON = { 'no-block': 'no enabled block makes it', 'byproduct-only': 'only made as a byproduct of blocks sized for their goals', limited: 'its suppliers are capped (building pins or other goals)' };
  const stale = h.stale && !h.applied ? ' · stale' : '';
  const out: ScenarioNode[] = [
    group('changes', 'Goal changes', 'diff', changes, {
      empty: 'No goal changes: every block is sized for the pins already.', suffix: stale,
      tooltip: h.applied ? `Applied as "${h.applied}" (Undo restores every goal; recalculate to see the factory as it is now).` : h.stale ? STALE : 'Balance Factory applies every goal change as one undoable action.',
    }),
  ];
  if (r.unsupplied.length) {
    out.push(group('unsupplied', 'Goods no block can supply', 'warning', goods('unsupplied', r.unsupplied, (x) => {
      const u = x as ScenarioResult['unsupplied'][number];
      return { description: `${rate(u.rate)} short · ${REASON[u.reason]}`, tooltip: `A new block would have to make ${rate(u.rate)} ${u.label}${u.reason === 'no-block' ? '' : `, or its suppliers be changed (${REASON[u.reason]})`}.${u.blocks.length ? ` Needed by ${names(u.blocks)}.` : ''}` };
    }), { color: 'problemsWarningIcon.foreground', suffix: stale }));
  }
  if (r.rawInputs.length) out.push(group('raw', 'Raw inputs', 'cloud-download', goods('raw', r.rawInputs, (x) => ({ description: rate(x.rate), tooltip: `Only mining or pumping makes it: taken from outside${x.blocks.length ? ` by ${names(x.blocks)}` : ''}.` })), { open: false, suffix: stale }));
  if (r.overproduced.length) out.push(group('over', 'Left over', 'arrow-up', goods('over', r.overproduced, (x) => ({ description: `+${rate(x.rate)}`, tooltip: `Made beyond every demand and pin${x.blocks.length ? ` by ${names(x.blocks)}` : ''}.` })), { color: 'charts.yellow', suffix: stale }));
  if (r.excluded.length) {
    out.push(group('excluded', 'Blocks left out', 'circle-slash', r.excluded.map((x): ScenarioNode => ({
      id: `scenario:excluded:${x.blockId}`, label: x.name, description: x.reason, tooltip: `${x.name}: ${x.reason}. Its goals are not changed.`, icon: 'layers', command: { command: 'pyops.block.edit', title: 'Edit Block', args: [{ blockId: x.blockId }] },
    })), { color: 'problemsErrorIcon.foreground', suffix: stale }));
  }
  if (r.warnings.length) out.push(group('warnings', 'Scenario notes', 'info', r.warnings.map((w, i): ScenarioNode => ({ id: `scenario:warning:${i}`, label: w, tooltip: w, icon: 'circle-small' })), { open: false }));
  return out;
}

const STALE = 'The factory changed since this result was calculated (a pin, a priority, a block or the horizon): recalculate before Balance Factory.';

/**
 * The Scenario part of the Factory Balance, as rows at the top level of the view: a header with the
 * state and the actions, the pins, the supply order, and the result's groups. (Kept one level deep
 * like the audit's sections: VS Code's tree can hand the rows of an expanded node with expanded
 * children to its next expanded sibling when they are fetched together.)
 */
export function scenarioNodes(input: ScenarioViewInput): ScenarioNode[] {
  const h = input.held;
  const r = h?.result;
  const at = r && input.time ? ` · ${input.time(r.computedAt)}` : '';
  const verdict = !r || r.status !== 'optimal' ? r?.status ?? '' : r.unsupplied.length ? `${plural(r.unsupplied.length, 'good')} short` : r.balanced ? 'balanced' : 'left over';
  const state = input.running
    ? `calculating · ${Math.round(input.running.fraction * 100)} %`
    : !h ? `${plural(input.pins.length, 'pin')} · not calculated`
      : h.applied ? `applied · ${verdict}${at}`
        : h.stale ? 'stale — recalculate'
          : r!.status === 'optimal' ? `${plural(r!.goalChanges.length, 'change')} · ${verdict}${at}` : verdict;
  const ready = !!h && !h.stale && !h.applied && r!.status === 'optimal' && r!.goalChanges.length > 0;
  const header: ScenarioNode = {
    id: 'scenario',
    label: 'Scenario',
    description: state,
    tooltip: input.running ? input.running.message : h?.stale && !h.applied ? STALE : 'Pins drive one solve over the enabled blocks: Recalculate, look at the goal changes, then Balance Factory applies them as one undoable action.',
    icon: input.running ? 'loading~spin' : !h ? 'target' : h.stale ? 'history' : r!.status !== 'optimal' ? 'error' : r!.unsupplied.length ? 'warning' : 'check',
    ...(input.running || !h ? {} : h.stale ? {} : r!.status !== 'optimal' ? { color: 'problemsErrorIcon.foreground' } : r!.unsupplied.length ? { color: 'problemsWarningIcon.foreground' } : { color: 'testing.iconPassed' }),
    contextValue: ready ? 'pyops.scenario.ready' : h?.stale ? 'pyops.scenario.stale' : 'pyops.scenario',
  };
  const out = [
    header,
    group('pins', 'Pins', 'pinned', input.pins.map((p) => pinNode(p, input)), {
      empty: 'No pins: add one (the factory must deliver a good at a rate), or create a science block.', contextValue: 'pyops.scenario.pins',
      tooltip: 'What the factory must deliver per second: your pins, the science block\'s pack demand, and final products kept at their rate.',
    }),
  ];
  if (input.suppliers.length) {
    out.push(group('supply', 'Supply order', 'list-ordered', input.suppliers.map((s) => supplyNode(s, input.priorities)), {
      open: false, tooltip: 'Goods several blocks make: which block grows first when the factory needs more (or fixed shares).',
    }));
  }
  if (h) out.push(...resultGroups(h, input));
  return out;
}
