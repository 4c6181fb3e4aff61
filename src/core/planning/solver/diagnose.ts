// Infeasibility explained in the user's terms (domain C.6). An elastic copy of the program gives every
// gesture row (goal, made, drain, pin) a slack; minimizing the slacks finds the rows that must give.
// Violated rows (plus rows whose dual shows they hold the conflict) split into components that share
// recipe columns — independent conflicts get separate cards, coupled ones a single card. Per
// component, each nearby gesture is tested alone: if relaxing only it makes the block feasible it is a
// member, and how far it must move is its shortfall. Cards name gestures only; structural rows (a
// temperature variant cannot be bought) are never relaxed and never named.
import type { DiagnosisCard, DiagnosisMember } from './result';
import type { Highs } from './highs';
import type { BlockProgram, ConstraintInfo, GestureKind } from './lp';
import { LpSession, rowEntries } from './program';
import { fmt3 } from './rows';

export interface DiagnoseOptions {
  maxCards?: number;
  timeLimitSec?: number;
}

const tol = (c: ConstraintInfo) => 1e-6 * Math.max(1, Math.abs(c.rhs));

interface Relaxation {
  row: number;
  /** How far the row must move, in the row's own unit. */
  amount: number;
  /** 'less': the row asks for more than the block can give; 'more': for less than it must. */
  direction: 'less' | 'more';
  /** Relaxing this row alone makes the block feasible. */
  resolves: boolean;
  /** Relaxing it with the other `together` rows of its kind makes the block feasible. */
  together?: boolean;
}

function fixFor(c: ConstraintInfo, r: Relaxation): string {
  const short = r.amount * c.scale;
  switch (c.kind) {
    case 'goal':
      if (c.implicit) return `Add a recipe that makes more ${c.display}, or lower the goal of ${c.display}`;
      if (c.sense === 'le') return `Lower the consumption goal of ${c.display} to ${fmt3(Math.max(0, -(c.value ?? c.rhs) - short))}/s`;
      return Math.max(0, (c.value ?? c.rhs) - short) > 0 ? `Lower the goal of ${c.display} to ${fmt3(Math.max(0, (c.value ?? c.rhs) - short))}/s` : `Remove the goal of ${c.display}`;
    case 'pin-cap':
      return `Raise the cap on ${c.display} to ${fmt3((c.value ?? 0) + short)} buildings, or remove it`;
    case 'pin-count':
      return r.direction === 'less'
        ? `Lower the pin on ${c.display} to ${fmt3(Math.max(0, (c.value ?? 0) - short))} buildings, or remove it`
        : `Raise the pin on ${c.display} to ${fmt3((c.value ?? 0) + short)} buildings, or remove it`;
    case 'pin-share':
      return `Change the share of ${c.good ?? 'the good'} taken by ${c.display}, or remove the share pin`;
    case 'made':
      return c.implicit
        ? `Add reactors (or raise their pins) so the block makes its own heat, or lower its heat use`
        : `Stop marking ${c.display} as made (let the block import ${fmt3(short)}/s), or add a recipe that makes it`;
    case 'drain':
      return r.direction === 'less'
        ? `Remove the drain of ${c.display} (the block would import ${fmt3(short)}/s)`
        : `Remove the drain of ${c.display} (${fmt3(short)}/s would leave the block), or add a recipe that consumes it`;
    default:
      return '';
  }
}

