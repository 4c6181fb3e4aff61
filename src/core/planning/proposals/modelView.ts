// What a model reads of a draft: the same facts without what only the hosts need. The block document
// (Apply saves it), the building list (the rows carry the counts), the unsplit import list (the split
// lists hold the same flows), exports already listed as byproducts, display names (the model names
// goods, recipes and machines by their internal names; the hosts show the display names), the rule
// text repeated beside the machine choice, the choice itself when it is the default (the fastest
// buildable machine), empty module lists and the auto-fill's reason on rows it left without
// modules — and one warning per row for the same unbuildable machine, folded into one line per
// machine. Numbers keep four significant digits: a model answers in rounded figures anyway.
import type { Draft } from './draft';
import type { PlanDraft } from './plan';

/** "<row>: <machine> [<name>] is not buildable under the <mode> horizon: <why>." (availability.ts) */
const UNBUILDABLE = /^(.+?): (.+? \[([^\]]+)\]) is not buildable under the (\w+) horizon: (.+)$/;

export function foldWarnings(warnings: string[]): string[] {
  const machines = new Map<string, { machine: string; mode: string; why: string; rows: string[] }>();
  const out: string[] = [];
  for (const w of warnings) {
    const m = UNBUILDABLE.exec(w);
    if (!m) {
      out.push(w);
      continue;
    }
    const e = machines.get(m[3]) ?? { machine: m[2], mode: m[4], why: m[5].replace(/\.$/, ''), rows: [] };
    e.rows.push(m[1]);
    machines.set(m[3], e);
  }
  for (const e of machines.values()) {
    const rows = e.rows.length > 4 ? `${e.rows.slice(0, 4).join(', ')} and ${e.rows.length - 4} more` : e.rows.join(', ');
    out.push(`${e.machine} is not buildable under the ${e.mode} horizon (${rows}): ${e.why}.`);
  }
  return out;
}

/** Four significant digits, deep (integers stay as they are). */
export function rounded<T>(v: T): T {
  if (typeof v === 'number') return (Number.isInteger(v) || !Number.isFinite(v) ? v : Number(v.toPrecision(4))) as T;
  if (Array.isArray(v)) return v.map(rounded) as T;
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rounded(x)])) as T;
  return v;
}

/** A flow without its display name. */
const bare = <F extends { display?: string }>(f: F): Omit<F, 'display'> => {
  const { display: _display, ...rest } = f;
  return rest;
};

export function draftForModel<D extends Draft>(d: D) {
  const { doc: _doc, buildings: _buildings, imports: _imports, ...rest } = d;
  const byproducts = new Set(d.byproducts.map((f) => f.good));
  return rounded({
    ...rest,
    goals: d.goals.map(bare),
    rows: d.rows.map((r) => {
      // The per-row flows feed the hosts' flow diagram; the model reads rates from the block's flows.
      const { machineRule, machineChoice, modules, beacons, fuel, moduleReason, display: _display, machineDisplay: _machineDisplay, flows: _flows, ...row } = r;
      const placed = modules.length > 0 || (beacons?.length ?? 0) > 0;
      const usual = machineChoice?.rule === 'fastest-buildable' && machineChoice.buildable;
      return {
        ...row,
        // The rule, whether it is buildable and what unlocks it say what the rule's sentence says;
        // the sentence is kept only for a row without a choice, the choice only when it is not the default.
        ...(machineChoice ? (usual ? {} : { machineChoice: { rule: machineChoice.rule, buildable: machineChoice.buildable, ...(machineChoice.needs ? { needs: machineChoice.needs } : {}) } }) : { machineRule }),
        ...(modules.length ? { modules } : {}),
        ...(beacons?.length ? { beacons } : {}),
        ...(moduleReason && (placed || /preset/i.test(moduleReason)) ? { moduleReason } : {}),
        ...(fuel ? { fuel } : {}),
      };
    }),
    importsFromBlocks: d.importsFromBlocks.map(bare),
    importsExternal: d.importsExternal.map(bare),
    subBlocksNeeded: d.subBlocksNeeded.map(bare),
    byproducts: d.byproducts.map(bare),
    exports: d.exports.filter((f) => !byproducts.has(f.good)).map(bare),
    warnings: foldWarnings(d.warnings),
  });
}

/** A plan as a model reads it: each block and update as draftForModel gives it, without the research
 *  list the plan already gives once for all of them (each row still names its own technologies). */
export function planForModel(p: PlanDraft) {
  const view = (d: Draft) => {
    const { research: _research, ...rest } = draftForModel(d);
    return rest;
  };
  return rounded({ ...p, blocks: p.blocks.map(view), updates: p.updates.map(view) });
}
