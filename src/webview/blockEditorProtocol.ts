// The block editor's message protocol (one editor tab per block), shared like protocol.ts: the
// extension validates every incoming message with the zod schema below; the webview imports the
// types only. Rates travel per second; the webview converts the unit the user picked.
import type { ToEditor } from './editorProtocol';
import { z } from 'zod';
import type { BlockEdit } from '../core/planning/factory/blockEdit';
import type { FlowGraphView } from './protocol';
import type { RateUnit } from './format';
export type { RateUnit };
import { campaignSchema } from '../core/planning/block/campaign';
import { rowGroupSchema } from '../core/planning/block/document';

// ── views (extension → webview) ────────────────────────────────────────────

export type CandidateStateView = 'unlocked' | 'buildable' | 'needs-research' | 'unobtainable' | 'turd-pick' | 'turd-blocked' | 'no-machine' | 'by-hand' | 'superseded';

export interface MachineOptionView {
  name: string;
  display: string;
  state: CandidateStateView;
  /** What unlocks it, in words, when it is not buildable under the horizon. */
  needs?: string;
  speed: number;
}

/** A module or beacon the player may choose, with what the horizon says about it. */
export interface ChoiceView {
  name: string;
  display: string;
  state: CandidateStateView;
  /** What unlocks it, in words, when it is not buildable under the horizon. */
  needs?: string;
}

export interface ModuleChoiceView extends ChoiceView {
  /** "+25 % speed, +40 % consumption". */
  effects: string;
}

export interface BeaconChoiceView extends ChoiceView {
  slots: number;
  /** Modules it transmits (names in the block's module catalog). */
  modules: string[];
}

export interface EditorModuleView {
  name: string;
  display: string;
  count: number;
}

export interface EditorBeaconView {
  beacon: string;
  display: string;
  /** Beacons affecting each machine. */
  count: number;
  modules: EditorModuleView[];
}

/** A good a row takes or gives, per second (negative: taken). */
export interface RowIOView {
  good: string;
  display: string;
  rate: number;
  /** Drawn (or given back) by the building's energy source, not listed by the recipe. */
  fuel?: true;
  /** Electricity, heat or pooled fluid fuel: counted in MJ/s, shown as power. */
  energy?: true;
  icon?: string;
}

/** The solver's advice on a row: why it is idle (or burns with no building), and the edits that change it. */
export interface AdviceView {
  /** The row does not run (else it runs, but not as listed: a burn row with no building). */
  idle: boolean;
  reason: string;
  /** Each one alternative, in the words of its button. */
  fixes: Array<{ label: string; edit: BlockEditMessage }>;
}

