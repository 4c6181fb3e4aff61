// What the block editor shows, built from the stored block and a solve of it: goals, rows with
// their machine, fuel, module, beacon and pin choices (each machine, module and beacon marked with
// what the horizon allows, in the words every tool uses), the result with its flow diagram, the
// module presets, and the goods the made/balanced toggles apply to. No vscode import: unit tests
// build it from the real data. Modules and beacons are listed once per block (the catalogs) and
// rows name them, so a 100-row block does not carry the same beacon list a hundred times.
import type { BlockRecord } from '../../core/planning/factory/blocks';
import type { PlanningContext } from '../../core/planning/context';
import type { SolveResult, Flow } from '../../core/planning/solver/result';
import { goalRate, drainGood } from '../../core/planning/block/document';
import { blockState } from '../../core/planning/factory/outline';
import { fuelsFor } from '../../core/planning/energy';
import { isUsable, type CandidateVerdict } from '../../core/planning/availability';
import type { Module } from '../../core/planning/gameIndex';
import { EFFECTS } from '../../core/planning/gameIndex';
import { appliedEffects } from '../../core/planning/effects';
import { beaconOptions, moduleOptions, rowTarget, type RowTarget } from '../../core/planning/moduleFit';
import { presetSummaries } from '../../core/planning/modulePresets';
import { energyLabel, flowGraph, fluidFuelBurns, namesFrom, type RowFlows } from '../proposals/views';
import { ELECTRICITY, FLUID_FUEL, HEAT } from '../../core/gamedata/model';
import type { BeaconChoiceView, BlockEditorView, ChoiceView, EditorFlowView, EditorRowView, MachineOptionView, ModuleChoiceView } from '../../webview/blockEditorProtocol';

/** A verdict's "needs" in one line a player reads: the research, the packs, the TURD pick. */
export function needsText(ctx: PlanningContext, v: CandidateVerdict): string | undefined {
  if (isUsable(v)) return undefined;
  const n = v.needs;
  if (!n) return v.state === 'no-machine' ? 'cannot be built (no item places it)' : undefined;
  const parts: string[] = [];
  if (n.research?.length) parts.push(`research ${n.research.map((t) => ctx.g.displayOf(t)).join(' or ')}`);
  if (n.packs?.length) parts.push(`${n.packs.map((t) => ctx.g.displayOf(t)).join(', ')} not produced yet`);
  if (n.turd) parts.push(`TURD branch ${ctx.g.displayOf(n.turd.branch)}${n.turd.selected ? ` (now ${ctx.g.displayOf(n.turd.selected)})` : ''}`);
  if (n.research && !n.research.length) parts.push('no research unlocks it');
  return parts.join('; ') || undefined;
}

function machineOptions(ctx: PlanningContext, recipe: string): MachineOptionView[] {
  const rec = ctx.g.recipes.get(recipe);
  if (!rec) return [];
  return ctx.g
    .machinesFor(rec)
    .filter((m) => !ctx.availability.isExcluded(m.name) && !(m.hidden && !m.item))
    .map((m) => {
      const v = ctx.availability.machineVerdict(m.name);
      const needs = needsText(ctx, v);
      return { name: m.name, display: m.display, state: v.state, ...(needs ? { needs } : {}), speed: m.speed };
    })
    .sort((a, b) => Number(isUsable(b)) - Number(isUsable(a)) || b.speed - a.speed || a.display.localeCompare(b.display));
}

function choice(ctx: PlanningContext, name: string, display: string, v: CandidateVerdict): ChoiceView {
  const needs = needsText(ctx, v);
  return { name, display, state: v.state, ...(needs ? { needs } : {}) };
}

const pct = (x: number) => `${x > 0 ? '+' : ''}${Number((x * 100).toPrecision(3))} %`;

/** "+25 % speed, +40 % consumption" — the module's nonzero effects. */
function effectsText(m: Pick<Module, 'effects'>): string {
  return EFFECTS.filter((e) => m.effects[e] !== 0).map((e) => `${pct(m.effects[e])} ${e}`).join(', ') || 'no effect';
}

