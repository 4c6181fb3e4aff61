// One row of the block editor as the tab shows it: its machine, fuel, module and beacon choices (each
// marked with what the horizon allows, in the words every tool uses), what it takes and gives at the
// solved size, why the solve leaves it idle (with the edit that puts it to work), a pin's surplus, its
// share pins, fluid temperatures and reactor layout. No vscode import: unit tests build it from real data.
import type { PlanningContext } from '../../core/planning/context';
import type { BlockDoc, Row } from '../../core/planning/block/document';
import type { SolvedRow, SolveResult } from '../../core/planning/solver/result';
import type { GameIndex, Good, Module } from '../../core/planning/gameIndex';
import { EFFECTS } from '../../core/planning/gameIndex';
import { burnableFluids, chooseFuel, fuelsFor } from '../../core/planning/energy';
import { isUsable, stateWords, type CandidateVerdict } from '../../core/planning/availability';
import { appliedEffects } from '../../core/planning/effects';
import { beaconOptions, moduleOptions, rowTarget, type RowTarget } from '../../core/planning/moduleFit';
import { isTemperatureFluid, reactorMultiplier } from '../../core/planning/solver/rows';
import { ELECTRICITY, FLUID_FUEL, HEAT } from '../../core/gamedata/model';
import { energyLabel } from '../proposals/views';
import type { AdviceView, BeaconChoiceView, ChoiceView, EditorRowView, MachineOptionView, ModuleChoiceView } from '../../webview/blockEditorProtocol';

/** Energy pseudo-goods are counted in MJ; the editor shows them as power, under their plain name. */
export const ENERGY = new Set([ELECTRICITY, HEAT, FLUID_FUEL]);

/** A good's name as the editor shows it: energy goods without their "(MJ)". */
export const goodLabel = (ctx: PlanningContext, good: string): string => (ENERGY.has(good) ? energyLabel(ctx.g.displayOf(good)) : ctx.g.displayOf(good));

