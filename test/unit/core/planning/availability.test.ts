// Availability on the sample world: horizon gating (now / target / future), the exact prerequisite
// closure of Target, TURD branch states and replacements, available vs buildable, the one
// default-machine rule (favorites included), exclusions and productivity bonuses.
import assert from 'node:assert/strict';
import { Availability, packsOver } from '../../../../src/core/planning/availability';
import { GameIndex } from '../../../../src/core/planning/gameIndex';
import type { Machine } from '../../../../src/core/planning/gameIndex';
import { loadWorld, privateSampleWorld, sampleWorld, type World } from './queries/world';
import { requireSharedData } from '../../../helpers/paths';

const BASIC = 'basic-research-pack';
const ADV = 'advanced-research-pack';

describe('availability', () => {
  let w: World;
  before(async () => {
    w = await sampleWorld();
  });
  const avail = (...args: Parameters<World['state']>) => new Availability(w.g, w.state(...args));

  describe('Now horizon', () => {
    it('counts a trigger technology as researchable without any pack', () => {
      const a = avail({ research_mode: 'now' });
      const gear = a.recipe('gear');
      assert.equal(gear.research, 'available');
      assert.equal(gear.availableNow, true);
      assert.equal(gear.buildableNow, true);
      assert.equal(gear.unlockedInSave, false);
    });

    it('needs research when the closure uses a pack the user does not produce, and names the pack', () => {
      const a = avail({ research_mode: 'now', available_science_packs: [] });
      const c = a.recipe('circuit');
      assert.equal(c.research, 'needs-research');
      assert.deepEqual(c.needsPacks, [BASIC]);
      assert.equal(c.availableNow, false);
      assert.equal(c.buildableNow, false);
    });

    it('makes everything researchable with produced packs available, and nothing beyond', () => {
      const a = avail({ research_mode: 'now', available_science_packs: [BASIC] });
      assert.equal(a.recipe('circuit').availableNow, true);
      assert.equal(a.recipe('resin').availableNow, true);
      const d = a.recipe('dense-circuit');
      assert.equal(d.research, 'needs-research');
      assert.deepEqual(d.needsPacks, [ADV]);
    });

    it('treats researched technologies as unlocked in the save, regardless of packs', () => {
      const a = avail({ research_mode: 'now', available_science_packs: [] }, ['automation-basics', 'electronics']);
      const c = a.recipe('circuit');
      assert.equal(c.research, 'researched');
      assert.equal(c.unlockedInSave, true);
      assert.equal(c.buildableNow, true);
    });

    it('reports start-enabled and synthetic recipes as enabled', () => {
      const a = avail({ research_mode: 'now' });
      assert.equal(a.recipe('ferrite-plate').research, 'enabled');
      assert.equal(a.recipe('mine-azurite-ore').research, 'enabled');
      assert.equal(a.recipe('ferrite-plate').unlockedInSave, true);
    });

    it('gates machines by the recipes making their item', () => {
      const a = avail({ research_mode: 'now', available_science_packs: [BASIC] });
      assert.equal(a.machine('press').buildableNow, true);
      assert.equal(a.machine('press-mk2').availableNow, false);
      assert.deepEqual(a.machine('press-mk2').madeBy, ['press-mk2']);
    });
  });

  describe('Target horizon', () => {
    it('takes the lowest-tier technology unlocking a recipe of the target good', () => {
      assert.equal(avail({ research_mode: 'target', horizon_target: 'dense-circuit' }).targetTech, 'advanced-pressing');
      assert.equal(avail({ research_mode: 'target', horizon_target: 'resin' }).targetTech, 'advanced-research');
      assert.equal(avail({ research_mode: 'target', horizon_target: 'modules-1' }).targetTech, 'modules-1');
      assert.equal(avail({ research_mode: 'target', horizon_target: 'ferrite-plate' }).targetTech, null);
    });

    it('is the exact prerequisite closure, not every technology of the same pack tier', () => {
      const a = avail({ research_mode: 'target', horizon_target: 'dense-circuit', available_science_packs: [] });
      assert.deepEqual([...a.targetClosure!].sort(), ['advanced-pressing', 'advanced-research', 'automation-basics', 'electronics', 'fluid-handling']);
      assert.equal(a.recipe('dense-circuit').availableNow, true);
      assert.equal(a.recipe('circuit').availableNow, true);
      // modules-1 uses the same two packs but is not a prerequisite of the target.
      assert.equal(a.recipe('speed-module-s1').availableNow, false);
      assert.equal(a.recipe('gear-tempered').availableNow, false);
    });

    it('keeps researched technologies outside the closure available', () => {
      const a = avail({ research_mode: 'target', horizon_target: 'circuit' }, ['automation-basics', 'electronics', 'fluid-handling', 'advanced-research', 'advanced-pressing', 'modules-1']);
      assert.equal(a.recipe('speed-module-s1').availableNow, true);
      assert.equal(a.recipe('beacon-tower').availableNow, false);
    });
  });

  describe('Future horizon', () => {
    it('reaches everything that has an unlock and still says what the cheapest route lacks', () => {
      const a = avail({ research_mode: 'future', available_science_packs: [BASIC] });
      const b = a.recipe('beacon-tower');
      assert.equal(b.research, 'available');
      assert.equal(b.availableNow, true);
      assert.deepEqual(b.needsPacks, [ADV]);
      assert.equal(a.machine('press-mk2').buildableNow, true);
    });
  });

  describe('TURD', () => {
    it('marks branch recipes pickable while the master is undecided: available, not buildable', () => {
      const a = avail({ research_mode: 'future' });
      const t = a.recipe('gear-tempered');
      assert.deepEqual(t.turd, { master: 'press-upgrade', branch: 'tempered-press', state: 'pickable' });
      assert.equal(t.availableNow, true);
      assert.equal(t.buildableNow, false);
      assert.equal(t.unlockedInSave, false);
    });

    it('makes the selected branch active and blocks the others', () => {
      const a = avail({ research_mode: 'future' }, ['press-upgrade'], { 'press-upgrade': 'tempered-press' });
      assert.equal(a.recipe('gear-tempered').turd!.state, 'active');
      assert.equal(a.recipe('gear-tempered').buildableNow, true);
      assert.equal(a.recipe('gear-tempered').unlockedInSave, true);
      const lean = a.recipe('frame-lean');
      assert.equal(lean.turd!.state, 'blocked');
      assert.equal(lean.availableNow, false);
      assert.equal(lean.buildableNow, false);
    });

    it('supersedes an old recipe once its replacement branch is selected, and only then', () => {
      assert.equal(avail({ research_mode: 'future' }).recipe('gear').supersededBy, null);
      const a = avail({ research_mode: 'future' }, [], { 'press-upgrade': 'tempered-press' });
      assert.deepEqual(a.recipe('gear').supersededBy, { recipe: 'gear-tempered', branch: 'tempered-press' });
      assert.equal(a.recipe('frame').supersededBy, null);
    });

    it('applies the modules of selected branches only', () => {
      assert.deepEqual(avail({}).activeTurdModules(), []);
      assert.deepEqual(avail({}, [], { 'press-upgrade': 'lean-press' }).activeTurdModules(), ['lean-press-module']);
    });

    it('gates branch recipes in Now by the master research', () => {
      const a = avail({ research_mode: 'now', available_science_packs: [BASIC] }, [], { 'press-upgrade': 'tempered-press' });
      assert.equal(a.recipe('gear-tempered').research, 'needs-research');
      assert.equal(a.recipe('gear-tempered').buildableNow, false);
      const b = avail({ research_mode: 'now', available_science_packs: [BASIC, ADV] }, [], { 'press-upgrade': 'tempered-press' });
      assert.equal(b.recipe('gear-tempered').buildableNow, true);
    });
  });

  describe('one verdict per recipe', () => {
    it('a recipe no available machine can run is neither available nor buildable, and says why', () => {
      // tailings-void is enabled from the start, but the void pit is unlocked by electronics (basic packs).
      const a = avail({ research_mode: 'now', available_science_packs: [] });
      const v = a.recipe('tailings-void');
      assert.equal(v.research, 'enabled');
      assert.deepEqual([v.availableNow, v.buildableNow, v.selectable, v.lockState], [false, false, false, 'locked']);
      assert.equal(v.lockReason, 'no machine for it is available yet');
      // Its own research gate is open: only the machine is missing.
      assert.equal(a.researchGate('tailings-void').buildableNow, true);
      const b = avail({ research_mode: 'now', available_science_packs: [BASIC] }).recipe('tailings-void');
      assert.deepEqual([b.availableNow, b.buildableNow, b.selectable, b.lockState], [true, true, true, 'selectable']);
    });
  });

  describe('state for tool results', () => {
    const HORIZONS: Array<[string, Parameters<World['state']>]> = [
      ['now, no packs', [{ research_mode: 'now', available_science_packs: [] }]],
      ['now, basic, early research', [{ research_mode: 'now', available_science_packs: [BASIC] }, ['automation-basics', 'electronics']]],
      ['target lean circuits', [{ research_mode: 'target', horizon_target: 'circuit-lean' }]],
      ['future, tempered press picked', [{ research_mode: 'future' }, [], { 'press-upgrade': 'tempered-press' }]],
      ['future', [{ research_mode: 'future' }]],
    ];

    it('is derived from the one verdict: usable states are selectable, unlocked is rank 0, needs only when not usable', () => {
      const seen = new Set<string>();
      for (const [label, args] of HORIZONS) {
        const a = avail(...args);
        for (const r of w.g.recipes.keys()) {
          const av = a.recipe(r);
          const v = a.recipeVerdict(r);
          seen.add(v.state);
          const usable = v.state === 'unlocked' || v.state === 'buildable';
          const at = `${r} under ${label}: ${JSON.stringify(v)}`;
          if (usable) assert.equal(av.selectable, true, at);
          // A selectable recipe not yet usable is only a TURD pick (Up to target plans through the pick).
          if (av.selectable && !usable) assert.deepEqual([v.state, a.mode], ['turd-pick', 'target'], at);
          assert.equal(v.state === 'unlocked', av.rank === 0, at);
          assert.equal(v.state === 'superseded', av.rank === 3, at);
          assert.equal(v.needs !== undefined, !usable, at);
          if (v.state === 'needs-research') assert.ok(v.needs?.research, at);
          if (v.state === 'turd-pick' || v.state === 'turd-blocked') assert.equal(v.needs?.turd?.branch, av.turd?.branch, at);
          if (v.state === 'no-machine') assert.ok(v.needs?.machine, at);
        }
      }
      // The sample world exercises every word.
      assert.deepEqual([...seen].sort(), ['buildable', 'needs-research', 'no-machine', 'superseded', 'turd-blocked', 'turd-pick', 'unlocked']);
    });

    it('names the machine and its technology when only the machine is missing', () => {
      // tailings-void is enabled; its only machine, the void pit, comes with electronics (basic packs).
      const none = avail({ research_mode: 'now', available_science_packs: [] }).recipeVerdict('tailings-void');
      assert.deepEqual(none, { state: 'no-machine', needs: { machine: { name: 'void-pit', research: 'electronics', packs: [BASIC] } } });
      assert.deepEqual(avail({ research_mode: 'now', available_science_packs: [BASIC] }).recipeVerdict('tailings-void'), { state: 'buildable' });
      assert.deepEqual(avail({ research_mode: 'now', available_science_packs: [BASIC] }, ['automation-basics', 'electronics']).recipeVerdict('tailings-void'), { state: 'unlocked' });
    });

    it('gives machines the same words', async () => {
      const now = avail({ research_mode: 'now', available_science_packs: [BASIC] }, ['automation-basics']);
      assert.deepEqual(now.machineVerdict('press'), { state: 'unlocked' });
      assert.deepEqual(now.machineVerdict('press-mk2'), { state: 'needs-research', needs: { research: ['advanced-pressing'], packs: [ADV] } });
      assert.deepEqual(avail({ research_mode: 'future' }).machineVerdict('press-mk2'), { state: 'buildable' });
      const pw = await privateSampleWorld();
      const legacy: Machine = { ...pw.g.machines.get('press-mk2')!, name: 'press-legacy', hidden: true, item: null };
      pw.g.machines.set(legacy.name, legacy);
      assert.deepEqual(new Availability(pw.g, pw.state({ research_mode: 'future' })).machineVerdict('press-legacy'), { state: 'no-machine' });
    });
  });

  describe('default machine', () => {
    it('picks the fastest buildable machine and says so', () => {
      const a = avail({ research_mode: 'now', available_science_packs: [BASIC] });
      const d = a.defaultMachine('gear');
      assert.equal(d.machine!.name, 'press');
      assert.equal(d.rule, 'fastest-buildable');
      assert.match(d.explanation, /fastest buildable/);
      assert.equal(avail({ research_mode: 'future' }).defaultMachine('gear').machine!.name, 'press-mk2');
    });

    it('uses a buildable favorite for the category, and ignores one that is not buildable', () => {
      const fav = avail({ research_mode: 'future', favorite_machines: { crafting: 'press' } }).defaultMachine('gear');
      assert.equal(fav.machine!.name, 'press');
      assert.equal(fav.rule, 'favorite');
      assert.match(fav.explanation, /favorite for crafting/);
      const notYet = avail({ research_mode: 'now', available_science_packs: [BASIC], favorite_machines: { crafting: 'press-mk2' } }).defaultMachine('gear');
      assert.equal(notYet.machine!.name, 'press');
      assert.equal(notYet.rule, 'fastest-buildable');
    });

    it('falls back to the fastest machine when none is buildable, saying so and naming the unlocking technology', () => {
      const a = avail({ research_mode: 'now', available_science_packs: [] });
      // refinery-unit's recipe is unlocked by fluid-handling (basic packs, not produced): nothing is buildable.
      const d = a.defaultMachine('refine-brine');
      assert.equal(d.machine!.name, 'refinery-unit');
      assert.equal(d.rule, 'none-buildable');
      assert.equal(d.buildable, false);
      assert.deepEqual(d.needs, { technology: 'fluid-handling', display: 'Fluid handling', missingPacks: [BASIC] });
      assert.match(d.warning!, /Refinery \[refinery-unit\] is not buildable under the now horizon: it is unlocked by Fluid handling \[fluid-handling\], which needs basic-research-pack/);
      // Buildable choices carry no warning.
      const ok = avail({ research_mode: 'now', available_science_packs: [BASIC] }).defaultMachine('refine-brine');
      assert.equal(ok.rule, 'fastest-buildable');
      assert.equal(ok.buildable, true);
      assert.equal(ok.warning, undefined);
    });

    it('reports a named machine as the user\'s choice, with a warning when it is not buildable', () => {
      const a = avail({ research_mode: 'now', available_science_packs: [BASIC] });
      const gear = w.g.recipes.get('gear')!;
      const mk2 = a.chooseMachine(gear, 'press-mk2');
      assert.equal(mk2.rule, 'user');
      assert.equal(mk2.buildable, false);
      assert.equal(mk2.needs!.technology, 'advanced-pressing');
      assert.match(mk2.warning!, /Press MK2 \[press-mk2\] is not buildable/);
      const press = a.chooseMachine(gear, 'press');
      assert.deepEqual([press.rule, press.buildable, press.warning], ['user', true, undefined]);
      // A machine that cannot run the recipe falls back to the default rule.
      assert.equal(a.chooseMachine(gear, 'kiln').rule, 'fastest-buildable');
    });

    it('says when no machine can run a recipe', () => {
      const d = avail({}).defaultMachine('burn-lignite');
      assert.equal(d.machine, null);
      assert.equal(d.rule, 'none');
    });

    it('never picks a hidden machine no item places, nor an excluded one', async () => {
      const pw = await privateSampleWorld();
      const press = pw.g.machines.get('press-mk2')!;
      const legacy: Machine = { ...press, name: 'press-legacy', display: 'Legacy press', speed: 9, hidden: true, item: null };
      pw.g.machines.set(legacy.name, legacy);
      for (const c of legacy.categories) pw.g.machinesByCategory.get(c)!.push(legacy.name);
      const a = new Availability(pw.g, pw.state({ research_mode: 'future' }));
      assert.equal(a.machine('press-legacy').availableNow, false);
      assert.equal(a.defaultMachine('gear').machine!.name, 'press-mk2');
      const ex = new Availability(pw.g, pw.state({ research_mode: 'future', exclusions: ['press-mk2'] }));
      assert.equal(ex.defaultMachine('gear').machine!.name, 'press');
    });
  });

  describe('exclusions', () => {
    it('match globs on names, recipe categories and subgroups', () => {
      const a = avail({ exclusions: ['ee-*', 'tailings-*', 'void', 'sample-modules'] });
      assert.equal(a.isExcluded('tailings-void'), true);
      assert.equal(a.isExcluded('ee-anything'), true);
      assert.equal(a.isExcluded('speed-module-s1'), true); // item subgroup
      assert.equal(a.isExcluded('gear'), false);
    });
  });

  describe('productivity bonuses', () => {
    const gear = () => w.g.recipes.get('gear')!;
    const mine = () => w.g.recipes.get('mine-azurite-ore')!;
    it('counts recipe productivity research by horizon', () => {
      assert.equal(avail({ research_mode: 'now' }).productivityBonus(gear()), 0);
      assert.equal(avail({ research_mode: 'now' }, ['gear-productivity-1']).productivityBonus(gear()), 0.1);
      assert.equal(avail({ research_mode: 'future' }).productivityBonus(gear()), 0.1);
      assert.equal(avail({ research_mode: 'target', horizon_target: 'gear-productivity-1' }).productivityBonus(gear()), 0.1);
      assert.equal(avail({ research_mode: 'target', horizon_target: 'dense-circuit' }).productivityBonus(gear()), 0);
    });

    it('replaces derived sums by the synced save in Now', () => {
      assert.equal(avail({ research_mode: 'now', synced_recipe_productivity: { gear: 0.3 } }, ['gear-productivity-1']).productivityBonus(gear()), 0.3);
      assert.equal(avail({ research_mode: 'now', synced_mining_productivity: 0.2 }).productivityBonus(mine()), 0.2);
    });

    it('takes mining productivity from research or a manual percentage', () => {
      assert.equal(avail({ research_mode: 'now' }, ['mining-productivity-1']).productivityBonus(mine()), 0.1);
      assert.equal(avail({ research_mode: 'now', mining_productivity: { source: 'manual', percent: 250 } }).productivityBonus(mine()), 2.5);
    });
  });

  describe('on Py HighTech, up to the technology that unlocks logistic-science-pack', function () {
    let py: World;
    before(async function () {
      this.timeout(120_000);
      py = await loadWorld(requireSharedData(this, 'py-hightech-2.0-data-raw'));
    });
    const target = () => py.ctx({ research_mode: 'target', horizon_target: 'logistic-science-pack', horizon_target_scope: 'research' }).availability;

    it('calls a recipe that is not enabled and that no technology unlocks unobtainable, with nothing to research', () => {
      // urea2: "enabled": false in the dump, and no technology lists it in an unlock-recipe effect.
      const r = py.g.recipes.get('urea2')!;
      assert.deepEqual([r.enabled, r.unlockedBy], [false, []]);
      const a = target();
      assert.deepEqual(a.recipeVerdict('urea2'), { state: 'unobtainable' });
      assert.equal(a.recipe('urea2').lockReason, 'no technology unlocks it and it is not enabled from the start');
    });

    it('calls a recipe only the hand crafts by-hand, and drafts count no building for it', () => {
      // electronic-circuit-initial: category handcrafting, which the character crafts; the only other
      // entity of that category is a crash-site wreck no item places.
      assert.ok(py.g.handCrafting.has('handcrafting'));
      const a = target();
      assert.deepEqual(a.recipeVerdict('electronic-circuit-initial'), { state: 'by-hand' });
      assert.equal(a.recipe('electronic-circuit-initial').lockReason, 'crafted by hand only: no building can run it');
      assert.deepEqual(a.defaultMachine('electronic-circuit-initial'), { machine: null, rule: 'by-hand', explanation: 'crafted by hand: no building can run it', buildable: true });
      // A recipe the hand and buildings both craft keeps its buildings.
      assert.ok(a.defaultMachine('iron-gear-wheel').machine);
    });
  });

  describe('a technology\'s tier (packs over its prerequisite closure)', function () {
    this.timeout(120_000);
    it('counts the packs of every technology of the full Py set over its whole closure', async function () {
      const py = await loadWorld(requireSharedData(this, 'factoriolab-pysalf'));
      const a = new Availability(py.g, py.state({ research_mode: 'now' }));
      let deep = 0;
      for (const t of py.g.technologies.keys()) {
        // Independently: walk the closure and collect the packs of each technology in it.
        const packs = new Set<string>();
        for (const x of a.closure(t)) for (const i of py.g.technologies.get(x)!.ingredients) packs.add(i.pack);
        assert.deepEqual([...packsOver(py.g, t)].sort(), [...packs].sort(), t);
        assert.equal(a.tier(t), packs.size);
        if (a.closure(t).size > 100) deep++;
      }
      assert.ok(deep > 100, `${deep} technologies with a closure of over 100`);
    });

    it('ends at a prerequisite cycle in broken data instead of looping', () => {
      const g = new GameIndex('cycle');
      const tech = (name: string, prerequisites: string[], pack: string) =>
        g.technologies.set(name, { name, display: name, unitCount: 1, unitFormula: null, unitTime: 1, trigger: null, enabled: true, hidden: false, upgrade: false, maxLevel: null, isTurd: false, prerequisites, unlocks: [], ingredients: [{ pack, amount: 1 }], productivity: [], bonuses: [] });
      tech('a', ['b'], 'red');
      tech('b', ['a'], 'green');
      tech('c', ['a'], 'blue');
      assert.ok(packsOver(g, 'c').has('blue') && packsOver(g, 'c').has('red'));
      assert.ok(packsOver(g, 'a').has('red'));
    });
  });
});
