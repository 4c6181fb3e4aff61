// Randomized property tests on real data: random linked chains built from real recipes (seeded, so
// a failure reproduces) must solve with every good's net flow equal to goals + exports − imports,
// recomputed independently from the recipes, no made good bought, and the goal met exactly.
import assert from 'node:assert/strict';
import { buildChain } from '../../../../../bench/solve';
import { FLUID_FUEL, ELECTRICITY, HEAT } from '../../../../../src/core/gamedata/model';
import type { SolveResult } from '../../../../../src/core/planning/solver/result';
import type { World } from './helpers';
import { assertBalanced, loadWorld, rate } from './helpers';
import { requireSharedData } from '../../../../helpers/paths';

function mulberry32(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Net per good from the rows' crafts and the recipes alone (no productivity under the default horizon). */
function recomputedNet(w: World, r: SolveResult): Map<string, { net: number; gross: number }> {
  const out = new Map<string, { net: number; gross: number }>();
  const add = (good: string, v: number) => {
    const e = out.get(good) ?? { net: 0, gross: 0 };
    e.net += v;
    e.gross += Math.abs(v);
    out.set(good, e);
  };
  for (const x of r.rows) {
    const rec = w.g.recipes.get(x.recipe)!;
    for (const i of rec.ingredients) add(i.name, -i.amount * x.craftsPerSecond);
    for (const p of rec.products) add(p.name, p.amount * p.probability * x.craftsPerSecond);
  }
  return out;
}

function checkProperties(w: World, doc: ReturnType<typeof buildChain>, r: SolveResult, label: string): void {
  assertBalanced(r);
  const goal = doc.goals![0];
  assert.ok(Math.abs(rate(r.goals, goal.good) - goal.rate!) <= 1e-6 * goal.rate!, `${label}: goal not met exactly`);
  const made = new Set(doc.made);
  for (const f of r.imports) assert.ok(!made.has(f.good) || !r.rows.some((x) => x.craftsPerSecond >= 0 && w.g.recipes.get(x.recipe)!.products.some((p) => p.name === f.good)), `${label}: made ${f.good} is bought`);
  // Energy goods and fuels are netted outside the recipes; every other good must add up from the recipes.
  const energy = new Set<string>([ELECTRICITY, HEAT, FLUID_FUEL]);
  for (const x of r.rows) {
    if (!x.fuel) continue;
    energy.add(x.fuel);
    const burnt = w.g.goods.get(x.fuel)?.burntResult;
    if (burnt) energy.add(burnt);
    if (x.machine && w.g.machines.get(x.machine)?.fluidFuelFilter) energy.add(w.g.machines.get(x.machine)!.fluidFuelFilter!);
  }
  for (const [good, { net, gross }] of recomputedNet(w, r)) {
    if (energy.has(good)) continue;
    const boundary = rate(r.goals, good) + rate(r.exports, good) - rate(r.imports, good);
    assert.ok(Math.abs(net - boundary) <= 1e-6 + 2e-5 * gross, `${label}: ${good} nets ${net} from the recipes but the boundary says ${boundary}`);
  }
}

function targets(w: World, rnd: () => number, n: number): string[] {
  const goods = [...w.g.goods.values()]
    .filter((x) => !x.synthetic && w.g.producersOf(x.name).some((r) => !w.g.recipes.get(r)!.synthetic))
    .map((x) => x.name)
    .sort();
  return Array.from({ length: n }, () => goods[Math.floor(rnd() * goods.length)]);
}

for (const [data, cases] of [['py-hightech-2.0-data-raw', 30], ['vanilla-2.0-data-raw', 20]] as const) {
  describe(`block solver: random chains on ${data}`, function () {
    let w: World;
    before(async function () {
      w = await loadWorld(requireSharedData(this, data));
    });

    it(`balances every good in ${cases} random solvable chains`, async () => {
      const rnd = mulberry32(data.length * 7919);
      let solved = 0;
      for (const [k, target] of targets(w, rnd, cases).entries()) {
        const size = 3 + Math.floor(rnd() * 40);
        const rate0 = [1e-3, 0.5, 1, 7, 250][Math.floor(rnd() * 5)];
        const doc = buildChain(w.g, target, { size, random: rnd, rate: rate0 });
        const r = await w.solve(doc);
        const label = `case ${k} (${target}, ${doc.recipes!.length} rows at ${rate0}/s)`;
        if (r.status === 'infeasible') {
          // A random chain may loop made goods without a source: it must then say so.
          assert.ok(r.diagnosis?.length && r.diagnosis[0].members.length, `${label}: infeasible without a diagnosis`);
          continue;
        }
        assert.equal(r.status, 'optimal', `${label}: ${r.message}`);
        checkProperties(w, doc, r, label);
        solved++;
      }
      assert.ok(solved >= cases * 0.8, `only ${solved} of ${cases} random chains solved`);
    });
  });
}
