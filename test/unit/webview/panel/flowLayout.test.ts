// The flow diagram's layout, without a DOM: one node per recipe and good, a rate on every edge, no
// node on top of another, and no edge drawn across a node it does not join — on a small Py-style
// loop (a recipe whose byproduct feeds back into an earlier step) with fuel.
import assert from 'node:assert/strict';
import { layoutFlow, wrapWords, type PlacedNode, type Point } from '../../../../src/webview/panel/flowLayout';
import type { FlowGraphView } from '../../../../src/webview/protocol';

const loop: FlowGraphView = {
  nodes: [
    { id: 'g:ore', kind: 'good', label: 'Iron ore', role: 'import' },
    { id: 'g:water', kind: 'good', label: 'Water', role: 'import' },
    { id: 'g:coal', kind: 'good', label: 'Coal', role: 'import' },
    { id: 'r:wash', kind: 'recipe', label: 'Ore washing with a very long recipe name', machine: 'Washer', buildings: 3.2, wholeBuildings: 4 },
    { id: 'g:washed', kind: 'good', label: 'Washed ore', role: 'internal' },
    { id: 'g:sludge', kind: 'good', label: 'Sludge', role: 'internal' },
    { id: 'r:smelt', kind: 'recipe', label: 'Iron plate', machine: 'Stone furnace', buildings: 1, wholeBuildings: 1 },
    { id: 'g:plate', kind: 'good', label: 'Iron plate', role: 'goal' },
    { id: 'g:ash', kind: 'good', label: 'Ash', role: 'byproduct' },
    { id: 'r:settle', kind: 'recipe', label: 'Settle sludge', machine: 'Clarifier', buildings: 0.5, wholeBuildings: 1 },
    { id: 'g:fuel', kind: 'good', label: 'Fluid fuel', role: 'import', energy: true },
  ],
  edges: [
    { from: 'g:ore', to: 'r:wash', rate: 2 },
    { from: 'g:water', to: 'r:wash', rate: 50 },
    { from: 'g:fuel', to: 'r:wash', rate: 1.5, fuel: true },
    { from: 'r:wash', to: 'g:washed', rate: 2 },
    { from: 'r:wash', to: 'g:sludge', rate: 10 },
    { from: 'g:sludge', to: 'r:settle', rate: 10 },
    // The loop: settling gives water back to the washer.
    { from: 'r:settle', to: 'g:water', rate: 8 },
    { from: 'g:washed', to: 'r:smelt', rate: 2 },
    { from: 'g:coal', to: 'r:smelt', rate: 0.1, fuel: true },
    { from: 'r:smelt', to: 'g:plate', rate: 2 },
    { from: 'r:smelt', to: 'g:ash', rate: 0.1, fuel: true },
  ],
};

type Rect = { x1: number; y1: number; x2: number; y2: number };
const rectOf = (n: PlacedNode, inset = 0): Rect => ({ x1: n.x - n.width / 2 + inset, y1: n.y - n.height / 2 + inset, x2: n.x + n.width / 2 - inset, y2: n.y + n.height / 2 - inset });
const overlap = (a: Rect, b: Rect) => a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;

