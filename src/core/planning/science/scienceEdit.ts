// One edit of the science block as its editor makes it: derive the packs from a technology, change the
// research time, set a pack's rate (which switches a derived bank to hand-set packs, each keeping the
// lab time it had), the lab, its modules or beacons. Solved once and saved as one undoable action with
// the same stale-save protection as a block edit (`saveBlock`).
import type { Project } from '../../db/project';
import type { Availability } from '../availability';
import type { PlanningContext } from '../context';
import type { BeaconConfig, ModuleCount } from '../effects';
import type { GameIndex } from '../gameIndex';
import { parseBlockDoc, type Science } from '../block/document';
import { mergeModules, rowBeaconsMisfit, rowModulesMisfit } from '../moduleFit';
import type { SolveResult } from '../solver/result';
import { BlockError, getBlock, saveBlock, trySolve, type BlockRecord, type BlockSolver } from '../factory/blocks';
import { RESEARCH, solveScience } from './labBank';

export type ScienceEdit =
  /** Research `tech` (and, by default, its unresearched prerequisites) within `minutes`: the packs follow. */
  | { kind: 'derive'; tech: string; minutes: number; prerequisites?: boolean }
  | { kind: 'research-minutes'; minutes: number }
  | { kind: 'research-prerequisites'; on: boolean }
  /** Packs consumed per second; a derived bank becomes hand-set packs first. */
  | { kind: 'pack-rate'; pack: string; rate: number }
  | { kind: 'pack-add'; pack: string; rate: number }
  | { kind: 'pack-remove'; pack: string }
  /** The lab prototype (null: the fastest buildable lab that takes every pack). */
  | { kind: 'lab'; lab: string | null }
  | { kind: 'modules'; modules: ModuleCount[] }
  | { kind: 'beacons'; beacons: BeaconConfig[] };

export interface AppliedScienceEdit {
  science: Science;
  /** What Undo says, without the block's name. */
  label: string;
}

const num = (x: number) => String(Number(x.toPrecision(4)));

/** Goods some lab takes: the science packs. */
export function sciencePacks(g: GameIndex): Set<string> {
  return new Set([...g.labs.values()].flatMap((l) => l.inputs));
}

/** The bank's packs as hand-set rates: a derived bank keeps the rates and lab time it has now. */
function handSet(g: GameIndex, a: Availability, s: Science): Science['packs'] {
  if (!s.research) return s.packs.map((p) => ({ ...p }));
  const r = solveScience(g, a, s);
  if (r.status !== 'optimal' || !r.science) throw new BlockError(`The research cannot be turned into pack rates: ${r.message ?? r.status}. Pick a lab that takes every pack first.`, 'invalid');
  return r.science.packs.filter((p) => p.rate > 0).map((p) => ({ pack: p.pack, rate: p.rate, labSeconds: p.labSeconds }));
}

/** The lab the bank runs now: the one named, else the one the solve picks. */
function currentLab(g: GameIndex, a: Availability, s: Science): string {
  if (s.lab) return s.lab;
  const lab = solveScience(g, a, s).science?.lab;
  if (!lab) throw new BlockError('The science block has no lab yet (no research and no packs, or no lab takes them all); derive it from a technology or add a pack first.', 'invalid');
  return lab;
}

function labTarget(g: GameIndex, a: Availability, s: Science) {
  const machine = g.machines.get(currentLab(g, a, s));
  if (!machine) throw new BlockError(`The game data has no lab ${s.lab}; pick another lab.`, 'invalid');
  return { recipe: RESEARCH, machine };
}