export interface EditorRowView {
  recipe: string;
  display: string;
  /** Webview URI of the recipe's game icon, when the project's icons were extracted. */
  icon?: string;
  disabled: boolean;
  /** Set when the recipe itself cannot be used under the horizon: its state and what unlocks it. */
  recipeLock?: { state: CandidateStateView; needs?: string };
  /** The composed or display group the row belongs to. */
  group?: string;
  /** The machine the block names for the row (null: the default rule picks). */
  pinnedMachine: string | null;
  machine: string | null;
  machineDisplay: string | null;
  /** How the machine was chosen, in words (the solver's own explanation). */
  machineRule: string;
  /** Set when the machine cannot be built under the horizon. */
  machineWarning?: string;
  machineOptions: MachineOptionView[];
  pinnedFuel: string | null;
  fuel: string | null;
  fuelDisplay: string | null;
  /** What the machine can burn (solid fuels, or fluids for a fluid burner); empty when there is no choice. */
  fuelOptions: Array<{ name: string; display: string; kind: 'item' | 'fluid' }>;
  /** The words of the "no fuel named" choice: the default fuel, or fluid fuel bought in by its energy. */
  fuelDefault: string;
  /** Energy the row's fuel delivers (W): burner and fluid-burning machines. */
  fuelW: number | null;
  craftsPerSecond: number | null;
  buildings: number | null;
  wholeBuildings: number | null;
  powerW: number | null;
  /** What the row takes and gives per second at the solved size (fuel included). */
  io: RowIOView[];
  /** What the solve says about the row when it does not do what it was listed for (idle, burning for nothing). */
  advice: AdviceView[];
  /** Module slots of the row's machine (0: it takes none). */
  moduleSlots: number;
  /** Why the row takes no modules or beacons, when it does not. */
  moduleNote?: string;
  /** The row's machine modules and beacons, as the block names them. */
  modules: EditorModuleView[];
  beacons: EditorBeaconView[];
  /** Modules that fit the row (names in the block's module catalog), usable first. */
  moduleOptions: string[];
  /** Beacons that can affect the row's machine (names in the block's beacon catalog). */
  beaconOptions: string[];
  /** Effects as the game applies them (fractions; `capped`: cut at the game's −80 % floor), and one building's crafting speed. */
  effects: { speed: number; productivity: number; consumption: number; pollution: number; capped: Array<'speed' | 'consumption' | 'pollution'> } | null;
  speed: number | null;
  /** Whole beacon buildings the row places, and their electric power (in `powerW` too). */
  beaconBuildings: number | null;
  beaconPowerW: number | null;
  /** Exactly (`count`) or at most (`cap`) N buildings. */
  pin: { kind: 'count' | 'cap'; buildings: number } | null;
  /** A count pin that makes more than the goals take: what is left over, in words. */
  pinNote?: string;
  /** Shares of goods the block makes that this row takes (share pins). */
  shares: Array<{ good: string; display: string; share: number; base: 'remaining' | 'total' }>;
  /** Ingredients of the row some other row makes: what a share pin may name. */
  shareGoods: Array<{ good: string; display: string }>;
  /** Fluid ingredients with a temperature range: the one the row takes (null: any in range), and the temperatures rows of the block make. */
  temperatures: Array<{ fluid: string; display: string; min: number | null; max: number | null; chosen: number | null; offered: number[] }>;
  /** Heat producers with a neighbour bonus: the bonus, the layout (x by y) and the heat multiplier it gives. */
  reactor?: { bonus: number; layout: { x: number; y: number } | null; multiplier: number };
}

export interface EditorFlowView {
  good: string;
  display: string;
  icon?: string;
  /** Per second; MJ/s (so MW) for an energy pseudo-good. */
  rate: number;
  kind: 'item' | 'fluid';
  /** Electricity, heat or pooled fluid fuel: counted in MJ, shown as power. */
  energy?: true;
  /** Fluids: the exact temperature of an export, or the range an import accepts (null = open). */
  temperature?: number;
  minTemperature?: number | null;
  maxTemperature?: number | null;
  /** Some recipe makes it: a click adds a maker (imports). */
  makeable?: true;
}

export interface EditorGoodView {
  good: string;
  display: string;
  /** Per second (MJ/s for an energy good). */
  net: number;
  made: boolean;
  drained: boolean;
  /** Electricity, heat or fluid fuel: shown as power. */
  energy?: true;
}


export interface EditorCampaignView {
  duration: number;
  confidence: 'expected' | '90' | '95';
  completedAt?: string;
  quantities: Array<{ good: string; display: string; quantity: number; planned: number; rate: number }>;
}

export interface EditorGroupView {
  name: string;
  recipes: string[];
  /** A composed group: solved on its own as a module making `good` at `rate`, run by the block at `scale`. */
  composed?: { good: string; display: string; rate: number; temperature?: number; scale: number | null; made?: string[]; drains?: Array<string | { good: string; recipe?: string }> };
}

