// Commands of the factory scenario (the Factory Balance view's Scenario section and the palette):
// add, change and remove a factory pin; Recalculate with a cancellable progress notice; Balance
// Factory as one undoable action; and a good's supply order — an ordered pick of its supplier blocks,
// shares, or the default. Each pin or priority change is one undoable action (scenario/inputs.ts).
// Commands take the tree node they were invoked on, a plain object (tests, links), or ask.
import * as vscode from 'vscode';
import { z } from 'zod';
import { planningContext } from '../../core/planning/context';
import { readFactoryPins, readSupplyPriorities, setFactoryPin, setSupplyPriority } from '../../core/planning/factory/scenario/inputs';
import type { ScenarioResult } from '../../core/planning/factory/scenario/scenario';
import type { ProjectManager } from '../projectManager';
import { objectArg } from '../commands/args';
import { registerCommand } from '../commands/register';
import { pickGood } from '../blockEditor/pickers';
import { latestChange } from '../proposals/undo';
import { parseRate, type ScenarioNode } from '../views/scenarioView';
import { supplyGoods } from './now';
import type { BalanceOutcome, ScenarioStore } from './store';

const name = z.string().trim().min(1).max(200);
const pinArg = z.object({ good: name, rate: z.number().finite().min(-1e9).max(1e9).optional(), temperature: z.number().finite().optional() }).loose();
const supplyArg = z.object({ good: name, order: z.array(z.string().min(1).max(100)).max(100).optional(), shares: z.record(z.string().min(1).max(100), z.number().min(0).max(1)).optional() }).loose();

/** The scenario node a command was invoked on in the Factory Balance view. */
function nodeOf(arg: unknown): ScenarioNode | undefined {
  const n = arg as { kind?: string; node?: ScenarioNode } | undefined;
  return n && typeof n === 'object' && n.kind === 'scenario' && n.node ? n.node : undefined;
}

const rateText = (x: number) => `${Number(x.toPrecision(6))}/s`;

async function askRate(title: string, value?: number): Promise<number | undefined> {
  const text = await vscode.window.showInputBox({
    title,
    prompt: 'Per second (120/min and 7200/h work too). Negative: a supply from outside the factory that it must use up.',
    value: value !== undefined ? String(Number(value.toPrecision(6))) : '1',
    validateInput: (v) => {
      const r = parseRate(v);
      return typeof r === 'string' ? r : undefined;
    },
  });
  if (text === undefined) return undefined;
  const r = parseRate(text);
  return typeof r === 'number' ? r : undefined;
}

/** The good a supply command acts on (its tree node or `{ good, … }`) and its suppliers in supply order now. */
function supplyTarget(projects: ProjectManager, arg: unknown, what: string) {
  const p = projects.require();
  const a: z.output<typeof supplyArg> | undefined = nodeOf(arg)?.supply ?? objectArg(arg, supplyArg);
  if (!a) throw new Error(`${what} from "Supply order" in the Factory Balance view.`);
  const s = supplyGoods(p, planningContext(p).g).find((x) => x.good === a.good);
  if (!s) throw new Error(`Fewer than two enabled blocks make ${planningContext(p).g.displayOf(a.good)}: there is no supply order to set.`);
  /** Refuses block ids that do not make the good. */
  const check = (ids: string[]) => {
    const known = new Set(s.blocks.map((b) => b.id));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length) throw new Error(`${unknown.join(', ')} ${unknown.length === 1 ? 'does' : 'do'} not make ${s.display}; the suppliers are ${s.blocks.map((b) => `${b.name} (${b.id})`).join(', ')}.`);
  };
  return { a, s, check };
}

