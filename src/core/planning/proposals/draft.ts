// Block drafts: what submitBlock / reviseBlock / submitPlan return. A draft is solved twice —
// once with the default machines and no modules, then again with module suggestions derived from
// the solved rates (pinning the machine they were sized for) — so the counts shown are the counts
// the player will build. Drafts never persist; apply.ts turns them into blocks.
import { z } from 'zod';
import type { TurdState } from '../availability';
import type { PlanningContext } from '../context';
import { beaconConfigSchema, goalGoods, goalRate, moduleCountSchema, parseBlockDoc, type BlockDoc, type BlockDocInput, type Row } from '../block/document';
import { campaignConfidence, type CampaignReport } from '../block/campaign';
import { solveBlock } from '../solver/solve';
import { energyInputs } from '../solver/rows';
import type { DiagnosisCard, Flow, MachineChoice, RowFlow, SolveResult, SolveStatus } from '../solver/result';
import { bareFarmWarning, suggestModules } from '../moduleFill';
import { checkFluidFuel } from '../energy';
import { FLUID_FUEL, HEAT } from '../../gamedata/model';
import { fluidFuelOptions, type FluidFuelOptions } from './fuelOptions';
import { ENERGY_GOODS } from '../factory/ledger';
import { netlyMakes } from '../queries/cost';
import { requireRecipe } from '../queries/errors';
import { QueryError } from '../queries/errors';
import { expandPresets, type DraftRow } from './presetRows';
import { researchLeft, rowResearch, type RowResearch } from './research';
import { completeChain, draftCompleted, MAX_BLOCK_ROWS, type Completion } from './complete';
import type { ResearchList } from '../queries/researchPath';

const name = z.string().trim().min(1).max(200);
export const draftRowInput = z.union([
  name,
  z
    .object({
      recipe: name,
      machine: name.optional(),
      modules: z.array(moduleCountSchema).max(16).optional(),
      beacons: z.array(beaconConfigSchema).max(4).optional(),
      preset: name.optional().describe("a module preset's name (planning settings): its modules and beacons instead of the auto-fill, if they fit this row"),
      fuel: name.optional().describe('burner: the solid fuel; fluid-burning machine: the fluid it burns (needs a fuel value; default the pooled fluid fuel)'),
    })
    .refine((r) => r.preset === undefined || (r.modules === undefined && r.beacons === undefined), { message: 'give a row either a preset or its modules/beacons, not both' }),
]);
/** A goal rate given by the plan: the sum of what the plan's other blocks import of the good. */
export const FROM_PLAN = 'fromPlan';
const goalRateInput = z.union([z.number().positive().max(1e6), z.literal(FROM_PLAN)]);
export const draftGoalInput = z
  .object({
    name: name.describe('good (internal name)'),
    rate: goalRateInput.optional().describe(`per second; inside submitPlan "${FROM_PLAN}" sizes a supplier block from what the plan's other blocks import of the good`),
    stock: z.number().positive().max(1e9).optional().describe('an amount to stockpile over `window` seconds instead of a rate'),
    window: z.number().positive().max(1e7).default(600),
    temperature: z.number().finite().optional(),
  })
  .refine((g) => (g.rate === undefined) !== (g.stock === undefined), { message: 'give exactly one of rate or stock' });

export const draftCampaignInput = z.object({
  duration: z.number().positive().max(1e9).describe('seconds the campaign runs'),
  confidence: campaignConfidence
    .default('expected')
    .describe('"expected": plan exactly the quantity; "90"/"95": plan the Poisson mean that reaches the quantity by the deadline 90/95 % of the time (for probabilistic outputs)'),
  quantities: z
    .array(
      z.object({
        name: name.describe('good (internal name)'),
        quantity: z.number().finite().min(-1e9).max(1e9).refine((q) => q !== 0, 'a quantity must not be 0').describe('how many over the campaign; negative consumes'),
        temperature: z.number().finite().optional(),
      }),
    )
    .min(1)
    .max(10),
});

