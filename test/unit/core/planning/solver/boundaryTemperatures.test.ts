// Temperatures at a block's boundary on real Py data (py-hightech 2.0 dump). steam-exchange4 (10 s):
// 1000 critical steam at exactly 4000° + 400 water → 2000 pressured steam at 4000° + 400 steam at 150°.
// steam-heating (10 s): 1000 steam at ≤500° + 100 water + 1 fuel rod MK01 → 1000 steam at 2000°.
import assert from 'node:assert/strict';
import { planningContext } from '../../../../../src/core/planning/context';
import { buildDraft, specFromSubmit, submitBlockInput } from '../../../../../src/core/planning/proposals/draft';
import { requireSharedData } from '../../../../helpers/paths';
import type { World } from './helpers';
import { assertBalanced, loadWorld, near, row } from './helpers';

describe('block solver: temperatures at the boundary (Py data)', function () {
  let w: World;
  before(async function () {
    this.timeout(120_000);
    w = await loadWorld(requireSharedData(this, 'py-hightech-2.0-data-raw'));
  });

  const flow = (list: Array<{ good: string; rate: number; temperature?: number; minTemperature?: number | null; maxTemperature?: number | null }>, good: string) => {
    const f = list.find((x) => x.good === good);
    assert.ok(f, `no ${good} in ${list.map((x) => x.good).join(', ')}`);
    return [f.rate, f.temperature, f.minTemperature ?? undefined, f.maxTemperature ?? undefined];
  };

  it('says an import is needed at exactly 4000° and an import is accepted up to 500°', async () => {
    const r = await w.solve({ goals: [{ good: 'pressured-steam', rate: 200, temperature: 4000 }], recipes: [{ recipe: 'steam-exchange4' }] });
    assertBalanced(r);
    near(row(r, 'steam-exchange4').craftsPerSecond, 0.1); // 2000 per craft
    assert.deepEqual(flow(r.goals, 'pressured-steam'), [200, 4000, undefined, undefined]);
    assert.deepEqual(flow(r.imports, 'critical-steam'), [100, undefined, 4000, 4000]);
    assert.deepEqual(flow(r.byproducts, 'steam'), [40, 150, undefined, undefined]);
    const heating = await w.solve({ goals: [{ good: 'steam', rate: 100, temperature: 2000 }], recipes: [{ recipe: 'steam-heating' }] });
    assertBalanced(heating);
    assert.deepEqual(flow(heating.imports, 'steam'), [100, undefined, undefined, 500]);
  });

  it('keeps them in the draft the tools return', async () => {
    const ctx = planningContext(w.project);
    const d = await buildDraft(ctx, specFromSubmit(ctx, submitBlockInput.parse({ goals: [{ name: 'pressured-steam', rate: 200, temperature: 4000 }], recipes: ['steam-exchange4'] })));
    assert.equal(d.status, 'optimal', d.message);
    assert.equal(d.goals[0].temperature, 4000);
    assert.deepEqual(flow(d.importsExternal, 'critical-steam'), [100, undefined, 4000, 4000]);
    assert.deepEqual(flow(d.byproducts, 'steam'), [40, 150, undefined, undefined]);
  });

  it('carries exact temperatures and ranges through a composed group', async () => {
    // The exchanger as a module sized for 200/s at 4000°; the block wants 300/s: scale 1.5.
    const r = await w.solve({
      goals: [{ good: 'pressured-steam', rate: 300, temperature: 4000 }],
      recipes: [{ recipe: 'steam-exchange4' }],
      groups: [{ name: 'Exchanger', recipes: ['steam-exchange4'], composed: { goal: { good: 'pressured-steam', rate: 200, temperature: 4000 } } }],
    });
    assertBalanced(r);
    near(r.groups![0].scale, 1.5);
    near(row(r, 'steam-exchange4').craftsPerSecond, 0.15);
    assert.deepEqual(flow(r.goals, 'pressured-steam'), [300, 4000, undefined, undefined]);
    assert.deepEqual(flow(r.imports, 'critical-steam'), [150, undefined, 4000, 4000]);
    assert.deepEqual(flow(r.byproducts, 'steam'), [60, 150, undefined, undefined]);
  });
});