export function registerScenarioCommands(projects: ProjectManager, store: ScenarioStore): vscode.Disposable[] {
  const display = (good: string) => planningContext(projects.require()).g.displayOf(good);
  return [
    registerCommand('pyops.scenario.recalculate', async (): Promise<ScenarioResult | undefined> => {
      projects.require();
      const r = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'PyOps: calculating the factory scenario', cancellable: true },
        async (progress, token) => {
          let done = 0;
          return store.recalculate((message, fraction) => {
            progress.report({ message, increment: Math.max(0, fraction * 100 - done) });
            done = Math.max(done, fraction * 100);
          }, token);
        },
      );
      if (r.status === 'cancelled') void vscode.window.showInformationMessage('PyOps: the scenario was cancelled; the previous result is kept.');
      else if (r.status !== 'optimal') void vscode.window.showWarningMessage(`PyOps: the scenario could not be solved (${r.status}): ${r.message ?? 'see the Factory Balance view'}.`);
      return r;
    }),

    registerCommand('pyops.scenario.balance', async (): Promise<BalanceOutcome> => {
      const r = await store.balance();
      if (r.applied) {
        const undo = latestChange(projects.require());
        void vscode.window.showInformationMessage(`PyOps: ${r.label} — done (one undoable change).`, 'Undo').then((c) => {
          if (c === 'Undo') void vscode.commands.executeCommand('pyops.edit.undo', undo);
        });
      } else {
        const stale = /recalculate/i.test(r.message);
        void vscode.window.showWarningMessage(`PyOps: ${r.message}`, ...(stale ? ['Recalculate'] : [])).then((c) => {
          if (c === 'Recalculate') void vscode.commands.executeCommand('pyops.scenario.recalculate');
        });
      }
      return r;
    }),

    registerCommand('pyops.scenario.addPin', async (arg?: unknown) => {
      const p = projects.requireWritable();
      const a = objectArg(arg, pinArg);
      const good = a?.good ?? (await pickGood(planningContext(p), 'Pin a good: what must the factory deliver?', { madeOnly: true }));
      if (!good) return undefined;
      const had = readFactoryPins(p).find((x) => x.good === good && x.temperature === a?.temperature);
      const rate = a?.rate ?? (await askRate(`How much ${display(good)} must the factory deliver?`, had?.rate));
      if (rate === undefined) return undefined;
      return setFactoryPin(p, { good, ...(a?.temperature !== undefined ? { temperature: a.temperature } : {}) }, rate);
    }),

    registerCommand('pyops.scenario.editPin', async (arg?: unknown) => {
      const p = projects.requireWritable();
      const node = nodeOf(arg)?.pin;
      const a = node ?? objectArg(arg, pinArg);
      if (!a) return vscode.commands.executeCommand('pyops.scenario.addPin');
      const rate = (!node && a.rate !== undefined ? a.rate : undefined) ?? (await askRate(
        node && node.source !== 'pin'
          ? `Pin ${display(a.good)} (now ${node.source === 'science' ? "the science block's demand" : 'a final product'} at ${rateText(node.rate)})`
          : `Change the pin on ${display(a.good)}`,
        a.rate,
      ));
      if (rate === undefined) return undefined;
      return setFactoryPin(p, { good: a.good, ...(a.temperature !== undefined ? { temperature: a.temperature } : {}) }, rate);
    }),

    registerCommand('pyops.scenario.removePin', async (arg?: unknown) => {
      const p = projects.requireWritable();
      let a: { good: string; temperature?: number } | undefined = nodeOf(arg)?.pin ?? objectArg(arg, pinArg);
      if (!a) {
        const pins = readFactoryPins(p);
        if (!pins.length) throw new Error('There are no pins to remove.');
        a = (await vscode.window.showQuickPick(pins.map((x) => ({ label: display(x.good), description: rateText(x.rate), pin: x })), { title: 'Remove which pin?' }))?.pin;
        if (!a) return undefined;
      }
      const target = a;
      if (!readFactoryPins(p).some((x) => x.good === target.good && x.temperature === target.temperature)) throw new Error(`${display(target.good)} is not pinned by you (the science block or a final product sets it); pin it to change its rate.`);
      return setFactoryPin(p, { good: target.good, ...(target.temperature !== undefined ? { temperature: target.temperature } : {}) }, null);
    }),

    registerCommand('pyops.scenario.supplyOrder', async (arg?: unknown) => {
      const p = projects.requireWritable();
      const { a, s, check } = supplyTarget(projects, arg, 'Set the supply order of a good');
      let order = a.order;
      if (!order) {
        // An ordered pick: the first supplier, then the next of those left, until one is left.
        order = [];
        const left = [...s.blocks];
        while (left.length > 1) {
          const pick = await vscode.window.showQuickPick(
            left.map((b) => ({ label: b.name, id: b.id })),
            { title: `Supply order for ${s.display} (${order.length + 1} of ${s.blocks.length})`, placeHolder: order.length ? `After ${order.map((id) => s.blocks.find((b) => b.id === id)!.name).join(' → ')}: which block grows next?` : 'Which block grows first when the factory needs more?' },
          );
          if (!pick) return undefined;
          order.push(pick.id);
          left.splice(left.findIndex((b) => b.id === pick.id), 1);
        }
        order.push(left[0].id);
      }
      check(order);
      return setSupplyPriority(p, { good: a.good, order });
    }),

    registerCommand('pyops.scenario.supplyShares', async (arg?: unknown) => {
      const p = projects.requireWritable();
      const { a, s, check } = supplyTarget(projects, arg, 'Split a good by shares');
      let shares = a.shares;
      if (!shares) {
        const had = readSupplyPriorities(p).find((x) => x.good === a.good)?.shares ?? {};
        shares = {};
        let left = 100;
        for (const [i, b] of s.blocks.entries()) {
          const last = i === s.blocks.length - 1;
          const start = had[b.id] !== undefined ? had[b.id] * 100 : last ? left : Math.floor(100 / s.blocks.length);
          const text = await vscode.window.showInputBox({
            title: `Shares of ${s.display} (${i + 1} of ${s.blocks.length}): ${b.name}`,
            prompt: `Percent of the ${s.display} the factory needs that "${b.name}" makes (${Number(left.toPrecision(4))} % left to give).`,
            value: String(Number(Math.min(start, left).toPrecision(4))),
            validateInput: (v) => {
              const n = Number(v.replace('%', '').trim());
              return Number.isFinite(n) && n >= 0 && n <= left + 1e-9 ? undefined : `A percentage from 0 to ${Number(left.toPrecision(4))}`;
            },
          });
          if (text === undefined) return undefined;
          const n = Number(text.replace('%', '').trim());
          shares[b.id] = n / 100;
          left -= n;
        }
      }
      check(Object.keys(shares));
      const sum = Object.values(shares).reduce((x, y) => x + y, 0);
      if (sum > 1 + 1e-9) throw new Error(`The shares of ${s.display} add up to ${Number((sum * 100).toPrecision(4))} %; they can give out at most 100 %.`);
      return setSupplyPriority(p, { good: a.good, order: [], shares });
    }),

    registerCommand('pyops.scenario.supplyDefault', async (arg?: unknown) => {
      const p = projects.requireWritable();
      const a = nodeOf(arg)?.supply ?? objectArg(arg, supplyArg);
      if (!a) throw new Error('Reset the supply order of a good from "Supply order" in the Factory Balance view.');
      return setSupplyPriority(p, { good: a.good, clear: true });
    }),
  ];
}
