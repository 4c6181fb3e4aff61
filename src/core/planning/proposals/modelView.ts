// What a model reads of a draft: the same facts without what only the hosts need. The block document
// (Apply saves it), the building list (the rows carry the counts), the unsplit import list (the split
// lists hold the same flows), exports already listed as byproducts, the rule text repeated beside the
// machine choice, empty module lists — and one warning per row for the same unbuildable machine,
// folded into one line per machine. A 40-recipe Py draft under Now (every machine locked) goes from ~66k to ~30k characters.
import type { Draft } from './draft';

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

export function draftForModel<D extends Draft>(d: D): Omit<D, 'doc' | 'buildings' | 'imports'> {
  const { doc: _doc, buildings: _buildings, imports: _imports, ...rest } = d;
  const byproducts = new Set(d.byproducts.map((f) => f.good));
  return {
    ...rest,
    rows: d.rows.map((r) => {
      // The per-row flows feed the hosts' flow diagram; the model reads rates from the block's flows.
      const { machineRule, machineChoice, modules, beacons, fuel, flows: _flows, ...row } = r;
      return {
        ...row,
        // The rule, whether it is buildable and what unlocks it say what the rule's sentence says;
        // the sentence is kept only for a row without a choice.
        ...(machineChoice ? { machineChoice: { rule: machineChoice.rule, buildable: machineChoice.buildable, ...(machineChoice.needs ? { needs: machineChoice.needs } : {}) } } : { machineRule }),
        ...(modules.length ? { modules } : {}),
        ...(beacons?.length ? { beacons } : {}),
        ...(fuel ? { fuel } : {}),
      };
    }) as D['rows'],
    exports: d.exports.filter((f) => !byproducts.has(f.good)),
    warnings: foldWarnings(d.warnings),
  };
}