export const draftGroupInput = z.object({
  name: z.string().trim().min(1).max(120),
  recipes: z.array(name).min(1).max(120).describe('rows of this block (listed in recipes too) that form the module'),
  good: name.describe('what the module makes'),
  rate: z.number().positive().max(1e6).describe('its reference rate per second; the block scales the module linearly'),
  temperature: z.number().finite().optional().describe('fluids: the exact temperature the module makes'),
  made: z.array(name).max(60).optional().describe('goods covered inside the module; default: everything its rows make'),
  drains: z.array(name).max(30).optional().describe('byproducts balanced inside the module'),
});

/** With `complete`: commodities the completion makes in the block (submitBlock and reviseBlock). */
export const makeHereInput = z.array(name).max(30).optional().describe('with complete: commodities (10+ consumers) to make in this block instead of importing them');

export const submitBlockInput = z
  .object({
    name: z.string().trim().min(1).max(120).optional(),
    target: name.optional().describe('the good this block makes (with rate)'),
    rate: goalRateInput.optional().describe(`per second, for target (or "${FROM_PLAN}" inside submitPlan)`),
    goals: z.array(draftGoalInput).min(1).max(10).optional().describe('instead of target+rate: several goals'),
    campaign: draftCampaignInput.optional().describe('a one-off quantity within a duration ("40 X within 1 h, 95 % sure"), alone or beside the goals'),
    recipes: z
      .array(draftRowInput)
      .max(MAX_BLOCK_ROWS)
      .default([])
      .describe('the recipes the block runs (internal names): every one, or with `complete` the ones you chose on purpose; the solver sizes them and never adds one itself'),
    complete: z
      .boolean()
      .optional()
      .describe(
        'true: the tool adds the first-listed producer (recipeGraph/recipeOptions order, main product, no TURD pick) of every good the block still needs and no row makes, walking on through its inputs, and stops at raw goods, energy, goods other blocks supply or subBlocksNeeded names, commodities (10+ consumers) not in makeHere, and goods nothing selectable makes; the draft lists what it added in `completed` (good, recipe, how many other recipes make the good)',
      ),
    makeHere: makeHereInput,
    groups: z.array(draftGroupInput).max(10).optional().describe('composed groups: rows solved on their own as a module, then scaled by the block as one recipe'),
    subBlocksNeeded: z.array(name).max(30).optional().describe('intermediates deliberately left to other blocks (imported here)'),
    drains: z.array(name).max(30).optional().describe('byproducts to balance inside the block'),
    preset: name.optional().describe('a module preset for every row without modules, beacons or preset of its own, where it fits'),
    notes: z.string().max(4000).optional(),
  })
  .refine((b) => (b.goals ? !b.target : b.target ? b.rate !== undefined : !!b.campaign), { message: 'give either target and rate, or goals (not both), or a campaign' })
  .refine((b) => b.recipes.length > 0 || b.complete === true, { message: 'list the recipes the block runs, or set complete: true to have the tool choose them', path: ['recipes'] })
  .refine((b) => !b.makeHere?.length || b.complete === true, { message: 'makeHere only works with complete: true', path: ['makeHere'] });

export type SubmitBlockInput = z.output<typeof submitBlockInput>;

export interface DraftRowOut {
  recipe: string;
  display: string;
  machine: string | null;
  machineDisplay: string | null;
  machineRule: string;
  /** How the machine was chosen (`user`, `favorite`, `fastest-buildable`, `none-buildable`, …), whether it
   *  is buildable under the horizon, and the technology that unlocks it when it is not. */
  machineChoice: MachineChoice;
  modules: Array<{ name: string; count: number }>;
  beacons: Row['beacons'];
  fuel: string | null;
  craftsPerSecond: number;
  buildings: number;
  wholeBuildings: number;
  /** How the modules were chosen: the auto-fill's reason, or the module preset used (or left off, and why). */
  moduleReason?: string;
  /** The composed group the row belongs to. */
  group?: string;
  /** Technologies not researched yet that unlock the row's recipe, machine or modules (absent: none). */
  research?: RowResearch;
  /** Per second, negative = consumed, fuel included: the flow diagram's edges (hosts only, not the model). */
  flows?: RowFlow[];
}

