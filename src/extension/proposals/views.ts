// Stored proposal results → the JSON views the side panel and the chat summaries render. Stored
// results are read defensively (older versions, hand-edited files): a missing field becomes an
// empty list or zero, never an exception. Display names and each recipe's goods (for the flow
// diagram) come from the project's game data when it is loaded.
import type { GameIndex } from '../../core/planning/gameIndex';
import { FLUID_FUEL, HEAT } from '../../core/gamedata/model';
import { foldWarnings } from '../../core/planning/proposals/modelView';
import type { BalanceView, CampaignView, DraftView, EvalView, FlowGraphView, FlowView, PlanView, RowView } from '../../webview/protocol';

export interface GameNames {
  displayOf(name: string): string;
  /** A recipe's ingredient and product goods (energy pseudo-goods left out). */
  recipeIO(recipe: string): { ingredients: string[]; products: string[] } | undefined;
}

export const NO_NAMES: GameNames = { displayOf: (n) => n, recipeIO: () => undefined };

export function namesFrom(g: GameIndex): GameNames {
  const real = (name: string) => !g.goods.get(name)?.synthetic;
  return {
    displayOf: (n) => g.displayOf(n),
    recipeIO: (r) => {
      const rec = g.recipes.get(r);
      if (!rec) return undefined;
      return { ingredients: rec.ingredients.map((i) => i.name).filter(real), products: rec.products.map((p) => p.name).filter(real) };
    },
  };
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown, d = ''): string => (typeof v === 'string' ? v : d);
const num = (v: unknown, d = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : d);
const strs = (v: unknown): string[] => arr(v).filter((x): x is string => typeof x === 'string');

function flows(v: unknown, names: GameNames): FlowView[] {
  return arr(v).map((raw) => {
    const f = obj(raw);
    const good = str(f.good);
    return {
      good,
      display: str(f.display) || names.displayOf(good),
      kind: f.kind === 'fluid' ? 'fluid' : 'item',
      rate: num(f.rate),
      ...(typeof f.temperature === 'number' ? { temperature: f.temperature } : {}),
      ...(typeof f.minTemperature === 'number' ? { minTemperature: f.minTemperature } : {}),
      ...(typeof f.maxTemperature === 'number' ? { maxTemperature: f.maxTemperature } : {}),
      ...(Array.isArray(f.blocks) ? { blocks: strs(f.blocks) } : {}),
    };
  });
}

const moduleList = (v: unknown, names: GameNames) =>
  arr(v).map((raw) => {
    const m = obj(raw);
    return { name: str(m.name), display: names.displayOf(str(m.name)), count: num(m.count) };
  });

/** recipe → the good chain completion chose it for (a draft's `completed.added`). */
function completedRows(v: unknown): Map<string, { good: string; others: number }> {
  return new Map(arr(obj(v).added).map((raw) => {
    const c = obj(raw);
    return [str(c.recipe), { good: str(c.good), others: num(c.others) }];
  }));
}

function rows(v: unknown, names: GameNames, completed = new Map<string, { good: string; others: number }>()): RowView[] {
  return arr(v).map((raw) => {
    const r = obj(raw);
    const recipe = str(r.recipe);
    const chosen = completed.get(recipe);
    const machine = typeof r.machine === 'string' ? r.machine : null;
    const fuel = typeof r.fuel === 'string' ? r.fuel : null;
    return {
      recipe,
      display: str(r.display) || names.displayOf(recipe),
      machine,
      machineDisplay: typeof r.machineDisplay === 'string' ? r.machineDisplay : machine ? names.displayOf(machine) : null,
      machineRule: str(r.machineRule),
      modules: moduleList(r.modules, names),
      beacons: arr(r.beacons).map((b) => {
        const x = obj(b);
        return { beacon: str(x.beacon), display: names.displayOf(str(x.beacon)), count: num(x.count), modules: moduleList(x.modules, names) };
      }),
      fuel,
      fuelDisplay: fuel ? names.displayOf(fuel) : null,
      craftsPerSecond: num(r.craftsPerSecond),
      buildings: num(r.buildings),
      wholeBuildings: num(r.wholeBuildings),
      ...(typeof r.moduleReason === 'string' ? { moduleReason: r.moduleReason } : {}),
      ...(typeof r.group === 'string' ? { group: r.group } : {}),
      ...(chosen ? { chosenFor: { ...chosen, display: names.displayOf(chosen.good) } } : {}),
    };
  });
}

