// What the block editor shows, built from the stored block and a solve of it: goals, rows (rowView.ts),
// the result with its flow diagram, the buildings and power the block places, the campaign, groups and
// spoil rates of the document, the module presets, and the goods the made/balanced toggles apply to.
// No vscode import: unit tests build it from the real data. Modules and beacons are listed once per
// block (the catalogs) and rows name them, so a 100-row block does not carry the same list 100 times.
import type { BlockRecord } from '../../core/planning/factory/blocks';
import type { PlanningContext } from '../../core/planning/context';
import type { SolveResult, Flow } from '../../core/planning/solver/result';
import { goalRate, drainGood } from '../../core/planning/block/document';
import { campaignReport } from '../../core/planning/block/campaign';
import { blockState } from '../../core/planning/factory/outline';
import { placedBuildings } from '../../core/planning/factory/buildings';
import { presetSummaries } from '../../core/planning/modulePresets';
import { flowGraph, fluidFuelBurns, namesFrom, type RowFlows } from '../proposals/views';
import { rate as rateText } from '../../webview/format';
import type { BlockEditorView, EditorFlowView, EditorRowView, RateUnit } from '../../webview/blockEditorProtocol';
import { Catalogs, ENERGY, goodLabel, rowView, type BlockFacts } from './rowView';

function flows(ctx: PlanningContext, list: Flow[], makeable = false): EditorFlowView[] {
  return list.map((f) => {
    if (ENERGY.has(f.good)) return { good: f.good, display: goodLabel(ctx, f.good), rate: f.rate, kind: f.kind, energy: true as const };
    const out: EditorFlowView = { good: f.good, display: ctx.g.displayOf(f.good), rate: f.rate, kind: f.kind };
    if (f.temperature !== undefined) out.temperature = f.temperature;
    if (f.minTemperature !== undefined) out.minTemperature = f.minTemperature;
    if (f.maxTemperature !== undefined) out.maxTemperature = f.maxTemperature;
    if (makeable && ctx.g.producersOf(f.good).length) out.makeable = true;
    return out;
  });
}

/** Rows in the solve per recipe, and the goods each recipe of the block makes. */
function facts(ctx: PlanningContext, b: BlockRecord, result: SolveResult | null): BlockFacts {
  const madeBy = new Map<string, string[]>();
  for (const r of b.doc.recipes) {
    if (r.disabled) continue;
    for (const p of ctx.g.recipes.get(r.recipe)?.products ?? []) {
      if (!(p.amount * p.probability > 0)) continue;
      const l = madeBy.get(p.name) ?? [];
      l.push(r.recipe);
      madeBy.set(p.name, l);
    }
  }
  const sum = (list: Flow[] | undefined) => {
    const m = new Map<string, number>();
    for (const f of list ?? []) m.set(f.good, (m.get(f.good) ?? 0) + f.rate);
    return m;
  };
  return {
    result,
    doc: b.doc,
    imported: sum(result?.imports),
    exported: sum(result?.exports),
    madeBy,
    burns: result ? fluidFuelBurns(new Map(result.rows.map((r) => [r.recipe, r.flows ?? []])), ctx.g) : [],
  };
}

/** Fuel the block buys in: what it burns and imports, never more than it imports (fuel made inside is not bought). */
function boughtFuel(ctx: PlanningContext, result: SolveResult, f: BlockFacts): NonNullable<BlockEditorView['result']>['fuel'] {
  return result.fuel
    .map((x) => ({ fuel: x.fuel, display: goodLabel(ctx, x.fuel), rate: Math.min(x.rate, f.imported.get(x.fuel) ?? 0), ...(ENERGY.has(x.fuel) ? { energy: true as const } : {}) }))
    .filter((x) => x.rate > 1e-9);
}

/** Goals count pins push past their rate: the surplus leaves as an export, and which pins do it. */
function surplus(ctx: PlanningContext, b: BlockRecord, result: SolveResult): NonNullable<BlockEditorView['result']>['surplus'] {
  const pinned = (good: string) =>
    b.doc.pins.filter((p) => p.kind === 'count' && result.rows.some((r) => r.recipe === p.recipe && (r.flows ?? []).some((x) => x.good === good && x.rate > 0))).map((p) => ctx.g.displayOf(p.recipe));
  const out: NonNullable<BlockEditorView['result']>['surplus'] = [];
  for (const x of result.goalSuperseded) {
    if (x.actualRate - x.goalRate > 1e-9) out.push({ good: x.good, display: ctx.g.displayOf(x.good), goal: x.goalRate, rate: x.actualRate - x.goalRate, pins: pinned(x.good) });
  }
  for (const g of b.doc.goals) {
    const r = goalRate(g);
    const extra = result.exports.filter((e) => e.good === g.good).reduce((s, e) => s + e.rate, 0);
    if (r.direction !== 'produce' || extra <= 1e-9 || out.some((x) => x.good === g.good)) continue;
    const pins = pinned(g.good);
    if (pins.length) out.push({ good: g.good, display: ctx.g.displayOf(g.good), goal: r.rate, rate: extra, pins });
  }
  return out;
}

