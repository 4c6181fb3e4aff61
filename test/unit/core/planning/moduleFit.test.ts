// Which modules and beacons a row may take, on the sample world: the dump's module categories and
// effects against its machines and recipes, and the horizon's verdict on each (modules-1 unlocks the
// tier-1 modules, modules-2 the tier-2 speed module and the relay beacon; both need advanced packs).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { beaconOptions, moduleOptions, rowTarget, type RowTarget } from '../../../../src/core/planning/moduleFit';
import { SAMPLE_DUMP } from '../../../helpers/paths';
import { sampleWorld, type World } from './queries/world';

const raw = JSON.parse(fs.readFileSync(SAMPLE_DUMP, 'utf8')) as Record<string, Record<string, Record<string, any>>>;

describe('module fit for a block row', () => {
  let w: World;
  before(async () => {
    w = await sampleWorld();
  });
  const target = (ctx: ReturnType<World['ctx']>, recipe: string, machine?: string): RowTarget => {
    const t = rowTarget(ctx.g, ctx.availability, { recipe, ...(machine ? { machine } : {}) });
    assert.ok(typeof t !== 'string', String(t));
    return t;
  };

  it('offers the placeable modules the machine and recipe allow, locked ones marked with their research', () => {
    const ctx = w.ctx({ research_mode: 'now', available_science_packs: ['basic-research-pack'] });
    const opts = moduleOptions(ctx.g, ctx.availability, target(ctx, 'circuit', 'press-mk2'));
    const names = opts.map((o) => o.module.name);
    // Every non-hidden module of the dump whose category press-mk2 accepts (none is limited here).
    const expected = Object.entries(raw.module)
      .filter(([, m]) => !(m.hidden ?? false) && raw['assembling-machine']['press-mk2'].allowed_module_categories.includes(m.category))
      .map(([n]) => n)
      .filter((n) => !w.g.modules.get(n)!.hidden);
    assert.deepEqual([...names].sort(), [...expected].sort());
    assert.ok(!names.includes('tempered-press-module'), 'TURD modules are never offered');
    const s2 = opts.find((o) => o.module.name === 'speed-module-s2')!;
    assert.equal(s2.verdict.state, 'needs-research');
    assert.deepEqual(s2.verdict.needs?.research, ['modules-2']);
    // Locked modules come after the usable ones.
    const states = opts.map((o) => ['unlocked', 'buildable'].includes(o.verdict.state));
    assert.deepEqual(states, [...states].sort((a, b) => Number(b) - Number(a)));
  });

  it('leaves productivity modules out for a recipe without productivity, and everything out for a machine without slots', () => {
    const ctx = w.ctx({ research_mode: 'future' });
    assert.equal(raw.recipe.press.allow_productivity ?? false, false);
    const names = moduleOptions(ctx.g, ctx.availability, target(ctx, 'press', 'press-mk2')).map((o) => o.module.name);
    assert.ok(names.includes('speed-module-s1'));
    assert.ok(!names.some((n) => w.g.modules.get(n)!.effects.productivity > 0), names.join());
    assert.equal(raw['assembling-machine']['void-pit'].module_slots, 0);
    assert.deepEqual(moduleOptions(ctx.g, ctx.availability, target(ctx, 'tailings-void')), []);
  });

  it('offers each beacon with the modules it transmits', () => {
    const ctx = w.ctx({ research_mode: 'future' });
    const opts = beaconOptions(ctx.g, ctx.availability, target(ctx, 'circuit', 'press-mk2'));
    assert.deepEqual(opts.map((o) => o.beacon.name).sort(), Object.keys(raw.beacon).sort());
    assert.ok(opts.every((o) => o.modules.length > 0), 'every beacon of the sample world takes some module');
    for (const o of opts) {
      const allowed = raw.beacon[o.beacon.name].allowed_effects as string[];
      // A module goes into a beacon unless one of its bonuses is an effect the beacon does not transmit.
      for (const m of o.modules) assert.ok(Object.entries(m.module.effects).every(([e, v]) => allowed.includes(e) || !((e === 'consumption' || e === 'pollution') ? v < 0 : v > 0)), `${m.module.name} in ${o.beacon.name}`);
      assert.ok(!o.modules.some((m) => m.module.name === 'productivity-module-s1'));
    }
  });
});