export interface BlockEditorView {
  id: string;
  name: string;
  updatedAt: string;
  enabled: boolean;
  /** solved, infeasible, stale, disabled, broken, error (the Factory view's words). */
  state: string;
  /** How the state reads: a block solved with a machine that cannot be built is `warn`, not `ok`. */
  tone: 'ok' | 'warn' | 'error' | 'info';
  stateDetail?: string;
  /** The rate unit chosen for this block (remembered per block). */
  unit: RateUnit;
  goals: Array<{ index: number; good: string; display: string; rate: number; direction: 'produce' | 'consume'; stock?: { amount: number; window: number }; icon?: string }>;
  rows: EditorRowView[];
  /** Every module and beacon the rows refer to, once for the block. */
  moduleCatalog: Record<string, ModuleChoiceView>;
  beaconCatalog: Record<string, BeaconChoiceView>;
  /** The project's module presets. */
  presets: Array<{ id: string; name: string; summary: string }>;
  /** The solved block as a graph (empty beyond the diagram's size limit). */
  flow: FlowGraphView;
  /** Goods the block makes or uses, for the made/balanced toggles. */
  goods: EditorGoodView[];
  campaign?: EditorCampaignView;
  groups: EditorGroupView[];
  /** Spoil rates the block sets, and the goods of the block that can spoil. */
  spoil: { rates: Array<{ good: string; display: string; rate: number; result: string }>; candidates: Array<{ good: string; display: string }> };
  result: {
    status: string;
    message?: string;
    imports: EditorFlowView[];
    exports: EditorFlowView[];
    byproducts: EditorFlowView[];
    powerW: number;
    /** Energy the block's fuel delivers (W), beside its electric power. */
    fuelW: number;
    /** Whole buildings to place: machines, and of them beacon buildings. */
    buildings: number;
    beaconBuildings: number;
    /** Fuel the block buys in (what it burns and does not make itself). */
    fuel: Array<{ fuel: string; display: string; rate: number; energy?: true }>;
    /** Goals that count pins push past their rate: the surplus leaves the block as an export. */
    surplus: Array<{ good: string; display: string; goal: number; rate: number; pins: string[] }>;
    pollutionPerMinute: number;
    diagnosis: Array<{ message: string; fixes: string[] }>;
    warnings: string[];
    unmade: Array<{ good: string; display: string; reason: string; makeable: boolean }>;
    /** Time of the solve behind this view (ms). */
    solveMs?: number;
  } | null;
  undoLabel?: string;
  redoLabel?: string;
}

export type ToBlockEditor = ToEditor<BlockEditorView>;

// ── messages (webview → extension), validated ───────────────────────────────

const name = z.string().trim().min(1).max(200);
const rate = z.number().finite().min(-1e9).max(1e9);
/** As the core's block document: up to 256 modules in one machine (Py farms take 200). */
const modules = z.array(z.object({ name, count: z.number().int().min(1).max(256) }).strict()).max(16);
const beacons = z.array(z.object({ beacon: name, count: z.number().min(0).max(64), modules, shared: z.number().min(1).max(64).optional() }).strict()).max(4);