export interface TurdNeeds {
  /** Branch choices the draft's recipes depend on. */
  requirements: Array<{ recipe: string; master: string; branch: string; state: TurdState }>;
  /** Two branches of one master asked for. */
  conflicts: Array<{ master: string; branches: string[] }>;
}

export interface Draft {
  kind: 'block' | 'update';
  name: string;
  ok: boolean;
  status: SolveStatus;
  message?: string;
  diagnosis?: DiagnosisCard[];
  /** `temperature`: a fluid goal asked for at one exact temperature. */
  goals: Array<{ good: string; display: string; rate: number; stock?: number; window?: number; temperature?: number; campaign?: { quantity: number; planned: number }; fromPlan?: true }>;
  /** The block's campaign: duration, confidence, and per quantity what it plans for and the rate. */
  campaign?: CampaignReport;
  /** Composed groups: the module's goal and reference rate, and the scale the block runs it at. */
  groups?: SolveResult['groups'];
  rows: DraftRowOut[];
  buildings: Array<{ recipe: string; machine: string; count: number; whole: number }>;
  powerW: number;
  /** Energy the block's fuel delivers (W): solid fuel, fluid fuel and fluid-fed machines. */
  fuelW: number;
  heatW: number;
  heatSourceNeeded: boolean;
  heatSources?: string[];
  imports: Flow[];
  importsFromBlocks: Array<Flow & { blocks: string[] }>;
  importsExternal: Flow[];
  subBlocksNeeded: Array<{ good: string; display: string; rate: number }>;
  byproducts: Flow[];
  exports: Flow[];
  fuel: SolveResult['fuel'];
  /** When the draft imports pooled fluid fuel: fluids the player can make to feed it. */
  fuelOptions?: FluidFuelOptions;
  pollutionPerMinute: number;
  turd: TurdNeeds;
  unmade: SolveResult['unmade'];
  invalid: string[];
  warnings: string[];
  notes?: string;
  /** With `complete`: the rows the tool added, each for the good it makes (absent: nothing added). */
  completed?: Completion;
  /** The research its rows still need, in research order with its science cost (absent: none). */
  research?: ResearchList;
  /** The block document Create/Apply saves (machines and modules pinned). */
  doc: BlockDoc;
}

/** Goods other blocks already make, for splitting imports (from the factory ledger). */
export type BlockSupply = Map<string, string[]>;

/** The supply without what block `name` makes: what the others supply it with. */
export function withoutBlock(supply: BlockSupply, name: string): BlockSupply {
  const out: BlockSupply = new Map();
  for (const [good, blocks] of supply) {
    const rest = blocks.filter((x) => x !== name);
    if (rest.length) out.set(good, rest);
  }
  return out;
}

// The solve behind each draft, for callers that view drafts as blocks (plan balance, audits of a
// draft plan); kept beside the draft so it never lands in a tool result.
const solves = new WeakMap<Draft, SolveResult>();

/** The solve a draft describes. */
export function draftSolve(d: Draft): SolveResult {
  const r = solves.get(d);
  if (!r) throw new Error(`no solve recorded for draft "${d.name}"`);
  return r;
}

/** Imports split into those other blocks make (with their names) and those from outside. */
/** `share(good)` is the part of an import the supplying blocks cover: 1 unless they make the good only
 *  on the side and less of it than is taken (a plan's trace of ash); the rest is imported from outside. */
export function splitImports(imports: Flow[], supply: BlockSupply, share: (good: string) => number = () => 1): Pick<Draft, 'importsFromBlocks' | 'importsExternal'> {
  const out: Pick<Draft, 'importsFromBlocks' | 'importsExternal'> = { importsFromBlocks: [], importsExternal: [] };
  for (const f of imports) {
    const s = supply.has(f.good) ? Math.min(1, Math.max(0, share(f.good))) : 0;
    if (s > 0) out.importsFromBlocks.push({ ...f, rate: s < 1 ? f.rate * s : f.rate, blocks: supply.get(f.good)! });
    if (s < 1) out.importsExternal.push(s > 0 ? { ...f, rate: f.rate * (1 - s) } : f);
  }
  return out;
}