/** A verdict's "needs" in one line a player reads: the research, the packs, the TURD pick. */
export function needsText(ctx: PlanningContext, v: CandidateVerdict): string | undefined {
  if (isUsable(v)) return undefined;
  const n = v.needs;
  if (!n) return v.state === 'no-machine' ? 'cannot be built (no item places it)' : stateWords(v.state);
  const parts: string[] = [];
  if (n.research?.length) parts.push(`research ${n.research.map((t) => ctx.g.displayOf(t)).join(' or ')}`);
  if (n.packs?.length) parts.push(`${n.packs.map((t) => ctx.g.displayOf(t)).join(', ')} not produced yet`);
  if (n.turd) parts.push(`TURD branch ${ctx.g.displayOf(n.turd.branch)}${n.turd.selected ? ` (now ${ctx.g.displayOf(n.turd.selected)})` : ''}`);
  if (n.machine?.name && !n.research?.length) parts.push(`a machine: ${ctx.g.displayOf(n.machine.name)}${n.machine.research ? ` (research ${ctx.g.displayOf(n.machine.research)})` : ''}`);
  if (n.use) parts.push(`replaced by ${ctx.g.displayOf(n.use.recipe)} of the selected TURD branch`);
  return parts.join('; ') || stateWords(v.state);
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

  /** A module or beacon the row names that the horizon does not allow yet. */
  locked(name: string): boolean {
    const c = this.modules[name] ?? this.beacons[name];
    return !!c && !isUsable(c);
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

/** What the solve says about the block as a whole, for every row. */
export interface BlockFacts {
  result: SolveResult | null;
  doc: BlockDoc;
  /** Goods the block imports and exports (per second), and what its rows make. */
  imported: Map<string, number>;
  exported: Map<string, number>;
  madeBy: Map<string, string[]>;
  /** The fluids the block's own burn rows turn into pooled fluid fuel. */
  burns: string[];
}

/** Fuel choices of the row's machine: solid fuels of a burner, the fluids an unfiltered fluid burner can burn. */
function fuelChoice(ctx: PlanningContext, facts: BlockFacts, s: SolvedRow | undefined): Pick<EditorRowView, 'fuelOptions' | 'fuelDefault' | 'fuelDisplay'> {
  const d = (n: string) => ctx.g.displayOf(n);
  const machine = s?.machine ? ctx.g.machines.get(s.machine) : undefined;
  const fuelDisplay = s?.fuel ? (s.fuel === FLUID_FUEL ? pooledFuel(ctx, facts) : goodLabel(ctx, s.fuel)) : null;
  if (!machine) return { fuelOptions: [], fuelDefault: 'Default', fuelDisplay };
  if (machine.energySource === 'burner') {
    // What the solver burns when the row names nothing: the one fuel choice, with what the block makes.
    const picked = chooseFuel(ctx.g, machine, { favorite: ctx.availability.state.settings.favorite_fuel, madeHere: (f) => facts.madeBy.has(f) });
    return { fuelOptions: fuelsFor(ctx.g, machine).map((f) => ({ name: f.name, display: f.display, kind: 'item' as const })), fuelDefault: `Default (${picked.fuel ? d(picked.fuel) : 'none'})`, fuelDisplay };
  }
  if (machine.energySource === 'fluid' && machine.burnsFluid && !machine.fluidFuelFilter) {
    // A fluid burner takes any fluid with a fuel value: named, it is burnt by its own fuel value and
    // flows like an ingredient; unnamed, the machine draws pooled fluid fuel (made by the block's
    // burn rows, else bought in by its energy).
    const fluids = fluidFuels(ctx.g);
    const favourite = fluids.find((f) => f.name === ctx.availability.state.settings.favorite_fluid_fuel);
    return { fuelOptions: fluids.map((f) => ({ name: f.name, display: f.display, kind: 'fluid' as const })), fuelDefault: favourite ? `Default (burn ${favourite.display})` : pooledFuel(ctx, facts), fuelDisplay };
  }
  return { fuelOptions: [], fuelDefault: 'Default', fuelDisplay: fuelDisplay && machine.fluidFuelFilter ? `${fuelDisplay} (the only fluid it burns)` : fuelDisplay };
}

/** The fluids a fluid burner can burn, once per game index (every fluid-burning row lists them). */
const fluidLists = new WeakMap<GameIndex, Good[]>();
function fluidFuels(g: GameIndex): Good[] {
  let l = fluidLists.get(g);
  if (!l) fluidLists.set(g, (l = burnableFluids(g)));
  return l;
}

/** "Fluid fuel — burns Natural gas" or "Fluid fuel — imported". */
function pooledFuel(ctx: PlanningContext, facts: BlockFacts): string {
  return `${energyLabel(ctx.g.displayOf(FLUID_FUEL))} — ${facts.burns.length ? `burns ${facts.burns.join(', ')}` : 'imported'}`;
}

const EPS = 1e-9;

/** The solver's advice on the row, in the editor's words: names without their internal [codes]. */
function adviceView(facts: BlockFacts, row: Row): AdviceView[] {
  return (facts.result?.advice ?? [])
    .filter((a) => a.recipe === row.recipe)
    .map((a) => ({ idle: a.code !== 'burn-no-building', reason: a.message.replace(/ \[[^\]\s]+\]/g, ''), fixes: a.fixes.map((f) => ({ label: f.label, edit: f.edit })) }));
}

/** A count pin pushing a row past what the block uses: its products that leave as exports. */
function pinNote(ctx: PlanningContext, facts: BlockFacts, row: Row, s: SolvedRow | undefined, fmt: (perSecond: number) => string): string | undefined {
  if (!s || !facts.doc.pins.some((p) => p.kind === 'count' && p.recipe === row.recipe)) return undefined;
  const out = (s.flows ?? []).filter((f) => f.rate > EPS && !f.fuel && facts.exported.has(f.good));
  const surplus = facts.result?.goalSuperseded.filter((x) => x.actualRate - x.goalRate > EPS && (s.flows ?? []).some((f) => f.good === x.good && f.rate > 0)) ?? [];
  const parts = [
    ...surplus.map((x) => `${fmt(x.actualRate - x.goalRate)} ${ctx.g.displayOf(x.good)} more than the goal of ${fmt(x.goalRate)}`),
    ...out.filter((f) => !surplus.some((x) => x.good === f.good)).map((f) => `${fmt(Math.min(f.rate, facts.exported.get(f.good)!))} ${ctx.g.displayOf(f.good)} that nothing here uses`),
  ];
  return parts.length ? `The pin makes ${parts.join(' and ')}: it leaves the block as an export.` : undefined;
}

/** Fluid ingredients the row may take at one produced temperature, and the temperatures the block's rows make. */
function temperatures(ctx: PlanningContext, facts: BlockFacts, row: Row): EditorRowView['temperatures'] {
  const rec = ctx.g.recipes.get(row.recipe);
  if (!rec) return [];
  const out: EditorRowView['temperatures'] = [];
  for (const ing of rec.ingredients) {
    if (!isTemperatureFluid(ctx.g, ing.name)) continue;
    const lo = ing.minTemp ?? ctx.g.goods.get(ing.name)?.defaultTemperature ?? null;
    const hi = ing.maxTemp;
    if (lo !== null && hi !== null && lo === hi) continue;
    const offered = new Set<number>();
    for (const r of facts.doc.recipes) {
      if (r.disabled) continue;
      for (const p of ctx.g.recipes.get(r.recipe)?.products ?? []) {
        if (p.name !== ing.name) continue;
        const t = p.temperature ?? ctx.g.goods.get(p.name)?.defaultTemperature ?? null;
        if (t !== null && (lo === null || t >= lo) && (hi === null || t <= hi)) offered.add(t);
      }
    }
    const chosen = row.fluidTemperatures?.[ing.name] ?? null;
    if (offered.size < 2 && chosen === null) continue;
    out.push({ fluid: ing.name, display: ctx.g.displayOf(ing.name), min: lo, max: hi, chosen, offered: [...offered].sort((a, b) => a - b) });
  }
  return out;
}

export function rowView(ctx: PlanningContext, facts: BlockFacts, catalogs: Catalogs, row: Row, s: SolvedRow | undefined, fmt: (perSecond: number) => string): EditorRowView {
  const d = (n: string) => ctx.g.displayOf(n);
  const fit = catalogs.row(row.recipe, row.machine);
  const pin = facts.doc.pins.find((p) => p.recipe === row.recipe && p.kind !== 'share');
  const modulesOf = (ms: Array<{ name: string; count: number }> | undefined) => (ms ?? []).map((m) => ({ name: m.name, display: d(m.name), count: m.count }));
  const rec = ctx.g.recipes.get(row.recipe);
  const verdict = rec ? ctx.availability.recipeVerdict(row.recipe) : undefined;
  const lockNeeds = verdict && !isUsable(verdict) ? needsText(ctx, verdict) : undefined;
  const machine = s?.machine ? ctx.g.machines.get(s.machine) : undefined;
  const note = pinNote(ctx, facts, row, s, fmt);
  const ingredients = new Set((rec?.ingredients ?? []).map((i) => i.name).filter((n) => !ENERGY.has(n)));
  const group = facts.doc.groups?.find((x) => x.recipes.includes(row.recipe))?.name;
  return {
    recipe: row.recipe,
    display: d(row.recipe),
    disabled: !!row.disabled,
    ...(verdict && !isUsable(verdict) ? { recipeLock: { state: verdict.state, ...(lockNeeds ? { needs: lockNeeds } : {}) } } : {}),
    ...(group ? { group } : {}),
    pinnedMachine: row.machine ?? null,
    machine: s?.machine ?? null,
    machineDisplay: s?.machineDisplay ?? null,
    machineRule: s?.machineChoice.explanation ?? (row.disabled ? 'row disabled' : 'not solved'),
    ...(s && s.machine && !s.machineChoice.buildable ? { machineWarning: `${s.machineDisplay ?? s.machine} cannot be built under the horizon${s.machineChoice.needs ? ` — needs ${d(s.machineChoice.needs)}` : ''}` } : {}),
    machineOptions: machineOptions(ctx, row.recipe),
    pinnedFuel: row.fuel ?? null,
    fuel: s?.fuel ?? null,
    ...fuelChoice(ctx, facts, s),
    fuelW: s?.fuelW ? s.fuelW : null,
    craftsPerSecond: s ? s.craftsPerSecond : null,
    buildings: s ? s.buildings : null,
    wholeBuildings: s ? s.wholeBuildings : null,
    powerW: s ? s.powerW : null,
    io: (s?.flows ?? [])
      .filter((f) => Math.abs(f.rate) > EPS)
      .map((f) => ({ good: f.good, display: goodLabel(ctx, f.good), rate: f.rate, ...(f.fuel ? { fuel: true as const } : {}), ...(ENERGY.has(f.good) ? { energy: true as const } : {}) }))
      .sort((a, b) => Number(a.rate > 0) - Number(b.rate > 0)),
    advice: adviceView(facts, row),
    moduleSlots: fit.slots,
    ...(fit.note ? { moduleNote: fit.note } : {}),
    modules: modulesOf(row.modules),
    beacons: (row.beacons ?? []).map((x) => ({ beacon: x.beacon, display: d(x.beacon), count: x.count, modules: modulesOf(x.modules) })),
    moduleOptions: fit.modules,
    beaconOptions: fit.beacons,
    effects: s ? appliedEffects(s.effects) : null,
    speed: s ? s.speed : null,
    beaconBuildings: s ? s.beaconBuildings : null,
    beaconPowerW: s ? (s.beaconPowerW ?? 0) : null,
    pin: pin && pin.kind !== 'share' ? { kind: pin.kind, buildings: pin.buildings } : null,
    ...(note ? { pinNote: note } : {}),
    shares: facts.doc.pins.flatMap((p) => (p.kind === 'share' && p.recipe === row.recipe ? [{ good: p.good, display: d(p.good), share: p.share, base: p.base }] : [])),
    shareGoods: [...ingredients].filter((g) => (facts.madeBy.get(g) ?? []).some((r) => r !== row.recipe)).map((g) => ({ good: g, display: d(g) })),
    temperatures: temperatures(ctx, facts, row),
    ...(machine?.neighbourBonus && machine.neighbourBonus > 0
      ? { reactor: { bonus: machine.neighbourBonus, layout: row.reactorLayout ?? null, multiplier: reactorMultiplier(machine.neighbourBonus, row.reactorLayout) } }
      : {}),
  };
}
