// Stored proposal results → the JSON views the side panel and the chat summaries render. Stored
// results are read defensively (older versions, hand-edited files): a missing field becomes an
// empty list or zero, never an exception. Display names and each recipe's goods (for the flow
// diagram) come from the project's game data when it is loaded.
import type { GameIndex } from '../../core/planning/gameIndex';
import type { CampaignView, DraftView, EvalView, FlowGraphView, FlowView, PlanView, RowView } from '../../webview/protocol';

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

function rows(v: unknown, names: GameNames): RowView[] {
  return arr(v).map((raw) => {
    const r = obj(raw);
    const recipe = str(r.recipe);
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
    };
  });
}

/** At most this many recipes get a flow diagram; bigger blocks read better as the table. */
export const FLOW_MAX_RECIPES = 30;

/** Recipes and goods of a block as a graph: imports → recipes → goals, byproducts and exports. */
export function flowGraph(d: Pick<DraftView, 'rows' | 'goals' | 'importsFromBlocks' | 'importsExternal' | 'byproducts' | 'exports'>, names: GameNames): FlowGraphView {
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
    nodes.push({ id: `g:${good}`, kind: 'good', label: names.displayOf(good), role: role.get(good) ?? 'internal' });
  };
  for (const r of recipes) {
    nodes.push({ id: `r:${r.recipe}`, kind: 'recipe', label: r.display });
    const io = names.recipeIO(r.recipe);
    if (!io) continue;
    for (const i of io.ingredients) {
      addGood(i);
      edges.push({ from: `g:${i}`, to: `r:${r.recipe}` });
    }
    for (const p of io.products) {
      addGood(p);
      edges.push({ from: `r:${r.recipe}`, to: `g:${p}` });
    }
  }
  return { nodes, edges };
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
    rows: rows(d.rows, names),
    powerW: num(d.powerW),
    heatW: num(d.heatW),
    heatSourceNeeded: d.heatSourceNeeded === true,
    heatSources: strs(d.heatSources).map((h) => names.displayOf(h)),
    importsFromBlocks: flows(d.importsFromBlocks, names),
    importsExternal: flows(d.importsExternal, names),
    exports: flows(d.exports, names).filter((e) => !arr(d.goals).some((g) => str(obj(g).good) === e.good)),
    byproducts: flows(d.byproducts, names),
    subBlocksNeeded: arr(d.subBlocksNeeded).map((raw) => {
      const s = obj(raw);
      return { good: str(s.good), display: str(s.display) || names.displayOf(str(s.good)), rate: num(s.rate) };
    }),
    fuel: arr(d.fuel).map((raw) => {
      const f = obj(raw);
      return { fuel: str(f.fuel), display: names.displayOf(str(f.fuel)), rate: num(f.rate) };
    }),
    pollutionPerMinute: num(d.pollutionPerMinute),
    turd: turdView(d.turd, names),
    unmade: arr(d.unmade).map((u) => ({ good: str(obj(u).good), reason: str(obj(u).reason) })),
    invalid: strs(d.invalid),
    warnings: strs(d.warnings),
    ...(typeof d.notes === 'string' && d.notes ? { notes: d.notes } : {}),
    ...(d.kind === 'update' && typeof d.updateBlockId === 'string'
      ? { revision: { blockId: d.updateBlockId, oldRate: typeof d.oldRate === 'number' ? d.oldRate : null, recipesAdded: strs(d.recipesAdded), recipesRemoved: strs(d.recipesRemoved), newByproducts: strs(d.newByproducts) } }
      : {}),
  };
  return { ...view, flow: flowGraph(view, names) };
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

export function toEvalView(raw: unknown): EvalView {
  const e = obj(raw);
  return { code: str(e.code), note: str(e.note) };
}
