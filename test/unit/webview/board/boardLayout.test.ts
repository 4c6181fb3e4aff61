import assert from 'node:assert/strict';
import { curvePoint, layoutBoard, linkCurve, nodeLines } from '../../../../src/webview/board/boardLayout';
import type { BoardNodeView } from '../../../../src/webview/boardProtocol';

const node = (id: string, extra: Partial<BoardNodeView> = {}): BoardNodeView => ({ id, name: `Block ${id}`, state: 'solved', science: false, goals: 'Gear 1/s', buildings: 2, powerW: 150_000, layout: null, surplus: [], short: [], imports: [], ...extra });
const edge = (from: string, to: string) => ({ from, to, goods: [{ good: 'gear', label: 'Gear', rate: 1, short: false, surplus: false }] });
const overlap = (a: { x: number; y: number; width: number; height: number }, b: typeof a) => Math.abs(a.x - b.x) * 2 < a.width + b.width && Math.abs(a.y - b.y) * 2 < a.height + b.height;

describe('factory board layout', () => {
  it('lays unplaced blocks out left to right from supplier to consumer, without overlaps', () => {
    const l = layoutBoard({ nodes: [node('c'), node('a'), node('b'), node('d')], edges: [edge('a', 'b'), edge('b', 'c'), edge('a', 'd')] });
    const at = new Map(l.nodes.map((n) => [n.id, n]));
    assert.ok(at.get('a')!.x < at.get('b')!.x && at.get('b')!.x < at.get('c')!.x);
    for (const x of l.nodes) for (const y of l.nodes) if (x !== y) assert.ok(!overlap(x, y), `${x.id} overlaps ${y.id}`);
    assert.equal(l.links.length, 3);
    assert.ok(l.nodes.every((n) => n.auto));
  });

  it('keeps the blocks the player placed and puts new ones below them', () => {
    const l = layoutBoard({ nodes: [node('a', { layout: { x: 500, y: 100 } }), node('b', { layout: { x: 100, y: 300 } }), node('new')], edges: [edge('a', 'new')] });
    const at = new Map(l.nodes.map((n) => [n.id, n]));
    assert.deepEqual([at.get('a')!.x, at.get('a')!.y, at.get('a')!.auto], [500, 100, false]);
    const placedBottom = Math.max(...['a', 'b'].map((id) => at.get(id)!.y + at.get(id)!.height / 2));
    const fresh = at.get('new')!;
    assert.ok(fresh.auto);
    assert.ok(fresh.y - fresh.height / 2 >= placedBottom + 40, `${fresh.y} is not below ${placedBottom}`);
    assert.ok(l.bounds.y + l.bounds.h >= fresh.y + fresh.height / 2);
  });

  it("runs a link from the supplier's right side to the consumer's left side", () => {
    const c = linkCurve({ x: 0, y: 0, width: 100 }, { x: 300, y: 50, width: 80 });
    assert.deepEqual(c[0], { x: 50, y: 0 });
    assert.deepEqual(c[3], { x: 260, y: 50 });
    const mid = curvePoint(c, 0.5);
    assert.ok(mid.x > 50 && mid.x < 260 && Math.abs(mid.y - 25) < 1e-9);
  });

  it('shows buildings and power, and what is short or left over, on the box', () => {
    const lines = nodeLines(node('a', { short: [{ good: 'filter', label: 'Filter', rate: 0.05 }, { good: 'circuit', label: 'Circuit', rate: 0.05 }], surplus: [{ good: 'gear', label: 'Gear', rate: 0.5 }], imports: [{ good: 'ferrite-ore', label: 'Ferrite ore', rate: 2 }] }));
    assert.deepEqual(lines, [
      { text: 'Block a', kind: 'name' },
      { text: 'Gear 1/s', kind: 'detail' },
      { text: '2 buildings · 150 kW', kind: 'detail' },
      { text: 'short: Filter 0.05/s +1', kind: 'short' },
      { text: 'left over: Gear 0.5/s', kind: 'surplus' },
      { text: 'from outside: Ferrite ore 2/s', kind: 'detail' },
    ]);
    assert.equal(nodeLines(node('b', { state: 'infeasible', powerW: null, goals: '' }))[1].text, 'infeasible');
  });
});
