// A FactorioLab set lists a recipe once per temperature of a fluid it takes; lists a model reads show
// one line naming the others. Expected values from data.json of factoriolab-pysalf.
import assert from 'node:assert/strict';
import { foldVariants, variantBase } from '../../../../../src/core/planning/queries/variants';
import { rankedRecipes } from '../../../../../src/core/planning/queries/common';
import { recipeOptions } from '../../../../../src/core/planning/queries/recipeOptions';
import { recipeGraph } from '../../../../../src/core/planning/queries/recipeGraph';
import { byproductSinksBatch } from '../../../../../src/core/planning/queries/byproductSinks';
import { sinkAdvice } from '../../../../../src/core/planning/factory/audit';
import { requireSharedData } from '../../../../helpers/paths';
import { loadWorld } from './world';

describe('temperature variants of a recipe', function () {
  this.timeout(120_000);

  it('full Py: navens-1 taking water at 100 or 200 °C is one recipe, wax for sugar is not', async function () {
    const w = await loadWorld(requireSharedData(this, 'factoriolab-pysalf'));
    // data.json: navens-1 in {navens-spore 2, guts 5, water 100, fungal-substrate-02 2, fertilizer 5};
    // navens-1-water-100 the same with water-100 100 (and -water-200 with water-200), the same out.
    assert.equal(variantBase(w.g, 'navens-1-water-100'), 'navens-1');
    assert.equal(variantBase(w.g, 'navens-1-water-200'), 'navens-1');
    // co-biomass-extraction takes steam-500 100, its -steam-2000 twin steam-2000 100: steam at another temperature.
    assert.equal(variantBase(w.g, 'co-biomass-extraction-steam-2000'), 'co-biomass-extraction');
    assert.equal(variantBase(w.g, 'navens-1'), undefined);
    // sugar-wax is named like one (wax is a fluid) but takes sugar and a barrel, not sweet syrup: another recipe.
    assert.equal(variantBase(w.g, 'sugar-wax'), undefined);
    // collagen-glycerol makes glycerol from collagen: not collagen's recipe at another temperature.
    assert.equal(variantBase(w.g, 'collagen-glycerol'), undefined);
  });

  it('full Py: the options for navens show navens-1 once, naming its variants, and count them toward the limit', async function () {
    const w = await loadWorld(requireSharedData(this, 'factoriolab-pysalf'));
    const ctx = w.ctx({ research_mode: 'future' });
    const all = rankedRecipes(ctx, 'navens', 'produce').map((r) => r.info.recipe.name);
    assert.ok(all.includes('navens-1-water-100'));
    const folded = foldVariants(w.g, rankedRecipes(ctx, 'navens', 'produce'));
    assert.equal(folded.reduce((n, f) => n + 1 + f.variants.length, 0), all.length, 'every recipe is on a line or named in one');
    const r = recipeOptions(ctx, { good: 'navens', limit: 20 });
    const line = r.candidates.find((c) => c.recipe === 'navens-1')!;
    assert.deepEqual([...(line.variants ?? [])].sort(), ['navens-1-water-100', 'navens-1-water-200']);
    assert.ok(!r.candidates.some((c) => c.recipe === 'navens-1-water-100'));
    // A limit of 3 recipes: navens-1 and its two variants fill it.
    const three = recipeOptions(ctx, { good: 'navens', limit: 3 });
    assert.equal(three.candidates.reduce((n, c) => n + 1 + (c.variants?.length ?? 0), 0), 3);
    assert.equal(three.truncated, true);
    const graph = recipeGraph(ctx, { target: 'navens' }) as { goods: Record<string, { candidates?: Array<{ recipe: string; variants?: string[] }> }> };
    assert.ok(graph.goods.navens.candidates!.some((c) => (c.variants ?? []).includes('navens-1-water-100')));
  });

  it("full Py: flue gas's sinks name acidgas-2 once, with its two water temperatures as variants, in byproductSinks and in a plan's sink advice", async function () {
    const w = await loadWorld(requireSharedData(this, 'factoriolab-pysalf'));
    const ctx = w.ctx({ research_mode: 'future' });
    // data.json: acidgas-2 in {flue-gas 2000, water 600, gasoline 5} → {acidgas 30, steam 600};
    // acidgas-2-water-100 and -water-200 the same with water-100 / water-200 600.
    const sinks = byproductSinksBatch(ctx, { good: 'flue-gas', limit: 20 }).results[0];
    const line = sinks.consumedBy.find((c) => c.recipe === 'acidgas-2')!;
    assert.deepEqual([...(line.variants ?? [])].sort(), ['acidgas-2-water-100', 'acidgas-2-water-200']);
    assert.ok(!sinks.consumedBy.some((c) => c.recipe.startsWith('acidgas-2-water')));
    // 28 recipes take flue gas (data.json); variants count toward the limit of 20, the rest is truncated.
    const listed = sinks.consumedBy.reduce((n, c) => n + 1 + (c.variants?.length ?? 0), 0);
    assert.ok(listed <= 20 && listed >= 18, `${listed} recipes listed`);
    assert.equal(sinks.consumersTotal, 28);
    assert.equal(sinks.truncated, true);
    const advice = sinkAdvice(w.g, 'flue-gas', ctx.availability);
    assert.equal(new Set(advice.topConsumers.map((r) => variantBase(w.g, r) ?? r)).size, advice.topConsumers.length, `one recipe per family: ${advice.topConsumers.join(', ')}`);
    assert.ok(!advice.topConsumers.some((r) => r.startsWith('acidgas-2-water')));
  });

  it('a dump (temperatures as fluid properties) has no variants to fold', async function () {
    const w = await loadWorld(requireSharedData(this, 'py-hightech-2.0-data-raw'));
    const folded = [...w.g.recipes.keys()].filter((name) => variantBase(w.g, name) !== undefined);
    assert.deepEqual(folded, []);
  });
});