/** Per row: the modules and beacons it may take, named into the block's catalogs (the science editor's lab too). */
export class Catalogs {
  readonly modules: Record<string, ModuleChoiceView> = {};
  readonly beacons: Record<string, BeaconChoiceView> = {};
  /** The beacons any beacon-affected machine may take: the same for every row, so listed once. */
  private beaconNames: string[] | undefined;
  constructor(private readonly ctx: PlanningContext) {}

  module(m: Module, v: CandidateVerdict): string {
    this.modules[m.name] ??= { ...choice(this.ctx, m.name, m.display, v), effects: effectsText(m) };
    return m.name;
  }

  row(recipe: string, machine?: string): { slots: number; note?: string; modules: string[]; beacons: string[] } {
    return this.target(rowTarget(this.ctx.g, this.ctx.availability, { recipe, ...(machine ? { machine } : {}) }));
  }

  /** The modules and beacons a machine running a recipe may take, or why none (a string). */
  target(t: RowTarget | string): { slots: number; note?: string; modules: string[]; beacons: string[] } {
    const { g, availability: a } = this.ctx;
    if (typeof t === 'string') return { slots: 0, note: t, modules: [], beacons: [] };
    const modules = moduleOptions(g, a, t).map((o) => this.module(o.module, o.verdict));
    const beacons = t.machine.usesBeaconEffects
      ? (this.beaconNames ??= beaconOptions(g, a, t).map((o) => {
          this.beacons[o.beacon.name] = { ...choice(this.ctx, o.beacon.name, o.beacon.display, o.verdict), slots: o.beacon.moduleSlots, modules: o.modules.map((x) => this.module(x.module, x.verdict)) };
          return o.beacon.name;
        }))
      : [];
    const slots = t.machine.usesModuleEffects ? t.machine.moduleSlots : 0;
    const note = !slots && !beacons.length ? `${t.machine.display} takes no modules and no beacon reaches it` : !slots ? `${t.machine.display} has no module slots` : undefined;
    return { slots, ...(note ? { note } : {}), modules, beacons };
  }
}

/** Energy pseudo-goods are counted in MJ; the editor shows them as power, under their plain name. */
const ENERGY = new Set([ELECTRICITY, HEAT, FLUID_FUEL]);

/** A good's name as the editor shows it: energy goods without their "(MJ)". */
const goodLabel = (ctx: PlanningContext, good: string) => (ENERGY.has(good) ? energyLabel(ctx.g.displayOf(good)) : ctx.g.displayOf(good));

function flows(ctx: PlanningContext, list: Flow[]): EditorFlowView[] {
  return list.map((f) => {
    if (ENERGY.has(f.good)) return { good: f.good, display: goodLabel(ctx, f.good), rate: f.rate, kind: f.kind, energy: true as const };
    const out: EditorFlowView = { good: f.good, display: ctx.g.displayOf(f.good), rate: f.rate, kind: f.kind };
    if (f.temperature !== undefined) out.temperature = f.temperature;
    if (f.minTemperature !== undefined) out.minTemperature = f.minTemperature;
    if (f.maxTemperature !== undefined) out.maxTemperature = f.maxTemperature;
    return out;
  });
}