function memberText(c: ConstraintInfo, r: Relaxation): string {
  const v = fmt3(r.amount * c.scale);
  const unit = c.unit === 'buildings' ? ' buildings' : '/s';
  switch (c.kind) {
    case 'goal':
      return c.sense === 'le' ? `${c.label} is ${v}/s more than the block can consume` : `${c.label} is ${v}/s short`;
    case 'pin-cap':
      return `${c.label} is ${v} buildings too low`;
    case 'pin-count':
      return `${c.label} is ${v} buildings too ${r.direction === 'less' ? 'high' : 'low'}`;
    case 'made':
      return `${c.label}: ${v}/s would have to come from outside`;
    case 'drain':
      return r.direction === 'less' ? `${c.label}: ${v}/s is missing` : `${c.label}: ${v}/s is left over`;
    case 'pin-share':
      return `${c.label} is off by ${v}${unit}`;
    default:
      return c.label;
  }
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
function listJoin(xs: string[]): string {
  return xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
}

export function diagnose(highs: Highs, p: BlockProgram, opts: DiagnoseOptions = {}): { cards: DiagnosisCard[]; highsMs: number } {
  const maxCards = opts.maxCards ?? 5;
  const lp = p.lp;
  const gestures = p.constraints.map((c, i) => (c.kind === 'structural' ? -1 : i)).filter((i) => i >= 0);
  const session = new LpSession(highs, lp, { timeLimitSec: opts.timeLimitSec });
  try {
    session.setCosts(new Float64Array(lp.numCols));
    // Slack columns: ≥ rows get +s, ≤ rows −s, = rows +s⁺ and −s⁻ (sign: +1 = activity was too low).
    const slacks = new Map<number, Array<{ col: number; sign: 1 | -1 }>>();
    for (const i of gestures) {
      const c = p.constraints[i];
      const l: Array<{ col: number; sign: 1 | -1 }> = [];
      if (c.sense !== 'le') l.push({ col: session.addCol(1, 0, Infinity, [i], [1]), sign: 1 });
      if (c.sense !== 'ge') l.push({ col: session.addCol(1, 0, Infinity, [i], [-1]), sign: -1 });
      slacks.set(i, l);
    }
    const enable = (i: number, on: boolean) => {
      for (const s of slacks.get(i) ?? []) session.setColBounds(s.col, 0, on ? Infinity : 0);
    };
    const free = (i: number, on: boolean) => session.setRowBounds(i, on ? -Infinity : lp.rowLower[i], on ? Infinity : lp.rowUpper[i]);
    // Columns joined by structural rows (a temperature variant with its producers and selectors) act
    // as one: a conflict travels through them.
    const colParent = Int32Array.from({ length: lp.numCols }, (_, i) => i);
    const root = (c: number): number => {
      while (colParent[c] !== c) c = colParent[c] = colParent[colParent[c]];
      return c;
    };
    p.constraints.forEach((c, i) => {
      if (c.kind !== 'structural') return;
      const cols = rowEntries(lp, i).cols;
      for (let k = 1; k < cols.length; k++) colParent[root(cols[k])] = root(cols[0]);
    });
    const groupsOf = (i: number) => [...new Set([...rowEntries(lp, i).cols].map(root))];
    const rowsByGroup = new Map<number, number[]>();
    for (const i of gestures) {
      for (const gr of groupsOf(i)) {
        const l = rowsByGroup.get(gr);
        if (l) l.push(i);
        else rowsByGroup.set(gr, [i]);
      }
    }
    /** Gesture rows within `depth` hops of `start` through shared (joined) columns. */
    const neighbourhood = (start: number[], skip: Set<number>, depth = 3, max = 80): number[] => {
      const seen = new Set(start);
      let frontier = start;
      for (let d = 0; d < depth && frontier.length && seen.size < max; d++) {
        const next: number[] = [];
        for (const i of frontier) {
          for (const gr of groupsOf(i)) {
            for (const j of rowsByGroup.get(gr) ?? []) {
              if (seen.has(j) || skip.has(j) || seen.size >= max) continue;
              seen.add(j);
              next.push(j);
            }
          }
        }
        frontier = next;
      }
      return [...seen];
    };
    const relaxation = (i: number, x: Float64Array, resolves: boolean): Relaxation => {
      let up = 0;
      let down = 0;
      for (const s of slacks.get(i) ?? []) (s.sign === 1 ? (up += x[s.col]) : (down += x[s.col]));
      const c = p.constraints[i];
      // A ≥ row short from below asks for more than possible ("less" fixes it); a ≤ row over its bound needs "more" room.
      const direction: 'less' | 'more' = c.sense === 'le' ? 'more' : c.sense === 'ge' ? 'less' : up >= down ? 'less' : 'more';
      return { row: i, amount: Math.max(up, down), direction, resolves };
    };

    const cards: DiagnosisCard[] = [];
    const dropped = new Set<number>();
    for (let round = 0; round < maxCards && cards.length < maxCards; round++) {
      for (const i of gestures) enable(i, !dropped.has(i));
      const elastic = session.run();
      if (elastic.status !== 'optimal') {
        if (!cards.length) cards.push({ message: `The block is infeasible and the diagnosis could not run (${elastic.message ?? elastic.status}).`, members: [], fixes: [] });
        break;
      }
      const ex = elastic.x;
      const violated = gestures.filter((i) => !dropped.has(i) && relaxation(i, ex, false).amount > tol(p.constraints[i]));
      if (!violated.length) {
        if (!cards.length) cards.push({ message: 'HiGHS reports the block infeasible, but no goal, pin, made mark or drain is in conflict (numerical trouble: try rates nearer 1/s).', members: [], fixes: [] });
        break;
      }
      const dual = gestures.filter((i) => !dropped.has(i) && !violated.includes(i) && Math.abs(elastic.rowDual[i]) > 1e-7);

      // Components: rows linked through shared recipe columns.
      const involved = [...violated, ...dual];
      const parent = new Map(involved.map((i) => [i, i]));
      const find = (i: number): number => {
        let r = i;
        while (parent.get(r) !== r) r = parent.get(r)!;
        parent.set(i, r);
        return r;
      };
      const owner = new Map<number, number>();
      for (const i of involved) {
        for (const c of groupsOf(i)) {
          const o = owner.get(c);
          if (o === undefined) owner.set(c, i);
          else parent.set(find(i), find(o));
        }
      }
      const comps = new Map<number, number[]>();
      for (const i of involved) {
        const r = find(i);
        const l = comps.get(r) ?? [];
        l.push(i);
        comps.set(r, l);
      }
      const components = [...comps.values()]
        .filter((rows) => rows.some((i) => violated.includes(i)))
        .map((rows) => ({ rows, weight: rows.reduce((s, i) => s + relaxation(i, ex, false).amount, 0) }))
        .sort((a, b) => b.weight - a.weight);

      for (const comp of components) {
        if (cards.length >= maxCards) break;
        const others = violated.filter((i) => !comp.rows.includes(i));
        for (const i of others) free(i, true);
        for (const i of gestures) enable(i, false);
        const skip = new Set([...others, ...dropped]);
        const near = neighbourhood(comp.rows, skip);
        const relax: Relaxation[] = [];
        for (const i of near) {
          enable(i, true);
          const r = session.run();
          enable(i, false);
          if (r.status === 'optimal') relax.push(relaxation(i, r.x, true));
        }
        // Coupled gestures of one kind (two goals on coproducts) may only give way together.
        const byKind = new Map<string, number[]>();
        for (const i of near) {
          if (relax.some((r) => r.row === i)) continue;
          const k = p.constraints[i].kind;
          byKind.set(k, [...(byKind.get(k) ?? []), i]);
        }
        for (const rows of byKind.values()) {
          if (rows.length < 2) continue;
          for (const i of rows) enable(i, true);
          const r = session.run();
          for (const i of rows) enable(i, false);
          if (r.status !== 'optimal') continue;
          for (const i of rows) {
            const x = relaxation(i, r.x, false);
            if (x.amount > tol(p.constraints[i])) relax.push({ ...x, together: true });
          }
        }
        for (const i of others) free(i, false);
        for (const i of comp.rows) if (!relax.some((r) => r.row === i)) relax.push(relaxation(i, ex, false));
        cards.push(composeCard(p, relax));
      }
      for (const i of violated) {
        dropped.add(i);
        free(i, true);
      }
      for (const i of gestures) enable(i, false);
      if (session.run().status === 'optimal') break;
    }
    return { cards, highsMs: session.highsMs };
  } finally {
    session.dispose();
  }
}

function composeCard(p: BlockProgram, relax: Relaxation[]): DiagnosisCard {
  // One member per gesture (an expanded fluid's made/drain has a row per temperature).
  const byGesture = new Map<string, Relaxation>();
  for (const r of relax) {
    const c = p.constraints[r.row];
    // A goal and the own use it implies are one gesture; the stated row speaks for it.
    const key = `${c.kind}|${c.ref}|${c.good ?? ''}|${c.implicit && c.kind !== 'goal' ? 1 : 0}`;
    const prev = byGesture.get(key);
    const rank = (x: Relaxation) => (x.resolves ? 4 : x.together ? 2 : 0) + (p.constraints[x.row].implicit ? 0 : 1);
    if (!prev || rank(r) > rank(prev) || (rank(r) === rank(prev) && r.amount * c.scale > prev.amount * p.constraints[prev.row].scale)) byGesture.set(key, r);
  }
  const rank = (x: Relaxation) => (x.resolves ? 2 : x.together ? 1 : 0);
  const list = [...byGesture.values()].sort((a, b) => rank(b) - rank(a) || b.amount * p.constraints[b.row].scale - a.amount * p.constraints[a.row].scale);
  const members: DiagnosisMember[] = list.map((r) => {
    const c = p.constraints[r.row];
    const shortBy = r.amount * c.scale;
    return { kind: c.kind as GestureKind, ref: c.ref, shortBy, message: r.amount > tol(c) ? memberText(c, r) : `${c.label} is part of the conflict` };
  });
  const resolving = list.filter((r) => r.resolves && r.amount > 0);
  const together = list.filter((r) => r.together);
  const labels = list.map((r) => p.constraints[r.row].label.replace(/ \([^)]*\)$/, ''));
  const uniq = [...new Set(labels)];
  const detail = resolving.length ? ' ' + resolving.map((r) => cap(memberText(p.constraints[r.row], r)) + '.').join(' ') : '';
  const message = uniq.length > 1 ? `${cap(listJoin(uniq))} cannot all hold.${detail}` : `${cap(uniq[0] ?? 'A constraint')} cannot be met.${detail}`;
  const lower = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
  const fixes = [...new Set(resolving.map((r) => fixFor(p.constraints[r.row], r)))];
  if (together.length) fixes.push(`Together: ${listJoin(together.map((r) => lower(fixFor(p.constraints[r.row], r))))}`);
  if (!fixes.length) fixes.push(`Relax these together: ${listJoin([...new Set(list.map((r) => lower(fixFor(p.constraints[r.row], r))))])}`);
  return { message, members, fixes };
}
