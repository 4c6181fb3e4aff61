// Every contributed command, run with what VS Code hands it from each place package.json puts it:
// the command palette and keybindings (nothing), a view's title with each kind of row selected (that
// row), a row's context menu and inline buttons (the row), a row's own click command (its arguments),
// the explorer (a Uri). No path may fail on its argument; a command that asks (a quick pick, an input
// box, a confirmation) is answered with Escape. Then the Factory view's New Block (+) button is
// clicked for real with a row selected, and the block is made through its prompts.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import path from 'node:path';
import { createBlock, getBlock, listBlocks, saveBlock, snapshotBlock } from '../../src/core/planning/factory/blocks';
import { setFactoryPin, setSupplyPriority } from '../../src/core/planning/factory/scenario/inputs';
import { solverFor } from '../../src/core/assistant/tools/context';
import { planningContext } from '../../src/core/planning/context';
import { createTask } from '../../src/core/work/tasks';
import { createNote } from '../../src/core/work/notes';
import { createPreset } from '../../src/core/planning/modulePresets';
import { api, EXTENSION_ID, uiRequest, waitFor, workDir, sampleWorld } from './helpers';

interface MenuEntry {
  command: string;
  when?: string;
  group?: string;
}
interface Row {
  node: unknown;
  contextValue?: string;
  label: string;
  command?: vscode.Command;
}

/** `view == pyops.factory && viewItem =~ /^pyops\.block\./` → the view, and a test of a row's contextValue. */
function parseWhen(when = ''): { view?: string; item?: (v: string | undefined) => boolean } {
  const view = /view == ([\w.]+)/.exec(when)?.[1];
  const eq = /viewItem == ([\w.]+)/.exec(when)?.[1];
  const re = /viewItem =~ \/(.+?)\/(?:\s|$)/.exec(when)?.[1];
  const item = eq ? (v: string | undefined) => v === eq : re ? (v: string | undefined) => !!v && new RegExp(re).test(v) : undefined;
  return { view, item };
}

