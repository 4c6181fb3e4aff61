// Nothing idle without a word: after a solve, each listed row the LP leaves at zero says why — the
// block imports what it makes (not marked made inside; buying is free to the solver), other rows
// make it for less machine time, or nothing needs it — and a void left idle while its good is left
// over, or a virtual burn-* recipe running with no building to use the energy, says so too. Each
// advice names the row, gives a reason code and the block edits that change it (in the block
// editor's own edit shapes), so a host can show it on the row with a fix button.
import type { BlockDoc } from '../block/document';
import { drainGood } from '../block/document';
import type { GameIndex } from '../gameIndex';
import { FLUID_FUEL } from '../../gamedata/model';
import { isDisposalRecipeFor } from '../queries/common';
import type { NormalizedGoal } from './lp';
import type { Flow, RowAdvice } from './result';
import type { PreparedRow } from './rows';
import { fmt3 } from './rows';

/** A row runs above this rate (executions per second; the stages clean smaller values to 0). */
const RUNS = 1e-9;

const list = (xs: string[]) => (xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

function perGood(flows: Flow[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const f of flows) m.set(f.good, (m.get(f.good) ?? 0) + f.rate);
  return m;
}

export function rowAdvice(g: GameIndex, rows: PreparedRow[], x: Float64Array, doc: BlockDoc, goals: NormalizedGoal[], imports: Flow[], byproducts: Flow[]): RowAdvice[] {
  const imported = perGood(imports);
  const leftOver = perGood(byproducts);
  const goalGoods = new Set(goals.filter((q) => q.direction === 'produce' && !q.unmade).map((q) => q.good));
  const made = new Set([...doc.made, ...goalGoods]);
  const drained = new Set(doc.drains.map(drainGood));
  const name = (good: string) => `${g.displayOf(good)} [${good}]`;
  const runs = (i: number) => x[i] > RUNS;
  const makes = (r: PreparedRow, good: string) => r.terms.some((t) => t.good === good && t.amount > 0 && !t.energy);
  const uses = (r: PreparedRow, good: string) => r.terms.some((t) => t.good === good && t.amount < 0);
  const remove = (recipe: string): RowAdvice['fixes'][number] => ({ label: 'Remove the row', edit: { kind: 'row-remove', recipe } });

  const out: RowAdvice[] = [];
  rows.forEach((r, i) => {
    if (r.docIndex < 0) return; // a composed group's stand-in speaks through its own rows
    const recipe = r.recipe.name;
    const row = `${r.recipe.display} [${recipe}]`;

    if (r.recipe.kind === 'burning') {
      if (!runs(i)) return;
      const fuel = r.recipe.ingredients[0]?.name;
      if (r.recipe.products.some((p) => p.name === FLUID_FUEL)) {
        // Burning a fluid into the fluid-fuel pool is how fluid burners are fed; only a surplus is burnt for nothing.
        const surplus = leftOver.get(FLUID_FUEL) ?? 0;
        if (!(surplus > 0)) return;
        out.push({
          recipe, code: 'burn-no-building', ...(fuel ? { good: fuel } : {}),
          message: `${row} runs at ${fmt3(x[i])}/s but ${fmt3(surplus)} MJ/s of fluid fuel is left over: no building burns it. Remove the row, or add the fluid-burning machines it is meant to feed.`,
          fixes: [remove(recipe)],
        });
        return;
      }
      const fixes: RowAdvice['fixes'] = [remove(recipe)];
      if (fuel && drained.has(fuel)) fixes.push({ label: `Stop balancing ${g.displayOf(fuel)} inside`, edit: { kind: 'good-drain', good: fuel, on: false } });
      out.push({
        recipe, code: 'burn-no-building', ...(fuel ? { good: fuel } : {}),
        message: `${row} runs at ${fmt3(x[i])}/s with no building: the fuel is destroyed and no machine uses its energy (burner rows already burn their own fuel). ${fuel ? `To burn ${name(fuel)} in a machine, pick it as a burner row's fuel; ` : ''}remove the row${fuel && drained.has(fuel) ? `, or stop balancing ${name(fuel)} inside and let it leave the block` : ''}.`,
        fixes,
      });
      return;
    }
    if (runs(i)) return;

    const only = r.recipe.ingredients.length === 1 ? r.recipe.ingredients[0].name : null;
    const extra = only ? (leftOver.get(only) ?? 0) : 0;
    if (only && extra > 0 && isDisposalRecipeFor(g, r.recipe, only)) {
      out.push({
        recipe, code: 'idle-void', good: only,
        message: `${row} does not run while ${fmt3(extra)}/s of ${name(only)} is left over: nothing asks the block to get rid of it. Balance ${name(only)} inside (drain it) to send it to this row.`,
        fixes: [{ label: `Balance ${g.displayOf(only)} inside`, edit: { kind: 'good-drain', good: only, on: true } }, remove(recipe)],
      });
      return;
    }

    const products = [...new Set(r.terms.filter((t) => t.amount > 0 && !t.energy).map((t) => t.good))];
    const bought = products.find((p) => (imported.get(p) ?? 0) > 0 && !made.has(p) && !drained.has(p));
    if (bought) {
      const madeFix = { label: `Make ${g.displayOf(bought)} inside`, edit: { kind: 'good-made', good: bought, on: true } } as const;
      // Fed by a leftover (a byproduct loop), the row runs once that leftover is balanced inside —
      // making all of the import inside may ask more of the loop than it gives.
      const spare = [...new Set(r.terms.filter((t) => t.amount < 0 && !t.energy && (leftOver.get(t.good) ?? 0) > 0 && !drained.has(t.good)).map((t) => t.good))][0];
      const what = `${row} does not run: the block imports ${fmt3(imported.get(bought)!)}/s of ${name(bought)} instead (it is not marked made inside, and buying is free to the solver)`;
      out.push(
        spare
          ? {
              recipe, code: 'idle-imported', good: bought,
              message: `${what} while ${fmt3(leftOver.get(spare)!)}/s of ${name(spare)}, which it uses, is left over. Balance ${name(spare)} inside (drain it) to run this row on it, or mark ${name(bought)} made inside.`,
              fixes: [{ label: `Balance ${g.displayOf(spare)} inside`, edit: { kind: 'good-drain', good: spare, on: true } }, madeFix, remove(recipe)],
            }
          : { recipe, code: 'idle-imported', good: bought, message: `${what}. Mark ${name(bought)} made inside to make it here.`, fixes: [madeFix, remove(recipe)] },
      );
      return;
    }
    const needed = products.filter((p) => goalGoods.has(p) || rows.some((o, j) => j !== i && runs(j) && uses(o, p)));
    if (!needed.length) {
      out.push({
        recipe, code: 'idle-unneeded', ...(products[0] ? { good: products[0] } : {}),
        message: `${row} does not run: nothing in the block uses ${products.length ? list(products.map(name)) : 'what it makes'} and none is a goal. Remove the row${products.length ? `, or add a goal for ${name(products[0])}` : ''}.`,
        fixes: [remove(recipe)],
      });
      return;
    }
    const others = rows.filter((o, j) => j !== i && runs(j) && needed.some((p) => makes(o, p)));
    if (!others.length) return;
    out.push({
      recipe, code: 'idle-cheaper', good: needed[0],
      message: `${row} does not run: ${list(others.map((o) => `${o.recipe.display} [${o.recipe.name}]`))} already ${others.length === 1 ? 'makes' : 'make'} ${list(needed.map(name))} for less machine time. Remove the row, or pin its buildings to use it.`,
      fixes: [remove(recipe)],
    });
  });
  return out;
}
