// Layout of the factory board: blocks the player placed stay where they put them; the others are laid
// out by dagre (the flow diagram's layout library), left to right from suppliers to consumers, below
// the placed ones. Edges are curves from a supplier's right side to a consumer's left side computed
// from the current positions, so they follow a node while it is dragged. Pure (no DOM): node sizes
// come from an estimate of the text width.
import dagre from '@dagrejs/dagre';
import { perSecond, power } from '../format';
import type { BoardEdgeView, BoardNodeView, BoardView } from '../boardProtocol';

export interface Point {
  x: number;
  y: number;
}

export type LineKind = 'name' | 'detail' | 'short' | 'surplus';

export interface BoardBox {
  id: string;
  /** Centre and size, in board units. */
  x: number;
  y: number;
  width: number;
  height: number;
  lines: Array<{ text: string; kind: LineKind }>;
  /** The whole text, for the tooltip. */
  title: string;
  /** Laid out automatically (not placed by the player). */
  auto: boolean;
}

export interface BoardLink {
  from: string;
  to: string;
  /** Start, two control points, end (a cubic curve). */
  curve: [Point, Point, Point, Point];
  label: string;
  labelWidth: number;
  title: string;
  /** A good on it is short at the consumer / left over at the supplier. */
  short: boolean;
  surplus: boolean;
}

export interface BoardLayout {
  nodes: BoardBox[];
  links: BoardLink[];
  /** The box around everything. */
  bounds: { x: number; y: number; w: number; h: number };
}

export const BOARD_TEXT = { charWidth: 6.6, lineHeight: 15, padX: 10, padY: 7, icon: 20, iconGap: 6, minWidth: 170, maxChars: 40, labelHeight: 15 };

const clip = (s: string, n = BOARD_TEXT.maxChars) => (s.length > n ? `${s.slice(0, n - 1).trimEnd()}…` : s);

function goodsLine(list: BoardNodeView['short']): string {
  const [first, ...rest] = list;
  return `${first.label} ${perSecond(first.rate)}${rest.length ? ` +${rest.length}` : ''}`;
}

/** The lines a block's box shows: its name, its goals, buildings and power, and what is short or left over. */
export function nodeLines(n: BoardNodeView): BoardBox['lines'] {
  const stats = [n.state === 'solved' ? `${n.buildings} building${n.buildings === 1 ? '' : 's'}` : n.state, n.powerW ? power(n.powerW) : ''].filter(Boolean).join(' · ');
  return [
    { text: clip(n.name), kind: 'name' },
    ...(n.goals ? [{ text: clip(n.goals), kind: 'detail' as const }] : []),
    { text: stats, kind: 'detail' },
    ...(n.short.length ? [{ text: clip(`short: ${goodsLine(n.short)}`), kind: 'short' as const }] : []),
    ...(n.surplus.length ? [{ text: clip(`left over: ${goodsLine(n.surplus)}`), kind: 'surplus' as const }] : []),
    ...(n.imports.length ? [{ text: clip(`from outside: ${goodsLine(n.imports)}`), kind: 'detail' as const }] : []),
  ];
}

function nodeTitle(n: BoardNodeView): string {
  const list = (xs: BoardNodeView['short']) => xs.map((x) => `${x.label} ${perSecond(x.rate)}`).join(', ');
  return [
    `${n.science ? 'Science block' : 'Block'} "${n.name}" — ${n.state}${n.stateDetail ? `: ${n.stateDetail}` : ''}`,
    n.goals,
    n.short.length ? `Short (its suppliers do not make enough): ${list(n.short)}` : '',
    n.surplus.length ? `Left over (more than the blocks take): ${list(n.surplus)}` : '',
    n.imports.length ? `From outside (no enabled block makes it): ${list(n.imports)}` : '',
    'Double-click to open it; drag to place it.',
  ].filter(Boolean).join('\n');
}

function boxSize(lines: BoardBox['lines']): { width: number; height: number } {
  const text = Math.max(...lines.map((l) => l.text.length * BOARD_TEXT.charWidth * (l.kind === 'name' ? 1.08 : 1)));
  return {
    width: Math.round(Math.max(BOARD_TEXT.minWidth, text + BOARD_TEXT.padX * 2 + BOARD_TEXT.icon + BOARD_TEXT.iconGap)),
    height: lines.length * BOARD_TEXT.lineHeight + BOARD_TEXT.padY * 2,
  };
}

