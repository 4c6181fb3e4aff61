// The planning-horizon contract appended to the system prompt on every turn. The horizon is a
// project setting (Now / Up to target / Future) that the user can change between turns, so it is
// read fresh per turn rather than baked into the conversation.
import type { Project } from '../../db/project';
import { readSettings, type ResearchMode, type TargetScope } from '../../planning/settings';
import { planningContext } from '../../planning/context';
import { describeProvenance, readProvenance, type Provenance } from '../../gamedata/provenance';

export interface Horizon {
  mode: ResearchMode;
  /** Science packs the user produces continuously (Now / Future). */
  packs: string[];
  /** Target good (or technology) of the "up to target" horizon. */
  target: string | null;
  /** Technology that defines the target tier, when game data can resolve it. */
  targetTech: string | null;
  /** Packs of that tier (every technology the horizon reaches), when known. */
  targetPacks: string[] | null;
  /** Which game data the project holds (absent without game data). */
  data?: Provenance;
  /** What the target horizon covers, when game data can resolve it. */
  scope?: TargetScope;
  /** Scope `make`: technologies added to the prerequisite closure so the target can be made. */
  added?: string[];
}

/** The project's current horizon. Never throws: without game data the target tier stays unknown. */
export function readHorizon(project: Project): Horizon {
  const s = readSettings(project);
  const data = readProvenance(project);
  const h: Horizon = { mode: s.research_mode, packs: [...s.available_science_packs], target: s.horizon_target, targetTech: null, targetPacks: null, ...(data ? { data } : {}) };
  if (h.mode === 'target' && h.target) {
    try {
      const { g, availability } = planningContext(project);
      h.scope = availability.targetScope ?? undefined;
      if (h.scope === 'make') h.added = availability.targetAdded.techs;
      const tech = availability.targetTech;
      if (tech) {
        const packs = new Set<string>();
        for (const t of availability.targetClosure ?? availability.closure(tech)) for (const i of g.technologies.get(t)?.ingredients ?? []) packs.add(i.pack);
        h.targetTech = tech;
        h.targetPacks = [...packs].sort();
      }
    } catch {
      // no game data imported yet: the contract names the target without its tier
    }
  }
  return h;
}

const code = (names: string[]) => names.map((n) => `\`${n}\``).join(', ');
/** Added technologies named in the contract; the rest is counted (changePlanningSettings lists them all). */
const ADDED_NAMED = 12;

/** The contract text for one horizon, as appended under "Current planning horizon: MODE", and which game data it rests on. */
export function horizonContract(h: Horizon): string {
  return [modeContract(h), ...(h.data ? [dataLine(h.data)] : [])].join('\n');
}

/**
 * Where the recipes, machines and technologies come from. A FactorioLab set is not the player's own
 * game: its technologies say packs and time per unit only, and its versions may not be the player's.
 */
function dataLine(d: Provenance): string {
  const what = describeProvenance(d);
  if (d.format === 'dump') return `- Game data: a ${what}.`;
  return `- Game data: a ${what}, not a dump of the player's own game. Its technologies (prerequisites, unlocks) come from that set and carry research cost per unit only (no unit counts); when names or numbers may differ from the versions the player runs, say so.`;
}

function modeContract(h: Horizon): string {
  switch (h.mode) {
    case 'now':
      return [
        'Current planning horizon: NOW',
        '- Plan only with what the player can build today: recipes and machines whose `state` is `unlocked` or `buildable`.',
        '- Never use a recipe that needs research, and never use a TURD branch that is blocked or merely pickable. Picking a branch is a near-permanent, factory-wide commitment; a Now plan never requires one.',
        '- After a Now block or plan, call `availableTurds` for the recipes you used and present its opportunities as advice only ("if you pick X, these recipes improve"), not as part of the plan.',
        h.packs.length
          ? `- Science packs in continuous production: ${code(h.packs)}.`
          : '- The user has not said which science packs they produce; research-gated choices are unavailable until they do (they set this in the PyOps planning settings).',
      ].join('\n');
    case 'target': {
      const lines = ['Current planning horizon: TARGET'];
      if (h.target && h.scope === 'make') {
        const added = h.added ?? [];
        lines.push(
          `- Able to make \`${h.target}\`${h.targetTech ? ` (unlocked by \`${h.targetTech}\`)` : ''}: the research up to it plus the research its ingredient chains and their machines need counts as available, whether or not it is researched yet.`,
          added.length
            ? `- Added to the target's prerequisites so it can be made: ${code(added.slice(0, ADDED_NAMED))}${added.length > ADDED_NAMED ? ` and ${added.length - ADDED_NAMED} more` : ''}.`
            : '- Its prerequisites already make it: nothing was added.',
        );
      } else if (h.target) {
        lines.push(
          `- Plan for the tier of the target \`${h.target}\`${h.targetTech ? ` (unlocked by \`${h.targetTech}\`)` : ''}: anything up to that tier counts as available, whether or not it is researched yet.`,
        );
      } else {
        lines.push('- No target is set, so the tier is unknown; ask the user for the target, or plan as for NOW and say so.');
      }
      lines.push('- Use only recipes whose `state` is `unlocked`, `buildable` or `turd-pick` and pick the best variant; a `turd-pick` is a branch the user must pick, a `turd-blocked` one may not be used.');
      if (h.targetPacks) {
        lines.push(h.targetPacks.length ? `- Packs of that tier: ${code(h.targetPacks)}.` : '- That tier needs no science packs.');
      }
      return lines.join('\n');
    }
    case 'future':
      return [
        'Current planning horizon: FUTURE',
        '- Anything obtainable may be used, researched or not.',
        '- Call out every recipe that still needs research (`state` `buildable`, not `unlocked`; recipeInfo\'s unlocks and researchPath name the technology and the packs it is missing), and every TURD choice it implies: `turd-pick` is a pick the user must make, `turd-blocked` needs a respec.',
        h.packs.length ? `- Packs the player already produces: ${code(h.packs)}.` : '- The user has not said which science packs they produce.',
      ].join('\n');
  }
}
