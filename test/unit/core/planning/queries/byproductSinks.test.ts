// byproductSinks: disposals that give back a residue (Py's incinerator: 1 item → 0.2 ash) are void
// options, never consumers, and the note agrees with the lists; several goods in one call; a void
// that is not selectable yet says why.
import assert from 'node:assert/strict';
import { byproductSinksBatch, byproductSinksForModel, sinkInText } from '../../../../../src/core/planning/queries/byproductSinks';
import { isDisposalRecipeFor } from '../../../../../src/core/planning/queries/common';
import { byproductSinksBatchInput } from '../../../../../src/core/planning/queries/schemas';
import { requireSharedData } from '../../../../helpers/paths';
import { loadWorld, sampleWorld, type World } from './world';

describe('byproductSinks (batch, disposals)', () => {
  describe('sample world', () => {
    let w: World;
    before(async () => {
      w = await sampleWorld();
    });

    it('answers several goods in one call, in order, with unknown names apart', () => {
      const r = byproductSinksBatch(w.ctx({ research_mode: 'now', available_science_packs: ['basic-research-pack'] }), { goods: ['tailings', 'lignite', 'no-such-good'] }, (good) => (good === 'tailings' ? ['Brine'] : []));
      assert.deepEqual(r.results.map((x) => x.good), ['tailings', 'lignite']);
      assert.deepEqual(r.results[0].importingBlocks, ['Brine']);
      assert.deepEqual(r.results[0].voidOptions.map((v) => v.recipe), ['tailings-void']);
      assert.equal(r.unknown?.length, 1);
      assert.equal(r.unknown![0].good, 'no-such-good');
      // One good is still accepted and answered the same way.
      assert.deepEqual(byproductSinksBatch(w.ctx(), { good: 'tailings' }).results.map((x) => x.good), ['tailings']);
    });

    it('gives the model recipes by internal name and leaves out what the note already says is not there', () => {
      const r = byproductSinksBatch(w.ctx({ research_mode: 'future' }), { goods: ['tailings', 'lignite'] }, (good) => (good === 'tailings' ? ['Brine'] : []));
      const v = byproductSinksForModel(r) as { results: Array<Record<string, unknown> & { consumedBy: Array<Record<string, unknown>> }> };
      const [tailings, lignite] = v.results;
      assert.deepEqual(tailings.importingBlocks, ['Brine']);
      assert.deepEqual((tailings.voidOptions as Array<Record<string, unknown>>).map((x) => [x.recipe, x.display]), [['tailings-void', undefined]]);
      assert.ok(v.results.every((x) => x.consumedBy.every((c) => c.recipe && !('display' in c))));
      assert.equal(r.results[1].voidOptions.length, 0);
      assert.ok(!('voidOptions' in lignite) && /no void recipe exists/.test(String(lignite.note)), 'an empty disposal list is said by the note');
      assert.equal(r.results[1].spoils, null);
      assert.ok(!('spoils' in lignite));
      assert.deepEqual(lignite.importingBlocks, [], 'which blocks import it is said even when none does');
    });

    it('gives the model a long consumer recipe as its term for the good, and a locked one\'s technologies without packs', () => {
      assert.equal(sinkInText('20 moss + 1 alien-sample-03 + 1 nanofibrils + 4 arqad-propolis + 1 negasium + 2 paragen', 'negasium'), '1 negasium + 5 other inputs');
      assert.equal(sinkInText('2 tailings + 1 water', 'tailings'), '2 tailings + 1 water', 'a short list stays whole');
      assert.equal(sinkInText('1 a + 1 b + 1 c + 1 d + 100 water(15–100°)', 'water'), '100 water(15–100°) + 4 other inputs');
      // With no packs, consumers of tailings wait for research: the model reads what unlocks them.
      const r = byproductSinksBatch(w.ctx({ research_mode: 'now', available_science_packs: [] }), { good: 'tailings' });
      const host = r.results[0].consumedBy.find((c) => c.needs?.packs?.length);
      assert.ok(host, JSON.stringify(r.results[0].consumedBy));
      const v = byproductSinksForModel(r) as { results: Array<{ consumedBy: Array<{ recipe: string; needs?: { research?: string[]; packs?: string[] } }> }> };
      const seen = v.results[0].consumedBy.find((c) => c.recipe === host.recipe)!;
      assert.deepEqual(seen.needs?.research, host.needs!.research);
      assert.equal(seen.needs?.packs, undefined);
    });

    it('says why a void is not selectable yet', () => {
      // tailings-void runs only in the void pit, unlocked by electronics (basic packs).
      const r = byproductSinksBatch(w.ctx({ research_mode: 'now', available_science_packs: [] }), { good: 'tailings' }).results[0];
      assert.equal(r.voidOptions[0].state, 'no-machine');
      assert.deepEqual(r.voidOptions[0].needs, { machine: { name: 'void-pit', research: 'electronics', packs: ['basic-research-pack'] } });
      assert.match(r.note, /void it with tailings-void \(10 tailings → nothing\) — not selectable yet: no machine for it is available yet/);
    });

    it('bounds its input: good or goods, at most 10 goods', () => {
      assert.throws(() => byproductSinksBatchInput.parse({}));
      assert.throws(() => byproductSinksBatchInput.parse({ good: 'a', goods: ['b'] }));
      assert.throws(() => byproductSinksBatchInput.parse({ goods: Array.from({ length: 11 }, (_, i) => `g${i}`) }));
    });
  });

  describe('Py (py-hightech 2.0)', function () {
    let w: World;
    before(async function () {
      this.timeout(120_000);
      w = await loadWorld(requireSharedData(this, 'py-hightech-2.0-data-raw'));
    });

    it('lists iron-oxide-pyvoid (1 iron-oxide → 0.2 ash in py-incineration) as a void, not a consumer', () => {
      // ash-pyvoid (1 ash → 0.2 ash) makes py-incineration a disposal category.
      assert.equal(isDisposalRecipeFor(w.g, w.g.recipes.get('iron-oxide-pyvoid')!, 'iron-oxide'), true);
      assert.equal(isDisposalRecipeFor(w.g, w.g.recipes.get('iron-oxide-smelting')!, 'iron-oxide'), false); // 20 → 10 iron-plate: a use
      const [r] = byproductSinksBatch(w.ctx({ research_mode: 'future' }), { goods: ['iron-oxide'], limit: 20 }).results;
      assert.ok(r.voidOptions.some((v) => v.recipe === 'iron-oxide-pyvoid' && v.out === '1 ash @20%'), JSON.stringify(r.voidOptions));
      assert.ok(!r.consumedBy.some((c) => c.recipe.endsWith('-pyvoid')));
      assert.ok(r.consumedBy.some((c) => c.recipe === 'iron-oxide-smelting'));
      assert.doesNotMatch(r.note, /no void recipe exists/);
      assert.match(r.note, /void it with iron-oxide-pyvoid/);
    });
  });

  describe('vanilla 2.0', function () {
    let w: World;
    before(async function () {
      this.timeout(120_000);
      w = await loadWorld(requireSharedData(this, 'vanilla-2.0-data-raw'));
    });

    it('answers heavy and light oil in one call; vanilla has no void, and the note says so consistently', () => {
      const r = byproductSinksBatch(w.ctx({ research_mode: 'future' }), { goods: ['heavy-oil', 'light-oil'] });
      assert.deepEqual(r.results.map((x) => x.good), ['heavy-oil', 'light-oil']);
      for (const x of r.results) {
        assert.deepEqual(x.voidOptions, []);
        assert.match(x.note, /no void recipe exists/);
      }
      assert.ok(r.results[0].consumedBy.some((c) => c.recipe === 'heavy-oil-cracking'));
      assert.ok(r.results[1].consumedBy.some((c) => c.recipe === 'light-oil-cracking'));
    });
  });
});
