// The factory board (browser side): the enabled blocks as boxes (icon, name, goals, buildings, power,
// state; what is short in red, what is left over tinted) and the goods between them as curves with
// their rates. Wheel zooms, dragging the background pans, Fit shows everything; dragging a block places
// it (every position is saved then, so the layout the player saw stays), Auto Layout forgets them;
// double-click or Enter opens a block. Zoom and pan survive every redraw (the board follows writes).
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { BoardView, FromBoard, ToBoard } from './boardProtocol';
import { append, button, clear, h, icon } from './panel/dom';
import { el } from './panel/flowDiagram';
import { BOARD_TEXT, boundsOf, curvePoint, layoutBoard, linksFor, type BoardBox, type BoardLayout, type BoardLink } from './board/boardLayout';

declare function acquireVsCodeApi(): { postMessage(m: unknown): void; getState(): unknown; setState(s: unknown): void };

const vscode = acquireVsCodeApi();
const post = (m: FromBoard) => vscode.postMessage(m);
const MIN_SCALE = 0.1;
const MAX_SCALE = 4;

/** Board → screen: screen = board × s + t. Kept across reloads of the tab. */
type Transform = { s: number; tx: number; ty: number };
const kept = vscode.getState() as { transform?: Transform; moved?: boolean } | undefined;
let transform: Transform | undefined = kept?.transform;
/** The player zoomed or panned: the board stays as they left it; until then it keeps fitting the tab. */
let moved = !!kept?.moved;
let view: BoardView | undefined;
let layout: BoardLayout | undefined;
let error: string | undefined;
const root = document.getElementById('app')!;

const r1 = (n: number) => Math.round(n * 10) / 10;
const curveD = (c: BoardLink['curve']) => `M${r1(c[0].x)},${r1(c[0].y)} C${r1(c[1].x)},${r1(c[1].y)} ${r1(c[2].x)},${r1(c[2].y)} ${r1(c[3].x)},${r1(c[3].y)}`;

function keep(): void {
  vscode.setState({ transform, moved });
}

let svg: SVGSVGElement | undefined;
let world: SVGGElement | undefined;
let linkLayer: SVGGElement | undefined;

function applyTransform(): void {
  if (world && transform) world.setAttribute('transform', `translate(${r1(transform.tx)},${r1(transform.ty)}) scale(${transform.s})`);
  keep();
}

function fit(): void {
  if (!svg || !layout) return;
  const box = svg.getBoundingClientRect();
  const b = layout.bounds;
  const pad = 24;
  const s = Math.min(MAX_SCALE, Math.max(MIN_SCALE, Math.min((box.width - pad * 2) / Math.max(b.w, 1), (box.height - pad * 2) / Math.max(b.h, 1), 1.25)));
  transform = { s, tx: (box.width - b.w * s) / 2 - b.x * s, ty: (box.height - b.h * s) / 2 - b.y * s };
  applyTransform();
}

function zoom(factor: number, at?: { x: number; y: number }): void {
  if (!svg || !transform) return;
  moved = true;
  const box = svg.getBoundingClientRect();
  const p = at ?? { x: box.width / 2, y: box.height / 2 };
  const s = Math.min(MAX_SCALE, Math.max(MIN_SCALE, transform.s * factor));
  const k = s / transform.s;
  transform = { s, tx: p.x - (p.x - transform.tx) * k, ty: p.y - (p.y - transform.ty) * k };
  applyTransform();
}

function drawLinks(): void {
  if (!linkLayer || !layout) return;
  while (linkLayer.firstChild) linkLayer.removeChild(linkLayer.firstChild);
  const labels = el('g', { class: 'board-labels' });
  for (const l of layout.links) {
    const kind = l.short ? ' short' : l.surplus ? ' surplus' : '';
    const path = el('path', { d: curveD(l.curve), class: `board-link${kind}`, 'marker-end': `url(#arrow${l.short ? '-short' : l.surplus ? '-surplus' : ''})` });
    path.appendChild(el('title', {}, l.title));
    linkLayer.appendChild(path);
    const mid = curvePoint(l.curve, 0.5);
    const g = el('g', { class: `board-rate${kind}`, transform: `translate(${r1(mid.x)},${r1(mid.y)})` });
    g.appendChild(el('title', {}, l.title));
    g.appendChild(el('rect', { x: r1(-l.labelWidth / 2), y: -BOARD_TEXT.labelHeight / 2, width: r1(l.labelWidth), height: BOARD_TEXT.labelHeight, rx: 3 }));
    g.appendChild(el('text', { x: 0, y: 4, 'text-anchor': 'middle' }, l.label));
    labels.appendChild(g);
  }
  linkLayer.appendChild(labels);
}