/** The curve from `a`'s right side to `b`'s left side (around, when `b` lies to the left of `a`). */
export function linkCurve(a: Pick<BoardBox, 'x' | 'y' | 'width'>, b: Pick<BoardBox, 'x' | 'y' | 'width'>): [Point, Point, Point, Point] {
  const start = { x: a.x + a.width / 2, y: a.y };
  const end = { x: b.x - b.width / 2, y: b.y };
  const reach = Math.max(40, Math.abs(end.x - start.x) / 2);
  return [start, { x: start.x + reach, y: start.y }, { x: end.x - reach, y: end.y }, end];
}

/** A point of the cubic curve at `t`. */
export function curvePoint(c: [Point, Point, Point, Point], t: number): Point {
  const u = 1 - t;
  const w = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
  return { x: w.reduce((s, k, i) => s + k * c[i].x, 0), y: w.reduce((s, k, i) => s + k * c[i].y, 0) };
}

function linkOf(e: BoardEdgeView, a: BoardBox, b: BoardBox): BoardLink {
  const [first, ...rest] = e.goods;
  const label = `${first.label} ${perSecond(first.rate)}${rest.length ? ` +${rest.length}` : ''}`;
  return {
    from: e.from,
    to: e.to,
    curve: linkCurve(a, b),
    label,
    labelWidth: label.length * 5.8 + 8,
    title: e.goods.map((x) => `${x.label} ${perSecond(x.rate)}${x.short ? ' (the consumer is short of it)' : ''}${x.surplus ? ' (the supplier has more than is taken)' : ''}`).join('\n'),
    short: e.goods.some((x) => x.short),
    surplus: e.goods.some((x) => x.surplus),
  };
}

/** The links between the boxes as they stand now (after a drag, too). */
export function linksFor(edges: BoardEdgeView[], boxes: Map<string, BoardBox>): BoardLink[] {
  return edges.filter((e) => boxes.has(e.from) && boxes.has(e.to) && e.from !== e.to && e.goods.length).map((e) => linkOf(e, boxes.get(e.from)!, boxes.get(e.to)!));
}

export function boundsOf(boxes: Iterable<BoardBox>): BoardLayout['bounds'] {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const b of boxes) {
    x0 = Math.min(x0, b.x - b.width / 2);
    y0 = Math.min(y0, b.y - b.height / 2);
    x1 = Math.max(x1, b.x + b.width / 2);
    y1 = Math.max(y1, b.y + b.height / 2);
  }
  return Number.isFinite(x0) ? { x: x0, y: y0, w: x1 - x0, h: y1 - y0 } : { x: 0, y: 0, w: 1, h: 1 };
}

const GAP = 80;

/** Places every block (the player's positions first) and draws the links between them. Deterministic. */
export function layoutBoard(view: Pick<BoardView, 'nodes' | 'edges'>): BoardLayout {
  const boxes = new Map<string, BoardBox>();
  const auto: BoardNodeView[] = [];
  for (const n of view.nodes) {
    const lines = nodeLines(n);
    const size = boxSize(lines);
    const box: BoardBox = { id: n.id, x: n.layout?.x ?? 0, y: n.layout?.y ?? 0, ...size, lines, title: nodeTitle(n), auto: !n.layout };
    boxes.set(n.id, box);
    if (!n.layout) auto.push(n);
  }
  if (auto.length) {
    const g = new dagre.graphlib.Graph();
    g.setGraph({ rankdir: 'LR', nodesep: 28, ranksep: 90, marginx: 0, marginy: 0 });
    g.setDefaultEdgeLabel(() => ({}));
    for (const n of auto) g.setNode(n.id, { width: boxes.get(n.id)!.width, height: boxes.get(n.id)!.height });
    for (const e of view.edges) if (e.from !== e.to && g.hasNode(e.from) && g.hasNode(e.to)) g.setEdge(e.from, e.to);
    dagre.layout(g);
    // The automatic part goes below what the player placed, so a new block never lands on a placed one.
    const placed = [...boxes.values()].filter((b) => !b.auto);
    const origin = placed.length ? (() => {
      const b = boundsOf(placed);
      return { x: b.x, y: b.y + b.h + GAP };
    })() : { x: 0, y: 0 };
    for (const n of auto) {
      const p = g.node(n.id);
      const box = boxes.get(n.id)!;
      box.x = origin.x + p.x!;
      box.y = origin.y + p.y!;
    }
  }
  return { nodes: [...boxes.values()], links: linksFor(view.edges, boxes), bounds: boundsOf(boxes.values()) };
}
