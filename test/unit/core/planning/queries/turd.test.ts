// TURD queries on the sample world: full branch sets (turdChoices), end-of-plan advice
// (availableTurds) and one branch per master across a set of recipes (turdConsistency).
import assert from 'node:assert/strict';
import { availableTurds, turdChoices, turdConsistency } from '../../../../../src/core/planning/queries/turd';
import { QueryError } from '../../../../../src/core/planning/queries/errors';
import { sampleWorld, type World } from './world';

describe('turdChoices', () => {
  let w: World;
  before(async () => {
    w = await sampleWorld();
  });

  it('lists every branch of a master with unlocks, old → new changes, modules and selection', () => {
    const r = turdChoices(w.ctx({}, ['press-upgrade'], { 'press-upgrade': 'lean-press' }), { master: 'press-upgrade' });
    assert.equal(r.masters.length, 1);
    const m = r.masters[0];
    assert.equal(m.display, 'Press upgrade');
    assert.equal(m.selected, 'lean-press');
    assert.equal(m.source, 'manual');
    assert.equal(m.researched, true);
    assert.deepEqual(m.choices.map((c) => [c.name, c.state, c.selected]), [
      ['lean-press', 'active', true],
      ['salvage-press', 'blocked', false],
      ['tempered-press', 'blocked', false],
    ]);
    const lean = m.choices[0];
    assert.deepEqual(lean.changes.map((c) => `${c.from}→${c.to}`), ['circuit→circuit-lean', 'frame→frame-lean']);
    assert.equal(lean.changes[0].buildsBuilding, false);
    assert.deepEqual(lean.modules, [{ name: 'lean-press-module', display: 'Lean press (upgrade effect)', category: 'press', effects: { consumption: -30 } }]);
    assert.match(lean.description, /^Lean press: Circuit → Lean circuit; Frame → Lean frame; always-on -30% consumption/);
    const salvage = m.choices[1];
    assert.deepEqual(salvage.unlocks.map((u) => u.recipe), ['reclaim-tailings-salvage', 'salvage-ash']);
    assert.match(salvage.description, /adds Ash salvage/);
  });

  it('finds the masters of a recipe (granted or replaced) and of a good', () => {
    assert.deepEqual(turdChoices(w.ctx(), { recipe: 'gear' }).masters.map((m) => m.master), ['press-upgrade']);
    assert.deepEqual(turdChoices(w.ctx(), { recipe: 'salvage-ash' }).masters.map((m) => m.master), ['press-upgrade']);
    assert.deepEqual(turdChoices(w.ctx(), { good: 'brine' }).masters.map((m) => m.master), ['press-upgrade']);
    const none = turdChoices(w.ctx(), { recipe: 'wire' });
    assert.deepEqual(none.masters, []);
    assert.match(none.note!, /no TURD upgrade changes recipe wire/);
    assert.equal(turdChoices(w.ctx(), { master: 'lean-press' }).masters[0].master, 'press-upgrade');
  });

  it('rejects an unknown master with the list of masters, and a request naming two subjects', () => {
    assert.throws(() => turdChoices(w.ctx(), { master: 'press-upgrades' }), (e: Error) => e instanceof QueryError && /masters: press-upgrade/.test(e.message));
    assert.throws(() => turdChoices(w.ctx(), { master: 'press-upgrade', good: 'gear' }), /exactly one of master, recipe or good/);
  });
});

describe('availableTurds', () => {
  let w: World;
  before(async () => {
    w = await sampleWorld();
  });

  it('names the masters that would replace recipes of a plan, with every option', () => {
    const r = availableTurds(w.ctx(), { recipes: ['gear', 'frame', 'circuit', 'wire'] });
    assert.equal(r.opportunities.length, 1);
    const o = r.opportunities[0];
    assert.equal(o.master, 'press-upgrade');
    assert.equal(o.selected, null);
    assert.deepEqual(o.wouldReplace.map((x) => `${x.recipe}→${x.by}`), ['gear→gear-tempered', 'frame→frame-lean', 'circuit→circuit-lean']);
    assert.deepEqual(o.options.map((x) => x.sub), ['lean-press', 'salvage-press', 'tempered-press']);
    const salvage = o.options[1];
    assert.deepEqual(salvage.replaces, [{ from: 'reclaim-tailings', to: 'reclaim-tailings-salvage', inPlan: false }]);
    assert.deepEqual(o.options[0].modules[0].effects, { consumption: -30 });
  });

  it('says when nothing applies and lists unknown recipes', () => {
    const r = availableTurds(w.ctx(), { recipes: ['wire', 'wirez'] });
    assert.deepEqual(r.opportunities, []);
    assert.match(r.note!, /no TURD upgrade replaces/);
    assert.match(r.invalid![0].error, /did you mean wire/);
  });
});

describe('turdConsistency', () => {
  let w: World;
  before(async () => {
    w = await sampleWorld();
  });

  it('reports recipes needing different branches of one master as a conflict', () => {
    const r = turdConsistency(w.ctx(), { recipes: ['gear-tempered', 'frame-lean', 'circuit-lean', 'wire'] });
    assert.equal(r.ok, false);
    assert.deepEqual(r.conflicts, [{ master: 'press-upgrade', branches: [{ branch: 'tempered-press', recipes: ['gear-tempered'] }, { branch: 'lean-press', recipes: ['frame-lean', 'circuit-lean'] }] }]);
    assert.deepEqual(r.selections, []);
  });

  it('says per master whether the branch is already selected, to pick, or a switch', () => {
    const pick = turdConsistency(w.ctx(), { recipes: ['frame-lean', 'circuit-lean'] });
    assert.equal(pick.ok, true);
    assert.deepEqual(pick.selections, [{ master: 'press-upgrade', requiredSub: 'lean-press', current: null, action: 'pick', recipes: ['frame-lean', 'circuit-lean'] }]);
    const same = turdConsistency(w.ctx({}, [], { 'press-upgrade': 'lean-press' }), { recipes: ['frame-lean'] });
    assert.equal(same.selections[0].action, 'already-selected');
    const sw = turdConsistency(w.ctx({}, [], { 'press-upgrade': 'tempered-press' }), { recipes: ['frame-lean', 'gear'] });
    assert.equal(sw.ok, false);
    assert.equal(sw.selections[0].action, 'switch');
    assert.deepEqual(sw.superseded, [{ recipe: 'gear', by: 'gear-tempered', branch: 'tempered-press' }]);
  });

  it('checks the recipes of all blocks when none are given', () => {
    const r = turdConsistency(w.ctx(), {}, { blockRecipes: () => ['gear-tempered'] });
    assert.equal(r.scope, 'all-blocks');
    assert.equal(r.selections[0].requiredSub, 'tempered-press');
    const empty = turdConsistency(w.ctx(), {});
    assert.equal(empty.ok, true);
    assert.match(empty.note!, /no block recipes/);
  });
});