/** At most this many recipes get a flow diagram; bigger blocks read better as the table. */
export const FLOW_MAX_RECIPES = 30;

/** Per row, what it takes and gives per second (negative = consumed), fuel marked. */
export type RowFlows = Map<string, Array<{ good: string; rate: number; fuel?: true }>>;

function rowFlows(v: unknown): RowFlows {
  const out: RowFlows = new Map();
  for (const raw of arr(v)) {
    const r = obj(raw);
    if (!Array.isArray(r.flows)) continue;
    out.set(
      str(r.recipe),
      r.flows.map((x) => obj(x)).filter((f) => str(f.good) && num(f.rate) !== 0).map((f) => ({ good: str(f.good), rate: num(f.rate), ...(f.fuel === true ? { fuel: true as const } : {}) })),
    );
  }
  return out;
}

const ENERGY = new Set([FLUID_FUEL, HEAT]);
/** Energy pseudo-goods are named "… (MJ)"; the diagram gives their rates in MW instead. */
export const energyLabel = (display: string) => display.replace(/\s*\(MJ\)$/, '');

/** What the diagram reads of a block: a draft card's view, or the block editor's solve. */
export interface FlowSource {
  rows: Array<Pick<RowView, 'recipe' | 'display' | 'machine' | 'machineDisplay' | 'buildings' | 'wholeBuildings'>>;
  goals: Array<{ good: string }>;
  importsFromBlocks: Array<{ good: string }>;
  importsExternal: Array<{ good: string }>;
  byproducts: Array<{ good: string }>;
  exports: Array<{ good: string }>;
}

/**
 * Recipes and goods of a block as a graph: one node per recipe and per good, edges ingredient →
 * recipe → product with the solved rate, fuel and burnt results included. Drafts stored before
 * rows kept their flows fall back to the recipes' goods from the game data, without rates.
 */
export function flowGraph(d: FlowSource, names: GameNames, flows: RowFlows = new Map()): FlowGraphView {
  const recipes = d.rows.filter((r) => r.recipe);
  if (!recipes.length || recipes.length > FLOW_MAX_RECIPES) return { nodes: [], edges: [] };
  const role = new Map<string, NonNullable<FlowGraphView['nodes'][number]['role']>>();
  for (const f of [...d.importsFromBlocks, ...d.importsExternal]) role.set(f.good, 'import');
  for (const f of d.exports) role.set(f.good, 'export');
  for (const f of d.byproducts) role.set(f.good, 'byproduct');
  for (const g of d.goals) role.set(g.good, 'goal');
  const nodes: FlowGraphView['nodes'] = [];
  const edges: FlowGraphView['edges'] = [];
  const goods = new Set<string>();
  const addGood = (good: string) => {
    if (goods.has(good)) return;
    goods.add(good);
    const energy = ENERGY.has(good);
    nodes.push({ id: `g:${good}`, kind: 'good', label: energy ? energyLabel(names.displayOf(good)) : names.displayOf(good), role: role.get(good) ?? 'internal', ...(energy ? { energy: true as const } : {}) });
  };
  for (const r of recipes) {
    const id = `r:${r.recipe}`;
    nodes.push({ id, kind: 'recipe', label: r.display, ...(r.machine ? { machine: r.machineDisplay ?? r.machine, buildings: r.buildings, wholeBuildings: r.wholeBuildings } : {}) });
    const solved = flows.get(r.recipe);
    if (solved) {
      for (const f of solved) {
        addGood(f.good);
        const fuel = f.fuel ? { fuel: true as const } : {};
        edges.push(f.rate < 0 ? { from: `g:${f.good}`, to: id, rate: -f.rate, ...fuel } : { from: id, to: `g:${f.good}`, rate: f.rate, ...fuel });
      }
      continue;
    }
    const io = names.recipeIO(r.recipe);
    if (!io) continue;
    for (const i of io.ingredients) {
      addGood(i);
      edges.push({ from: `g:${i}`, to: id });
    }
    for (const p of io.products) {
      addGood(p);
      edges.push({ from: id, to: `g:${p}` });
    }
  }
  return { nodes, edges };
}

/** The fluids a block's own burn rows turn into the pooled fluid fuel (display names). */
export function fluidFuelBurns(flows: RowFlows, names: Pick<GameNames, 'displayOf'>): string[] {
  const burns = new Set<string>();
  for (const fl of flows.values()) if (fl.some((y) => y.good === FLUID_FUEL && y.rate > 0)) for (const y of fl) if (y.rate < 0 && !y.fuel) burns.add(names.displayOf(y.good));
  return [...burns];
}

