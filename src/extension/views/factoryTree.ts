// The Factory view: the project's blocks (state, goals, buildings, snapshots), tasks (with their
// steps as checkboxes, their links and subtasks), notes and the planning horizon as a tree in the
// PyOps container. It rebuilds from factoryOutline after every
// committed write to the project (an edit, a chat apply, a game sync, an undo) and on project switch.
import * as vscode from 'vscode';
import { gameIndex } from '../../core/planning/gameIndex';
import { factoryOutline, type FactoryOutline, type OutlineBlock } from '../../core/planning/factory/outline';
import { getTask, type TaskLink, type TaskStep } from '../../core/work/tasks';
import type { ProjectManager } from '../projectManager';
import type { GameIcons } from '../icons';
import { WriteFollower } from './followWrites';
import { categoryName } from '../../core/gamedata/units';
import { power, short } from '../../webview/format';

export type FactoryNode =
  | { kind: 'group'; group: 'blocks' | 'tasks' | 'notes' | 'planning' }
  | { kind: 'block'; block: OutlineBlock }
  | { kind: 'goal'; blockId: string; good: string; text: string }
  | { kind: 'snapshots'; block: OutlineBlock }
  | { kind: 'snapshot'; blockId: string; id: string; label: string; createdAt: string }
  | { kind: 'task'; task: FactoryOutline['tasks'][number] }
  | { kind: 'step'; taskId: string; step: TaskStep; index: number; count: number }
  | { kind: 'link'; taskId: string; link: TaskLink }
  | { kind: 'note'; note: FactoryOutline['notes'][number] }
  | { kind: 'fact'; text: string; detail?: string; tooltip?: string; command?: vscode.Command };

const STATE_ICON: Record<OutlineBlock['state'], [string, string?]> = {
  solved: ['pass', 'testing.iconPassed'],
  infeasible: ['error', 'problemsErrorIcon.foreground'],
  error: ['error', 'problemsErrorIcon.foreground'],
  broken: ['warning', 'problemsWarningIcon.foreground'],
  stale: ['sync'],
  disabled: ['circle-slash', 'disabledForeground'],
};
const TASK_ICON: Record<FactoryOutline['tasks'][number]['status'], [string, string?]> = {
  open: ['circle-large-outline'],
  in_progress: ['play-circle', 'charts.blue'],
  done: ['pass', 'testing.iconPassed'],
  closed: ['circle-slash', 'disabledForeground'],
};
const LINK_ICON: Record<TaskLink['kind'], string> = { item: 'package', fluid: 'beaker', recipe: 'symbol-method', technology: 'mortar-board', block: 'layers', entity: 'symbol-class', location: 'location' };

// One formatter with the block editor, the Balance and the cards: the same figure reads the same.
const num = short;
const mw = (w: number | null) => (w == null ? '' : power(w));
const icon = (id: string, color?: string) => new vscode.ThemeIcon(id, color ? new vscode.ThemeColor(color) : undefined);