/** Liang–Barsky: does the segment p→q enter the rectangle's interior? */
function segmentHits(p: Point, q: Point, r: Rect): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = q.x - p.x;
  const dy = q.y - p.y;
  for (const [pp, qq] of [[-dx, p.x - r.x1], [dx, r.x2 - p.x], [-dy, p.y - r.y1], [dy, r.y2 - p.y]]) {
    if (pp === 0) {
      if (qq < 0) return false;
      continue;
    }
    const t = qq / pp;
    if (pp < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}

describe('flow diagram layout', () => {
  const layout = layoutFlow(loop);

  it('places one node per recipe and per good, each id once', () => {
    assert.equal(layout.nodes.length, loop.nodes.length);
    assert.equal(new Set(layout.nodes.map((n) => n.id)).size, loop.nodes.length);
    assert.equal(layout.nodes.filter((n) => n.kind === 'recipe').length, 3);
  });

  it('keeps one node per id when the graph repeats one', () => {
    const twice = layoutFlow({ nodes: [...loop.nodes, loop.nodes[0]], edges: loop.edges });
    assert.equal(twice.nodes.length, loop.nodes.length);
  });

  it('labels every edge with its rate: per second, or MW for an energy good', () => {
    assert.equal(layout.edges.length, loop.edges.length);
    for (const e of layout.edges) assert.match(e.label, /^[\d.,]+(\/s| [kMG]?W)$/, `${e.from} → ${e.to}`);
    assert.equal(layout.edges.find((e) => e.from === 'g:water')!.label, '50/s');
    assert.equal(layout.edges.find((e) => e.from === 'g:fuel')!.label, '1.5 MW');
    assert.ok(layout.edges.find((e) => e.from === 'g:coal')!.fuel);
  });

  it('writes the building count on a recipe and keeps the whole count for the tooltip', () => {
    const wash = layout.nodes.find((n) => n.id === 'r:wash')!;
    assert.equal(wash.lines[wash.lines.length - 1], '3.2 × Washer');
    assert.equal(wash.detailLines, 1);
    assert.match(wash.title, /Ore washing with a very long recipe name\n3.2 × Washer \(place 4\)/);
    // The long name wraps at a word instead of being cut.
    assert.deepEqual(wash.lines.slice(0, 2), ['Ore washing with a very', 'long recipe name']);
  });

  const withIcons = layoutFlow(loop, { icons: true });
  for (const [how, l] of [['', layout], [' (with icons)', withIcons]] as const) {
    it(`never puts a node on top of another${how}`, () => {
      for (const a of l.nodes) for (const b of l.nodes) if (a !== b) assert.ok(!overlap(rectOf(a), rectOf(b)), `${a.id} overlaps ${b.id}`);
    });

    it(`routes every edge around the nodes it does not join${how}`, () => {
      for (const e of l.edges) {
        assert.ok(e.points.length >= 2, `${e.from} → ${e.to} has a route`);
        for (const n of l.nodes) {
          if (n.id === e.from || n.id === e.to) continue;
          const r = rectOf(n, 0.5);
          for (let i = 1; i < e.points.length; i++) assert.ok(!segmentHits(e.points[i - 1], e.points[i], r), `${e.from} → ${e.to} crosses ${n.id}`);
        }
      }
    });
  }

  it('keeps the same room for an icon on every node when the diagram has pictures', () => {
    assert.equal(layout.iconSlot, 0);
    assert.ok(withIcons.iconSlot >= 16);
    for (const n of withIcons.nodes) {
      const plain = layout.nodes.find((x) => x.id === n.id)!;
      assert.equal(n.width, plain.width + withIcons.iconSlot, n.id);
      assert.ok(n.height >= 16 + 2, `${n.id} is tall enough for its icon`);
    }
  });

  it('keeps rate labels off the nodes and inside the drawing', () => {
    for (const e of layout.edges) {
      const r = { x1: e.labelX - e.labelWidth / 2, y1: e.labelY - 7, x2: e.labelX + e.labelWidth / 2, y2: e.labelY + 7 };
      for (const n of layout.nodes) assert.ok(!overlap(r, rectOf(n)), `label of ${e.from} → ${e.to} on ${n.id}`);
      assert.ok(r.x1 >= 0 && r.y1 >= 0 && r.x2 <= layout.width && r.y2 <= layout.height);
    }
  });

  it('fits a small block into a narrow panel without scrolling sideways', () => {
    assert.ok(layout.width <= 700, `width ${layout.width}`);
  });
});

describe('wrapWords', () => {
  it('wraps at words and marks cut text with an ellipsis', () => {
    assert.deepEqual(wrapWords('Iron plate', 26, 2), ['Iron plate']);
    assert.deepEqual(wrapWords('one two three four five six seven eight nine ten', 12, 2), ['one two', 'three four…']);
    assert.deepEqual(wrapWords('Supercalifragilisticexpialidocious', 10, 2), ['Supercali…']);
  });
});
