// Game-data schemas run compiled (z.compile): the same values and, for a wrong entry, the same issues
// as the interpreted schema — the compiled check hands a value it refuses to the interpreted walk.
import assert from 'node:assert/strict';
import { compiled } from '../../../../src/core/gamedata/compiledSchema';
import { flabDataSchema, numericAmounts } from '../../../../src/core/gamedata/factoriolab/schema';
import { recipeSchema } from '../../../../src/core/gamedata/dump/schema';

const flabSet = () => ({
  version: { base: '2.0.55' },
  categories: [{ id: 'intermediate-products', name: 'Intermediates' }],
  items: [{ id: 'iron-plate', name: 'Iron plate', category: 'intermediate-products', stack: 100 }, { id: 'water', name: 'Water', category: 'intermediate-products' }],
  recipes: [{ id: 'gear', name: 'Gear', category: 'intermediate-products', time: 0.5, producers: ['assembler'], in: { 'iron-plate': '2' }, out: { gear: 1 }, extra: 'dropped' }],
});

describe('compiled game-data schemas', () => {
  it('compile each schema once', () => {
    assert.equal(compiled(flabDataSchema), compiled(flabDataSchema));
    assert.notEqual(compiled(flabDataSchema), flabDataSchema);
  });

  it('give what the interpreted schema gives, unknown keys dropped', () => {
    const want = flabDataSchema.parse(flabSet());
    assert.deepEqual(compiled(flabDataSchema).parse(flabSet()), want);
    assert.equal('extra' in want.recipes[0], false);
  });

  it('check a FactorioLab set in place as the parse does, its numeric-string amounts made numbers after', () => {
    const set = flabSet();
    assert.equal(compiled(flabDataSchema).validate(set), true);
    const data = numericAmounts(set as Parameters<typeof numericAmounts>[0]);
    assert.equal(data, set, 'the same object, not a copy');
    assert.equal(data.recipes[0].in['iron-plate'], 2);
    for (const wrong of [{ 'iron-plate': -1 }, { 'iron-plate': 'two' }, { 'iron-plate': null }, ['iron-plate']]) {
      const bad = flabSet();
      (bad.recipes[0] as Record<string, unknown>).in = wrong;
      assert.equal(compiled(flabDataSchema).validate(bad), false, JSON.stringify(wrong));
      assert.equal(flabDataSchema.safeParse(bad).success, false);
    }
  });

  it('report a wrong entry with the interpreted schema\'s issues', () => {
    const bad = flabSet();
    (bad.recipes[0] as Record<string, unknown>).time = -1;
    (bad.items[0] as Record<string, unknown>).stack = 'many';
    const a = flabDataSchema.safeParse(bad);
    const b = compiled(flabDataSchema).safeParse(bad);
    assert.equal(b.success, false);
    assert.deepEqual(b.error!.issues, a.error!.issues);
    assert.deepEqual(b.error!.issues.map((i) => i.path.join('.')).sort(), ['items.0.stack', 'recipes.0.time']);
  });

  it('do the same for a dump prototype', () => {
    const ok = { type: 'recipe', name: 'gear', ingredients: [{ type: 'item', name: 'iron-plate', amount: 2 }], results: [{ type: 'item', name: 'gear', amount: 1 }] };
    assert.deepEqual(compiled(recipeSchema).parse(ok), recipeSchema.parse(ok));
    const bad = { ...ok, ingredients: [{ type: 'item', name: 'iron-plate', amount: 'two' }] };
    assert.deepEqual(compiled(recipeSchema).safeParse(bad).error!.issues, recipeSchema.safeParse(bad).error!.issues);
  });
});