/** The rows as given; presets still named (expandPresets turns them into modules and beacons). */
export function rowsFromInput(rows: Array<z.output<typeof draftRowInput>>): DraftRow[] {
  return rows.map((r) => (typeof r === 'string' ? { recipe: r } : { ...r }));
}

/** Validate names with suggestions; returns the invalid ones (the draft is then not ok). */
export function invalidNames(ctx: PlanningContext, rows: Row[], goods: string[]): string[] {
  const out: string[] = [];
  for (const r of rows) {
    try {
      requireRecipe(ctx, r.recipe);
    } catch (e) {
      out.push(e instanceof QueryError ? e.message : `unknown recipe ${r.recipe}`);
    }
    if (r.machine && !ctx.g.machines.has(r.machine)) out.push(`unknown machine "${r.machine}" for ${r.recipe}`);
    else if (r.fuel) {
      // A fluid burner's named fuel must be burnable; solid fuels keep falling back with a warning.
      const rec = ctx.g.recipes.get(r.recipe);
      const machine = rec ? ctx.availability.chooseMachine(rec, r.machine).machine : null;
      if (machine?.energySource === 'fluid') {
        const c = checkFluidFuel(ctx.g, machine, r.fuel);
        if ('error' in c) out.push(`${r.recipe}: ${c.error}`);
      }
    }
  }
  for (const gd of goods) if (!ctx.g.goods.has(gd)) out.push(`unknown good "${gd}"; call searchGoods to find its internal name`);
  return out;
}

/** Goods linked inside the block: made by one selected recipe and used by another (as an ingredient or
 *  as the fuel it burns). A recipe that gives back less of a good than it takes (a catalyst it uses up,
 *  Py's NiSi and its cobalt extract) makes none of it: alone it leaves the good to import. */
export function linkedGoods(ctx: PlanningContext, rows: Row[], except: Set<string>): string[] {
  const made = new Set<string>();
  const used = new Set<string>(energyInputs(ctx.g, ctx.availability, rows.filter((r) => ctx.g.recipes.has(r.recipe))));
  for (const r of rows) {
    const rec = ctx.g.recipes.get(r.recipe);
    if (!rec) continue;
    for (const p of rec.products) if (netlyMakes(rec, p.name)) made.add(p.name);
    for (const i of rec.ingredients) used.add(i.name);
  }
  return [...made].filter((x) => used.has(x) && !except.has(x) && !ENERGY_GOODS.has(x)).sort();
}

export interface DraftSpec {
  kind: 'block' | 'update';
  name: string;
  /** Goals whose rate the plan gave (see FROM_PLAN). */
  fromPlan?: string[];
  doc: BlockDocInput;
  subBlocksNeeded?: string[];
  notes?: string;
  invalid?: string[];
  /** recipe → how its modules were chosen before the solve (a module preset applied, or left off). */
  moduleReasons?: Record<string, string>;
  /** Said about the input before solving (a preset left off rows it does not fit). */
  warnings?: string[];
  /** The rows chain completion added (already among doc.recipes). */
  completed?: Completion;
}