/** The pooled fluid fuel: the fluids the block's own burn rows turn into it, else what could feed it. */
function fuelView(raw: unknown, names: GameNames, flows: RowFlows, options: unknown): DraftView['fuel'] {
  return arr(raw).map((x) => {
    const f = obj(x);
    const fuel = str(f.fuel);
    const base = { fuel, display: names.displayOf(fuel), rate: num(f.rate) };
    if (fuel !== FLUID_FUEL) return base;
    const burns = fluidFuelBurns(flows, names);
    const feeds = arr(obj(options).options).map((o) => str(obj(o).display) || names.displayOf(str(obj(o).fluid))).filter(Boolean);
    return { ...base, display: energyLabel(base.display), energy: true as const, ...(burns.length ? { burns } : feeds.length ? { feeds } : {}) };
  });
}

function turdView(v: unknown, names: GameNames): DraftView['turd'] {
  const t = obj(v);
  return {
    requirements: arr(t.requirements).map((raw) => {
      const q = obj(raw);
      return { recipe: str(q.recipe), master: str(q.master), masterDisplay: names.displayOf(str(q.master)), branch: str(q.branch), branchDisplay: names.displayOf(str(q.branch)), state: str(q.state) };
    }),
    conflicts: conflictsView(t.conflicts, names),
  };
}

const conflictsView = (v: unknown, names: GameNames) =>
  arr(v).map((raw) => {
    const c = obj(raw);
    return { master: str(c.master), masterDisplay: names.displayOf(str(c.master)), branches: strs(c.branches).map((b) => names.displayOf(b)) };
  });

function campaignView(v: unknown, names: GameNames): CampaignView {
  const c = obj(v);
  return {
    duration: num(c.duration),
    confidence: str(c.confidence, 'expected'),
    completed: c.completed === true,
    quantities: arr(c.quantities).map((raw) => {
      const q = obj(raw);
      return { good: str(q.good), display: names.displayOf(str(q.good)), quantity: num(q.quantity), planned: num(q.planned), rate: num(q.rate) };
    }),
  };
}

export function toDraftView(raw: unknown, names: GameNames = NO_NAMES): DraftView {
  const d = obj(raw);
  const solvedFlows = rowFlows(d.rows);
  const byproducts = flows(d.byproducts, names);
  const listed = new Set([...arr(d.goals).map((g) => str(obj(g).good)), ...byproducts.map((f) => f.good)]);
  const view: Omit<DraftView, 'flow'> = {
    kind: d.kind === 'update' ? 'update' : 'block',
    name: str(d.name, 'Block'),
    ok: d.ok === true,
    status: str(d.status, 'unknown'),
    ...(typeof d.message === 'string' ? { message: d.message } : {}),
    diagnosis: arr(d.diagnosis).map((c) => ({ message: str(obj(c).message), fixes: strs(obj(c).fixes) })),
    goals: arr(d.goals).map((raw) => {
      const g = obj(raw);
      const good = str(g.good);
      return {
        good, display: str(g.display) || names.displayOf(good), rate: num(g.rate),
        ...(typeof g.stock === 'number' ? { stock: g.stock, window: num(g.window, 600) } : {}),
        ...(typeof g.temperature === 'number' ? { temperature: g.temperature } : {}),
      };
    }),
    ...(d.campaign && typeof d.campaign === 'object' ? { campaign: campaignView(d.campaign, names) } : {}),
    ...(Array.isArray(d.groups)
      ? {
          groups: d.groups.map((raw) => {
            const x = obj(raw);
            return { name: str(x.name), good: str(x.good), display: names.displayOf(str(x.good)), referenceRate: num(x.referenceRate), scale: num(x.scale), rate: num(x.rate) };
          }),
        }
      : {}),
    rows: rows(d.rows, names, completedRows(d.completed)),
    powerW: num(d.powerW),
    fuelW: num(d.fuelW),
    heatW: num(d.heatW),
    heatSourceNeeded: d.heatSourceNeeded === true,
    heatSources: strs(d.heatSources).map((h) => names.displayOf(h)),
    importsFromBlocks: flows(d.importsFromBlocks, names),
    importsExternal: flows(d.importsExternal, names),
    // The solver lists byproducts among the exports too; the card names each good once.
    exports: flows(d.exports, names).filter((e) => !listed.has(e.good)),
    byproducts,
    subBlocksNeeded: arr(d.subBlocksNeeded).map((raw) => {
      const s = obj(raw);
      return { good: str(s.good), display: str(s.display) || names.displayOf(str(s.good)), rate: num(s.rate) };
    }),
    fuel: fuelView(d.fuel, names, solvedFlows, d.fuelOptions),
    pollutionPerMinute: num(d.pollutionPerMinute),
    turd: turdView(d.turd, names),
    unmade: arr(d.unmade).map((u) => ({ good: str(obj(u).good), reason: str(obj(u).reason) })),
    invalid: strs(d.invalid),
    // One line per unbuildable machine instead of one per row that uses it.
    warnings: foldWarnings(strs(d.warnings)),
    ...(typeof d.notes === 'string' && d.notes ? { notes: d.notes } : {}),
    ...(d.kind === 'update' && typeof d.updateBlockId === 'string'
      ? { revision: { blockId: d.updateBlockId, oldRate: typeof d.oldRate === 'number' ? d.oldRate : null, recipesAdded: strs(d.recipesAdded), recipesRemoved: strs(d.recipesRemoved), newByproducts: strs(d.newByproducts) } }
      : {}),
  };
  return { ...view, flow: flowGraph(view, names, solvedFlows) };
}

