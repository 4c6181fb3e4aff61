// A stand-in solver for repository tests: every goal is made at its rate by the first recipe, one
// building per recipe, and every row's ingredients are imported 1:1. The real solver has its own
// tests; these pin what the repository does with a result.
import type { BlockDoc } from '../../../../../src/core/planning/block/document';
import { goalRate } from '../../../../../src/core/planning/block/document';
import type { SolveResult } from '../../../../../src/core/planning/solver/result';

type F = { good: string; rate: number; kind?: 'item' | 'fluid' };

export function fakeSolver(opts: { fail?: boolean; calls?: BlockDoc[]; flows?: (doc: BlockDoc) => { imports?: F[]; exports?: F[] } } = {}) {
  return async (doc: BlockDoc): Promise<SolveResult> => {
    opts.calls?.push(doc);
    if (opts.fail) throw new Error('recipe "nope" does not exist');
    const custom = opts.flows?.(doc);
    const flow = (f: F) => ({ good: f.good, display: f.good, kind: f.kind ?? ('item' as const), rate: f.rate });
    const goals = doc.goals.map((gl) => ({ good: gl.good, display: gl.good, kind: 'item' as const, rate: Math.abs(goalRate(gl).rate) }));
    return {
      status: 'optimal', rows: doc.recipes.map((r) => ({
        recipe: r.recipe, display: r.recipe, machine: r.machine ?? 'press', machineDisplay: 'Press', machineRule: 'test', machineChoice: { rule: 'user' as const, explanation: 'test', buildable: true }, craftsPerSecond: 1,
        buildings: 1.5, wholeBuildings: 2, modules: [], beacons: [], beaconBuildings: 0, fuel: null, powerW: 100_000, pollutionPerMinute: 2, speed: 1,
        effects: { speed: 0, productivity: 0, consumption: 0, pollution: 0 },
      })),
      goods: [],
      imports: custom?.imports ? custom.imports.map(flow) : doc.made.length ? [] : [{ good: 'ferrite-plate', display: 'Ferrite plate', kind: 'item', rate: 2 }],
      exports: (custom?.exports ?? []).map(flow), byproducts: (custom?.exports ?? []).filter((e) => !doc.goals.some((g) => g.good === e.good)).map(flow), goals, unmade: [], goalSuperseded: [], powerW: 100_000 * doc.recipes.length, drainW: 0, heatW: 0, fuel: [],
      pollutionPerMinute: 2, warnings: [],
    };
  };
}
