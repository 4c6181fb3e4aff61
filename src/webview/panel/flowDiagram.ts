// The flow diagram of a block as SVG: recipes as boxes, goods as rounded pills coloured by role
// (import, goal, byproduct), arrows from ingredients to recipes to products; loops dashed. Colours
// come from VS Code theme variables (see media/panel.css), so it follows the theme.
import type { FlowGraphView } from '../protocol';
import { CELL, layoutFlow } from './flowLayout';

const SVG = 'http://www.w3.org/2000/svg';

function el(tag: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

const clip = (s: string, n = 18) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function flowDiagram(graph: FlowGraphView, title: string): Element | null {
  if (!graph.nodes.length) return null;
  const layout = layoutFlow(graph);
  const svg = el('svg', { class: 'flow', width: layout.width, height: layout.height, viewBox: `0 0 ${layout.width} ${layout.height}`, role: 'img', 'aria-label': `Flow diagram of ${title}: ${graph.nodes.filter((n) => n.kind === 'recipe').length} recipes` });
  svg.appendChild(el('title', {}, `Flow diagram of ${title}`));
  const defs = el('defs', {});
  const marker = el('marker', { id: 'arrow', viewBox: '0 0 8 8', refX: 7, refY: 4, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse' });
  marker.appendChild(el('path', { d: 'M0,0 L8,4 L0,8 z', class: 'flow-arrow' }));
  defs.appendChild(marker);
  svg.appendChild(defs);
  const at = new Map(layout.nodes.map((n) => [n.id, n]));
  const edges = el('g', { class: 'flow-edges' });
  for (const e of layout.edges) {
    const a = at.get(e.from)!;
    const b = at.get(e.to)!;
    const x1 = a.x + CELL.nodeWidth;
    const y1 = a.y + CELL.nodeHeight / 2;
    const x2 = b.x;
    const y2 = b.y + CELL.nodeHeight / 2;
    const d = e.back
      ? `M${x1},${y1} C${x1 + 30},${y1 - 40} ${x2 - 30},${y2 - 40} ${x2},${y2}`
      : `M${x1},${y1} C${(x1 + x2) / 2},${y1} ${(x1 + x2) / 2},${y2} ${x2},${y2}`;
    edges.appendChild(el('path', { d, class: e.back ? 'flow-edge flow-edge-back' : 'flow-edge', 'marker-end': 'url(#arrow)' }));
  }
  svg.appendChild(edges);
  const nodes = el('g', { class: 'flow-nodes' });
  for (const n of layout.nodes) {
    const g = el('g', { class: `flow-node flow-${n.kind}${n.role ? ` flow-role-${n.role}` : ''}`, transform: `translate(${n.x},${n.y})` });
    g.appendChild(el('title', {}, `${n.kind === 'recipe' ? 'Recipe' : n.role === 'import' ? 'Import' : n.role === 'goal' ? 'Goal' : n.role === 'byproduct' ? 'Byproduct' : 'Good'}: ${n.label}`));
    g.appendChild(el('rect', { width: CELL.nodeWidth, height: CELL.nodeHeight, rx: n.kind === 'good' ? CELL.nodeHeight / 2 : 3 }));
    g.appendChild(el('text', { x: CELL.nodeWidth / 2, y: CELL.nodeHeight / 2 + 4, 'text-anchor': 'middle' }, clip(n.label)));
    nodes.appendChild(g);
  }
  svg.appendChild(nodes);
  return svg;
}