function nodeElement(b: BoardBox, n: BoardView['nodes'][number]): SVGElement {
  const g = el('g', {
    class: `board-node state-${n.state}${n.science ? ' science' : ''}${n.short.length ? ' has-short' : ''}`,
    transform: `translate(${r1(b.x - b.width / 2)},${r1(b.y - b.height / 2)})`,
    tabindex: 0, role: 'button', 'aria-label': `${n.name}: ${n.state}. Double-click or Enter to open.`, 'data-id': b.id,
  });
  g.appendChild(el('title', {}, b.title));
  g.appendChild(el('rect', { width: b.width, height: b.height, rx: 4 }));
  const iconX = BOARD_TEXT.padX;
  if (n.icon) {
    const img = el('image', { href: n.icon, x: iconX, y: BOARD_TEXT.padY, width: BOARD_TEXT.icon, height: BOARD_TEXT.icon, 'aria-hidden': 'true' });
    img.addEventListener('error', () => img.remove(), { once: true });
    g.appendChild(img);
  } else g.appendChild(el('circle', { class: 'board-dot', cx: iconX + BOARD_TEXT.icon / 2, cy: BOARD_TEXT.padY + BOARD_TEXT.icon / 2, r: 5 }));
  const textX = iconX + BOARD_TEXT.icon + BOARD_TEXT.iconGap;
  b.lines.forEach((line, i) => g.appendChild(el('text', { x: textX, y: r1(BOARD_TEXT.padY + (i + 1) * BOARD_TEXT.lineHeight - 4), class: `line-${line.kind}` }, line.text)));
  return g;
}

/** Every block where it stands now (board units, centres). */
const positions = () => (layout?.nodes ?? []).map((b) => ({ id: b.id, x: Math.round(b.x), y: Math.round(b.y) }));

function wire(svgEl: SVGSVGElement, nodes: Map<string, SVGElement>): void {
  type Drag = { kind: 'pan'; x: number; y: number; t: Transform; id: number; moved: boolean } | { kind: 'node'; box: BoardBox; x: number; y: number; bx: number; by: number; id: number; moved: boolean };
  let drag: Drag | undefined;
  svgEl.addEventListener('wheel', (ev) => {
    const e = ev as WheelEvent;
    e.preventDefault();
    const box = svgEl.getBoundingClientRect();
    zoom(e.deltaY < 0 ? 1.15 : 1 / 1.15, { x: e.clientX - box.left, y: e.clientY - box.top });
  }, { passive: false });
  svgEl.addEventListener('pointerdown', (ev) => {
    const e = ev as PointerEvent;
    if (e.button !== 0 || !transform) return;
    const target = (e.target as Element).closest('.board-node') as SVGElement | null;
    const box = target ? layout?.nodes.find((b) => b.id === target.getAttribute('data-id')) : undefined;
    drag = box ? { kind: 'node', box, x: e.clientX, y: e.clientY, bx: box.x, by: box.y, id: e.pointerId, moved: false } : { kind: 'pan', x: e.clientX, y: e.clientY, t: { ...transform }, id: e.pointerId, moved: false };
  });
  svgEl.addEventListener('pointermove', (ev) => {
    const e = ev as PointerEvent;
    if (!drag || e.pointerId !== drag.id || !transform) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (!drag.moved) {
      if (Math.hypot(dx, dy) < 3) return;
      // Captured only once it moves: a click or double-click keeps its target (the block under it).
      drag.moved = true;
      svgEl.setPointerCapture?.(e.pointerId);
      svgEl.classList.add(drag.kind === 'node' ? 'moving' : 'panning');
    }
    if (drag.kind === 'pan') {
      moved = true;
      transform = { ...drag.t, tx: drag.t.tx + dx, ty: drag.t.ty + dy };
      applyTransform();
      return;
    }
    const b = drag.box;
    b.x = drag.bx + dx / transform.s;
    b.y = drag.by + dy / transform.s;
    nodes.get(b.id)?.setAttribute('transform', `translate(${r1(b.x - b.width / 2)},${r1(b.y - b.height / 2)})`);
    if (layout && view) {
      layout.links = linksFor(view.edges, new Map(layout.nodes.map((x) => [x.id, x])));
      drawLinks();
    }
  });
  const end = () => {
    if (drag?.kind === 'node' && drag.moved && layout) {
      layout.bounds = boundsOf(layout.nodes);
      // The player is arranging the board: the redraw after the save keeps the view where it is.
      moved = true;
      keep();
      // Every position, not only the dragged one: the blocks laid out automatically stay where they were seen.
      post({ type: 'place', positions: positions() });
    }
    drag = undefined;
    svgEl.classList.remove('moving', 'panning');
  };
  svgEl.addEventListener('pointerup', end);
  svgEl.addEventListener('pointercancel', end);
  svgEl.addEventListener('dblclick', (ev) => {
    const target = (ev.target as Element).closest('.board-node');
    const id = target?.getAttribute('data-id');
    if (id) post({ type: 'open', id });
  });
  svgEl.addEventListener('keydown', (ev) => {
    const e = ev as KeyboardEvent;
    const id = (e.target as Element).closest?.('.board-node')?.getAttribute('data-id');
    if (id && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      post({ type: 'open', id });
    } else if (e.key === '+' || e.key === '=') zoom(1.25);
    else if (e.key === '-') zoom(1 / 1.25);
  });
}

