// The Factory Balance view: the ledger the assistant's coherenceAudit computes over the enabled
// blocks (shortages, surpluses, imports no block makes, dangling byproducts, final products,
// balanced links), the power totals and the building bill. It recomputes after every committed
// write to the project (debounced: a stale block is solved in memory, which can take a moment),
// only while someone looks at it. A good opens a quick pick of its page and the blocks that make
// or take it. Above the audit, the Scenario section (scenarioView.ts): the pins, the supply order
// of goods several blocks make, and the last scenario result held by the ScenarioStore.
import * as vscode from 'vscode';
import { planningContext } from '../../core/planning/context';
import { solverFor } from '../../core/assistant/tools/context';
import { factoryBalance, type FactoryBalance } from '../../core/planning/factory/balance';
import type { SinkAdvice } from '../../core/planning/factory/audit';
import type { ProjectManager } from '../projectManager';
import type { GameIcons } from '../icons';
import { WriteFollower } from './followWrites';
import { power, rate as rateIn, type RateUnit } from '../../webview/format';
import { energyLabel } from '../proposals/views';
import { ENERGY } from '../blockEditor/rowView';
import { scenarioNodes, type ScenarioNode } from './scenarioView';
import { scenarioNow, type ScenarioNow } from '../scenario/now';
import type { ScenarioStore } from '../scenario/store';

type Section = 'under' | 'over' | 'unsourced' | 'dangling' | 'final' | 'balanced' | 'buildings' | 'notSolved';

export type BalanceNode =
  | { kind: 'section'; section: Section; count: number; detail: string }
  | { kind: 'fact'; id: string; text: string; detail?: string; icon: string; color?: string; tooltip?: string }
  | { kind: 'good'; section: Section; good: string; display: string; detail: string; tooltip: string }
  | { kind: 'machine'; machine: FactoryBalance['buildings'][number] }
  | { kind: 'block'; parent: string; id: string; name: string; detail?: string }
  | { kind: 'scenario'; node: ScenarioNode };

/** The balance and what the scenario takes from the project now. */
type BalanceModel = FactoryBalance & { scenario: ScenarioNow };

const SECTIONS: Record<Section, { label: string; icon: string; color?: string; open: boolean }> = {
  under: { label: 'Under-supplied', icon: 'warning', color: 'problemsWarningIcon.foreground', open: true },
  over: { label: 'Over-produced', icon: 'arrow-up', color: 'charts.yellow', open: true },
  unsourced: { label: 'Imports from outside', icon: 'cloud-download', open: true },
  dangling: { label: 'Dangling byproducts', icon: 'debug-disconnect', color: 'charts.orange', open: true },
  final: { label: 'Final products', icon: 'star-full', color: 'charts.green', open: true },
  balanced: { label: 'Balanced links', icon: 'check', color: 'testing.iconPassed', open: false },
  buildings: { label: 'Buildings', icon: 'tools', open: false },
  notSolved: { label: 'Not solved', icon: 'error', color: 'problemsErrorIcon.foreground', open: true },
};

const watts = power;
const icon = (id: string, color?: string) => new vscode.ThemeIcon(id, color ? new vscode.ThemeColor(color) : undefined);

/** Where a good left over can go (the audit's sink advice), as a tooltip's sentences. */
function sinkText(x: Pick<SinkAdvice, 'topConsumers' | 'voidRecipes' | 'voidsNotSelectable'>): string {
  return `${x.topConsumers.length ? ` Used by: ${x.topConsumers.join(', ')}.` : ''}${x.voidRecipes.length ? ` Voids: ${x.voidRecipes.join(', ')}.` : ''}${x.voidsNotSelectable?.length ? ` ${x.voidsNotSelectable.map((v) => `${v.recipe} is ${v.reason}`).join('; ')}.` : ''}`;
}
const list = (xs: string[]) => (xs.length > 3 ? `${xs.slice(0, 3).join(', ')} +${xs.length - 3}` : xs.join(', '));

function findNode(n: ScenarioNode, id: string): ScenarioNode | undefined {
  if (n.id === id) return n;
  for (const c of n.children ?? []) {
    const hit = findNode(c, id);
    if (hit) return hit;
  }
  return undefined;
}

