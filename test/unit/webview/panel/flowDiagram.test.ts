// The flow diagram as drawn (on a fake DOM): a zoom survives the redraw an edit causes, for the same
// block or proposal only, and nodes carry game icons when there are some, dropping one that fails.
import assert from 'node:assert/strict';
import { flowDiagram } from '../../../../src/webview/panel/flowDiagram';
import type { FlowGraphView } from '../../../../src/webview/protocol';
import { installFakeDom, type FakeElement } from './fakeDom';

const graph: FlowGraphView = {
  nodes: [
    { id: 'g:ore', kind: 'good', label: 'Iron ore', role: 'import' },
    { id: 'r:smelt', kind: 'recipe', label: 'Iron plate', machine: 'Stone furnace', buildings: 2, wholeBuildings: 2 },
    { id: 'g:plate', kind: 'good', label: 'Iron plate', role: 'goal' },
    { id: 'g:fuel', kind: 'good', label: 'Fluid fuel', role: 'import', energy: true },
  ],
  edges: [
    { from: 'g:ore', to: 'r:smelt', rate: 2 },
    { from: 'g:fuel', to: 'r:smelt', rate: 1, fuel: true },
    { from: 'r:smelt', to: 'g:plate', rate: 2 },
  ],
};

const draw = (g: FlowGraphView, key?: string, icon?: (n: FlowGraphView['nodes'][number]) => string | undefined) => flowDiagram(g, 'Plates', { key, icon }) as unknown as FakeElement;
const svgOf = (d: FakeElement) => d.all().find((e) => e.tagName === 'svg')!;
const viewBox = (d: FakeElement) => svgOf(d).getAttribute('viewBox')!.split(' ').map(Number);
const tool = (d: FakeElement, label: string) => d.all().find((e) => e.tagName === 'button' && e.getAttribute('aria-label') === label)!;

describe('flow diagram drawing', () => {
  let restore: () => void;
  beforeEach(() => (restore = installFakeDom()));
  afterEach(() => restore());

  it('keeps the zoom and pan of a block across redraws, and starts another block fitted', () => {
    const first = draw(graph, 'block-a');
    const full = viewBox(first);
    tool(first, 'Zoom in').click();
    const zoomed = viewBox(first);
    assert.ok(zoomed[2] < full[2], 'zoomed in');
    // The edit redraws the same block: same view.
    assert.deepEqual(viewBox(draw(graph, 'block-a')), zoomed);
    // Another block (or a diagram without a key) is drawn whole.
    assert.deepEqual(viewBox(draw(graph, 'block-b')), full);
    assert.deepEqual(viewBox(draw(graph)), full);
  });

  it('keeps the zoom around the same point when the edit changes the diagram, and forgets it on Fit', () => {
    const first = draw(graph, 'block-c');
    const full = viewBox(first);
    tool(first, 'Zoom in').click();
    const [x, y, w, h] = viewBox(first);
    const grown: FlowGraphView = { nodes: [...graph.nodes, { id: 'g:slag', kind: 'good', label: 'Slag', role: 'byproduct' }], edges: [...graph.edges, { from: 'r:smelt', to: 'g:slag', rate: 0.5 }] };
    const again = draw(grown, 'block-c');
    const grownFull = viewBox(draw(grown));
    const [x2, y2, w2, h2] = viewBox(again);
    assert.ok(Math.abs(full[2] / w - grownFull[2] / w2) < 0.05, 'the same zoom factor');
    assert.ok(Math.abs(x + w / 2 - (x2 + w2 / 2)) < 1 && Math.abs(y + h / 2 - (y2 + h2 / 2)) < 1, 'around the same point');
    tool(again, 'Fit to the panel').click();
    assert.deepEqual(viewBox(draw(grown, 'block-c')), grownFull);
  });

  it('puts a game icon on the nodes that have one, with room on every node, and drops a picture that fails', () => {
    const plainWidth = (d: FakeElement) => d.all().filter((e) => e.tagName === 'g' && /flow-node/.test(e.getAttribute('class') ?? '')).map((g) => Number(g.all().find((e) => e.tagName === 'rect')!.getAttribute('width')));
    assert.ok(!draw(graph).all().some((e) => e.tagName === 'image'), 'no icons, no image elements');
    const icons: Record<string, string> = { 'g:ore': 'https://file+.vscode-resource/ore.png', 'r:smelt': 'https://file+.vscode-resource/smelt.png' };
    const d = draw(graph, undefined, (n) => icons[n.id]);
    const images = d.all().filter((e) => e.tagName === 'image');
    assert.deepEqual(images.map((i) => i.getAttribute('href')).sort(), Object.values(icons).sort());
    // Every node, pictured or not, is wider by the same room.
    const before = plainWidth(draw(graph));
    const after = plainWidth(d);
    const room = after[0] - before[0];
    assert.ok(room >= 16);
    assert.deepEqual(after.map((w, i) => w - before[i]), after.map(() => room));
    images[0].dispatch('error');
    assert.equal(d.all().filter((e) => e.tagName === 'image').length, 1);
  });
});