async function treeRows(provider: vscode.TreeDataProvider<unknown>, depth = 4): Promise<Row[]> {
  const out: Row[] = [];
  const walk = async (parent: unknown, d: number) => {
    const kids = ((await provider.getChildren(parent as never)) ?? []) as unknown[];
    for (const node of kids) {
      const item = await provider.getTreeItem(node as never);
      const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      out.push({ node, contextValue: item.contextValue, label, command: item.command });
      if (d > 1) await walk(node, d - 1);
    }
  };
  await walk(undefined, depth);
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PyOps commands from every menu', () => {
  let file: string;
  let gears: string;
  let moreGears: string;

  before(async function () {
    this.timeout(120_000);
    file = path.join(workDir('menus'), 'menus.pyops');
    await vscode.commands.executeCommand('pyops.project.new', { file, name: 'Menus factory' });
    await vscode.commands.executeCommand('pyops.gamedata.import', { source: sampleWorld().dump });
    await vscode.commands.executeCommand('pyops.planning.setHorizon', { mode: 'future' });
    await vscode.commands.executeCommand('pyops.planning.setFavoriteMachine', { category: 'crafting', machine: 'press' });
    const { projects } = await api();
    const p = projects.require();
    const ctx = planningContext(p);
    const solve = solverFor(ctx);
    gears = await createBlock(p, solve, { name: 'Gears', doc: { goals: [{ good: 'gear', rate: 1 }], recipes: [{ recipe: 'gear' }] } });
    const wires = await createBlock(p, solve, { name: 'Wires', doc: { goals: [{ good: 'wire', rate: 2 }], recipes: [{ recipe: 'wire' }] } });
    await saveBlock(p, solve, wires, { enabled: false }, getBlock(p, wires).updatedAt);
    snapshotBlock(p, gears, 'before the audit');
    const task = createTask(p, { title: 'Audit task', steps: ['First', 'Middle', 'Last'], links: [{ kind: 'block', name: gears }, { kind: 'item', name: 'gear' }] });
    createTask(p, { title: 'Audit subtask', parentId: task.id });
    createTask(p, { title: 'Done task', status: 'done' });
    createNote(p, { title: 'Audit note', body: 'x' });
    createPreset(p, ctx.g, { name: 'Speedy', modules: [{ name: 'speed-module-s1', count: 2 }], beacons: [] });
    moreGears = await createBlock(p, solve, { name: 'More gears', doc: { goals: [{ good: 'gear', rate: 0.5 }], recipes: [{ recipe: 'gear' }] } });
    await prepareScenario();
    projects.touch();
  });

  /**
   * The Scenario section's rows: a pin of the player's, a good two blocks make with a supply order, and
   * a fresh result ready to apply. Made again before the row menus run, since the palette and title
   * runs before them may have applied or staled the result.
   */
  async function prepareScenario(): Promise<void> {
    const { projects } = await api();
    const p = projects.require();
    // One more gear than the blocks make now, so the result always has goal changes to apply.
    const made = listBlocks(p).filter((b) => b.enabled).flatMap((b) => b.doc.goals ?? []).filter((g) => g.good === 'gear').reduce((n, g) => n + (g.rate ?? 0), 0);
    setFactoryPin(p, { good: 'gear' }, made + 1);
    setSupplyPriority(p, { good: 'gear', order: [moreGears, gears] });
    const r = (await vscode.commands.executeCommand('pyops.scenario.recalculate')) as { status: string; message?: string };
    assert.equal(r.status, 'optimal', r.message);
  }

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('never fails on what any menu passes (palette, keybindings, view titles with each row selected, row menus, row clicks, explorer)', async function () {
    this.timeout(900_000);
    const { projects, recentCommandErrors, rows, balance, factory } = await api();
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as {
      contributes: { commands: Array<{ command: string }>; menus: Record<string, MenuEntry[]>; keybindings: MenuEntry[] };
    };
    const menus = pkg.contributes.menus;
    await vscode.commands.executeCommand('pyops.balance.focus');
    await waitFor(() => factory.current()?.blocks.length === 3, 'the audit blocks in the Factory view');
    await balance.current();
    const rowsOf: Record<string, () => Promise<Row[]>> = {
      'pyops.factory': () => treeRows(rows.factory as vscode.TreeDataProvider<unknown>),
      'pyops.balance': () => treeRows(rows.balance as vscode.TreeDataProvider<unknown>),
    };

    const failures: string[] = [];
    const ran = new Map<string, number>();
    const invoke = async (where: string, command: string, args: unknown[]) => {
      if (projects.active?.file !== file) await vscode.commands.executeCommand('pyops.project.open', { file });
      const seen = recentCommandErrors().at(-1);
      let settled = false;
      void Promise.resolve(vscode.commands.executeCommand(command, ...args)).then(
        () => (settled = true),
        (err: Error) => {
          settled = true;
          failures.push(`${command} (${where}) threw: ${err.message}`);
        },
      );
      const wait = async (ms: number) => {
        for (const end = Date.now() + ms; !settled && Date.now() < end; ) await sleep(50);
      };
      // A prompt is answered as a person dismisses it: a quick input, a notification, a dialog.
      await wait(700);
      if (!settled) await vscode.commands.executeCommand('workbench.action.closeQuickOpen').then(() => wait(700));
      if (!settled) await vscode.commands.executeCommand('notifications.clearAll').then(() => wait(700));
      if (!settled) await uiRequest({ pagePress: ['Escape'] }).then(() => wait(3000));
      if (!settled) failures.push(`${command} (${where}) still waits on something after Escape`);
      const all = recentCommandErrors();
      const fresh = all.slice(seen ? all.lastIndexOf(seen) + 1 : 0);
      for (const e of fresh) if (e.argument) failures.push(`${e.command} (${where}): ${e.message}`);
      ran.set(where.split(':')[0], (ran.get(where.split(':')[0]) ?? 0) + 1);
    };

    // The palette (and walkthrough and welcome links): every command it offers, with nothing.
    const hidden = new Set((menus.commandPalette ?? []).filter((m) => m.when === 'false').map((m) => m.command));
    for (const c of pkg.contributes.commands) if (!hidden.has(c.command)) await invoke('palette', c.command, []);
    for (const k of pkg.contributes.keybindings ?? []) await invoke('keybinding', k.command, []);
    // A view's title: nothing, or the row that is selected (any kind of row).
    for (const m of menus['view/title'] ?? []) {
      const { view } = parseWhen(m.when);
      await invoke(`title:${view}`, m.command, []);
      if (!view || !rowsOf[view]) continue;
      const kinds = new Map<string, Row>();
      for (const r of await rowsOf[view]()) if (!kinds.has(r.contextValue ?? r.label)) kinds.set(r.contextValue ?? r.label, r);
      for (const [kind, r] of kinds) await invoke(`title:${view} with ${kind} selected`, m.command, [r.node]);
    }
    // A row's context menu and inline buttons: the row (one of each kind the when clause matches), as
    // the trees were before these commands changed them (a completed task, a removed link).
    if (projects.active?.file !== file) await vscode.commands.executeCommand('pyops.project.open', { file });
    await prepareScenario();
    await balance.current();
    const initial: Record<string, Row[]> = {};
    for (const view of Object.keys(rowsOf)) initial[view] = await rowsOf[view]();
    for (const m of menus['view/item/context'] ?? []) {
      const { view, item } = parseWhen(m.when);
      if (!view || !item || !initial[view]) {
        failures.push(`cannot read the when clause of ${m.command}: ${m.when}`);
        continue;
      }
      const matching = initial[view].filter((r) => item(r.contextValue));
      if (!matching.length) failures.push(`no ${view} row matches ${m.command}'s "${m.when}" (the audit project lacks one)`);
      for (const r of matching.slice(0, 2)) await invoke(`context:${view} on ${r.contextValue} "${r.label}"`, m.command, [r.node]);
    }
    // A row's own click: its command with its arguments.
    for (const view of Object.keys(rowsOf)) {
      for (const r of await rowsOf[view]()) if (r.command) await invoke(`click:${view} "${r.label}"`, r.command.command, r.command.arguments ?? []);
    }
    for (const m of menus['explorer/context'] ?? []) await invoke('explorer', m.command, [vscode.Uri.file(file)]);

    console.log(`      (${[...ran].map(([k, n]) => `${n} ${k}`).join(', ')} runs)`);
    assert.deepEqual(failures, []);
    assert.ok((ran.get('palette') ?? 0) >= 60 && (ran.get('context') ?? 0) >= 40, JSON.stringify([...ran]));
  });

  it("makes a block from the Factory view's New Block (+) button while a row is selected", async function () {
    this.timeout(180_000);
    if ((await api()).projects.active?.file !== file) await vscode.commands.executeCommand('pyops.project.open', { file });
    const { projects, views, rows, recentCommandErrors } = await api();
    await vscode.workspace.getConfiguration('workbench').update('view.alwaysShowHeaderActions', true, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('pyops.factory.focus');
    // The row the issue was filed on: a Planning fact (its keys kind, text, detail, command).
    const groups = ((await rows.factory.getChildren()) ?? []) as Array<{ kind: string; group?: string }>;
    const planning = groups.find((g) => g.group === 'planning')!;
    const horizon = ((await rows.factory.getChildren(planning as never)) ?? [])[0];
    await views.factory.reveal(horizon, { select: true, focus: true });
    await waitFor(() => views.factory.selection.length === 1 && (views.factory.selection[0] as { kind: string }).kind === 'fact', 'the Horizon row selected');
    const seen = recentCommandErrors().at(-1);
    const before = listBlocks(projects.require()).length;

    const plus = '#workbench\\.parts\\.sidebar .pane-header .action-label[aria-label^="New Block"]';
    const name = await uiRequest({ viewport: { width: 48 + 300 + 700, height: 820 }, pageClicks: [plus], quickInputIncludes: ['New block: its name'], pageType: 'Title button gears', pagePress: ['Enter'] });
    assert.deepEqual(name.failures, [], name.quickInputText);
    // Each prompt in turn, answered as a person does: read it, type, Enter.
    const good = await uiRequest({ quickInputIncludes: ['should it make?'], pageType: 'Gear' });
    assert.deepEqual(good.failures, [], good.quickInputText);
    await sleep(500);
    await uiRequest({ pagePress: ['Enter'] });
    const rate = await uiRequest({ quickInputIncludes: ['How much Gear per second?'], pagePress: ['Enter'] });
    assert.deepEqual(rate.failures, [], rate.quickInputText);
    const recipe = await uiRequest({ quickInputIncludes: ['First recipe of "Title button gears"'], pagePress: ['Enter'] });
    assert.deepEqual(recipe.failures, [], recipe.quickInputText);
    const made = await waitFor(() => listBlocks(projects.require()).find((b) => b.name === 'Title button gears'), 'the block made from the title button');
    assert.equal(listBlocks(projects.require()).length, before + 1);
    assert.deepEqual(made.doc.goals, [{ good: 'gear', rate: 1 }]);
    const all = recentCommandErrors();
    assert.deepEqual(all.slice(seen ? all.lastIndexOf(seen) + 1 : 0), []);
    const row = ((await rows.factory.getChildren(groups.find((g) => g.group === 'blocks') as never)) ?? []).find((b) => (b as { block: { id: string } }).block.id === made.id);
    await views.factory.reveal(row!, { select: true, focus: true });
    const side = await uiRequest({ sidebarIncludes: ['Title button gears'], pageSelectors: [plus], screenshot: { file: 'factory-view-new-block-300px.png', element: 'sidebar' } });
    assert.deepEqual(side.failures, [], side.sidebarText);
    await uiRequest({ viewport: { width: 1400, height: 900 } });
  });
});