/** The science after `edit`, with the words for Undo; throws a BlockError a user can act on. */
export function applyScienceEdit(g: GameIndex, a: Availability, science: Science, edit: ScienceEdit): AppliedScienceEdit {
  const d = (n: string) => g.displayOf(n);
  const s: Science = structuredClone(science);
  const withPacks = (packs: Science['packs']): Science => {
    const out: Science = { ...s, packs };
    delete out.research;
    return out;
  };
  const needResearch = () => {
    if (!s.research) throw new BlockError('The science block has hand-set packs, not research; derive it from a technology first.', 'invalid');
    return s.research;
  };
  const positiveMinutes = (m: number) => {
    if (!(m > 0) || !Number.isFinite(m)) throw new BlockError('The research time must be a positive number of minutes.', 'invalid');
  };
  switch (edit.kind) {
    case 'derive': {
      const t = g.technologies.get(edit.tech);
      if (!t) throw new BlockError(`There is no technology "${edit.tech}"; pick one from the list.`, 'invalid');
      positiveMinutes(edit.minutes);
      return { science: { ...s, packs: [], research: { tech: edit.tech, minutes: edit.minutes, prerequisites: edit.prerequisites ?? true } }, label: `Research ${t.display} in ${num(edit.minutes)} min` };
    }
    case 'research-minutes': {
      const r = needResearch();
      positiveMinutes(edit.minutes);
      return { science: { ...s, research: { ...r, minutes: edit.minutes } }, label: `Research ${d(r.tech)} in ${num(edit.minutes)} min` };
    }
    case 'research-prerequisites': {
      const r = needResearch();
      return { science: { ...s, research: { ...r, prerequisites: edit.on } }, label: `${edit.on ? 'Include' : 'Leave out'} the prerequisites of ${d(r.tech)}` };
    }
    case 'pack-rate': {
      if (!(edit.rate >= 0)) throw new BlockError('A pack rate is zero or more per second.', 'invalid');
      const packs = handSet(g, a, s);
      const p = packs.find((x) => x.pack === edit.pack);
      if (!p) throw new BlockError(`The science block uses no ${d(edit.pack)}; add it first.`, 'invalid');
      p.rate = edit.rate;
      return { science: withPacks(packs), label: `Set ${d(edit.pack)} to ${num(edit.rate)}/s` };
    }
    case 'pack-add': {
      if (!sciencePacks(g).has(edit.pack)) throw new BlockError(`${d(edit.pack)} is not a science pack: no lab takes it.`, 'invalid');
      if (!(edit.rate >= 0)) throw new BlockError('A pack rate is zero or more per second.', 'invalid');
      const packs = handSet(g, a, s);
      const had = packs.find((x) => x.pack === edit.pack);
      if (had) had.rate = edit.rate;
      else packs.push({ pack: edit.pack, rate: edit.rate });
      return { science: withPacks(packs), label: `Add ${d(edit.pack)} at ${num(edit.rate)}/s` };
    }
    case 'pack-remove': {
      const packs = handSet(g, a, s);
      if (!packs.some((x) => x.pack === edit.pack)) throw new BlockError(`The science block uses no ${d(edit.pack)}.`, 'invalid');
      return { science: withPacks(packs.filter((x) => x.pack !== edit.pack)), label: `Remove ${d(edit.pack)}` };
    }
    case 'lab': {
      if (edit.lab === null) {
        const out = { ...s };
        delete out.lab;
        return { science: out, label: 'Use the fastest lab' };
      }
      const lab = g.labs.get(edit.lab);
      if (!lab) throw new BlockError(`${d(edit.lab)} is not a lab.`, 'invalid');
      const used = s.research ? (solveScience(g, a, s).science?.packs ?? []).map((p) => p.pack) : s.packs.filter((p) => p.rate > 0).map((p) => p.pack);
      const refused = used.filter((p) => !lab.inputs.includes(p));
      if (refused.length) throw new BlockError(`${d(edit.lab)} does not take ${refused.map(d).join(', ')}; pick a lab that takes every pack.`, 'invalid');
      return { science: { ...s, lab: edit.lab }, label: `Use ${d(edit.lab)}` };
    }
    case 'modules': {
      const modules = mergeModules(edit.modules);
      const why = rowModulesMisfit(g, labTarget(g, a, s), modules);
      if (why) throw new BlockError(`${why}.`, 'invalid');
      return { science: { ...s, modules }, label: modules.length ? `Set lab modules to ${modules.map((m) => `${m.count} × ${d(m.name)}`).join(', ')}` : 'Clear lab modules' };
    }
    case 'beacons': {
      const beacons = edit.beacons.map((b) => ({ ...b, modules: mergeModules(b.modules) }));
      const why = rowBeaconsMisfit(g, labTarget(g, a, s), beacons);
      if (why) throw new BlockError(`${why}.`, 'invalid');
      return { science: { ...s, beacons }, label: beacons.length ? `Set lab beacons to ${beacons.map((b) => `${num(b.count)} × ${d(b.beacon)}`).join(', ')}` : 'Clear lab beacons' };
    }
  }
}

/** Apply one edit to the science block `id`: solve, save as one undoable action. */
export async function editScience(
  p: Project, solve: BlockSolver, id: string, edit: ScienceEdit, baseUpdatedAt: string, planning: Pick<PlanningContext, 'g' | 'availability'>,
): Promise<{ block: BlockRecord; result: SolveResult | null; broken?: string; label: string }> {
  const current = getBlock(p, id);
  if (!current.doc.science) throw new BlockError(`"${current.name}" is not the science block; open it in the block editor.`, 'invalid');
  if (current.updatedAt !== baseUpdatedAt) {
    throw new BlockError(`The science block was changed since the editor loaded it; it now shows the current version — apply the change again.`, 'stale');
  }
  const applied = applyScienceEdit(planning.g, planning.availability, current.doc.science, edit);
  const doc = parseBlockDoc({ ...current.doc, science: applied.science });
  const solved = await trySolve(solve, doc);
  const label = `${applied.label} in "${current.name}"`;
  const block = await saveBlock(p, solve, id, { doc }, baseUpdatedAt, { label, solved });
  return { block, result: solved.result, ...(solved.broken ? { broken: solved.broken } : {}), label };
}