export class BalanceTree implements vscode.TreeDataProvider<BalanceNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<BalanceNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private balance: Promise<BalanceModel | { error: string } | undefined> | undefined;
  /** The last computed model, and the project it is of. */
  private drawn: BalanceModel | { error: string } | undefined;
  private drawnFor: string | undefined;
  private readonly writes = new WriteFollower(250, () => this.refresh());
  private readonly subs: vscode.Disposable[] = [];

  constructor(
    private readonly projects: ProjectManager,
    private readonly icons?: GameIcons,
    /** The rate unit picked last in a block editor: the balance shows rates in it. */
    private readonly units?: { readonly last: RateUnit; onDidChange: vscode.Event<void> },
    private readonly scenario?: ScenarioStore,
  ) {
    this.subs.push(projects.onDidChange((p) => this.writes.follow(p)));
    // Every redraw goes through redraw(): a unit picked or new pictures come in the same burst as the
    // write that follows them, and two refreshes in flight can leave a section without its rows.
    if (units) this.subs.push(units.onDidChange(() => this.redraw()));
    // A result held, marked stale or in progress changes no balance figure: redraw, keep the balance.
    if (scenario) this.subs.push(scenario.onDidChange(() => this.redraw()));
    // New pictures change no figure: redraw the items, keep the computed balance.
    if (icons) this.subs.push(icons.onDidChange(() => this.redraw()));
    this.writes.follow(projects.active);
  }

  /** The balance as last computed (tests read it); computes it when nothing is cached, and redraws the tree with it. */
  current(): Promise<BalanceModel | { error: string } | undefined> {
    if (!this.balance) {
      const projectId = this.projects.active?.id;
      const pending = this.compute();
      this.balance = pending;
      void pending.then((m) => {
        if (this.balance !== pending) return;
        this.drawn = m;
        this.drawnFor = projectId;
        this.redraw();
      });
    }
    return this.balance;
  }

  /** After a write: the next draw computes the balance again (only while the view is shown). */
  refresh(): void {
    this.balance = undefined;
    this.redraw();
  }

  private redrawTimer: NodeJS.Timeout | undefined;

  /** One redraw for a burst of changes (a recalculation's progress, a write, the stale mark after it):
   *  a tree refreshed again while it still fetches the last refresh's rows can show them under the
   *  wrong parent. */
  private redraw(): void {
    if (this.redrawTimer) return;
    this.redrawTimer = setTimeout(() => {
      this.redrawTimer = undefined;
      this.changed.fire(undefined);
    }, 60);
  }

  private async compute(): Promise<BalanceModel | { error: string } | undefined> {
    const p = this.projects.active;
    if (!p || p.isClosed) return undefined;
    if (!p.hasGameData()) return { error: 'This project has no game data yet; import it ("PyOps: Import Game Data…") to see the balance.' };
    try {
      const pc = planningContext(p);
      const b = await factoryBalance(p, pc, solverFor(pc));
      return { ...b, scenario: scenarioNow(p, pc.g, b.audit.finalProducts) };
    } catch (err) {
      return { error: `The balance could not be computed: ${err instanceof Error ? err.message : String(err)}. Try "Refresh Factory Balance".` };
    }
  }

  async getChildren(node?: BalanceNode): Promise<BalanceNode[]> {
    // Every row comes at once from the last computed model; a new one redraws the tree when it is
    // ready. A fetch left waiting on a computation is cancelled by the next refresh, and VS Code then
    // shows the rows it did get under the wrong parents.
    if (!node) {
      void this.current();
      if (this.drawnFor !== this.projects.active?.id) return this.projects.active ? [{ kind: 'fact', id: 'computing', text: 'Computing the balance…', icon: 'loading~spin' }] : [];
    }
    const b = this.drawn;
    if (!b) return [];
    if ('error' in b) return node ? [] : [{ kind: 'fact', id: 'error', text: b.error, icon: 'info' }];
    const a = b.audit;
    if (!node) {
      const pw = b.power;
      const facts: BalanceNode[] = [
        { kind: 'fact', id: 'blocks', text: 'Enabled blocks', detail: String(a.blocks), icon: 'layers' },
        {
          kind: 'fact', id: 'power', text: 'Power', icon: 'zap', color: pw.netW < 0 ? 'problemsWarningIcon.foreground' : undefined,
          detail: `${watts(pw.totalDemandW)} used${pw.totalGenerationW > 0 ? ` · ${watts(pw.totalGenerationW)} made · net ${pw.netW >= 0 ? '+' : ''}${watts(pw.netW)}` : ''}`,
          tooltip: pw.topConsumers.length ? `Biggest consumers:\n${pw.topConsumers.map((c) => `${c.name}: ${watts(c.powerW)}`).join('\n')}` : undefined,
        },
      ];
      const counts: Record<Section, number> = {
        under: a.underSupplied.length, over: a.overProduced.length, unsourced: a.unsourcedImports.length, dangling: a.danglingByproducts.length,
        final: a.finalProducts.length, balanced: a.balancedLinks.length, buildings: b.buildings.length, notSolved: a.notSolved.length,
      };
      // Sections with nothing in them are left out, except the two a player checks first.
      const shown = (Object.keys(SECTIONS) as Section[]).filter((s) => counts[s] > 0 || s === 'under' || s === 'final');
      return [...facts, ...(this.scenario ? this.scenarioRows(b) : []), ...shown.map((section): BalanceNode => ({
        kind: 'section', section, count: counts[section],
        detail: section === 'buildings' ? `${b.buildings.reduce((n, m) => n + m.count, 0)} · ${counts.buildings} kind${counts.buildings === 1 ? '' : 's'}` : String(counts[section]),
      }))];
    }
    switch (node.kind) {
      case 'section':
        return this.section(b, node.section);
      case 'scenario': {
        // From the section as it is now (the node VS Code hands back may be from an earlier draw).
        const now = this.scenarioRows(b).map((r) => findNode(r.node, node.node.id)).find(Boolean) ?? node.node;
        return (now.children ?? []).map((n): BalanceNode => ({ kind: 'scenario', node: n }));
      }
      case 'machine':
        return node.machine.blocks.map((x): BalanceNode => ({ kind: 'block', parent: node.machine.machine, id: x.id, name: x.name, detail: `${x.count}` }));
      default:
        return [];
    }
  }

  /** The Scenario section: the pins now (or as the fresh result took them), the supply order, the last result. */
  scenarioRows(b: BalanceModel): Array<BalanceNode & { kind: 'scenario' }> {
    const held = this.scenario?.current();
    const run = this.scenario?.running();
    const fresh = held && !held.stale && held.result.status === 'optimal';
    return scenarioNodes({
      pins: fresh ? held.result.pins : b.scenario.pins,
      priorities: b.scenario.priorities,
      suppliers: b.scenario.suppliers,
      held,
      ...(run ? { running: { message: run.message, fraction: run.fraction } } : {}),
      rate: (x) => rateIn(x, this.units?.last ?? 's'),
      time: (iso) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }),
    }).map((node) => ({ kind: 'scenario', node }));
  }

  private section(b: FactoryBalance, s: Section): BalanceNode[] {
    const a = b.audit;
    const unit = this.units?.last ?? 's';
    // Rates in the unit picked last in a block editor; electricity, heat and fluid fuel (counted in
    // MJ/s) as power, under their plain names.
    const per = (g: string) => (x: number) => (ENERGY.has(g) ? power(x * 1e6) : rateIn(x, unit));
    const withRate = (x: { good: string }, f: (rate: (v: number) => string) => BalanceNode) => f(per(x.good));
    const good = (x: { good: string; display: string }, detail: string, tooltip: string): BalanceNode => ({ kind: 'good', section: s, good: x.good, display: ENERGY.has(x.good) ? energyLabel(x.display) : x.display, detail, tooltip });
    switch (s) {
      case 'under':
        return a.underSupplied.map((x) => withRate(x, (rate) => good(x, `short by ${rate(x.shortBy)}`, `Made ${rate(x.produced)} by ${list(x.producers)}; taken ${rate(x.consumed)} by ${list(x.consumers)}.`)));
      case 'over':
        return a.overProduced.map((x) => withRate(x, (rate) => good(x, `+${rate(x.surplus)} surplus`, `Made ${rate(x.produced)} by ${list(x.producers)}; taken ${rate(x.consumed)}.${sinkText(x)}`)));
      case 'unsourced':
        return a.unsourcedImports.map((x) => withRate(x, (rate) => {
          const made = x.fromByproducts ? `${rate(x.fromByproducts.rate)} of it is made on the side by ${list(x.fromByproducts.producers)}; this is the rest` : 'no enabled block makes it';
          return good(x, `${rate(x.rate)}${x.craftable ? '' : ' · not craftable now'}`, `Taken by ${list(x.consumers)}; ${made}${x.craftable ? ' (a recipe for it is available)' : ''}.`);
        }));
      case 'dangling':
        return a.danglingByproducts.map((x) =>
          withRate(x, (rate) => good(
            x,
            `${rate(x.rate)} · ${x.disposal === 'route' ? 'can be routed' : x.disposal === 'void' ? 'void it' : 'nowhere to go'}`,
            `Byproduct of ${list(x.producers)}.${sinkText(x)}`,
          )),
        );
      case 'final':
        return a.finalProducts.map((x) => withRate(x, (rate) => good(x, rate(x.rate), `Made by ${list(x.producers)}; no enabled block takes it.`)));
      case 'balanced':
        return a.balancedLinks.map((x) => withRate(x, (rate) => good(x, rate(x.rate), 'Made and taken within 1 % of each other.')));
      case 'buildings':
        return b.buildings.map((machine): BalanceNode => ({ kind: 'machine', machine }));
      case 'notSolved':
        return a.notSolved.map((x): BalanceNode => ({ kind: 'block', parent: 'notSolved', id: x.id, name: x.name, detail: x.status ?? 'not solved' }));
    }
  }

  getTreeItem(node: BalanceNode): vscode.TreeItem {
    switch (node.kind) {
      case 'fact': {
        const item = new vscode.TreeItem(node.text);
        item.id = `fact:${node.id}`;
        if (node.detail) item.description = node.detail;
        if (node.tooltip) item.tooltip = node.tooltip;
        item.iconPath = icon(node.icon, node.color);
        return item;
      }
      case 'section': {
        const def = SECTIONS[node.section];
        const state = node.count === 0 ? vscode.TreeItemCollapsibleState.None : def.open ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
        const item = new vscode.TreeItem(def.label, state);
        // An empty section has no twistie; once it fills it must open expanded, not in the
        // collapsed state VS Code remembered for the empty one, so it gets another id.
        item.id = `section:${node.section}${node.count ? '' : ':empty'}`;
        item.iconPath = icon(def.icon, def.color);
        item.description = node.detail;
        item.contextValue = `pyops.balance.${node.section}`;
        return item;
      }
      case 'good': {
        const item = new vscode.TreeItem(node.display);
        item.id = `good:${node.section}:${node.good}`;
        item.description = node.detail;
        item.tooltip = `${node.display} (${node.good}) — ${node.tooltip}\n\nClick to open its page or a block that makes or takes it.`;
        item.contextValue = 'pyops.balance.good';
        item.iconPath = this.icons?.good(node.good);
        item.command = { command: 'pyops.good.open', title: 'Open Good', arguments: [{ good: node.good }] };
        return item;
      }
      case 'machine': {
        const m = node.machine;
        const item = new vscode.TreeItem(m.display, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `machine:${m.machine}`;
        item.description = `× ${m.count}${m.beacon ? ' · beacons' : ''}`;
        item.iconPath = this.icons?.icon('entity', m.machine) ?? icon('symbol-class');
        return item;
      }
      case 'scenario': {
        const n = node.node;
        const state = !n.children?.length ? vscode.TreeItemCollapsibleState.None : n.open ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
        const item = new vscode.TreeItem(n.label, state);
        item.id = n.id;
        if (n.description) item.description = n.description;
        if (n.tooltip) item.tooltip = n.tooltip;
        if (n.contextValue) item.contextValue = n.contextValue;
        item.iconPath = (n.good ? this.icons?.good(n.good) : undefined) ?? icon(n.icon, n.color);
        if (n.command) item.command = { command: n.command.command, title: n.command.title, arguments: n.command.args };
        return item;
      }
      case 'block': {
        const item = new vscode.TreeItem(node.name);
        item.id = `block:${node.parent}:${node.id}`;
        if (node.detail) item.description = node.detail;
        item.iconPath = icon('layers');
        item.command = { command: 'pyops.block.open', title: 'Open Block', arguments: [{ blockId: node.id }] };
        return item;
      }
    }
  }

  dispose(): void {
    clearTimeout(this.redrawTimer);
    this.writes.dispose();
    for (const s of this.subs) s.dispose();
    this.changed.dispose();
  }
}
