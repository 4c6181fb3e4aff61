// VS Code's own pickers for the science block: a technology by display name (its cost, whether it is
// researched) and the minutes to research it in; a science pack to add and its rate.
import * as vscode from 'vscode';
import type { PlanningContext } from '../../core/planning/context';
import { researchWork, techUnits } from '../../core/planning/science/research';
import { parseRate } from '../views/scenarioView';

interface TechItem extends vscode.QuickPickItem {
  tech: string;
}

const n = (x: number) => String(Number(x.toPrecision(4)));

/** "75 × (Basic research pack, Advanced research pack), 20 s each", or why labs do not research it. */
function costText(ctx: PlanningContext, tech: string): string {
  const t = ctx.g.technologies.get(tech)!;
  if (!t.ingredients.length) return t.trigger ? 'completed by a trigger, not in labs' : 'takes no science packs';
  const units = techUnits(t);
  const packs = t.ingredients.map((i) => `${i.amount > 1 ? `${i.amount} ` : ''}${ctx.g.displayOf(i.pack)}`).join(', ');
  return `${units === null ? '?' : n(units)} × (${packs})${t.unitTime ? `, ${n(t.unitTime)} s each` : ''}`;
}

/** A technology (unresearched first) and the minutes to research it in; undefined when cancelled. */
export async function askTechnology(ctx: PlanningContext, current?: { tech: string; minutes: number; prerequisites: boolean }): Promise<{ tech: string; minutes: number; prerequisites: boolean } | undefined> {
  const { g } = ctx;
  const done = ctx.availability.state.researched;
  const techs = [...g.technologies.values()].filter((t) => !t.hidden && !/^turd-select-/.test(t.name));
  const item = (t: (typeof techs)[number]): TechItem => ({
    label: `${done.has(t.name) ? '$(check) ' : ''}${t.display}`,
    description: t.name,
    detail: `${costText(ctx, t.name)}${done.has(t.name) ? ' · researched' : ''}`,
    tech: t.name,
    ...(current?.tech === t.name ? { picked: true } : {}),
  });
  const byName = (a: TechItem, b: TechItem) => a.label.localeCompare(b.label);
  const open = techs.filter((t) => !done.has(t.name)).map(item).sort(byName);
  const researched = techs.filter((t) => done.has(t.name)).map(item).sort(byName);
  const sep = (label: string): TechItem => ({ label, kind: vscode.QuickPickItemKind.Separator, tech: '' });
  const pick = await vscode.window.showQuickPick([sep('Not researched'), ...open, ...(researched.length ? [sep('Researched')] : []), ...researched], {
    title: 'Derive the science block from a technology',
    placeHolder: 'Type to search technologies by name',
    matchOnDescription: true,
    matchOnDetail: false,
  });
  if (!pick?.tech) return undefined;
  const work = researchWork(g, done, pick.tech);
  const inLabs = work.items.length;
  const text = await vscode.window.showInputBox({
    title: `Research ${g.displayOf(pick.tech)} in how many minutes?`,
    prompt: work.alreadyResearched
      ? `${g.displayOf(pick.tech)} is researched already: the labs would have nothing to do.`
      : `${inLabs} technolog${inLabs === 1 ? 'y' : 'ies'} to research in labs (the target and its unresearched prerequisites), ${work.items.reduce((s, i) => s + i.units, 0)} units${work.skipped.length ? `; ${work.skipped.length} more not researched in labs` : ''}.`,
    value: String(current?.minutes ?? 60),
    validateInput: (v) => (Number(v) > 0 && Number.isFinite(Number(v)) ? undefined : 'A positive number of minutes, e.g. 60'),
  });
  if (text === undefined) return undefined;
  return { tech: pick.tech, minutes: Number(text), prerequisites: current?.tech === pick.tech ? current.prerequisites : true };
}

/** A science pack the bank does not use yet, and its rate per second. */
export async function askPack(ctx: PlanningContext, options: Array<{ pack: string; display: string }>): Promise<{ pack: string; rate: number } | undefined> {
  if (!options.length) {
    void vscode.window.showInformationMessage('PyOps: the science block uses every science pack a lab takes already.');
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(options.map((o) => ({ label: o.display, description: o.pack, pack: o.pack })), { title: 'Add a science pack to the science block', matchOnDescription: true });
  if (!pick) return undefined;
  const text = await vscode.window.showInputBox({
    title: `How many ${ctx.g.displayOf(pick.pack)} do the labs use?`,
    prompt: 'Per second (60/min and 3600/h work too).',
    value: '1/min',
    validateInput: (v) => {
      const r = parseRate(v);
      return typeof r === 'string' ? r : r < 0 ? 'Labs use packs: a rate of zero or more' : undefined;
    },
  });
  if (text === undefined) return undefined;
  const r = parseRate(text);
  return typeof r === 'number' && r > 0 ? { pack: pick.pack, rate: r } : undefined;
}
