// Quick picks shared by the block editor and "New Block…": a good from the game data, and recipe
// items marked by what the horizon allows (🔒 with the state when they are not usable yet).
import * as vscode from 'vscode';
import type { PlanningContext } from '../../core/planning/context';
import { isUsable, stateWords } from '../../core/planning/availability';

/** A good the block can make or use; `madeOnly` keeps the goods some recipe makes. */
export async function pickGood(ctx: PlanningContext, title: string, opts: { madeOnly?: boolean } = {}): Promise<string | undefined> {
  const g = ctx.g;
  const items = [...g.goods.values()]
    .filter((x) => !x.hidden && (g.producersOf(x.name).length || (!opts.madeOnly && g.consumersOf(x.name).length)))
    .map((x) => ({ label: x.display, description: x.name, good: x.name }))
    .sort((a, b) => a.label.localeCompare(b.label));
  return (await vscode.window.showQuickPick(items, { title, matchOnDescription: true, placeHolder: 'Type to search goods' }))?.good;
}

export interface RecipeItem extends vscode.QuickPickItem {
  recipe: string;
  usable: boolean;
}

export function recipeItem(ctx: PlanningContext, recipe: string, role?: string): RecipeItem {
  const v = ctx.availability.recipeVerdict(recipe);
  const usable = isUsable(v);
  return {
    label: `${usable ? '' : '$(lock) '}${ctx.g.displayOf(recipe)}`,
    description: role ? `${role} · ${recipe}` : recipe,
    detail: usable ? undefined : `not usable under the horizon: ${stateWords(v.state)}`,
    recipe,
    usable,
  };
}
