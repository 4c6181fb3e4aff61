// searchGoods ranking and normalization, and the unknown-name errors every query shares.
import assert from 'node:assert/strict';
import { searchGoods } from '../../../../../src/core/planning/queries/searchGoods';
import { QueryError, requireGood, requireRecipe, parseInput } from '../../../../../src/core/planning/queries/errors';
import { boundedDistance, normalizeName } from '../../../../../src/core/planning/queries/names';
import { QUERY_INPUTS, recipeGraphInput, searchGoodsInput } from '../../../../../src/core/planning/queries/schemas';
import { sampleWorld, type World } from './world';

describe('searchGoods', () => {
  let w: World;
  before(async () => {
    w = await sampleWorld();
  });
  const names = (query: string, limit?: number, settings = {}) => searchGoods(w.ctx(settings), { query, limit }).matches.map((m) => m.name);

  it('ranks exact over prefix over word start over substring', () => {
    const r = searchGoods(w.ctx(), { query: 'resin' });
    assert.deepEqual(r.matches.map((m) => [m.name, m.match]), [
      ['resin', 'exact'],
      ['fresh-resin', 'word'],
    ]);
    assert.deepEqual(names('steam').slice(0, 2), ['steam', 'steam-turbine-unit']);
    assert.equal(searchGoods(w.ctx(), { query: 'ferr' }).matches[0].match, 'prefix');
    assert.equal(searchGoods(w.ctx(), { query: 'rrite' }).matches[0].match, 'substring');
  });

  it('ignores case, dashes, underscores and spaces, over internal and localized names', () => {
    for (const q of ['ferrite plate', 'FERRITE_PLATE', 'Ferrite-Plate', 'ferriteplate']) assert.equal(names(q)[0], 'ferrite-plate', q);
    assert.equal(names('Cured resin')[0], 'resin');
    assert.equal(names('filter cartridge')[0], 'filter');
    assert.equal(normalizeName('Enriched (20%) ore_x'), 'enriched20orex');
  });

  it('matches all words in any order when no substring matches', () => {
    const r = searchGoods(w.ctx(), { query: 'plate ferrite' });
    assert.equal(r.matches[0].name, 'ferrite-plate');
    assert.equal(r.matches[0].match, 'words');
  });

  it('forgives a plural s in the words fallback', () => {
    const r = searchGoods(w.ctx(), { query: 'plates ferrite' });
    assert.deepEqual([r.matches[0].name, r.matches[0].match], ['ferrite-plate', 'words']);
  });

  it('never answers nothing when some words match: names holding most of the words, with a note', () => {
    const r = searchGoods(w.ctx(), { query: 'shiny ferrite plate' });
    assert.deepEqual(r.matches.slice(0, 1).map((m) => [m.name, m.match]), [['ferrite-plate', 'some-words']]);
    assert.ok(r.matches.some((m) => m.name === 'ferrite-ore'), 'one word is enough');
    assert.match(r.note!, /nothing matches every word/);
    assert.equal(searchGoods(w.ctx(), { query: 'ferrite' }).note, undefined);
  });

  it('ranks hidden goods below visible ones', () => {
    const r = searchGoods(w.ctx(), { query: 'press' });
    const hidden = r.matches.map((m) => m.name).filter((n) => w.g.goods.get(n)!.hidden);
    assert.deepEqual(hidden.sort(), ['lean-press-module', 'salvage-press-module', 'tempered-press-module']);
    const firstHidden = r.matches.findIndex((m) => w.g.goods.get(m.name)!.hidden);
    assert.ok(r.matches.slice(firstHidden).every((m) => w.g.goods.get(m.name)!.hidden));
  });

  it('falls back to near spellings only when nothing else matches', () => {
    const r = searchGoods(w.ctx(), { query: 'ferite-plate' });
    assert.equal(r.matches[0].name, 'ferrite-plate');
    assert.equal(r.matches[0].match, 'fuzzy');
    assert.equal(boundedDistance('kitten', 'sitting', 5), 3);
    assert.equal(boundedDistance('a', 'abcdefgh', 2), 3);
  });

  it('bounds the list by limit and says it was truncated', () => {
    const r = searchGoods(w.ctx(), { query: 'e', limit: 3 });
    assert.equal(r.matches.length, 3);
    assert.equal(r.truncated, true);
    assert.equal(searchGoods(w.ctx(), { query: 'gear' }).truncated, false);
  });

  it('applies the exclusion globs', () => {
    assert.ok(names('module').includes('speed-module-s1'));
    assert.ok(!names('module', 15, { exclusions: ['sample-modules'] }).includes('speed-module-s1'));
  });

  it('says so when nothing matches', () => {
    const r = searchGoods(w.ctx(), { query: 'zzzzqqq' });
    assert.deepEqual(r.matches, []);
    assert.match(r.note!, /no good matches/);
  });

  it('rejects a limit outside 1–40 with an error naming the field', () => {
    assert.throws(() => searchGoods(w.ctx(), { query: 'x', limit: 41 }), (e: Error) => e instanceof QueryError && /limit/.test(e.message));
    assert.throws(() => searchGoods(w.ctx(), { query: '' }), QueryError);
  });
});

