// Property: chainStatus and submitBlock agree on random Py chains. A chain is grown from a random
// target by picking, for some of its inputs, one of the producers selectable under the horizon (some
// inputs are left open on purpose, some recipes dropped). For every chain, chainStatus's `closed`
// must equal "the submitBlock draft of the same recipes solves, with nothing unmade and nothing
// imported that the chain should build" — the draft solved by the real submitBlock path (two solves,
// modules auto-filled) — and a good chainStatus calls short must be exactly what makes the draft
// infeasible. The burner fuel of every row must be the draft's too.
import assert from 'node:assert/strict';
import { chainStatus, classifyImport } from '../../../../../src/core/planning/queries/chainStatus';
import { isRaw, rankedRecipes } from '../../../../../src/core/planning/queries/common';
import { buildDraft, specFromSubmit, submitBlockInput } from '../../../../../src/core/planning/proposals/draft';
import { ELECTRICITY } from '../../../../../src/core/gamedata/model';
import type { PlanningContext } from '../../../../../src/core/planning/context';
import { requireSharedData } from '../../../../helpers/paths';
import { loadWorld, type World } from './world';

/** mulberry32: a small seeded generator, so a failing chain can be replayed from its seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CHAINS = 40;
const MAX_RECIPES = 9;

function randomChain(ctx: PlanningContext, targets: string[], rand: () => number): { target: string; recipes: string[] } {
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const target = pick(targets);
  const recipes: string[] = [];
  const queue = [target];
  const seen = new Set(queue);
  while (queue.length && recipes.length < MAX_RECIPES) {
    const good = queue.shift()!;
    // The target always gets a producer; an input is left open now and then.
    if (good !== target && rand() < 0.2) continue;
    const options = rankedRecipes(ctx, good, 'produce').filter((r) => r.info.selectable).slice(0, 3);
    if (!options.length) continue;
    const r = pick(options).info.recipe;
    if (!recipes.includes(r.name)) recipes.push(r.name);
    for (const i of r.ingredients) {
      if (seen.has(i.name) || ctx.g.goods.get(i.name)?.synthetic || isRaw(ctx, i.name)) continue;
      seen.add(i.name);
      queue.push(i.name);
    }
  }
  return { target, recipes };
}

describe('chainStatus ⇔ submitBlock on random Py chains', function () {
  let w: World;
  before(async function () {
    this.timeout(120_000);
    w = await loadWorld(requireSharedData(this, 'py-hightech-2.0-data-raw'));
  });

  for (const [label, settings] of [
    ['up to the technology that unlocks logistic-science-pack', { research_mode: 'target' as const, horizon_target: 'logistic-science-pack', horizon_target_scope: 'research' as const }],
    ['Future', { research_mode: 'future' as const }],
  ] as const) {
    it(`closed ⇔ the block solves with nothing unmade or left to build (${label})`, async function () {
      this.timeout(300_000);
      const ctx = w.ctx(settings);
      // Targets: items some selectable recipe makes, that are neither raw nor energy, in a fixed order.
      const targets = [...ctx.g.goods.values()]
        .filter((x) => !x.synthetic && !x.hidden && x.kind === 'item' && !isRaw(ctx, x.name) && rankedRecipes(ctx, x.name, 'produce').some((r) => r.info.selectable))
        .map((x) => x.name)
        .sort();
      const seed = settings.research_mode === 'target' ? 19 : 1919;
      const rand = rng(seed);
      let closed = 0;
      let short = 0;
      for (let n = 0; n < CHAINS; n++) {
        const chain = randomChain(ctx, targets, rand);
        const at = `chain ${n} (seed ${seed}): ${JSON.stringify(chain)}`;
        const cs = await chainStatus(ctx, chain);
        assert.ok(cs.topRecipe, at);
        const perCraft = ctx.g.recipes.get(cs.topRecipe!)!.products.filter((p) => p.name === chain.target).reduce((s, p) => s + p.amount * p.probability, 0);
        const d = await buildDraft(ctx, specFromSubmit(ctx, submitBlockInput.parse({ target: chain.target, rate: perCraft, recipes: chain.recipes })));

        // The draft's own verdict: solved, nothing unmade, every import intentional.
        const shortGoods = new Set(cs.openInputs.filter((o) => /but not enough/.test(o.suggestion)).map((o) => o.good));
        const toBuild = d.imports.filter((f) => f.good !== ELECTRICITY && classifyImport(ctx, f.good, f.rate, { inSet: new Set(chain.recipes), short: new Set(), setRecipes: [] }).action === 'build');
        const draftClosed = d.status === 'optimal' && d.unmade.length === 0 && toBuild.length === 0;
        assert.equal(cs.closed, draftClosed, `${at}\nchainStatus open: ${JSON.stringify(cs.openInputs.map((o) => o.good))} note: ${cs.note ?? ''}\ndraft: ${d.status} to build: ${JSON.stringify(toBuild.map((f) => f.good))} unmade: ${JSON.stringify(d.unmade)}`);
        // Short goods are what keeps the draft from solving.
        assert.equal(shortGoods.size > 0, d.status === 'infeasible', `${at}\nshort: ${[...shortGoods].join(', ')}; draft ${d.status}: ${d.diagnosis?.[0]?.message ?? ''}`);
        if (d.status === 'infeasible') {
          const named = new Set((d.diagnosis ?? []).flatMap((c) => c.members).filter((m) => m.kind === 'made').map((m) => m.ref));
          assert.ok([...named].some((g) => shortGoods.has(g)), `${at}\nthe draft's diagnosis names ${[...named].join(', ')}, chainStatus ${[...shortGoods].join(', ')}`);
        }
        // One fuel choice.
        if (d.status === 'optimal') {
          for (const f of cs.fuel ?? []) assert.equal(d.rows.find((x) => x.recipe === f.recipe)?.fuel, f.fuel, `${at}: fuel of ${f.recipe}`);
        }
        if (cs.closed) closed++;
        if (shortGoods.size) short++;
      }
      // The generator must exercise both answers, or the property proves little.
      assert.ok(closed > 0 && closed < CHAINS, `${closed} of ${CHAINS} chains closed`);
      console.log(`      (${label}: ${closed} of ${CHAINS} chains closed, ${short} short of a good they make)`);
    });
  }
});
