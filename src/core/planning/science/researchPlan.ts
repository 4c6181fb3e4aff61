// researchPlan: "how many labs, and what must the factory make, to research X in N minutes?" The
// technology (or the one unlocking a recipe or good) and its unresearched prerequisites under the
// project's completed research, sized on the science block's labs, modules and beacons (or the
// fastest buildable lab without modules when there is no science block, or the lab named).
import { z } from 'zod';
import type { PlanningContext } from '../context';
import type { Project } from '../../db/project';
import { beaconConfigSchema, moduleCountSchema, parseBlockDoc, type Science } from '../block/document';
import { scienceBlock } from '../factory/blocks';
import { QueryError, suggest } from '../queries/errors';
import { solveScience } from './labBank';

const name = z.string().trim().min(1).max(200);

export const researchPlanInput = z.object({
  target: name.describe('a technology, or a recipe or good (the technology that unlocks it)'),
  minutes: z.number().positive().max(1e6).describe('research it within this many minutes'),
  prerequisites: z.boolean().default(true).describe('also research the prerequisites not researched yet (default true)'),
  lab: name.optional().describe('the lab to use; default: the science block\'s, else the fastest buildable lab taking every pack'),
  modules: z.array(moduleCountSchema).max(16).optional().describe('modules in each lab; default: the science block\'s'),
  beacons: z.array(beaconConfigSchema).max(4).optional(),
});
export type ResearchPlanInput = z.input<typeof researchPlanInput>;

export interface ResearchPlan {
  tech: string;
  display: string;
  minutes: number;
  alreadyResearched: boolean;
  lab: string;
  labDisplay: string;
  labs: number;
  wholeLabs: number;
  labSpeed: number;
  productivityPct: number;
  packs: Array<{ pack: string; display: string; perSecond: number; total: number }>;
  powerW: number;
  /** Technologies the labs research, in order (prerequisites first). */
  research: Array<{ tech: string; display: string; units: number }>;
  researchOmitted?: number;
  skipped: Array<{ tech: string; display: string; reason: string }>;
  /** The lab bank as a science block would hold it (balanceFactory's `science`). */
  science: Science;
  warnings: string[];
  note: string;
}

const RESEARCH_CAP = 40;

export function researchPlan(pc: PlanningContext, project: Project | undefined, raw: ResearchPlanInput): ResearchPlan {
  const i = researchPlanInput.parse(raw);
  const { g, availability: a } = pc;
  const tech = g.technologies.has(i.target) ? i.target : a.findTargetTech(i.target);
  if (!tech) {
    if (g.goods.has(i.target) || g.recipes.has(i.target)) throw new Error(`${g.displayOf(i.target)} needs no research: a recipe for it is enabled from the start.`);
    const near = suggest(pc, 'technology', i.target);
    throw new QueryError(`No technology, recipe or good is called "${i.target}"${near.length ? `; did you mean ${near.join(', ')}?` : '; call searchGoods or researchPath for its name.'}`, near);
  }
  const held = project ? scienceBlock(project)?.doc.science : undefined;
  const science: Science = parseBlockDoc({
    science: {
      lab: i.lab ?? held?.lab,
      modules: i.modules ?? held?.modules ?? [],
      beacons: i.beacons ?? held?.beacons ?? [],
      research: { tech, minutes: i.minutes, prerequisites: i.prerequisites },
    },
  }).science!;
  const r = solveScience(g, a, science);
  if (r.status !== 'optimal' || !r.science) throw new Error(r.message ?? 'The lab bank could not be sized.');
  const s = r.science;
  const seconds = i.minutes * 60;
  const research = (s.research?.techs ?? []).map((t) => ({ tech: t.tech, display: t.display, units: t.units }));
  return {
    tech, display: g.technologies.get(tech)!.display, minutes: i.minutes, alreadyResearched: !!s.research?.alreadyResearched,
    lab: s.lab, labDisplay: s.labDisplay, labs: s.labs, wholeLabs: Math.ceil(s.labs - 1e-6), labSpeed: s.labSpeed, productivityPct: s.productivity * 100,
    packs: s.packs.map((p) => ({ pack: p.pack, display: p.display, perSecond: p.rate, total: p.rate * seconds })),
    powerW: r.powerW,
    research: research.slice(-RESEARCH_CAP),
    ...(research.length > RESEARCH_CAP ? { researchOmitted: research.length - RESEARCH_CAP } : {}),
    skipped: s.research?.skipped ?? [],
    science,
    warnings: r.warnings,
    note: held
      ? 'Sized on the science block\'s labs. To make the factory supply these packs, call balanceFactory with this `science`.'
      : 'The project has no science block yet: balanceFactory with this `science` creates it and resizes the suppliers.',
  };
}