export class FactoryTree implements vscode.TreeDataProvider<FactoryNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<FactoryNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private outline: FactoryOutline | undefined;
  /** Per task: how many links it has (the outline counts steps and subtasks only). */
  private linkCounts = new Map<string, number>();
  /** Display names of goods and blocks for link labels, as of the last build. */
  private display: (kind: TaskLink['kind'], name: string) => string = (_k, n) => n;
  private readonly writes = new WriteFollower(50, () => this.refresh());
  private readonly subs: vscode.Disposable[] = [];

  constructor(
    private readonly projects: ProjectManager,
    private readonly icons?: GameIcons,
  ) {
    this.subs.push(projects.onDidChange((p) => this.writes.follow(p)));
    if (icons) this.subs.push(icons.onDidChange(() => this.changed.fire(undefined)));
    this.writes.follow(projects.active);
  }

  /** The outline as last built (tests read it). */
  current(): FactoryOutline | undefined {
    return this.outline ?? this.build();
  }

  refresh(): void {
    this.outline = undefined;
    this.changed.fire(undefined);
  }

  private build(): FactoryOutline | undefined {
    const p = this.projects.active;
    if (!p || p.isClosed) return undefined;
    const g = p.hasGameData() ? gameIndex(p) : undefined;
    this.outline = factoryOutline(p, g);
    this.linkCounts = new Map(p.query<{ task_id: string; n: number }>('SELECT task_id, count(*) AS n FROM task_links GROUP BY task_id').map((r) => [r.task_id, Number(r.n)]));
    const blocks = new Map(this.outline.blocks.map((b) => [b.id, b.name]));
    this.display = (kind, name) => (kind === 'block' ? (blocks.get(name) ?? `${name} (deleted block)`) : kind === 'location' ? name.split('|').join(' ') : kind === 'recipe' ? (g?.recipes.get(name)?.display ?? name) : kind === 'technology' ? (g?.technologies.get(name)?.display ?? name) : (g?.displayOf(name) ?? name));
    return this.outline;
  }

  getChildren(node?: FactoryNode): FactoryNode[] {
    const o = this.current();
    if (!o) return [];
    if (!node) return (['blocks', 'tasks', 'notes', 'planning'] as const).map((group) => ({ kind: 'group', group }));
    switch (node.kind) {
      case 'group':
        if (node.group === 'blocks') return o.blocks.map((block) => ({ kind: 'block', block }));
        if (node.group === 'tasks') return o.tasks.filter((t) => !t.parentId || !o.tasks.some((x) => x.id === t.parentId)).map((task) => ({ kind: 'task', task }));
        if (node.group === 'notes') return o.notes.map((note) => ({ kind: 'note', note }));
        return planningFacts(o);
      case 'block':
        return [
          ...node.block.goals.map((g): FactoryNode => ({ kind: 'goal', blockId: node.block.id, good: g.good, text: `${g.direction === 'consume' ? 'Takes' : 'Makes'} ${g.display} ${num(g.rate)}/s${g.stock ? ' (stock)' : ''}` })),
          ...(node.block.snapshots.length ? [{ kind: 'snapshots', block: node.block } as FactoryNode] : []),
        ];
      case 'snapshots':
        return node.block.snapshots.map((s) => ({ kind: 'snapshot', blockId: node.block.id, id: s.id, label: s.label, createdAt: s.createdAt }));
      case 'task': {
        const p = this.projects.active;
        let detail;
        try {
          detail = p ? getTask(p, node.task.id) : undefined;
        } catch {
          return []; // deleted since the outline was built; the pending refresh drops it
        }
        if (!detail) return [];
        return [
          ...detail.steps.map((step, index): FactoryNode => ({ kind: 'step', taskId: node.task.id, step, index, count: detail.steps.length })),
          ...detail.links.map((link): FactoryNode => ({ kind: 'link', taskId: node.task.id, link })),
          ...o.tasks.filter((t) => t.parentId === node.task.id).map((task): FactoryNode => ({ kind: 'task', task })),
        ];
      }
      default:
        return [];
    }
  }

  /** For `TreeView.reveal` (tests show a task's steps by revealing the task expanded). */
  getParent(node: FactoryNode): FactoryNode | undefined {
    const o = this.current();
    const block = (id: string) => o?.blocks.find((b) => b.id === id);
    const task = (id: string | null): FactoryNode | undefined => {
      const t = id ? o?.tasks.find((x) => x.id === id) : undefined;
      return t ? { kind: 'task', task: t } : undefined;
    };
    switch (node.kind) {
      case 'group':
        return undefined;
      case 'block':
        return { kind: 'group', group: 'blocks' };
      case 'goal': {
        const b = block(node.blockId);
        return b ? { kind: 'block', block: b } : undefined;
      }
      case 'snapshots':
        return { kind: 'block', block: node.block };
      case 'snapshot': {
        const b = block(node.blockId);
        return b ? { kind: 'snapshots', block: b } : undefined;
      }
      case 'task':
        return task(node.task.parentId) ?? { kind: 'group', group: 'tasks' };
      case 'step':
      case 'link':
        return task(node.taskId);
      case 'note':
        return { kind: 'group', group: 'notes' };
      case 'fact':
        return { kind: 'group', group: 'planning' };
    }
  }

  getTreeItem(node: FactoryNode): vscode.TreeItem {
    const o = this.current();
    switch (node.kind) {
      case 'group': {
        const n = node.group === 'blocks' ? o?.blocks.length : node.group === 'tasks' ? o?.tasks.length : node.group === 'notes' ? o?.notes.length : undefined;
        const label = { blocks: 'Blocks', tasks: 'Tasks', notes: 'Notes', planning: 'Planning' }[node.group];
        const item = new vscode.TreeItem(label, node.group === 'notes' ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded);
        item.id = `group:${node.group}`;
        if (n !== undefined) item.description = String(n);
        item.contextValue = `pyops.group.${node.group}`;
        return item;
      }
      case 'block': {
        const b = node.block;
        const item = new vscode.TreeItem(b.name, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `block:${b.id}`;
        item.description = [b.state === 'solved' ? `${b.buildings} building${b.buildings === 1 ? '' : 's'}` : b.state, mw(b.powerW)].filter(Boolean).join(' · ');
        // A solved block shows what it makes; any other state keeps its coloured symbol, which is
        // what a player scanning the list for trouble looks for.
        const goal = b.state === 'solved' && b.goals[0] ? this.icons?.good(b.goals[0].good) : undefined;
        item.iconPath = goal ?? icon(...STATE_ICON[b.state]);
        item.tooltip = new vscode.MarkdownString(`**${b.name}** — ${b.state}${b.stateDetail ? `: ${b.stateDetail}` : ''}\n\n${b.goals.map((g) => `- ${g.direction === 'consume' ? 'Takes' : 'Makes'} ${g.display} ${num(g.rate)}/s`).join('\n')}`);
        item.contextValue = b.state === 'disabled' ? 'pyops.block.disabled' : 'pyops.block.enabled';
        item.command = { command: 'pyops.block.edit', title: 'Edit Block', arguments: [{ blockId: b.id }] };
        return item;
      }
      case 'goal': {
        const item = new vscode.TreeItem(node.text);
        item.iconPath = this.icons?.good(node.good) ?? icon('target');
        return item;
      }
      case 'snapshots': {
        const item = new vscode.TreeItem('Snapshots', vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `snapshots:${node.block.id}`;
        item.description = String(node.block.snapshots.length);
        item.iconPath = icon('history');
        return item;
      }
      case 'snapshot': {
        const item = new vscode.TreeItem(node.label);
        item.id = `snapshot:${node.id}`;
        item.description = new Date(node.createdAt).toLocaleString();
        item.contextValue = 'pyops.snapshot';
        item.iconPath = icon('history');
        return item;
      }
      case 'task': {
        const t = node.task;
        // total counts steps and subtasks; links are counted apart.
        const hasChildren = t.total > 0 || (this.linkCounts.get(t.id) ?? 0) > 0;
        const item = new vscode.TreeItem(t.title, hasChildren ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
        item.id = `task:${t.id}`;
        item.description = [t.status.replace('_', ' '), t.total ? `${t.done}/${t.total} done` : ''].filter(Boolean).join(' · ');
        item.iconPath = icon(...TASK_ICON[t.status]);
        item.tooltip = `${t.title} — ${t.status.replace('_', ' ')}${t.total ? `, ${t.done} of ${t.total} steps and subtasks done` : ''}. Click to edit its description.`;
        item.contextValue = `pyops.task.${t.status}`;
        item.command = { command: 'pyops.task.open', title: 'Open Task', arguments: [{ taskId: t.id }] };
        return item;
      }
      case 'step': {
        const item = new vscode.TreeItem(node.step.text);
        item.id = `step:${node.step.id}`;
        item.checkboxState = node.step.done ? vscode.TreeItemCheckboxState.Checked : vscode.TreeItemCheckboxState.Unchecked;
        item.tooltip = `Step ${node.index + 1} of ${node.count}${node.step.done ? ' (done)' : ''}`;
        // first/last decide which of the move arrows show.
        item.contextValue = ['pyops.step', node.index === 0 ? 'first' : '', node.index === node.count - 1 ? 'last' : ''].filter(Boolean).join('.');
        return item;
      }
      case 'link': {
        const l = node.link;
        const item = new vscode.TreeItem(this.display(l.kind, l.name));
        item.id = `link:${l.id}`;
        item.description = l.kind;
        const picture = l.kind === 'item' || l.kind === 'fluid' || l.kind === 'recipe' || l.kind === 'technology' || l.kind === 'entity' ? this.icons?.icon(l.kind, l.name) : undefined;
        item.iconPath = picture ?? icon(LINK_ICON[l.kind]);
        item.contextValue = 'pyops.taskLink';
        item.command = { command: 'pyops.task.openLink', title: 'Open Link', arguments: [{ kind: l.kind, name: l.name }] };
        return item;
      }
      case 'note': {
        const item = new vscode.TreeItem(node.note.title);
        item.id = `note:${node.note.id}`;
        item.iconPath = icon('note');
        item.contextValue = 'pyops.note';
        item.command = { command: 'pyops.note.open', title: 'Open Note', arguments: [{ noteId: node.note.id }] };
        return item;
      }
      case 'fact': {
        const item = new vscode.TreeItem(node.text);
        if (node.detail) item.description = node.detail;
        if (node.tooltip) item.tooltip = node.tooltip;
        if (node.command) item.command = node.command;
        item.iconPath = icon('info');
        return item;
      }
    }
  }

  dispose(): void {
    this.writes.dispose();
    for (const s of this.subs) s.dispose();
    this.changed.dispose();
  }
}

/** The Planning group's rows, every name as the player reads it. */
function planningFacts(o: FactoryOutline): FactoryNode[] {
  const p = o.planning;
  const target = p.targetDisplay ?? 'a target';
  const horizon =
    p.horizon === 'now' ? `Now (${p.packs.length} science pack${p.packs.length === 1 ? '' : 's'})` : p.horizon === 'target' ? (p.targetScope === 'make' ? `Able to make ${target}` : `Up to ${target}`) : 'Future (everything)';
  const cmd = (command: string, title: string, args?: unknown): vscode.Command => ({ command, title, ...(args ? { arguments: [args] } : {}) });
  const data = p.gameData;
  return [
    { kind: 'fact', text: 'Horizon', detail: horizon, command: cmd('pyops.planning.setHorizon', 'Set Planning Horizon…') },
    {
      kind: 'fact', text: 'Game data', detail: data?.short ?? 'none yet', command: cmd('pyops.gamedata.import', 'Import Game Data…'),
      tooltip: data ? `${data.text}${data.lacks.length ? `\n\nNot in the data set: ${data.lacks.join('; ')}.` : ''}` : 'Import a dump or a FactorioLab data set, or sync from Factorio.',
    },
    { kind: 'fact', text: 'Completed research', detail: `${p.researched} technologies`, command: cmd('pyops.planning.setResearch', 'Set Completed Research…') },
    ...(p.turd.length
      ? p.turd.map((t): FactoryNode => ({ kind: 'fact', text: `TURD: ${t.master}`, detail: `${t.branch}${t.source === 'synced' ? ' (from the game)' : ''}`, command: cmd('pyops.planning.selectTurd', 'Select TURD Branch…') }))
      : [{ kind: 'fact', text: 'TURD', detail: 'no branch selected', command: cmd('pyops.planning.selectTurd', 'Select TURD Branch…') } as FactoryNode]),
    ...p.favoriteMachines.map((f): FactoryNode => ({ kind: 'fact', text: `Favourite for ${categoryName(f.category)}`, detail: f.display, command: cmd('pyops.planning.setFavoriteMachine', 'Set Favourite Machine…', { category: f.category }) })),
    { kind: 'fact', text: p.favoriteMachines.length ? 'Another favourite machine…' : 'Favourite machines', detail: p.favoriteMachines.length ? '' : 'none (drafts use the fastest buildable)', command: cmd('pyops.planning.setFavoriteMachine', 'Set Favourite Machine…') },
    { kind: 'fact', text: 'Favourite fuel', detail: [p.favoriteFuel?.display ?? 'default choice', p.favoriteFluidFuel ? `${p.favoriteFluidFuel.display} for fluid burners` : ''].filter(Boolean).join(' · '), command: cmd('pyops.planning.setFavoriteFuel', 'Set Favourite Fuel…') },
    { kind: 'fact', text: 'Excluded recipes', detail: `${p.exclusions.length} pattern${p.exclusions.length === 1 ? '' : 's'}`, command: cmd('pyops.planning.editExclusions', 'Edit Excluded Recipes…') },
    { kind: 'fact', text: 'Mining productivity', detail: p.miningProductivity.source === 'research' ? 'from research' : `+${p.miningProductivity.percent} %`, command: cmd('pyops.planning.setMiningProductivity', 'Set Mining Productivity…') },
    ...p.presets.map((x): FactoryNode => ({ kind: 'fact', text: `Module preset: ${x.name}`, detail: x.summary, command: cmd('pyops.planning.managePresets', 'Manage Module Presets…', { presetId: x.id }) })),
    {
      kind: 'fact', text: 'Module presets', detail: p.presets.length ? `${p.presets.length} (rename or delete)` : "none yet (save a row's modules in the block editor)",
      command: cmd('pyops.planning.managePresets', 'Manage Module Presets…'),
    },
  ];
}
