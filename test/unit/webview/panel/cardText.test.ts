// What a block card says, from a stored draft through the extension's view to the rendered card:
// each good listed once, the fluid behind fluid fuel named and its energy in the headline, a module
// note shared by several rows said once, and numbers agreeing with their nouns.
import assert from 'node:assert/strict';
import { toDraftView, type GameNames } from '../../../../src/extension/proposals/views';
import { proposalCard, type CardContext } from '../../../../src/webview/panel/cards';
import { FakeElement, installFakeDom } from './fakeDom';

const DISPLAY: Record<string, string> = {
  ore: 'Iron ore', plate: 'Iron plate', slag: 'Slag', gas: 'Natural gas', 'pyops-fluid-fuel': 'Fluid fuel (MJ)',
  smelt: 'Smelt iron', wash: 'Wash ore', 'burn-gas': 'Burn natural gas', furnace: 'Furnace', washer: 'Washer', burner: 'Gas burner',
};
const names: GameNames = { displayOf: (n) => DISPLAY[n] ?? n, recipeIO: () => undefined };

const row = (recipe: string, machine: string, craftsPerSecond: number, extra: Record<string, unknown>) => ({
  recipe, display: DISPLAY[recipe], machine, machineDisplay: DISPLAY[machine], machineRule: '', modules: [], beacons: [], fuel: null,
  craftsPerSecond, buildings: craftsPerSecond, wholeBuildings: Math.ceil(craftsPerSecond), ...extra,
});

const stored = {
  kind: 'block', name: 'Plates', ok: true, status: 'optimal',
  goals: [{ good: 'plate', display: 'Iron plate', rate: 2 }],
  rows: [
    row('smelt', 'furnace', 1, { moduleReason: 'Furnace takes no modules', fuel: 'pyops-fluid-fuel', flows: [{ good: 'ore', rate: -2 }, { good: 'pyops-fluid-fuel', rate: -3, fuel: true }, { good: 'plate', rate: 2 }, { good: 'slag', rate: 0.5 }] }),
    row('wash', 'washer', 2, { moduleReason: 'Furnace takes no modules', flows: [{ good: 'ore', rate: -2 }, { good: 'ore', rate: 2 }] }),
    row('burn-gas', 'burner', 0.5, { moduleReason: 'no unlocked module fits this machine and recipe', flows: [{ good: 'gas', rate: -6 }, { good: 'pyops-fluid-fuel', rate: 3 }] }),
  ],
  powerW: 1e6, fuelW: 3e6, heatW: 0,
  importsExternal: [{ good: 'ore', rate: 2 }, { good: 'gas', rate: 6, kind: 'fluid' }],
  // The solver lists byproducts among the exports as well.
  exports: [{ good: 'slag', rate: 0.5 }],
  byproducts: [{ good: 'slag', rate: 0.5 }],
  fuel: [{ fuel: 'pyops-fluid-fuel', rate: 3 }],
  warnings: [
    'Smelt iron: Furnace [furnace] is not buildable under the now horizon: needs Smelting.',
    'Wash ore: Furnace [furnace] is not buildable under the now horizon: needs Smelting.',
  ],
};

const occurrences = (text: string, s: string) => text.split(s).length - 1;