export const blockEditSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('rename'), name: z.string().trim().min(1).max(120) }).strict(),
  z.object({ kind: z.literal('goal-add'), good: name, rate, direction: z.enum(['produce', 'consume']).optional() }).strict(),
  z.object({ kind: z.literal('goal-rate'), index: z.number().int().min(0).max(50), rate }).strict(),
  z.object({ kind: z.literal('goal-stock'), index: z.number().int().min(0).max(50), amount: z.number().finite().positive().max(1e12), window: z.number().finite().positive().max(1e9) }).strict(),
  z.object({ kind: z.literal('goal-remove'), index: z.number().int().min(0).max(50) }).strict(),
  z.object({ kind: z.literal('row-add'), recipe: name, makes: name.optional() }).strict(),
  z.object({ kind: z.literal('rows-add'), rows: z.array(z.object({ recipe: name, makes: name }).strict()).min(1).max(120) }).strict(),
  z.object({ kind: z.literal('row-remove'), recipe: name }).strict(),
  z.object({ kind: z.literal('row-disable'), recipe: name, disabled: z.boolean() }).strict(),
  z.object({ kind: z.literal('row-machine'), recipe: name, machine: name.nullable() }).strict(),
  z.object({ kind: z.literal('row-fuel'), recipe: name, fuel: name.nullable() }).strict(),
  z.object({ kind: z.literal('row-modules'), recipe: name, modules }).strict(),
  z.object({ kind: z.literal('row-beacons'), recipe: name, beacons }).strict(),
  z.object({ kind: z.literal('row-preset'), recipe: name, preset: name }).strict(),
  z.object({ kind: z.literal('row-pin'), recipe: name, pin: z.object({ kind: z.enum(['count', 'cap']), buildings: z.number().finite().min(0).max(1e6) }).strict().nullable() }).strict(),
  z.object({ kind: z.literal('good-made'), good: name, on: z.boolean() }).strict(),
  z.object({ kind: z.literal('good-drain'), good: name, on: z.boolean() }).strict(),
  z.object({ kind: z.literal('pin-share'), recipe: name, good: name, share: z.object({ share: z.number().finite().min(0).max(1), base: z.enum(['remaining', 'total']) }).strict().nullable() }).strict(),
  z.object({ kind: z.literal('row-temperature'), recipe: name, fluid: name, temperature: z.number().finite().min(-1e6).max(1e6).nullable() }).strict(),
  z.object({ kind: z.literal('row-reactor'), recipe: name, layout: z.object({ x: z.number().int().min(1).max(20), y: z.number().int().min(1).max(20) }).strict().nullable() }).strict(),
  z.object({ kind: z.literal('spoil-rate'), good: name, rate: z.number().finite().min(0).max(1e9).nullable() }).strict(),
  z.object({ kind: z.literal('campaign'), campaign: campaignSchema.nullable() }).strict(),
  z.object({ kind: z.literal('group'), name: z.string().trim().min(1).max(120).optional(), group: rowGroupSchema.nullable() }).strict(),
]);

export const fromBlockEditorSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }).strict(),
  /** `base`: the block's updatedAt the edit was made on (stale-save protection). */
  z.object({ type: z.literal('edit'), edit: blockEditSchema, base: z.string().min(1).max(64) }).strict(),
  /** Pick a good (goal) or a recipe (row) in VS Code's own quick pick. */
  z.object({ type: z.literal('pickGoal'), direction: z.enum(['produce', 'consume']).optional() }).strict(),
  /** Save a row's modules and beacons as a named module preset (the name is asked in VS Code). */
  z.object({ type: z.literal('savePreset'), recipe: name }).strict(),
  /** Add a recipe: for `good` (`role`: a maker or a user of it) or, without a good, from the block's imports first. */
  z.object({ type: z.literal('pickRecipe'), good: name.optional(), role: z.enum(['make', 'use']).optional() }).strict(),
  /** Add the first-listed maker of every good the block still needs, down to raw goods, commodities and goods other blocks make. */
  z.object({ type: z.literal('completeChain') }).strict(),
  /** Add the best usable maker of `good` at once (Ctrl+click on an import or an unmade goal). */
  z.object({ type: z.literal('addBestMaker'), good: name }).strict(),
  /** The rate unit for this block (remembered per block; the flow diagram and the Balance follow it). */
  z.object({ type: z.literal('unit'), unit: z.enum(['s', 'min', 'h']) }).strict(),
  /** Add a campaign quantity (starting a campaign when there is none): the good is chosen in VS Code's own quick pick. */
  z.object({ type: z.literal('pickCampaignGood') }).strict(),
  /** Put a row into a new group; its name is asked in VS Code. */
  z.object({ type: z.literal('newGroup'), recipe: name }).strict(),
  z.object({ type: z.literal('undo') }).strict(),
  z.object({ type: z.literal('redo') }).strict(),
  z.object({ type: z.literal('ask') }).strict(),
  z.object({ type: z.literal('openGood'), good: name }).strict(),
]);

export type FromBlockEditor = z.infer<typeof fromBlockEditorSchema>;
export type BlockEditMessage = z.infer<typeof blockEditSchema>;

// The schema above and the core's BlockEdit are written apart; a kind or field added to one and not the
// other must fail to compile rather than be refused (or let through) at run time.
export type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
export type Assert<T extends true> = T;
export type EditsMatchCore = Assert<Same<BlockEditMessage, BlockEdit>>;