/** Solved, but not as planned to build: a machine, recipe, module or beacon the horizon does not allow yet. */
function lockedParts(rows: EditorRowView[], catalogs: Catalogs): string[] {
  const out: string[] = [];
  const machines = rows.filter((r) => r.machineWarning && !r.disabled).length;
  const recipes = rows.filter((r) => r.recipeLock && !r.disabled).length;
  const modules = rows.filter((r) => !r.disabled && [...r.modules.map((m) => m.name), ...r.beacons.flatMap((x) => [x.beacon, ...x.modules.map((m) => m.name)])].some((n) => catalogs.locked(n))).length;
  const rowsText = (n: number) => `${n} row${n === 1 ? '' : 's'}`;
  if (machines) out.push(`${rowsText(machines)} use${machines === 1 ? 's' : ''} a machine that cannot be built yet`);
  if (recipes) out.push(`${rowsText(recipes)} run${recipes === 1 ? 's' : ''} a recipe not unlocked yet`);
  if (modules) out.push(`${rowsText(modules)} use${modules === 1 ? 's' : ''} locked modules or beacons`);
  return out;
}

export function blockEditorView(
  ctx: PlanningContext, b: BlockRecord, result: SolveResult | null,
  extra: { broken?: string; undoLabel?: string; redoLabel?: string; unit?: RateUnit } = {},
): BlockEditorView {
  const d = (n: string) => ctx.g.displayOf(n);
  const unit = extra.unit ?? 's';
  const fmt = (perSecond: number) => rateText(perSecond, unit);
  const solved = new Map((result?.rows ?? []).map((r) => [r.recipe, r]));
  const catalogs = new Catalogs(ctx);
  const f = facts(ctx, b, result);
  const rows = b.doc.recipes.map((row) => rowView(ctx, f, catalogs, row, solved.get(row.recipe), fmt));
  const made = new Set(b.doc.made);
  const drained = new Set(b.doc.drains.map(drainGood));
  const goalGoods = new Set(b.doc.goals.map((g) => g.good));
  const goods = (result?.goods ?? [])
    .filter((x) => !goalGoods.has(x.good))
    .map((x) => ({ good: x.good, display: goodLabel(ctx, x.good), net: x.net, made: made.has(x.good), drained: drained.has(x.good), ...(ENERGY.has(x.good) ? { energy: true as const } : {}) }))
    .sort((a, b2) => a.display.localeCompare(b2.display));
  const { state, detail } = blockState(b);
  const locked = result?.status === 'optimal' ? lockedParts(rows, catalogs) : [];
  const shownState = extra.broken ? 'broken' : result ? (result.status === 'optimal' ? (b.enabled ? 'solved' : 'disabled') : result.status) : state;
  const tone: BlockEditorView['tone'] = shownState === 'solved' ? (locked.length ? 'warn' : 'ok') : shownState === 'disabled' || shownState === 'stale' ? 'info' : 'error';
  const stateDetail = extra.broken ?? (locked.length ? `Solved, but not buildable as planned: ${locked.join('; ')}.` : !result ? detail : result.message);
  const placed = result ? placedBuildings(result.rows.map((r) => ({ recipe: r.recipe, machine: r.machine, buildings: r.buildings, beacons: r.beacons }))) : [];
  const report = result?.campaign ?? campaignReport(b.doc.campaign);
  const spoilable = new Set<string>();
  for (const x of result?.goods ?? []) if (ctx.g.goods.get(x.good)?.spoilResult) spoilable.add(x.good);
  return {
    id: b.id,
    name: b.name,
    updatedAt: b.updatedAt,
    enabled: b.enabled,
    state: shownState,
    tone,
    ...(stateDetail ? { stateDetail } : {}),
    unit,
    goals: b.doc.goals.map((g, index) => {
      const r = goalRate(g);
      return { index, good: g.good, display: d(g.good), rate: r.rate, direction: r.direction, ...(g.stock ? { stock: { amount: g.stock.amount, window: g.stock.window } } : {}) };
    }),
    rows,
    moduleCatalog: catalogs.modules,
    beaconCatalog: catalogs.beacons,
    presets: ctx.project ? presetSummaries(ctx.project, d) : [],
    flow: result ? solvedFlow(ctx, result, rows) : { nodes: [], edges: [] },
    goods,
    ...(b.doc.campaign && report
      ? {
          campaign: {
            duration: b.doc.campaign.duration,
            confidence: b.doc.campaign.confidence,
            ...(b.doc.campaign.completedAt ? { completedAt: b.doc.campaign.completedAt } : {}),
            quantities: b.doc.campaign.quantities.map((q, i) => ({ good: q.good, display: d(q.good), quantity: q.quantity, planned: report.quantities[i]?.planned ?? Math.abs(q.quantity), rate: report.quantities[i]?.rate ?? 0 })),
          },
        }
      : {}),
    groups: (b.doc.groups ?? []).map((x) => {
      const run = result?.groups?.find((y) => y.name === x.name);
      return {
        name: x.name,
        recipes: x.recipes,
        ...(x.composed
          ? {
              composed: {
                good: x.composed.goal.good, display: d(x.composed.goal.good), rate: x.composed.goal.rate, scale: run ? run.scale : null,
                ...(x.composed.goal.temperature !== undefined ? { temperature: x.composed.goal.temperature } : {}),
                ...(x.composed.made ? { made: x.composed.made } : {}), ...(x.composed.drains ? { drains: x.composed.drains } : {}),
              },
            }
          : {}),
      };
    }),
    spoil: {
      rates: Object.entries(b.doc.spoilRates ?? {}).map(([good, rate]) => ({ good, display: d(good), rate, result: d(ctx.g.goods.get(good)?.spoilResult ?? '') || 'nothing' })),
      candidates: [...spoilable].filter((g) => !(b.doc.spoilRates && g in b.doc.spoilRates)).map((good) => ({ good, display: d(good) })).sort((a, b2) => a.display.localeCompare(b2.display)),
    },
    result: result
      ? {
          status: result.status,
          ...(result.message ? { message: result.message } : {}),
          imports: flows(ctx, result.imports, true),
          exports: flows(ctx, result.exports.filter((x) => !result.byproducts.some((y) => y.good === x.good))),
          byproducts: flows(ctx, result.byproducts),
          powerW: result.powerW,
          fuelW: result.rows.reduce((s, r) => s + (r.fuelW ?? 0), 0),
          buildings: placed.reduce((s, x) => s + x.count, 0),
          beaconBuildings: placed.filter((x) => x.beacon).reduce((s, x) => s + x.count, 0),
          fuel: boughtFuel(ctx, result, f),
          surplus: surplus(ctx, b, result),
          pollutionPerMinute: result.pollutionPerMinute,
          diagnosis: (result.diagnosis ?? []).map((c) => ({ message: c.message, fixes: c.fixes })),
          warnings: result.warnings,
          unmade: result.unmade.map((u) => ({ good: u.good, display: d(u.good), reason: u.reason, makeable: ctx.g.producersOf(u.good).length > 0 })),
          ...(result.timing ? { solveMs: result.timing.totalMs } : {}),
        }
      : null,
    ...(extra.undoLabel ? { undoLabel: extra.undoLabel } : {}),
    ...(extra.redoLabel ? { redoLabel: extra.redoLabel } : {}),
  };
}

/** The solved block as the side panel's flow diagram draws a draft: one node per recipe and good. */
function solvedFlow(ctx: PlanningContext, result: SolveResult, rows: EditorRowView[]): BlockEditorView['flow'] {
  const byRecipe: RowFlows = new Map(result.rows.map((r) => [r.recipe, (r.flows ?? []).filter((f) => f.rate !== 0)]));
  const live = rows.filter((r) => !r.disabled && byRecipe.has(r.recipe)).map((r) => ({ recipe: r.recipe, display: r.display, machine: r.machine, machineDisplay: r.machineDisplay, buildings: r.buildings ?? 0, wholeBuildings: r.wholeBuildings ?? 0 }));
  return flowGraph({ rows: live, goals: result.goals, importsFromBlocks: [], importsExternal: result.imports, byproducts: result.byproducts, exports: result.exports }, namesFrom(ctx.g), byRecipe);
}

