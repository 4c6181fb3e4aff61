import assert from 'node:assert/strict';
import { Localizer, emptyLocale } from '../../../../src/core/gamedata/locale';

function cfg(sections: Record<string, Record<string, string>>) {
  const src = emptyLocale();
  for (const [s, e] of Object.entries(sections)) src.cfg.set(s, new Map(Object.entries(e)));
  return new Localizer(src);
}

describe('localized names', () => {
  it('uses names resolved by the game first', () => {
    const src = emptyLocale();
    src.resolved.set('item', new Map([['gear', 'Gear wheel']]));
    assert.equal(new Localizer(src).name('item', { name: 'gear' }), 'Gear wheel');
  });
  it('resolves LocalisedStrings against cfg dictionaries, with ? fallbacks and parameters', () => {
    const l = cfg({
      'recipe-name': { 'coal-gas': 'Coal gas from coal' },
      'fluid-name': { tar: 'Tar' },
      'item-name': { 'x-module': 'Module __1__' },
      'technology-name': { automation: 'Automation' },
    });
    assert.equal(l.name('recipe', { name: 'coal-gas', localised_name: ['?', ['recipe-name.coal-gas'], ['fluid-name.coal-gas']] }), 'Coal gas from coal');
    assert.equal(l.name('recipe', { name: 'r', localised_name: ['?', ['recipe-name.missing'], ['fluid-name.tar']] }), 'Tar');
    assert.equal(l.name('item', { name: 'm', localised_name: ['item-name.x-module', '2'] }), 'Module 2');
    assert.equal(l.name('item', { name: 'c', localised_name: ['', 'A', ' ', ['fluid-name.tar']] }), 'A Tar');
    assert.equal(l.name('technology', { name: 'automation-2' }), 'Automation 2');
  });
  it('names a parameter the dictionaries lack by its internal name, readably (Py canisters of base-game fluids)', () => {
    // Py's item-name.fill-can is "__1__ canister"; the fluid names of the base game are not in Py's locale.
    const l = cfg({ 'item-name': { 'fill-can': '__1__ canister' }, 'fluid-name': { tar: 'Tar' }, 'recipe-name': { 'empty-can': 'Empty __1__ canister', box: 'Box of __ITEM__iron-gear__' } });
    const names = ['crude-oil', 'heavy-oil', 'light-oil', 'petroleum-gas', 'tar'].map((f) => l.name('item', { name: `${f}-canister`, localised_name: ['item-name.fill-can', [`fluid-name.${f}`]] }));
    assert.deepEqual(names, ['Crude oil canister', 'Heavy oil canister', 'Light oil canister', 'Petroleum gas canister', 'Tar canister']);
    assert.equal(l.name('recipe', { name: 'e', localised_name: ['recipe-name.empty-can', ['?', ['fluid-name.missing-one'], ['item-name.missing-two']]] }), 'Empty Missing one canister');
    assert.equal(l.name('recipe', { name: 'box' }), 'Box of Iron gear');
    // A whole name that is missing is still "not known" (the caller's fallbacks decide), not its key.
    assert.equal(l.name('recipe', { name: 'r', localised_name: ['?', ['recipe-name.missing'], ['fluid-name.tar']] }), 'Tar');
  });
  it('expands __ITEM__ macros and falls back when nothing is known', () => {
    const l = cfg({ 'item-name': { plate: 'Plate', 'plate-box': 'Box of __ITEM__plate__' } });
    assert.equal(l.name('item', { name: 'plate-box' }), 'Box of Plate');
    assert.equal(l.name('item', { name: 'unknown' }, [() => 'Fallback']), 'Fallback');
    assert.equal(l.name('item', { name: 'unknown' }), undefined);
  });
});