/** Solve twice (defaults, then with module suggestions) and describe the result. */
export async function buildDraft(ctx: PlanningContext, spec: DraftSpec, supply: BlockSupply = new Map()): Promise<Draft> {
  const { g, availability: a } = ctx;
  let doc = parseBlockDoc(spec.doc);
  const invalid = spec.invalid ?? invalidNames(ctx, doc.recipes, goalGoods(doc));
  let result: SolveResult;
  const reasons = new Map(Object.entries(spec.moduleReasons ?? {}));
  // Machines the draft pins for its second solve keep the first solve's account of how they were chosen.
  const chosen = new Map<string, MachineChoice>();
  if (invalid.length) {
    result = await solveBlock(g, a, { ...doc, recipes: doc.recipes.filter((r) => g.recipes.has(r.recipe)) });
  } else {
    const first = await solveBlock(g, a, doc);
    if (first.status === 'optimal') {
      const turd = a.activeTurdModules();
      // A farm the fill gives its modules no longer runs bare: the first solve's word on it is stale.
      const stale = new Set<string>();
      const rows = doc.recipes.map((row) => {
        const solved = first.rows.find((s) => s.recipe === row.recipe);
        const rec = g.recipes.get(row.recipe)!;
        const machine = solved?.machine ? g.machines.get(solved.machine) : undefined;
        if (solved && machine && !row.machine) chosen.set(row.recipe, solved.machineChoice);
        if (!machine || row.modules || machine.moduleSlots === 0) return row.machine || !machine ? row : { ...row, machine: machine.name };
        const fill = suggestModules(g, a, { recipe: rec, machine, beacons: row.beacons, turdModules: turd, researchProductivity: a.productivityBonus(rec), craftsPerSec: solved?.craftsPerSecond ?? 0 });
        const bare = fill.modules.length ? bareFarmWarning(g, rec, machine, [], a) : undefined;
        if (bare) stale.add(bare);
        const before = reasons.get(row.recipe);
        reasons.set(row.recipe, before ? `${before}; ${fill.reason}` : fill.reason);
        return { ...row, machine: machine.name, ...(fill.modules.length ? { modules: fill.modules } : {}) };
      });
      doc = { ...doc, recipes: rows };
      const second = await solveBlock(g, a, doc);
      // The second solve runs on the machines the first one picked, so a warning about the player's
      // own choice (e.g. a machine that cannot run the recipe) exists only in the first.
      result = { ...second, warnings: [...new Set([...first.warnings.filter((x) => !stale.has(x)), ...second.warnings])] };
    } else {
      result = first;
    }
  }
  if (chosen.size) {
    const rows = result.rows.map((s) => {
      const c = chosen.get(s.recipe);
      return c ? { ...s, machineRule: c.explanation, machineChoice: c } : s;
    });
    result = { ...result, rows };
  }
  return describe(ctx, spec, doc, result, invalid, reasons, supply);
}

