// Opening a good from the Factory and Factory Balance views: a quick pick of what the player can
// look at — the good's build-or-import page (goodInfo, the same page chat references open) and the
// enabled blocks that make or take it (from the stored projections), each opening as a block page.
import * as vscode from 'vscode';
import { z } from 'zod';
import { factoryLedger, ledgerEntriesOf } from '../../core/planning/factory/ledger';
import { gameIndex } from '../../core/planning/gameIndex';
import { goodUri } from '../chat/references';
import type { ProjectManager } from '../projectManager';
import { registerCommand } from './register';

export interface GoodTarget {
  label: string;
  description: string;
  /** `info` opens the good's page; otherwise the block to open. */
  open: 'info' | { blockId: string };
}

/** What opening `good` offers: its page first, then the blocks that make it, then those that take it. */
export function goodTargets(projects: ProjectManager, good: string): GoodTarget[] {
  const p = projects.require();
  const display = p.hasGameData() ? gameIndex(p).displayOf(good) : good;
  // A fluid split by temperature has several entries: the good's page lists every block either way.
  const entries = ledgerEntriesOf(factoryLedger(p), good);
  const e = { producers: entries.flatMap((x) => x.producers), consumers: entries.flatMap((x) => x.consumers) };
  const rate = (r: number) => `${r >= 100 ? r.toFixed(0) : r.toPrecision(3).replace(/\.?0+$/, '')}/s`;
  const byBlock = (xs: Array<{ blockId: string; blockName: string; rate: number }>) => {
    const m = new Map<string, { name: string; rate: number }>();
    for (const x of xs) m.set(x.blockId, { name: x.blockName, rate: (m.get(x.blockId)?.rate ?? 0) + x.rate });
    return [...m].sort((a, b) => b[1].rate - a[1].rate);
  };
  return [
    { label: `$(info) About ${display}`, description: 'build-or-import verdict, recipes that make and use it', open: 'info' },
    ...byBlock(e?.producers ?? []).map(([blockId, b]): GoodTarget => ({ label: `$(arrow-right) ${b.name}`, description: `makes ${rate(b.rate)}`, open: { blockId } })),
    ...byBlock(e?.consumers ?? []).map(([blockId, b]): GoodTarget => ({ label: `$(arrow-left) ${b.name}`, description: `takes ${rate(b.rate)}`, open: { blockId } })),
  ];
}

const openGoodArg = z.object({ good: z.string().min(1), open: z.union([z.literal('info'), z.object({ blockId: z.string().min(1) })]).optional() }).loose();

export async function openGoodTarget(projects: ProjectManager, good: string, t: GoodTarget['open']): Promise<string | undefined> {
  if (t !== 'info') return vscode.commands.executeCommand<string | undefined>('pyops.block.open', t);
  const p = projects.require();
  const uri = goodUri(good, p.hasGameData() ? gameIndex(p).displayOf(good) : good);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { preview: true });
  return uri.toString();
}

/** `pyops.good.open {good, open?}`: without `open`, asks with a quick pick (a single choice opens at once). */
export function registerGoodCommands(projects: ProjectManager): vscode.Disposable[] {
  return [
    registerCommand('pyops.good.open', async (arg?: unknown) => {
      const a = openGoodArg.safeParse(arg);
      if (!a.success) throw new Error('Open a good from the Factory or Factory Balance view (pyops.good.open needs { good }).');
      const { good } = a.data;
      if (a.data.open) return openGoodTarget(projects, good, a.data.open);
      const targets = goodTargets(projects, good);
      const pick = targets.length === 1 ? targets[0] : await vscode.window.showQuickPick(targets, { title: `Open ${targets[0].label.replace(/^\$\(info\) About /, '')}`, placeHolder: 'Its page, or a block that makes or takes it' });
      return pick ? openGoodTarget(projects, good, pick.open) : undefined;
    }),
  ];
}