export function blockEditorView(ctx: PlanningContext, b: BlockRecord, result: SolveResult | null, extra: { broken?: string; undoLabel?: string; redoLabel?: string } = {}): BlockEditorView {
  const d = (n: string) => ctx.g.displayOf(n);
  const solved = new Map((result?.rows ?? []).map((r) => [r.recipe, r]));
  const catalogs = new Catalogs(ctx);
  // Rows on the pooled fluid fuel name the fluid behind it: what the block burns, else an import.
  const burns = result ? fluidFuelBurns(new Map(result.rows.map((r) => [r.recipe, r.flows ?? []])), ctx.g) : [];
  const fluidFuel = `${energyLabel(d(FLUID_FUEL))} — ${burns.length ? `burns ${burns.join(', ')}` : 'imported'}`;
  const modulesOf = (ms: Array<{ name: string; count: number }> | undefined) => (ms ?? []).map((m) => ({ name: m.name, display: d(m.name), count: m.count }));
  const rows: EditorRowView[] = b.doc.recipes.map((row) => {
    const s = solved.get(row.recipe);
    const machine = s?.machine ? ctx.g.machines.get(s.machine) : undefined;
    const fuels = machine ? fuelsFor(ctx.g, machine) : [];
    const fit = catalogs.row(row.recipe, row.machine);
    const pin = b.doc.pins.find((p) => p.recipe === row.recipe && p.kind !== 'share');
    return {
      recipe: row.recipe,
      display: d(row.recipe),
      disabled: !!row.disabled,
      pinnedMachine: row.machine ?? null,
      machine: s?.machine ?? null,
      machineDisplay: s?.machineDisplay ?? null,
      machineRule: s?.machineChoice.explanation ?? (row.disabled ? 'row disabled' : 'not solved'),
      ...(s && s.machine && !s.machineChoice.buildable ? { machineWarning: `${s.machineDisplay ?? s.machine} cannot be built under the horizon${s.machineChoice.needs ? ` — needs ${s.machineChoice.needs}` : ''}` } : {}),
      machineOptions: machineOptions(ctx, row.recipe),
      pinnedFuel: row.fuel ?? null,
      fuel: s?.fuel ?? null,
      fuelDisplay: s?.fuel ? (s.fuel === FLUID_FUEL ? fluidFuel : goodLabel(ctx, s.fuel)) : null,
      fuelOptions: fuels.map((f) => ({ name: f.name, display: f.display })),
      craftsPerSecond: s ? s.craftsPerSecond : null,
      buildings: s ? s.buildings : null,
      wholeBuildings: s ? s.wholeBuildings : null,
      powerW: s ? s.powerW : null,
      moduleSlots: fit.slots,
      ...(fit.note ? { moduleNote: fit.note } : {}),
      modules: modulesOf(row.modules),
      beacons: (row.beacons ?? []).map((x) => ({ beacon: x.beacon, display: d(x.beacon), count: x.count, modules: modulesOf(x.modules) })),
      moduleOptions: fit.modules,
      beaconOptions: fit.beacons,
      effects: s ? appliedEffects(s.effects) : null,
      speed: s ? s.speed : null,
      beaconBuildings: s ? s.beaconBuildings : null,
      pin: pin && pin.kind !== 'share' ? { kind: pin.kind, buildings: pin.buildings } : null,
    };
  });
  const made = new Set(b.doc.made);
  const drained = new Set(b.doc.drains.map(drainGood));
  const goalGoods = new Set(b.doc.goals.map((g) => g.good));
  const goods = (result?.goods ?? [])
    .filter((x) => !goalGoods.has(x.good))
    .map((x) => ({ good: x.good, display: goodLabel(ctx, x.good), net: x.net, made: made.has(x.good), drained: drained.has(x.good), ...(ENERGY.has(x.good) ? { energy: true as const } : {}) }))
    .sort((a, b2) => a.display.localeCompare(b2.display));
  const { state, detail } = blockState(b);
  return {
    id: b.id,
    name: b.name,
    updatedAt: b.updatedAt,
    enabled: b.enabled,
    state: extra.broken ? 'broken' : result ? (result.status === 'optimal' ? (b.enabled ? 'solved' : 'disabled') : result.status) : state,
    ...(extra.broken ? { stateDetail: extra.broken } : detail && !result ? { stateDetail: detail } : result?.message ? { stateDetail: result.message } : {}),
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
    result: result
      ? {
          status: result.status,
          ...(result.message ? { message: result.message } : {}),
          imports: flows(ctx, result.imports),
          exports: flows(ctx, result.exports.filter((f) => !result.byproducts.some((x) => x.good === f.good))),
          byproducts: flows(ctx, result.byproducts),
          powerW: result.powerW,
          fuel: result.fuel.map((f) => ({ fuel: f.fuel, display: goodLabel(ctx, f.fuel), rate: f.rate, ...(ENERGY.has(f.fuel) ? { energy: true as const } : {}) })),
          pollutionPerMinute: result.pollutionPerMinute,
          diagnosis: (result.diagnosis ?? []).map((c) => ({ message: c.message, fixes: c.fixes })),
          warnings: result.warnings,
          unmade: result.unmade.map((u) => ({ good: u.good, display: d(u.good), reason: u.reason })),
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
