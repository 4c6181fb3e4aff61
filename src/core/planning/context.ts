// What every planning query reads: the game index, the availability of the project's current
// horizon and TURD state, and (optionally) the project itself. Built once per project state and
// reused while neither the game data nor the planning state changes, so the availability caches
// stay warm across tool calls.
import type { Project } from '../db/project';
import { Availability } from './availability';
import { GameIndex, gameIndex } from './gameIndex';
import { readPlanningState, type PlanningState } from './settings';

export interface PlanningContext {
  g: GameIndex;
  availability: Availability;
  project?: Project;
}

/** A context over a given index and state (tests and callers that already hold both). */
export function contextFrom(g: GameIndex, state: PlanningState, project?: Project): PlanningContext {
  return { g, availability: new Availability(g, state), project };
}

const cache = new WeakMap<Project, { g: GameIndex; key: string; ctx: PlanningContext }>();

/** The planning context of a project's current game data and planning state. */
export function planningContext(project: Project): PlanningContext {
  const g = gameIndex(project);
  const state = readPlanningState(project);
  const key = stateKey(state);
  const hit = cache.get(project);
  if (hit && hit.g === g && hit.key === key) return hit.ctx;
  const ctx = contextFrom(g, state, project);
  cache.set(project, { g, key, ctx });
  return ctx;
}

/** Everything availability depends on, as one comparable string (settings, research, TURD). */
function stateKey(s: PlanningState): string {
  return JSON.stringify([s.settings, [...s.researched].sort(), [...s.turd.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))]);
}