export function toPlanView(raw: unknown, names: GameNames = NO_NAMES): PlanView {
  const p = obj(raw);
  const t = obj(p.turd);
  return {
    title: str(p.title, 'Plan'),
    objective: str(p.objective),
    ok: p.ok === true,
    blocks: arr(p.blocks).map((b) => toDraftView(b, names)),
    updates: arr(p.updates).map((u) => toDraftView(u, names)),
    buildingMaterialsIncluded: p.buildingMaterialsIncluded === true,
    turd: {
      conflicts: conflictsView(t.conflicts, names),
      picks: arr(t.picks).map((raw) => {
        const k = obj(raw);
        return { master: str(k.master), masterDisplay: names.displayOf(str(k.master)), branch: str(k.branch), branchDisplay: names.displayOf(str(k.branch)), state: str(k.state) };
      }),
    },
    invalid: strs(p.invalid),
    ...(typeof p.notes === 'string' && p.notes ? { notes: p.notes } : {}),
  };
}

/** A balanceFactory result (a factory scenario) as the balance card shows it. */
export function toBalanceView(raw: unknown, names: GameNames = NO_NAMES): BalanceView {
  const r = obj(raw);
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  const goods = (v: unknown) => arr(v).map((x) => obj(x)).map((x) => ({ good: str(x.good), label: str(x.label, names.displayOf(str(x.good))), rate: num(x.rate) }));
  const assumed = obj(obj(r.assumed).science);
  const spec = obj(assumed.spec);
  const research = obj(spec.research);
  return {
    ok: r.status === 'optimal',
    status: str(r.status, 'error'),
    ...(typeof r.message === 'string' ? { message: r.message } : {}),
    pins: arr(r.pins).map((x) => obj(x)).map((x) => ({ good: str(x.good), display: names.displayOf(str(x.good)), rate: num(x.rate), source: str(x.source, 'pin') })),
    goalChanges: arr(r.goalChanges).map((x) => obj(x)).map((x) => ({ blockId: str(x.blockId), block: str(x.block), good: str(x.good), display: names.displayOf(str(x.good)), current: num(x.current), next: num(x.next) })),
    unchanged: num(r.unchanged),
    unsupplied: arr(r.unsupplied).map((x) => obj(x)).map((x) => ({ ...goods([x])[0], reason: str(x.reason), newBlock: str(x.newBlock) })),
    overproduced: goods(r.overproduced),
    rawInputs: goods(r.rawInputs),
    ...(Object.keys(assumed).length
      ? {
          science: {
            name: str(assumed.name, 'Science'), labs: num(assumed.labs), powerW: num(assumed.powerW),
            packs: arr(assumed.packs).map((x) => obj(x)).map((x) => ({ pack: str(x.pack), display: names.displayOf(str(x.pack)), rate: num(x.rate) })),
            ...(typeof research.tech === 'string' ? { research: `${names.displayOf(research.tech)} in ${num(research.minutes)} min` } : {}),
          },
        }
      : {}),
    excluded: arr(r.excluded).map((x) => obj(x)).map((x) => ({ name: str(x.name), reason: str(x.reason) })),
    warnings: strs(r.warnings),
  };
}

export function toEvalView(raw: unknown): EvalView {
  const e = obj(raw);
  return { code: str(e.code), note: str(e.note) };
}
