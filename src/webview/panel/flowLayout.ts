// Layout of a block's flow diagram: goods and recipes in columns from imports on the left to goals
// and byproducts on the right. Longest-path layering over the graph with cycles broken (Py chains
// loop), one barycentre pass to reduce crossings, fixed cell sizes. Pure: no DOM.
import type { FlowGraphView } from '../protocol';

export interface PlacedNode {
  id: string;
  kind: 'recipe' | 'good';
  label: string;
  role?: string;
  x: number;
  y: number;
  layer: number;
}

export interface PlacedEdge {
  from: string;
  to: string;
  /** Goes right to left (a loop in the chain). */
  back: boolean;
}

export interface FlowLayout {
  nodes: PlacedNode[];
  edges: PlacedEdge[];
  width: number;
  height: number;
}

export const CELL = { width: 150, height: 34, nodeWidth: 124, nodeHeight: 22, pad: 8 };

export function layoutFlow(g: FlowGraphView): FlowLayout {
  const ids = g.nodes.map((n) => n.id);
  const index = new Map(ids.map((id, i) => [id, i]));
  const out = new Map<string, string[]>(ids.map((id) => [id, []]));
  const edges = g.edges.filter((e) => index.has(e.from) && index.has(e.to) && e.from !== e.to);
  for (const e of edges) out.get(e.from)!.push(e.to);

  // Break cycles: DFS from sources (imports first), edges to a node on the stack are back edges.
  const state = new Map<string, 0 | 1 | 2>();
  const back = new Set<string>();
  const roleRank = (id: string) => (g.nodes[index.get(id)!].role === 'import' ? 0 : 1);
  const order = [...ids].sort((a, b) => roleRank(a) - roleRank(b) || index.get(a)! - index.get(b)!);
  const visit = (root: string) => {
    const stack: Array<{ id: string; i: number }> = [{ id: root, i: 0 }];
    state.set(root, 1);
    while (stack.length) {
      const top = stack[stack.length - 1];
      const next = out.get(top.id)![top.i++];
      if (next === undefined) {
        state.set(top.id, 2);
        stack.pop();
        continue;
      }
      const s = state.get(next) ?? 0;
      if (s === 1) back.add(`${top.id}\0${next}`);
      else if (s === 0) {
        state.set(next, 1);
        stack.push({ id: next, i: 0 });
      }
    }
  };
  for (const id of order) if (!state.get(id)) visit(id);

  // Longest-path layers over the forward edges.
  const preds = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const e of edges) if (!back.has(`${e.from}\0${e.to}`)) preds.get(e.to)!.push(e.from);
  const layer = new Map<string, number>();
  const layerOf = (id: string, seen = new Set<string>()): number => {
    const known = layer.get(id);
    if (known !== undefined) return known;
    if (seen.has(id)) return 0;
    seen.add(id);
    const l = Math.max(-1, ...preds.get(id)!.map((p) => layerOf(p, seen))) + 1;
    layer.set(id, l);
    return l;
  };
  for (const id of ids) layerOf(id);
  // Outputs (goals, byproducts, exports) go to the last column.
  const last = Math.max(0, ...layer.values());
  for (const n of g.nodes) if (n.kind === 'good' && (n.role === 'goal' || n.role === 'byproduct' || n.role === 'export') && !out.get(n.id)!.length) layer.set(n.id, Math.max(layer.get(n.id)!, last));

  const columns: string[][] = [];
  for (const id of ids) (columns[layer.get(id)!] ??= []).push(id);
  // One barycentre pass: order each column by the mean row of its predecessors.
  const row = new Map<string, number>();
  columns.forEach((col, c) => {
    if (c > 0) {
      const bary = (id: string) => {
        const ps = preds.get(id)!.filter((p) => row.has(p));
        return ps.length ? ps.reduce((s, p) => s + row.get(p)!, 0) / ps.length : Number.MAX_SAFE_INTEGER;
      };
      col.sort((a, b) => bary(a) - bary(b) || index.get(a)! - index.get(b)!);
    }
    col.forEach((id, r) => row.set(id, r));
  });

  const rows = Math.max(1, ...columns.map((c) => c?.length ?? 0));
  const nodes: PlacedNode[] = g.nodes.map((n) => {
    const l = layer.get(n.id)!;
    const r = row.get(n.id)!;
    const colSize = columns[l].length;
    const offset = ((rows - colSize) * CELL.height) / 2;
    return { ...n, layer: l, x: CELL.pad + l * CELL.width, y: CELL.pad + offset + r * CELL.height };
  });
  return {
    nodes,
    edges: edges.map((e) => ({ from: e.from, to: e.to, back: back.has(`${e.from}\0${e.to}`) || layer.get(e.to)! <= layer.get(e.from)! })),
    width: CELL.pad * 2 + (columns.length - 1) * CELL.width + CELL.nodeWidth,
    height: CELL.pad * 2 + rows * CELL.height,
  };
}
