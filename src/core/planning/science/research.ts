// What researching a technology costs in lab terms: the technology and (optionally) its prerequisites
// that are not researched yet, in prerequisite order, each with its research units (count, or
// count_formula at its level), the packs one unit takes and the seconds one unit takes in a lab at
// research speed 1. Technologies completed by a trigger, and TURD choices (branches and their
// `turd-select-*` gates), take no lab time and are listed apart.
import type { GameIndex, Technology } from '../gameIndex';
import { evalCountFormula } from '../queries/formula';

export interface ResearchItem {
  tech: string;
  display: string;
  /** Research units to complete it. */
  units: number;
  /** Seconds one unit takes in a lab at research speed 1. */
  unitTime: number;
  /** Packs one unit consumes (before lab productivity). */
  packs: Array<{ pack: string; amount: number }>;
}

export interface ResearchWork {
  /** The technologies to research in labs, prerequisites first. */
  items: ResearchItem[];
  /** Unresearched technologies the labs do not research, and why. */
  skipped: Array<{ tech: string; display: string; reason: string }>;
  /** The target is researched already (nothing to do). */
  alreadyResearched: boolean;
}

/** The level an infinite technology's count_formula is evaluated at ("mining-productivity-3" → 3). */
export function techLevel(t: Technology): number {
  if (!t.unitFormula) return 1;
  const m = /-(\d+)$/.exec(t.name);
  return m ? Number(m[1]) : 1;
}

/** Research units of a technology, or null when its formula cannot be read. */
export function techUnits(t: Technology): number | null {
  if (t.unitCount !== null) return t.unitCount;
  return t.unitFormula ? evalCountFormula(t.unitFormula, techLevel(t)) : null;
}

/** `tech` and, with `prerequisites`, its unresearched prerequisite closure, in research order. */
export function researchWork(g: GameIndex, researched: ReadonlySet<string>, tech: string, prerequisites = true): ResearchWork {
  const target = g.technologies.get(tech);
  if (!target) throw new Error(`unknown technology ${tech}`);
  if (researched.has(tech)) return { items: [], skipped: [], alreadyResearched: true };
  // Depth-first post-order over unresearched prerequisites: every technology after all it needs.
  const order: Technology[] = [];
  const seen = new Set<string>();
  const visit = (t: Technology) => {
    if (seen.has(t.name) || researched.has(t.name)) return;
    seen.add(t.name);
    for (const p of [...t.prerequisites].sort()) {
      const pt = g.technologies.get(p);
      if (pt) visit(pt);
    }
    order.push(t);
  };
  if (prerequisites) visit(target);
  else order.push(target);
  const out: ResearchWork = { items: [], skipped: [], alreadyResearched: false };
  for (const t of order) {
    const skip = (reason: string) => out.skipped.push({ tech: t.name, display: t.display, reason });
    if (g.turdBranches.has(t.name) || /^turd-select-/.test(t.name)) skip('a TURD choice, picked rather than researched');
    else if (!t.ingredients.length) skip(t.trigger ? 'completed by a trigger in the game, not by labs' : 'it takes no science packs');
    else {
      const units = techUnits(t);
      if (units === null || !(units > 0) || !(t.unitTime !== null && t.unitTime > 0)) skip(`its research cost cannot be read (${t.unitFormula ?? 'no count'})`);
      else out.items.push({ tech: t.name, display: t.display, units, unitTime: t.unitTime, packs: t.ingredients.map((i) => ({ pack: i.pack, amount: i.amount })) });
    }
  }
  return out;
}

/**
 * Lab-seconds (speed 1) per pack of `pack` in a typical unit of the technologies that use it: the
 * median over them of unit time ÷ amount. The default for a pack rate set by hand, where no
 * technology says how long a pack keeps a lab busy.
 */
export function typicalLabSeconds(g: GameIndex, pack: string): number {
  const xs: number[] = [];
  for (const t of g.technologies.values()) {
    const i = t.ingredients.find((x) => x.pack === pack);
    if (i && i.amount > 0 && t.unitTime) xs.push(t.unitTime / i.amount);
  }
  if (!xs.length) return 30;
  xs.sort((a, b) => a - b);
  const mid = xs.length >> 1;
  return xs.length % 2 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2;
}
