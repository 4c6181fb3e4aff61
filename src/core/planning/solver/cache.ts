// Solved blocks cached per block: a result stays valid until the block's document, the project's
// game data (gamedata fingerprint) or its planning state — horizon, research, TURD choices, all of
// which bump planning_settings.solve_generation — change. A cache of the document, never a second
// source of truth: a miss simply solves again. Concurrent requests for the same key share one solve.
import type { Project } from '../../db/project';
import { Availability } from '../availability';
import type { BlockDoc } from '../block/document';
import { gameIndex } from '../gameIndex';
import { readPlanningState } from '../settings';
import type { SolveResult } from './result';
import type { SolveOptions } from './solve';
import { solveBlock } from './solve';

/** What a cached result was computed against. */
export interface SolveStamp {
  fingerprint: string;
  generation: number;
}

export function solveStamp(project: Project): SolveStamp {
  const row = project.query<{ value: string }>("SELECT value FROM main.planning_settings WHERE key = 'solve_generation'")[0];
  let generation = 0;
  try {
    generation = row ? Number(JSON.parse(row.value)) || 0 : 0;
  } catch {
    generation = 0;
  }
  return { fingerprint: project.gamedataMeta('fingerprint') ?? '', generation };
}

export function solveKey(stamp: SolveStamp, doc: BlockDoc): string {
  return `${stamp.fingerprint}|${stamp.generation}|${JSON.stringify(doc)}`;
}

interface Entry {
  key: string;
  result: Promise<SolveResult>;
}

/** Results per block id, least recently used dropped beyond `max` blocks. */
export class SolveCache {
  private readonly entries = new Map<string, Entry>();
  hits = 0;
  misses = 0;

  constructor(readonly max = 500) {}

  /** The cached result for this block and key, or the result of `solve` (stored under the key). */
  get(blockId: string, key: string, solve: () => Promise<SolveResult>): Promise<SolveResult> {
    const hit = this.entries.get(blockId);
    if (hit && hit.key === key) {
      this.hits++;
      this.entries.delete(blockId);
      this.entries.set(blockId, hit);
      return hit.result;
    }
    this.misses++;
    const result = solve();
    const entry = { key, result };
    this.entries.set(blockId, entry);
    // A failed solve is not remembered.
    result.catch(() => {
      if (this.entries.get(blockId) === entry) this.entries.delete(blockId);
    });
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    return result;
  }

  invalidate(blockId?: string): void {
    if (blockId === undefined) this.entries.clear();
    else this.entries.delete(blockId);
  }

  get size(): number {
    return this.entries.size;
  }
}

interface ProjectSolver {
  cache: SolveCache;
  availability?: { stamp: string; value: Availability };
}

const perProject = new WeakMap<Project, ProjectSolver>();

function solverOf(project: Project): ProjectSolver {
  let s = perProject.get(project);
  if (!s) perProject.set(project, (s = { cache: new SolveCache() }));
  return s;
}

/** One Availability per planning state, so unchanged rows are not re-prepared between solves. */
export function availabilityFor(project: Project, stamp: SolveStamp = solveStamp(project)): Availability {
  const s = solverOf(project);
  const key = `${stamp.fingerprint}|${stamp.generation}`;
  if (s.availability?.stamp !== key) s.availability = { stamp: key, value: new Availability(gameIndex(project), readPlanningState(project)) };
  return s.availability.value;
}

/** Solves a project's block, reusing the cached result while its inputs are unchanged. */
export function solveProjectBlock(project: Project, blockId: string, doc: BlockDoc, opts: SolveOptions = {}): Promise<SolveResult> {
  const stamp = solveStamp(project);
  const s = solverOf(project);
  return s.cache.get(blockId, solveKey(stamp, doc), () => solveBlock(gameIndex(project), availabilityFor(project, stamp), doc, opts));
}

/** The project's solve cache (for invalidation and tests). */
export function projectSolveCache(project: Project): SolveCache {
  return solverOf(project).cache;
}
