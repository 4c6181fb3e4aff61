// What a model reads of a draft: the same facts without what only the hosts need. The block document
// (Apply saves it), the building list (the rows carry the counts), the unsplit import list (the split
// lists hold the same flows), exports already listed as byproducts, display names (the model names
// goods, recipes and machines by their internal names; the hosts show the display names), the rule
// text repeated beside the machine choice, a flow's temperature bounds when it has none, the choice
// itself when it is the default (the fastest buildable machine), empty module lists and the
// auto-fill's reason on rows it left without modules — and one warning per row for the same
// unbuildable machine, folded into one line per machine. Numbers keep four significant digits: a model answers in rounded figures anyway.
import type { Draft } from './draft';
import type { PlanDraft } from './plan';
import type { FluidFuelOptions } from './fuelOptions';
import type { RowResearch } from './research';
import type { ResearchList } from '../queries/researchPath';

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

/** A flow without its display name, and without temperature bounds it does not have (null = any). */
const bare = <F extends { display?: string; minTemperature?: number | null; maxTemperature?: number | null }>(f: F): Omit<F, 'display'> => {
  const { display: _display, ...rest } = f;
  if (rest.minTemperature === null) delete rest.minTemperature;
  if (rest.maxTemperature === null) delete rest.maxTemperature;
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
 *  list the plan already gives once for all of them (each row still names its own technologies). A
 *  plan too large to read whole (a dozen full-Py blocks) is shortened: see compactPlan. */
export function planForModel(p: PlanDraft, budget = PLAN_VIEW_BUDGET) {
  const view = (d: Draft) => {
    const { research: _research, ...rest } = draftForModel(d);
    return rest;
  };
  return compactPlan(rounded({ ...p, blocks: p.blocks.map(view), updates: p.updates.map(view) }), budget);
}

/** Characters of a plan's model view above which it is shortened (the tool result cap is 48,000): a
 *  model checks a plan and sums it up, the card holds the rest (tools.md, the model's view of a draft). */
export const PLAN_VIEW_BUDGET = 24_000;
/** Entries kept per list when a plan is shortened: the largest rates first; FEW when that is not enough. */
const KEEP = 15;
const FEW = 5;
/** The balance's lists of goods left over, each with where it can go (audit.ts, SinkAdvice): cut last,
 *  and to more entries than the others, since each one spares the model a byproductSinks lookup. */
const SINK_LISTS = ['overProduced', 'danglingByproducts'];
const SINK_KEEP = 30;

/** A row's research as one line: "recipe kovarex; machine automation-2; modules speed-module". */
function researchLine(r: RowResearch): string {
  return [r.recipe && `recipe ${r.recipe}`, r.machine && `machine ${r.machine}`, r.modules?.length && `modules ${r.modules.join(', ')}`].filter(Boolean).join('; ');
}

type Flow = { good: string; rate: number; display?: string };
type ViewBlock = { rows?: Array<Record<string, unknown>>; fuelOptions?: FluidFuelOptions; importsExternal?: Flow[]; byproducts?: Flow[]; [k: string]: unknown };
type PlanView = { blocks: ViewBlock[]; updates: ViewBlock[]; balance?: Record<string, unknown>; research?: ResearchList; [k: string]: unknown };

const size = (v: unknown) => JSON.stringify(v).length;

const isEmptyTurd = (t: unknown) => !!t && typeof t === 'object' && Object.values(t).every((x) => Array.isArray(x) && !x.length);

/** The `keep` largest by rate, and how many were left out. */
function largest<T extends { rate?: number; shortBy?: number; surplus?: number }>(xs: T[], keep: number): { kept: T[]; more: number } {
  const w = (x: T) => Math.abs(x.rate ?? x.shortBy ?? x.surplus ?? 0);
  return { kept: [...xs].sort((a, b) => w(b) - w(a)).slice(0, keep), more: Math.max(0, xs.length - keep) };
}

/** Cuts `o[k]` to its `keep` largest (without display names), adding what it left out to `o[k + 'More']`. */
function cutList(o: Record<string, unknown>, k: string, keep: number): boolean {
  const xs = o[k];
  if (!Array.isArray(xs) || xs.length <= keep) return false;
  const { kept, more } = largest(xs as Flow[], keep);
  o[k] = kept.map(({ display: _display, ...rest }) => rest);
  o[`${k}More`] = ((o[`${k}More`] as number | undefined) ?? 0) + more;
  return true;
}

/** Keeps the research path's first `keep` steps (its total still counts them all). */
function cutResearch(v: PlanView, keep: number): boolean {
  const r = v.research;
  if (!r || r.steps.length <= keep) return false;
  v.research = { ...r, steps: r.steps.slice(0, keep), stepsOmitted: (r.stepsOmitted ?? 0) + r.steps.length - keep };
  return true;
}

/**
 * A plan view shortened step by step until it fits `budget`, each step saying what it left out (the
 * user's card keeps everything): the fluid fuels listed once for the plan, the balance's lists and
 * each block's external imports and byproducts cut to the largest, per-row craft rates dropped, the
 * research path cut to its first steps. Goals, rows, statuses and problems are never cut; the goods
 * left over between the blocks keep where each can go, cut last and least.
 */
export function compactPlan<V extends object>(view: V, budget = PLAN_VIEW_BUDGET): V {
  if (size(view) <= budget) return view;
  const v = structuredClone(view) as unknown as PlanView;
  const said: string[] = [];
  const all = () => [...v.blocks, ...v.updates];
  const blockLists = () => all().flatMap((b) => (['importsExternal', 'byproducts'] as const).map((k): [Record<string, unknown>, string] => [b, k]));
  const steps: Array<() => void> = [
    () => {
      const catalog = new Map<string, Omit<FluidFuelOptions['options'][number], 'feedPerSecond' | 'display'>>();
      for (const b of all()) {
        if (!b.fuelOptions) continue;
        for (const o of b.fuelOptions.options) catalog.set(o.fluid, { fluid: o.fluid, mjPerUnit: o.mjPerUnit, burnRecipe: o.burnRecipe, madeBy: o.madeBy });
        (b as Record<string, unknown>).fuelOptions = { mjPerSecond: b.fuelOptions.mjPerSecond, fluids: b.fuelOptions.options.map((o) => o.fluid), ...(b.fuelOptions.more ? { more: b.fuelOptions.more } : {}) };
      }
      if (catalog.size) {
        v.fluidFuels = [...catalog.values()];
        said.push('fluid fuels are listed once in `fluidFuels` (feed per second = a block\'s mjPerSecond ÷ mjPerUnit)');
      }
    },
    () => {
      // Each left-over good keeps where it can go: that advice spares a byproductSinks call per good.
      const b = v.balance;
      let cut = false;
      for (const k of SINK_LISTS) {
        const xs = b?.[k];
        if (!Array.isArray(xs)) continue;
        b![k] = xs.map((x: Record<string, unknown>) => {
          const { display: _display, producers: _producers, disposal: _disposal, ...rest } = x;
          for (const list of ['topConsumers', 'voidRecipes'] as const) if (Array.isArray(rest[list]) && !(rest[list] as unknown[]).length) delete rest[list];
          cut = true;
          return rest;
        });
      }
      if (cut) said.push('the balance\'s overProduced and danglingByproducts leave out producers (the blocks\' byproducts name them) and disposal (route to topConsumers, else void with voidRecipes, else nowhere)');
    },
    () => {
      const b = v.balance;
      const cut = b ? Object.keys(b).filter((k) => !SINK_LISTS.includes(k) && cutList(b, k, KEEP)) : [];
      if (cut.length) said.push(`the balance lists ${cut.join(', ')} keep their ${KEEP} largest (\`…More\` counts the rest)`);
    },
    () => {
      if (blockLists().filter(([o, k]) => cutList(o, k, KEEP)).length) said.push(`blocks' importsExternal and byproducts keep their ${KEEP} largest`);
    },
    () => {
      const rows = all().flatMap((b) => b.rows ?? []).filter((r) => 'craftsPerSecond' in r);
      for (const r of rows) delete r.craftsPerSecond;
      if (rows.length) said.push('rows leave out craftsPerSecond');
    },
    () => {
      // The balance lists every good left over; the warning saying so once more is cut to its count.
      const ws = v.warnings as string[] | undefined;
      if (!ws) return;
      let cut = false;
      v.warnings = ws.map((w) => {
        const m = /^(balanced, but left|left) over between blocks: (.*)$/.exec(w);
        if (!m || w.length <= 300) return w;
        cut = true;
        return `${m[1]} over between blocks: ${m[2].split('; ').length} goods (see balance)`;
      });
      if (cut) said.push('the left-over warning gives its count (the balance lists the goods)');
    },
    () => {
      const rows = all().flatMap((b) => b.rows ?? []).filter((r) => 'wholeBuildings' in r || (r.machineChoice && r.research));
      for (const r of rows) {
        delete r.wholeBuildings;
        if (r.research) delete r.machineChoice;
      }
      if (rows.length) said.push('rows leave out wholeBuildings (round buildings up) and a machine choice whose technology `research` names');
    },
    () => {
      if (cutResearch(v, 30)) said.push('the research path keeps its first 30 steps (its total counts them all)');
    },
    // Still too large (a dozen full-Py blocks of a hundred rows): shorter still, down to what a
    // model needs to check the plan and fix it — never past the point where a row loses its recipe,
    // machine, buildings or what it waits for.
    () => {
      const rows = all().flatMap((b) => b.rows ?? []).filter((r) => r.research && typeof r.research === 'object');
      for (const r of rows) r.research = researchLine(r.research as RowResearch);
      if (rows.length) said.push('a row\'s `research` is one line ("recipe <tech>; machine <tech>; modules <tech>, …")');
    },
    () => {
      const rows = all().flatMap((b) => b.rows ?? []).filter((r) => 'moduleReason' in r);
      for (const r of rows) delete r.moduleReason;
      if (rows.length) said.push('rows leave out moduleReason');
    },
    () => {
      const b = v.balance;
      const lists = [...blockLists(), ...(b ? Object.keys(b).filter((k) => !SINK_LISTS.includes(k)).map((k): [Record<string, unknown>, string] => [b, k]) : [])];
      if (lists.filter(([o, k]) => cutList(o, k, FEW)).length) said.push(`long lists (blocks' importsExternal and byproducts, the balance's) keep only their ${FEW} largest`);
      const sinks = b ? SINK_LISTS.filter((k) => cutList(b, k, SINK_KEEP)) : [];
      if (sinks.length) said.push(`the balance's ${sinks.join(' and ')} keep their ${SINK_KEEP} largest`);
    },
    () => {
      if (cutResearch(v, FEW)) said.push(`the research path keeps its first ${FEW} steps`);
    },
    // What says nothing or says it twice: a goal sized from the plan carries fromPlan and its rate,
    // a sub-block's good is among the block's imports with its rate.
    () => {
      let cut = false;
      for (const b of all()) {
        for (const [k, x] of Object.entries(b)) {
          const empty = (Array.isArray(x) && !x.length) || x === false || (x === 0 && k !== 'powerW') || (k === 'turd' && isEmptyTurd(x));
          if (empty || k === 'subBlocksNeeded' || k === 'kind') {
            delete b[k];
            cut = true;
          }
        }
      }
      if (v.sizedFromPlan) {
        delete v.sizedFromPlan;
        cut = true;
      }
      if (cut) said.push("blocks leave out `kind`, empty lists, zero figures and false flags, and subBlocksNeeded (those goods are among its imports with their rates); the plan leaves out sizedFromPlan (each such goal says fromPlan and its rate)");
    },
  ];
  for (const step of steps) {
    if (size(v) <= budget) break;
    step();
  }
  if (said.length) v.shortened = `This plan is large, so what you read is shortened: ${said.join('; ')}. The user's card has all of it.`;
  return v as unknown as V;
}
