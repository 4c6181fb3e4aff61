// The Scenario part of the Factory Balance view, as plain nodes (no vscode import, so unit tests
// build it from a real scenario): the pins with their source, the goods several blocks make with
// their supply order, and the last result — goal changes (good, block, current → next), goods no
// block can supply (with what a new block would have to make), raw inputs, what is left over, blocks
// left out and the solver's notes. A result computed from other inputs is shown, marked stale.
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

function group(id: string, label: string, icon: string, children: ScenarioNode[], opts: { color?: string; open?: boolean; empty?: string; contextValue?: string; tooltip?: string } = {}): ScenarioNode {
  return {
    id: `scenario:${id}`,
    label,
    description: String(children.length),
    icon,
    ...(opts.color ? { color: opts.color } : {}),
    ...(opts.contextValue ? { contextValue: opts.contextValue } : {}),
    ...(opts.tooltip ? { tooltip: opts.tooltip } : {}),
    children: children.length || !opts.empty ? children : [{ id: `scenario:${id}:empty`, label: opts.empty, icon: 'info' }],
    open: opts.open ?? true,
  };
}

const goodOpen = (good: string) => ({ command: 'pyops.good.open', title: 'Open Good', args: [{ good }] });

function resultNode(h: HeldScenario, input: ScenarioViewInput): ScenarioNode {
  const r = h.result;
  const rate = input.rate;
  const at = input.time ? ` · ${input.time(r.computedAt)}` : '';
  const head = (description: string, icon: string, color?: string, tooltip?: string): Omit<ScenarioNode, 'children'> => ({
    id: 'scenario:result', label: h.stale ? 'Result (stale)' : 'Result', description: `${description}${at}`, icon, ...(color ? { color } : {}), contextValue: h.stale ? 'pyops.scenario.result.stale' : 'pyops.scenario.result', ...(tooltip ? { tooltip } : {}),
  });
  const staleNote = 'The factory changed since this result was calculated (a pin, a priority, a block or the horizon): recalculate before Balance Factory.';
  if (r.status !== 'optimal') {
    return { ...head(r.status, 'error', 'problemsErrorIcon.foreground', r.message), children: [{ id: 'scenario:result:message', label: r.message ?? `The scenario ended ${r.status}.`, icon: 'info', tooltip: r.message }], open: true };
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
  const children: ScenarioNode[] = [
    group('changes', 'Goal changes', 'diff', changes, { empty: 'No goal changes: every block is sized for the pins already.' }),
    ...(r.unsupplied.length
      ? [group('unsupplied', 'Goods no block can supply', 'warning', goods('unsupplied', r.unsupplied, (x) => {
          const u = x as ScenarioResult['unsupplied'][number];
          return { description: `${rate(u.rate)} short · ${REASON[u.reason]}`, tooltip: `A new block would have to make ${rate(u.rate)} ${u.label}${u.reason === 'no-block' ? '' : `, or its suppliers be changed (${REASON[u.reason]})`}.${u.blocks.length ? ` Needed by ${names(u.blocks)}.` : ''}` };
        }), { color: 'problemsWarningIcon.foreground' })]
      : []),
    ...(r.rawInputs.length ? [group('raw', 'Raw inputs', 'cloud-download', goods('raw', r.rawInputs, (x) => ({ description: rate(x.rate), tooltip: `Only mining or pumping makes it: taken from outside${x.blocks.length ? ` by ${names(x.blocks)}` : ''}.` })), { open: false })] : []),
    ...(r.overproduced.length ? [group('over', 'Left over', 'arrow-up', goods('over', r.overproduced, (x) => ({ description: `+${rate(x.rate)}`, tooltip: `Made beyond every demand and pin${x.blocks.length ? ` by ${names(x.blocks)}` : ''}.` })), { color: 'charts.yellow' })] : []),
    ...(r.excluded.length
      ? [group('excluded', 'Blocks left out', 'circle-slash', r.excluded.map((x): ScenarioNode => ({
          id: `scenario:excluded:${x.blockId}`, label: x.name, description: x.reason, tooltip: `${x.name}: ${x.reason}. Its goals are not changed.`, icon: 'layers', command: { command: 'pyops.block.edit', title: 'Edit Block', args: [{ blockId: x.blockId }] },
        })), { color: 'problemsErrorIcon.foreground' })]
      : []),
    ...(r.warnings.length ? [group('warnings', 'Notes', 'info', r.warnings.map((w, i): ScenarioNode => ({ id: `scenario:warning:${i}`, label: w, tooltip: w, icon: 'circle-small' })), { open: false })] : []),
  ];
  const verdict = r.unsupplied.length ? `${plural(r.unsupplied.length, 'good')} short` : r.balanced ? 'balanced' : 'left over';
  const description = h.applied ? `applied · ${verdict}` : h.stale ? 'stale — recalculate' : `${plural(r.goalChanges.length, 'change')} · ${verdict}`;
  const icon = h.stale ? 'history' : r.unsupplied.length ? 'warning' : 'check';
  const color = h.stale ? undefined : r.unsupplied.length ? 'problemsWarningIcon.foreground' : 'testing.iconPassed';
  const tooltip = h.applied ? `Applied as "${h.applied}" (Undo restores every goal; recalculate to see the factory as it is now).` : h.stale ? staleNote : 'Balance Factory applies every goal change as one undoable action.';
  return { ...head(description, icon, color, tooltip), children, open: true };
}

/** The Scenario section of the Factory Balance view. */
export function scenarioNode(input: ScenarioViewInput): ScenarioNode {
  const pins = group('pins', 'Pins', 'pinned', input.pins.map((p) => pinNode(p, input)), {
    empty: 'No pins: add one (the factory must deliver a good at a rate), or create a science block.', contextValue: 'pyops.scenario.pins',
    tooltip: 'What the factory must deliver per second: your pins, the science block\'s pack demand, and final products kept at their rate.',
  });
  const children = [pins];
  if (input.suppliers.length) {
    children.push(group('supply', 'Supply order', 'list-ordered', input.suppliers.map((s) => supplyNode(s, input.priorities)), {
      open: false, tooltip: 'Goods several blocks make: which block grows first when the factory needs more (or fixed shares).',
    }));
  }
  if (input.held) children.push(resultNode(input.held, input));
  const h = input.held;
  const description = input.running
    ? `calculating · ${Math.round(input.running.fraction * 100)} %`
    : `${plural(input.pins.length, 'pin')} · ${!h ? 'not calculated' : h.stale ? 'stale' : h.applied ? 'applied' : h.result.status === 'optimal' ? `${plural(h.result.goalChanges.length, 'change')}` : h.result.status}`;
  return {
    id: 'scenario',
    label: 'Scenario',
    description,
    tooltip: input.running ? input.running.message : 'Pins drive one solve over the enabled blocks: Recalculate, look at the goal changes, then Balance Factory applies them as one undoable action.',
    icon: input.running ? 'loading~spin' : 'target',
    contextValue: h && !h.stale && !h.applied && h.result.status === 'optimal' && h.result.goalChanges.length ? 'pyops.scenario.ready' : 'pyops.scenario',
    children,
    open: true,
  };
}