function describe(ctx: PlanningContext, spec: DraftSpec, doc: BlockDoc, r: SolveResult, invalid: string[], reasons: Map<string, string>, supply: BlockSupply): Draft {
  const { g, availability: a } = ctx;
  const imports = r.imports.filter((f) => !ENERGY_GOODS.has(f.good));
  const sub = new Set(spec.subBlocksNeeded ?? []);
  const split = splitImports(imports, supply);
  const fluidFuel = imports.filter((f) => f.good === FLUID_FUEL).reduce((n, f) => n + f.rate, 0);
  const fromPlan = new Set(spec.fromPlan ?? []);
  const heatRows = doc.recipes.filter((row) => ctx.g.recipes.get(row.recipe)?.products.some((p) => p.name === HEAT));
  const heatSourceNeeded = (r.heatW > 0 && heatRows.length === 0) || r.unmade.some((u) => u.good === HEAT) || r.imports.some((f) => f.good === HEAT);
  const requirements: TurdNeeds['requirements'] = [];
  for (const row of doc.recipes) {
    const t = g.recipes.has(row.recipe) ? a.recipe(row.recipe).turd : null;
    if (t) requirements.push({ recipe: row.recipe, ...t });
  }
  const byMaster = new Map<string, Set<string>>();
  for (const q of requirements) byMaster.set(q.master, (byMaster.get(q.master) ?? new Set()).add(q.branch));
  const conflicts = [...byMaster].filter(([, b]) => b.size > 1).map(([master, b]) => ({ master, branches: [...b].sort() }));
  const rows: DraftRowOut[] = r.rows.map((s) => {
    const research = rowResearch(ctx, s);
    return {
      recipe: s.recipe, display: s.display, machine: s.machine, machineDisplay: s.machineDisplay, machineRule: s.machineRule, machineChoice: s.machineChoice,
      modules: s.modules, beacons: s.beacons, fuel: s.fuel, craftsPerSecond: s.craftsPerSecond, buildings: s.buildings, wholeBuildings: s.wholeBuildings,
      ...(reasons.has(s.recipe) ? { moduleReason: reasons.get(s.recipe) } : {}),
      ...(s.group ? { group: s.group } : {}),
      ...(Object.keys(research).length ? { research } : {}),
      ...(s.flows ? { flows: s.flows } : {}),
    };
  });
  const research = researchLeft(ctx, rows);
  const draft: Draft = {
    kind: spec.kind,
    name: spec.name,
    ok: invalid.length === 0 && r.status === 'optimal' && conflicts.length === 0,
    status: r.status,
    ...(r.message ? { message: r.message } : {}),
    ...(r.diagnosis ? { diagnosis: r.diagnosis } : {}),
    goals: [
      ...doc.goals.map((x) => ({ good: x.good, display: g.displayOf(x.good), rate: Math.abs(goalRate(x).rate), ...(x.stock ? { stock: x.stock.amount, window: x.stock.window } : {}), ...(x.temperature !== undefined ? { temperature: x.temperature } : {}), ...(fromPlan.has(x.good) ? { fromPlan: true as const } : {}) })),
      ...(r.campaign && !r.campaign.completed ? r.campaign.quantities : []).map((q, i) => ({
        good: q.good, display: g.displayOf(q.good), rate: Math.abs(q.rate),
        ...(doc.campaign!.quantities[i].temperature !== undefined ? { temperature: doc.campaign!.quantities[i].temperature } : {}),
        campaign: { quantity: q.quantity, planned: q.planned },
      })),
    ],
    ...(r.campaign ? { campaign: r.campaign } : {}),
    rows,
    ...(r.groups ? { groups: r.groups } : {}),
    buildings: r.rows.filter((s) => s.machine && s.buildings > 1e-9).map((s) => ({ recipe: s.recipe, machine: s.machine!, count: s.buildings, whole: s.wholeBuildings })),
    powerW: r.powerW,
    fuelW: r.rows.reduce((n, s) => n + (s.fuelW ?? 0), 0),
    heatW: r.heatW,
    heatSourceNeeded,
    ...(heatSourceNeeded ? { heatSources: [...g.recipes.values()].filter((x) => x.name.startsWith('generate-heat-') && a.recipe(x.name).availableNow).map((x) => x.name).slice(0, 4) } : {}),
    imports,
    ...split,
    subBlocksNeeded: imports.filter((f) => sub.has(f.good)).map((f) => ({ good: f.good, display: f.display, rate: f.rate })),
    byproducts: r.byproducts.filter((f) => !ENERGY_GOODS.has(f.good)),
    exports: r.exports.filter((f) => !ENERGY_GOODS.has(f.good)),
    fuel: r.fuel,
    ...(fluidFuel > 0 ? { fuelOptions: fluidFuelOptions(ctx, fluidFuel) } : {}),
    pollutionPerMinute: r.pollutionPerMinute,
    turd: { requirements, conflicts },
    unmade: r.unmade,
    invalid,
    warnings: [...(spec.warnings ?? []), ...r.warnings],
    ...(spec.notes ? { notes: spec.notes } : {}),
    ...(spec.completed && (spec.completed.added.length || spec.completed.stoppedAt) ? { completed: spec.completed } : {}),
    ...(research ? { research } : {}),
    doc,
  };
  solves.set(draft, r);
  return draft;
}

/** Goods a submitted block makes: its goals (or target) and what its campaign produces. */
export function draftGoods(input: SubmitBlockInput): string[] {
  const goals = input.goals ? input.goals.map((g) => g.name) : input.target ? [input.target] : [];
  return [...new Set([...goals, ...(input.campaign?.quantities ?? []).filter((q) => q.quantity > 0).map((q) => q.name)])];
}

/** A draft's campaign input as the block document's campaign. */
export function campaignFromInput(c: z.output<typeof draftCampaignInput>): NonNullable<BlockDocInput['campaign']> {
  return {
    duration: c.duration, confidence: c.confidence,
    quantities: c.quantities.map((q) => ({ good: q.name, quantity: q.quantity, ...(q.temperature !== undefined ? { temperature: q.temperature } : {}) })),
  };
}

/** A draft's composed groups as the block document's groups. */
export function groupsFromInput(groups: Array<z.output<typeof draftGroupInput>>): NonNullable<BlockDocInput['groups']> {
  return groups.map((x) => ({
    name: x.name, recipes: x.recipes,
    composed: { goal: { good: x.good, rate: x.rate, ...(x.temperature !== undefined ? { temperature: x.temperature } : {}) }, ...(x.made ? { made: x.made } : {}), ...(x.drains ? { drains: x.drains } : {}) },
  }));
}