describe('block card text', () => {
  let uninstall: () => void;
  before(() => (uninstall = installFakeDom()));
  after(() => uninstall());
  const ctx = (): CardContext => ({ post: () => {}, game: { linked: true, detail: '' }, open: new Map(), toggled: () => {}, busy: new Set(), icons: {} });
  const render = (raw: unknown) => {
    const draft = toDraftView(raw, names);
    const card = proposalCard(ctx(), { kind: 'block', ref: { conversationId: 'c', messageId: 'm', toolCallId: 't' }, title: 'Plates', draft }) as unknown as FakeElement;
    return { draft, card, text: card.textContent };
  };

  it('lists a byproduct once, not under Exports as well', () => {
    const { draft, text } = render(stored);
    assert.deepEqual(draft.exports, []);
    assert.deepEqual(draft.byproducts.map((f) => f.good), ['slag']);
    assert.doesNotMatch(text, /Exports/);
  });

  it('names the fluid burnt into fluid fuel, in MW, and counts fuel energy in the headline', () => {
    const { draft, text } = render(stored);
    assert.deepEqual(draft.fuel, [{ fuel: 'pyops-fluid-fuel', display: 'Fluid fuel', rate: 3, energy: true, burns: ['Natural gas'] }]);
    assert.match(text, /Fuel: Fluid fuel 3 MW — burns Natural gas/);
    assert.match(text, /Makes Iron plate 2\/s · 4 buildings · 1 MW \+ 3 MW fuel/);
    assert.match(text, /Fuel energy: 3 MW/);
  });

  it('names fluids that could supply an imported fluid fuel', () => {
    const imported = { ...stored, rows: stored.rows.slice(0, 2), fuelOptions: { mjPerSecond: 3, options: [{ fluid: 'gas', display: 'Natural gas' }], more: 0 } };
    assert.match(render(imported).text, /Fuel: Fluid fuel 3 MW — imported; Natural gas can supply it/);
  });

  it('states a module note shared by several rows once, and keeps a row\'s own note on its row', () => {
    const { text } = render(stored);
    assert.equal(occurrences(text, 'Furnace takes no modules'), 1);
    assert.match(text, /Modules \(2 rows\): Furnace takes no modules/);
    assert.equal(occurrences(text, 'no unlocked module fits this machine and recipe'), 1);
  });

  it('folds the same unbuildable machine into one warning', () => {
    const { draft } = render(stored);
    assert.deepEqual(draft.warnings, ['Furnace [furnace] is not buildable under the now horizon (Smelt iron, Wash ore): needs Smelting.']);
  });

  it('agrees numbers with their nouns', () => {
    const { text } = render(stored);
    assert.match(text, /1 craft\/s/);
    assert.match(text, /2 crafts\/s/);
    assert.match(text, /0\.5 crafts\/s/);
    assert.doesNotMatch(text, /\b1 crafts\b|\b1 buildings\b/);
    const one = { ...stored, rows: [stored.rows[0]] };
    assert.match(render(one).text, /· 1 building ·/);
  });

  it('draws the flow graph with the fuel edge, a rate on every edge and the fuel good once', () => {
    const { draft } = render(stored);
    assert.equal(draft.flow.nodes.filter((n) => n.id === 'g:pyops-fluid-fuel').length, 1);
    assert.deepEqual(draft.flow.edges.find((e) => e.from === 'g:pyops-fluid-fuel'), { from: 'g:pyops-fluid-fuel', to: 'r:smelt', rate: 3, fuel: true });
    assert.ok(draft.flow.edges.every((e) => typeof e.rate === 'number'));
    assert.deepEqual(draft.flow.nodes.find((n) => n.id === 'r:smelt'), { id: 'r:smelt', kind: 'recipe', label: 'Smelt iron', machine: 'Furnace', buildings: 1, wholeBuildings: 1 });
  });

  it('shows game icons where the panel has them and the usual symbols elsewhere, never a broken image', () => {
    const draft = toDraftView(stored, names);
    const icons = { 'good:ore': 'https://file+.vscode-resource/ore.png', 'recipe:smelt': 'https://file+.vscode-resource/smelt.png', 'entity:furnace': 'https://file+.vscode-resource/furnace.png' };
    const card = proposalCard({ ...ctx(), icons, open: new Map([['c|m|t:flows', true]]) }, { kind: 'block', ref: { conversationId: 'c', messageId: 'm', toolCallId: 't' }, title: 'Plates', draft }) as unknown as FakeElement;
    const imgs = card.all().filter((e) => e.tagName === 'img');
    assert.deepEqual(imgs.map((i) => i.getAttribute('src')).sort(), Object.values(icons).sort());
    // Natural gas has no picture: its row keeps the fluid symbol.
    const gasRow = card.all().find((e) => e.tagName === 'tr' && e.textContent.includes('Natural gas'))!;
    assert.ok(gasRow.all().some((e) => e.getAttribute('class') === 'codicon codicon-drop'));
    // A picture that fails to load becomes the symbol.
    const ore = imgs.find((i) => i.getAttribute('src') === icons['good:ore'])!;
    const cell = ore.parentNode!;
    ore.dispatch('error');
    assert.ok(!cell.all().some((e) => e.tagName === 'img'));
    assert.ok(cell.all().some((e) => e.getAttribute('class') === 'codicon codicon-package'));
  });

  it('marks the rows chain completion picked, with the good and how many other recipes make it', () => {
    const completed = { ...stored, completed: { added: [{ good: 'plate', recipe: 'smelt', others: 2 }, { good: 'pyops-fluid-fuel', recipe: 'burn-gas', others: 0 }] } };
    const { draft, text } = render(completed);
    assert.deepEqual(draft.rows.map((r) => r.chosenFor?.good ?? null), ['plate', null, 'pyops-fluid-fuel']);
    assert.match(text, /Picked for Iron plate \(2 others\)/);
    assert.match(text, /Picked for Fluid fuel \(MJ\)(?! \()/);
    assert.equal(occurrences(render(stored).text, 'Picked for'), 0, 'rows the model named are not marked');
  });
});