describe('unknown names', () => {
  let w: World;
  before(async () => {
    w = await sampleWorld();
  });

  it('suggest the closest goods and say to call searchGoods first', () => {
    assert.throws(
      () => requireGood(w.ctx(), 'ferrite plate2'),
      (e: Error) => e instanceof QueryError && e.name === 'QueryError' && e.message === "no good named 'ferrite plate2'; did you mean ferrite-plate? call searchGoods first",
    );
    try {
      requireGood(w.ctx(), 'gear plate');
    } catch (e) {
      assert.ok((e as QueryError).suggestions.length > 0);
    }
  });

  it('tell a recipe name from a good and point at recipeOptions', () => {
    assert.throws(() => requireRecipe(w.ctx(), 'steam'), /'steam' is a good made by .*call recipeOptions/);
    assert.throws(() => requireRecipe(w.ctx(), 'refine-brin'), /did you mean refine-brine/);
    assert.throws(() => requireGood(w.ctx(), 'solvent-wash'), /is a recipe/);
  });
});

describe('query input schemas', () => {
  it('carry the defaults and limits of domain D', () => {
    assert.deepEqual(searchGoodsInput.parse({ query: 'x' }), { query: 'x', limit: 15 });
    assert.deepEqual(recipeGraphInput.parse({ target: 'gear' }), { target: 'gear', depth: 14, candidatesPerGood: 6 });
    assert.equal(QUERY_INPUTS.recipeOptions.parse({ good: 'g' }).limit, 12);
    assert.equal(QUERY_INPUTS.recipeOptions.parse({ good: 'g' }).direction, 'produce');
    assert.equal(QUERY_INPUTS.recipeOptionsBatch.parse({ goods: ['g'] }).limitEach, 8);
    assert.equal(QUERY_INPUTS.researchPath.parse({ target: 't' }).limit, 40);
    assert.equal(QUERY_INPUTS.byproductSinks.parse({ good: 'g' }).limit, 10);
    assert.equal(QUERY_INPUTS.recipeGraph.safeParse({ target: 'g', nodeBudget: 151 }).success, false);
    assert.equal(QUERY_INPUTS.recipeGraph.safeParse({ target: 'g', maxChars: 40_001 }).success, false);
    assert.equal(QUERY_INPUTS.recipeOptionsBatch.safeParse({ goods: Array(31).fill('g') }).success, false);
    assert.equal(QUERY_INPUTS.turdChoices.safeParse({ master: 'a', good: 'b' }).success, false);
    assert.equal(QUERY_INPUTS.logisticsFor.safeParse({ good: 'g', rate: 0 }).success, false);
    assert.throws(() => parseInput(QUERY_INPUTS.researchPath, { target: 't', limit: 4 }, 'researchPath'), /invalid input for researchPath: limit/);
  });
});