function legend(): HTMLElement {
  return h('span', { class: 'legend sub muted' },
    h('span', { class: 'swatch short' }), 'short ', h('span', { class: 'swatch surplus' }), 'left over', ' · drag a block to place it, double-click to open');
}

function render(): void {
  clear(root);
  const v = view;
  append(root, [
    h('header', { class: 'board-head' },
      h('h1', null, icon('type-hierarchy'), ` Factory board${v ? ` — ${v.project}` : ''}`),
      h('div', { class: 'board-tools' },
        button('Zoom in', () => zoom(1.25), { icon: 'zoom-in', iconOnly: true, secondary: true, key: 'zoom-in' }),
        button('Zoom out', () => zoom(1 / 1.25), { icon: 'zoom-out', iconOnly: true, secondary: true, key: 'zoom-out' }),
        button('Fit', () => {
          moved = false;
          fit();
        }, { icon: 'screen-full', secondary: true, key: 'fit', title: 'Show the whole factory' }),
        button('Auto Layout', () => post({ type: 'autoLayout' }), { icon: 'type-hierarchy', secondary: true, key: 'auto', title: 'Forget where blocks were placed and lay the board out again' }),
      ),
      v && v.nodes.length ? legend() : null,
    ),
    error ? h('div', { class: 'message error', role: 'alert' }, icon('error'), ' ', error) : null,
  ]);
  if (!v) return void root.appendChild(h('p', { class: 'muted' }, 'Loading the factory…'));
  if (!v.nodes.length) return void root.appendChild(h('p', { class: 'muted empty' }, v.empty ?? 'No blocks.'));
  layout = layoutBoard(v);
  const svgEl = el('svg', { class: 'board', role: 'img', 'aria-label': `Factory board of ${v.project}: ${v.nodes.length} blocks, ${layout.links.length} links` }) as SVGSVGElement;
  const defs = el('defs', {});
  for (const [id, cls] of [['arrow', ''], ['arrow-short', ' short'], ['arrow-surplus', ' surplus']]) {
    const m = el('marker', { id, viewBox: '0 0 8 8', refX: 7, refY: 4, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
    m.appendChild(el('path', { d: 'M0,0 L8,4 L0,8 z', class: `board-arrow${cls}` }));
    defs.appendChild(m);
  }
  svgEl.appendChild(defs);
  world = el('g', { class: 'board-world' }) as SVGGElement;
  linkLayer = el('g', { class: 'board-links' }) as SVGGElement;
  world.appendChild(linkLayer);
  const nodeLayer = el('g', { class: 'board-nodes' });
  const nodes = new Map<string, SVGElement>();
  const byId = new Map(v.nodes.map((n) => [n.id, n]));
  for (const b of layout.nodes) {
    const g = nodeElement(b, byId.get(b.id)!);
    nodes.set(b.id, g);
    nodeLayer.appendChild(g);
  }
  world.appendChild(nodeLayer);
  svgEl.appendChild(world);
  root.appendChild(h('div', { class: 'board-frame' }, svgEl));
  svg = svgEl;
  drawLinks();
  wire(svgEl, nodes);
  if (transform && moved) applyTransform();
  else requestAnimationFrame(fit);
}

window.addEventListener('message', (e: MessageEvent<ToBoard>) => {
  const m = e.data;
  if (m.type === 'state') {
    view = m.view;
    error = undefined;
  } else error = m.message;
  render();
});
window.addEventListener('resize', () => {
  if (!moved) fit();
});

render();
post({ type: 'ready' });
