// Module limitations as shared lists (model.ts, LimitationListRow): a family of modules with the same
// recipes shares one row, named after the first module (a dump) or the set's limitation key
// (FactorioLab) that used it.
import type { LimitationListRow } from './model';

export class LimitationLists {
  private readonly byContent = new Map<string, string>();

  constructor(private readonly out: LimitationListRow[]) {}

  /** The name of the list holding exactly these recipes, added as `name` if new; null for none (no limitation). */
  add(name: string, recipes: readonly string[]): string | null {
    if (!recipes.length) return null;
    const text = JSON.stringify(recipes);
    let have = this.byContent.get(text);
    if (have === undefined) {
      have = name;
      this.byContent.set(text, have);
      this.out.push({ name, recipes: text });
    }
    return have;
  }
}
