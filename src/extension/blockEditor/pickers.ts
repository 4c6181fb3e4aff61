// Quick picks shared by the block editor and "New Block…": a good (a block's imports and unmade goals
// first), and the recipes that make or use it in picker order — usable under the horizon first, then by
// cost — each marked with a lock and what unlocks it when it is not usable yet (words, never state codes).
import * as vscode from 'vscode';
import type { PlanningContext } from '../../core/planning/context';
import { inText, outText } from '../../core/planning/queries/common';
import { needsText } from './rowView';
export { bestMaker, rankedFor } from './recipeChoice';

export interface GoodItem extends vscode.QuickPickItem {
  good: string;
}

/** Goods to offer before the rest: what the block imports, goals nothing makes yet. */
export interface GoodsFirst {
  title: string;
  goods: Array<{ good: string; detail: string }>;
}

/** A good the block can make or use; `madeOnly` keeps the goods some recipe makes. */
export async function pickGood(ctx: PlanningContext, title: string, opts: { madeOnly?: boolean; first?: GoodsFirst[] } = {}): Promise<string | undefined> {
  const g = ctx.g;
  const first = (opts.first ?? []).filter((s) => s.goods.length);
  const shown = new Set(first.flatMap((s) => s.goods.map((x) => x.good)));
  const all = [...g.goods.values()]
    .filter((x) => !x.hidden && !shown.has(x.name) && (g.producersOf(x.name).length || (!opts.madeOnly && g.consumersOf(x.name).length)))
    .map((x): GoodItem => ({ label: x.display, description: x.name, good: x.name }))
    .sort((a, b) => a.label.localeCompare(b.label));
  const sep = (label: string): GoodItem => ({ label, kind: vscode.QuickPickItemKind.Separator, good: '' });
  const items: GoodItem[] = [
    ...first.flatMap((s) => [sep(s.title), ...s.goods.map((x): GoodItem => ({ label: g.displayOf(x.good), description: x.detail, good: x.good }))]),
    ...(first.length ? [sep('All goods')] : []),
    ...all,
  ];
  return (await vscode.window.showQuickPick(items, { title, matchOnDescription: true, placeHolder: 'Type to search goods' }))?.good || undefined;
}

export interface RecipeItem extends vscode.QuickPickItem {
  recipe: string;
  usable: boolean;
}

export function recipeItem(ctx: PlanningContext, recipe: string, role?: string): RecipeItem {
  const v = ctx.availability.recipeVerdict(recipe);
  const needs = needsText(ctx, v);
  const usable = v.state === 'unlocked' || v.state === 'buildable';
  const rec = ctx.g.recipes.get(recipe);
  return {
    label: `${usable ? '' : '$(lock) '}${ctx.g.displayOf(recipe)}`,
    description: role ? `${role} · ${recipe}` : recipe,
    detail: usable ? (rec ? `${inText(rec)} → ${outText(rec)}` : undefined) : `Not usable under the horizon yet${needs ? `: needs ${needs}` : ''}`,
    recipe,
    usable,
  };
}
