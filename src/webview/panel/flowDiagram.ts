// The flow diagram of a block as SVG, fitted to the panel's width: recipes as boxes with their
// building counts, goods as pills coloured by role (import, goal, byproduct), rates on the edges,
// fuel edges dashed. Zoom (buttons, ctrl+wheel) and pan (drag) move the viewBox, so the element keeps
// its size in the card; Fit returns to the whole diagram. Colours come from VS Code theme variables
// (media/panel.css), so it follows the theme. A diagram given a `key` keeps its zoom and pan across
// re-renders (every edit redraws the card or the editor); a new key (another block or proposal)
// starts fitted. Nodes show their game icons when the caller has them.
import type { FlowGraphNode, FlowGraphView } from '../protocol';
import { h } from './dom';
import { FLOW_TEXT, layoutFlow, type Point } from './flowLayout';
import type { RateUnit } from '../format';

const SVG = 'http://www.w3.org/2000/svg';
/** Beyond 8× a label fills the panel; below the fitted size there is nothing more to see. */
const MAX_ZOOM = 8;

/** An SVG element with attributes and text (the factory board draws with it too). */
export function el(tag: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

const r1 = (n: number) => Math.round(n * 10) / 10;

/** Straight segments through the layout's points, corners rounded within a few pixels of them. */
function edgePath(points: Point[]): string {
  if (!points.length) return '';
  let d = `M${r1(points[0].x)},${r1(points[0].y)}`;
  for (let i = 1; i < points.length - 1; i++) {
    const [a, b, c] = [points[i - 1], points[i], points[i + 1]];
    const lin = Math.hypot(b.x - a.x, b.y - a.y);
    const lout = Math.hypot(c.x - b.x, c.y - b.y);
    const r = Math.min(6, lin / 2, lout / 2);
    if (!(r > 0.5)) {
      d += ` L${r1(b.x)},${r1(b.y)}`;
      continue;
    }
    d += ` L${r1(b.x + ((a.x - b.x) * r) / lin)},${r1(b.y + ((a.y - b.y) * r) / lin)} Q${r1(b.x)},${r1(b.y)} ${r1(b.x + ((c.x - b.x) * r) / lout)},${r1(b.y + ((c.y - b.y) * r) / lout)}`;
  }
  const last = points[points.length - 1];
  return `${d} L${r1(last.x)},${r1(last.y)}`;
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A zoomed view: how close, and the diagram point in the middle (diagram units survive a redraw). */
interface Zoom {
  scale: number;
  cx: number;
  cy: number;
}

/** Zoomed views by diagram key (a fitted diagram has none); the oldest go first beyond a few dozen. */
const remembered = new Map<string, Zoom>();
const REMEMBER = 40;

function remember(key: string, view: Zoom | null): void {
  remembered.delete(key);
  if (!view) return;
  remembered.set(key, view);
  if (remembered.size > REMEMBER) remembered.delete(remembered.keys().next().value!);
}

export interface FlowDiagramOptions {
  /** Names the block or proposal shown: its zoom and pan survive a redraw with the same key. */
  key?: string;
  /** A node's game icon (webview URI), if there is one. */
  icon?: (node: FlowGraphNode) => string | undefined;
  /** Edge rates per second (default), minute or hour. */
  unit?: RateUnit;
}

export function flowDiagram(graph: FlowGraphView, title: string, opts: FlowDiagramOptions = {}): Element | null {
  if (!graph.nodes.length) return null;
  const icons = new Map<string, string>();
  for (const n of graph.nodes) {
    const src = opts.icon?.(n);
    if (src) icons.set(n.id, src);
  }
  const layout = layoutFlow(graph, { icons: icons.size > 0, unit: opts.unit });
  const recipes = graph.nodes.filter((n) => n.kind === 'recipe').length;
  const goods = graph.nodes.length - recipes;
  const full = { x: 0, y: 0, w: Math.max(1, layout.width), h: Math.max(1, layout.height) };
  const svg = el('svg', {
    class: 'flow', viewBox: `0 0 ${full.w} ${full.h}`, preserveAspectRatio: 'xMidYMin meet', role: 'img',
    // Never drawn larger than its natural size: a small diagram stays crisp instead of blown up.
    style: `max-width: ${full.w}px`,
    'aria-label': `Flow diagram of ${title}: ${recipes} recipe${recipes === 1 ? '' : 's'}, ${goods} good${goods === 1 ? '' : 's'}`,
  });
  svg.appendChild(el('title', {}, `Flow diagram of ${title}`));
  const defs = el('defs', {});
  const marker = el('marker', { id: 'flow-arrow', viewBox: '0 0 8 8', refX: 7, refY: 4, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse' });
  marker.appendChild(el('path', { d: 'M0,0 L8,4 L0,8 z', class: 'flow-arrow' }));
  defs.appendChild(marker);
  svg.appendChild(defs);

  const edges = el('g', { class: 'flow-edges' });
  for (const e of layout.edges) edges.appendChild(el('path', { d: edgePath(e.points), class: e.fuel ? 'flow-edge flow-edge-fuel' : 'flow-edge', 'marker-end': 'url(#flow-arrow)' }));
  svg.appendChild(edges);

  const nodes = el('g', { class: 'flow-nodes' });
  for (const n of layout.nodes) {
    const g = el('g', { class: `flow-node flow-${n.kind}${n.role ? ` flow-role-${n.role}` : ''}`, transform: `translate(${r1(n.x - n.width / 2)},${r1(n.y - n.height / 2)})` });
    g.appendChild(el('title', {}, n.title));
    g.appendChild(el('rect', { width: n.width, height: n.height, rx: n.kind === 'good' ? Math.min(n.height / 2, 12) : 3 }));
    const top = (n.height - n.lines.length * FLOW_TEXT.lineHeight) / 2 + FLOW_TEXT.lineHeight - 3.5;
    // Text centred in what the icon's room leaves.
    const textX = r1((n.width + layout.iconSlot - (layout.iconSlot ? FLOW_TEXT.padX / 2 : 0)) / 2);
    n.lines.forEach((line, i) => {
      const detail = i >= n.lines.length - n.detailLines;
      g.appendChild(el('text', { x: textX, y: r1(top + i * FLOW_TEXT.lineHeight), 'text-anchor': 'middle', ...(detail ? { class: 'flow-detail' } : {}) }, line));
    });
    const src = icons.get(n.id);
    if (src) {
      const img = el('image', { href: src, x: FLOW_TEXT.padX, y: r1((n.height - FLOW_TEXT.icon) / 2), width: FLOW_TEXT.icon, height: FLOW_TEXT.icon, class: 'flow-icon', 'aria-hidden': 'true' });
      // A picture gone from the cache leaves the slot empty, never a broken image.
      img.addEventListener('error', () => img.remove(), { once: true });
      g.appendChild(img);
    }
    nodes.appendChild(g);
  }
  svg.appendChild(nodes);

  // Rate labels last, on a background, so a label reads even where two edges meet.
  const labels = el('g', { class: 'flow-labels' });
  for (const e of layout.edges) {
    if (!e.label) continue;
    const g = el('g', { class: 'flow-rate', transform: `translate(${r1(e.labelX)},${r1(e.labelY)})` });
    g.appendChild(el('rect', { x: r1(-e.labelWidth / 2), y: -FLOW_TEXT.labelHeight / 2, width: r1(e.labelWidth), height: FLOW_TEXT.labelHeight, rx: 2 }));
    g.appendChild(el('text', { x: 0, y: 3.5, 'text-anchor': 'middle' }, e.label));
    labels.appendChild(g);
  }
  svg.appendChild(labels);

  return h('div', { class: 'flow-view' }, zoomBar(svg, full, opts.key), h('div', { class: 'flow-frame' }, svg));
}

/** Zoom and pan by rewriting the viewBox; its aspect ratio never changes, so neither does the element's height. */
function zoomBar(svg: SVGElement, full: Box, key?: string): HTMLElement {
  let view = { ...full };
  const apply = () => {
    svg.setAttribute('viewBox', `${r1(view.x)} ${r1(view.y)} ${r1(view.w)} ${r1(view.h)}`);
    if (key !== undefined) remember(key, view.w < full.w ? { scale: full.w / view.w, cx: view.x + view.w / 2, cy: view.y + view.h / 2 } : null);
  };
  const clampView = () => {
    // Keep some of the diagram in sight: the view's centre stays inside the diagram.
    view.x = Math.min(Math.max(view.x, full.x - view.w / 2), full.x + full.w - view.w / 2);
    view.y = Math.min(Math.max(view.y, full.y - view.h / 2), full.y + full.h - view.h / 2);
  };
  const fit = () => {
    view = { ...full };
    apply();
  };
  // preserveAspectRatio meet: one scale for both axes.
  const pixelsPerUnit = (box: DOMRect) => Math.min(box.width / view.w, box.height / view.h) || 1;
  const kept = key !== undefined ? remembered.get(key) : undefined;
  if (kept) {
    // The same zoom around the same point of the redrawn diagram (its size may have changed with the edit).
    const w = full.w / kept.scale;
    const hgt = full.h / kept.scale;
    view = { x: kept.cx - w / 2, y: kept.cy - hgt / 2, w, h: hgt };
    clampView();
    apply();
  }
  /** Zoom by `factor` (>1 = closer) around a point of the diagram (default: the view's centre). */
  const zoom = (factor: number, at?: Point) => {
    const scale = Math.min(MAX_ZOOM, Math.max(1, full.w / view.w) * factor);
    if (scale <= 1.0001) return fit();
    const w = full.w / scale;
    const hgt = full.h / scale;
    const p = at ?? { x: view.x + view.w / 2, y: view.y + view.h / 2 };
    view = { x: p.x - ((p.x - view.x) * w) / view.w, y: p.y - ((p.y - view.y) * hgt) / view.h, w, h: hgt };
    clampView();
    apply();
  };
  const toDiagram = (clientX: number, clientY: number): Point => {
    const box = svg.getBoundingClientRect();
    const s = pixelsPerUnit(box);
    // The content is centred horizontally.
    const offX = (box.width - view.w * s) / 2;
    return { x: view.x + (clientX - box.left - offX) / s, y: view.y + (clientY - box.top) / s };
  };

  svg.addEventListener('wheel', (ev) => {
    const e = ev as WheelEvent;
    if (!e.ctrlKey && !e.metaKey) return;
    e.preventDefault();
    zoom(e.deltaY < 0 ? 1.2 : 1 / 1.2, toDiagram(e.clientX, e.clientY));
  });
  let drag: { x: number; y: number; view: typeof view; id: number } | null = null;
  svg.addEventListener('pointerdown', (ev) => {
    const e = ev as PointerEvent;
    if (e.button !== 0) return;
    drag = { x: e.clientX, y: e.clientY, view: { ...view }, id: e.pointerId };
    svg.setPointerCapture?.(e.pointerId);
    svg.classList.add('dragging');
  });
  svg.addEventListener('pointermove', (ev) => {
    const e = ev as PointerEvent;
    if (!drag || e.pointerId !== drag.id) return;
    const s = pixelsPerUnit(svg.getBoundingClientRect());
    view = { ...drag.view, x: drag.view.x - (e.clientX - drag.x) / s, y: drag.view.y - (e.clientY - drag.y) / s };
    clampView();
    apply();
  });
  const end = () => {
    drag = null;
    svg.classList.remove('dragging');
  };
  svg.addEventListener('pointerup', end);
  svg.addEventListener('pointercancel', end);

  const tool = (label: string, text: string, onClick: () => void) => {
    const b = h('button', { type: 'button', class: 'flow-tool', title: label, 'aria-label': label }, text);
    b.addEventListener('click', onClick);
    return b;
  };
  return h(
    'div',
    { class: 'flow-toolbar' },
    tool('Zoom out', '−', () => zoom(1 / 1.5)),
    tool('Zoom in', '+', () => zoom(1.5)),
    tool('Fit to the panel', 'Fit', fit),
    h('span', { class: 'sub muted' }, 'Ctrl+wheel zooms, drag pans'),
  );
}
