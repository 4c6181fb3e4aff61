// Layout of a block's flow diagram: recipes and goods placed in layers top to bottom by dagre (a
// narrow side panel has room for depth, not for breadth), each edge routed through the points dagre
// returns so it passes between nodes, with its rate as a label dagre keeps clear of the nodes.
// Node sizes come from an estimate of the text width, since this module runs without a DOM (tests).
import dagre from '@dagrejs/dagre';
import { power, rate, short, type RateUnit } from '../format';
import type { FlowGraphNode, FlowGraphView } from '../protocol';

export interface Point {
  x: number;
  y: number;
}

export interface PlacedNode {
  id: string;
  kind: 'recipe' | 'good';
  role?: FlowGraphNode['role'];
  /** Text lines as drawn (the name wrapped at words, then the buildings line of a recipe). */
  lines: string[];
  /** Lines drawn in the secondary style (a recipe's buildings). */
  detailLines: number;
  /** The full text, for the tooltip (lines may be shortened with an ellipsis). */
  title: string;
  /** Centre and size. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PlacedEdge {
  from: string;
  to: string;
  /** "2.5/s", "3 MW"; "" when the stored draft has no rate for it. */
  label: string;
  fuel: boolean;
  /** From the source node's border to the target node's border. */
  points: Point[];
  /** Centre of the label. */
  labelX: number;
  labelY: number;
  labelWidth: number;
}

export interface FlowLayout {
  nodes: PlacedNode[];
  edges: PlacedEdge[];
  width: number;
  height: number;
  /** Width kept at the left of every node for its game icon (0: drawn without icons). */
  iconSlot: number;
}

export const FLOW_TEXT = { charWidth: 6.4, lineHeight: 14, padX: 8, padY: 5, maxChars: 26, labelHeight: 14, icon: 16, iconGap: 4 };

/** Words into at most `maxLines` lines of `maxChars`; a word too long for a line, or text left
 *  over, ends in an ellipsis (the node's tooltip has the whole text). */
export function wrapWords(text: string, maxChars: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const w of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${w}` : w;
    if (next.length <= maxChars || !line) line = next;
    else {
      lines.push(line);
      line = w;
    }
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) lines.splice(maxLines - 1, lines.length, lines.slice(maxLines - 1).join(' '));
  const out = lines.map((l) => (l.length > maxChars ? `${l.slice(0, maxChars - 1).trimEnd()}…` : l));
  return out.length ? out : [''];
}

const textWidth = (s: string) => s.length * FLOW_TEXT.charWidth;

/** "3.2 × Assembling machine 2" — the solver's count; the whole count to place goes in the tooltip. */
function buildingsLine(n: FlowGraphNode): string | null {
  if (!n.machine || n.buildings === undefined) return null;
  return `${short(n.buildings)} × ${n.machine}`;
}

function edgeLabel(perSec: number | undefined, energy: boolean, unit: RateUnit): string {
  if (perSec === undefined) return '';
  return energy ? power(perSec * 1e6) : rate(perSec, unit);
}

function nodeText(n: FlowGraphNode): Pick<PlacedNode, 'lines' | 'detailLines' | 'title'> {
  const name = wrapWords(n.label, FLOW_TEXT.maxChars, 2);
  const detail = n.kind === 'recipe' ? buildingsLine(n) : null;
  const detailLines = detail ? wrapWords(detail, FLOW_TEXT.maxChars, 1) : [];
  const role = n.kind === 'recipe' ? 'Recipe' : n.role === 'import' ? 'Import' : n.role === 'goal' ? 'Goal' : n.role === 'byproduct' ? 'Byproduct' : n.role === 'export' ? 'Export' : 'Good';
  const place = n.kind === 'recipe' && n.wholeBuildings !== undefined ? ` (place ${n.wholeBuildings})` : '';
  return { lines: [...name, ...detailLines], detailLines: detailLines.length, title: `${role}: ${n.label}${detail ? `\n${detail}${place}` : ''}` };
}

/**
 * Places every node and routes every edge. Pure; deterministic for a given graph. With `icons`,
 * every node (not only those with a picture) gets the icon's room, so sizes stay alike.
 */
export function layoutFlow(graph: FlowGraphView, opts: { icons?: boolean; unit?: RateUnit } = {}): FlowLayout {
  const iconSlot = opts.icons ? FLOW_TEXT.icon + FLOW_TEXT.iconGap : 0;
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'TB', nodesep: 16, edgesep: 10, ranksep: 30, marginx: 6, marginy: 6 });
  g.setDefaultEdgeLabel(() => ({}));
  const byId = new Map<string, FlowGraphNode>();
  const texts = new Map<string, ReturnType<typeof nodeText>>();
  for (const n of graph.nodes) {
    if (byId.has(n.id)) continue;
    byId.set(n.id, n);
    const t = nodeText(n);
    texts.set(n.id, t);
    const width = Math.max(n.kind === 'good' ? 60 : 80, ...t.lines.map(textWidth)) + FLOW_TEXT.padX * 2 + (n.kind === 'good' ? 8 : 0) + iconSlot;
    const height = Math.max(t.lines.length * FLOW_TEXT.lineHeight, iconSlot ? FLOW_TEXT.icon + 2 : 0) + FLOW_TEXT.padY * 2;
    g.setNode(n.id, { width: Math.round(width), height });
  }
  const edges = graph.edges.filter((e) => byId.has(e.from) && byId.has(e.to) && e.from !== e.to);
  edges.forEach((e, i) => {
    const energy = !!(byId.get(e.from)!.energy || byId.get(e.to)!.energy);
    const label = edgeLabel(e.rate, energy, opts.unit ?? 's');
    g.setEdge(e.from, e.to, { label, width: label ? textWidth(label) + 6 : 0, height: label ? FLOW_TEXT.labelHeight : 0, labelpos: 'c' }, String(i));
  });
  dagre.layout(g);

  const nodes: PlacedNode[] = [...byId.values()].map((n) => {
    const p = g.node(n.id);
    return { id: n.id, kind: n.kind, ...(n.role ? { role: n.role } : {}), ...texts.get(n.id)!, x: p.x!, y: p.y!, width: p.width, height: p.height };
  });
  const placed: PlacedEdge[] = edges.map((e, i) => {
    const l = g.edge(e.from, e.to, String(i));
    const label = String(l.label ?? '');
    return { from: e.from, to: e.to, label, fuel: !!e.fuel, points: (l.points ?? []).map((p: Point) => ({ x: p.x, y: p.y })), labelX: l.x ?? 0, labelY: l.y ?? 0, labelWidth: label ? textWidth(label) + 6 : 0 };
  });
  const size = g.graph();
  return { nodes, edges: placed, width: Math.ceil(size.width ?? 0), height: Math.ceil(size.height ?? 0), iconSlot };
}