/** The goods whose goal rate is FROM_PLAN. */
export function fromPlanGoods(input: SubmitBlockInput): string[] {
  return input.goals ? input.goals.filter((x) => x.rate === FROM_PLAN).map((x) => x.name) : input.rate === FROM_PLAN ? [input.target!] : [];
}

/**
 * submitBlock's input as a draft spec. `planRates` gives the rates of FROM_PLAN goals (submitPlan
 * sizes them); without it such a goal is refused, since only a plan knows what its blocks import.
 * `completed` (chain completion, see draftFromSubmit) adds its rows after the given ones.
 */
export function specFromSubmit(ctx: PlanningContext, input: SubmitBlockInput, planRates?: Map<string, number>, completed?: Completion): DraftSpec {
  const given = [...rowsFromInput(input.recipes), ...(completed?.added ?? []).map((c) => ({ recipe: c.recipe }))];
  const { rows, moduleReasons, warnings } = expandPresets(ctx, given, input.preset);
  const fromPlan = fromPlanGoods(input);
  const rateOf = (good: string, r: number | typeof FROM_PLAN) => (r === FROM_PLAN ? (planRates?.get(good) ?? 0) : r);
  const goals = input.goals
    ? input.goals.map((x) => (x.stock ? { good: x.name, stock: { amount: x.stock, window: x.window }, ...(x.temperature !== undefined ? { temperature: x.temperature } : {}) } : { good: x.name, rate: rateOf(x.name, x.rate!), ...(x.temperature !== undefined ? { temperature: x.temperature } : {}) }))
    : input.target
      ? [{ good: input.target, rate: rateOf(input.target, input.rate!) }]
      : [];
  const except = new Set(input.subBlocksNeeded ?? []);
  const made = linkedGoods(ctx, rows, except);
  const firstGood = goals[0]?.good ?? input.campaign!.quantities[0].name;
  const outsidePlan = fromPlan.length && !planRates ? [`a "${FROM_PLAN}" rate (${fromPlan.join(', ')}) only works for a block inside submitPlan; give a rate per second`] : [];
  return {
    kind: 'block',
    name: input.name ?? `${ctx.g.displayOf(firstGood)} (drafted)`,
    doc: { goals, ...(input.campaign ? { campaign: campaignFromInput(input.campaign) } : {}), ...(input.groups?.length ? { groups: groupsFromInput(input.groups) } : {}), recipes: rows, made, drains: input.drains ?? [], notes: input.notes },
    subBlocksNeeded: input.subBlocksNeeded,
    notes: input.notes,
    ...(Object.keys(moduleReasons).length ? { moduleReasons } : {}),
    ...(warnings.length ? { warnings } : {}),
    ...(fromPlan.length ? { fromPlan } : {}),
    ...(completed ? { completed } : {}),
    ...(outsidePlan.length ? { invalid: [...invalidNames(ctx, rows, goals.map((x) => x.good)), ...outsidePlan] } : {}),
  };
}

/**
 * submitBlock's input drafted against `supply` (goods other blocks make). With `complete`, the chain
 * is completed first (complete.ts, draftCompleted).
 */
export async function draftFromSubmit(ctx: PlanningContext, input: SubmitBlockInput, supply: BlockSupply, planRates?: Map<string, number>): Promise<Draft> {
  if (!input.complete) return buildDraft(ctx, specFromSubmit(ctx, input, planRates), supply);
  const imported = new Set([...supply.keys(), ...(input.subBlocksNeeded ?? [])]);
  return draftCompleted(
    (avoidLoops) => completeChain(ctx, { recipes: rowsFromInput(input.recipes).map((r) => r.recipe), goals: draftGoods(input), imported, makeHere: new Set(input.makeHere ?? []), avoidLoops }),
    (completed) => buildDraft(ctx, specFromSubmit(ctx, input, planRates, completed), supply),
  );
}
