// Research follows the game's tree: a technology cannot be researched before its prerequisites.
// When a player marks technologies researched by hand, these are the ones the game would have needed
// first that are not marked yet (offered to mark with them).
import type { PlanningContext } from './context';

/**
 * Prerequisites (transitively) of `added` that are neither `researched` nor among `chosen`, each with
 * the added technologies that need it; TURD branches are chosen, never researched, so left out.
 */
export function missingPrerequisites(pc: PlanningContext, researched: ReadonlySet<string>, added: string[], chosen: ReadonlySet<string>): Array<{ name: string; neededBy: string[] }> {
  const out = new Map<string, string[]>();
  for (const t of added) {
    for (const x of pc.availability.closure(t)) {
      if (x === t || chosen.has(x) || researched.has(x) || pc.g.technologies.get(x)?.isTurd) continue;
      out.set(x, [...(out.get(x) ?? []), t]);
    }
  }
  return [...out].map(([name, neededBy]) => ({ name, neededBy })).sort((a, b) => (pc.g.technologies.get(a.name)?.display ?? a.name).localeCompare(pc.g.technologies.get(b.name)?.display ?? b.name));
}
