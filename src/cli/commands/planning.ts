// What the planning commands share: a project's block solver, refusing a project without game data.
import { gamedataProblem, type Project } from '../../core/db/project';
import { planningContext, type PlanningContext } from '../../core/planning/context';
import type { BlockSolver } from '../../core/planning/factory/blocks';
import { solveBlock } from '../../core/planning/solver/solve';

export function projectPlanning(p: Project): PlanningContext {
  const pc = planningContext(p);
  if (pc.g.isEmpty) throw new Error(gamedataProblem(p) ?? `${p.file} has no game data; run pyops import first.`);
  return pc;
}

export function projectSolver(p: Project): BlockSolver {
  return (doc) => {
    const pc = planningContext(p);
    return solveBlock(pc.g, pc.availability, doc);
  };
}
