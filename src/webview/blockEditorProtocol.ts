// The block editor's message protocol (one editor tab per block), shared like protocol.ts: the
// extension validates every incoming message with the zod schema below; the webview imports the
// types only. Rates travel per second; the webview converts the unit the user picked.
import { z } from 'zod';
import type { BlockEdit } from '../core/planning/factory/blockEdit';
import type { FlowGraphView } from './protocol';

// ── views (extension → webview) ────────────────────────────────────────────

export type CandidateStateView = 'unlocked' | 'buildable' | 'needs-research' | 'turd-pick' | 'turd-blocked' | 'no-machine' | 'superseded';

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

export interface EditorRowView {
  recipe: string;
  display: string;
  /** Webview URI of the recipe's game icon, when the project's icons were extracted. */
  icon?: string;
  disabled: boolean;
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
  fuelOptions: Array<{ name: string; display: string }>;
  craftsPerSecond: number | null;
  buildings: number | null;
  wholeBuildings: number | null;
  powerW: number | null;
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
  beaconBuildings: number | null;
  /** Exactly (`count`) or at most (`cap`) N buildings. */
  pin: { kind: 'count' | 'cap'; buildings: number } | null;
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

export interface BlockEditorView {
  id: string;
  name: string;
  updatedAt: string;
  enabled: boolean;
  /** solved, infeasible, stale, disabled, broken, error (the Factory view's words). */
  state: string;
  stateDetail?: string;
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
  result: {
    status: string;
    message?: string;
    imports: EditorFlowView[];
    exports: EditorFlowView[];
    byproducts: EditorFlowView[];
    powerW: number;
    fuel: Array<{ fuel: string; display: string; rate: number; energy?: true }>;
    pollutionPerMinute: number;
    diagnosis: Array<{ message: string; fixes: string[] }>;
    warnings: string[];
    unmade: Array<{ good: string; display: string; reason: string }>;
    /** Time of the solve behind this view (ms). */
    solveMs?: number;
  } | null;
  undoLabel?: string;
  redoLabel?: string;
}

export type ToBlockEditor =
  | { type: 'state'; view: BlockEditorView }
  | { type: 'busy'; busy: boolean }
  | { type: 'error'; message: string }
  | { type: 'gone'; message: string };

// ── messages (webview → extension), validated ───────────────────────────────

const name = z.string().trim().min(1).max(200);
const rate = z.number().finite().min(-1e9).max(1e9);
const modules = z.array(z.object({ name, count: z.number().int().min(1).max(64) }).strict()).max(16);
const beacons = z.array(z.object({ beacon: name, count: z.number().min(0).max(64), modules, shared: z.number().min(1).max(64).optional() }).strict()).max(4);

export const blockEditSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('rename'), name: z.string().trim().min(1).max(120) }).strict(),
  z.object({ kind: z.literal('goal-add'), good: name, rate, direction: z.enum(['produce', 'consume']).optional() }).strict(),
  z.object({ kind: z.literal('goal-rate'), index: z.number().int().min(0).max(50), rate }).strict(),
  z.object({ kind: z.literal('goal-stock'), index: z.number().int().min(0).max(50), amount: z.number().finite().positive().max(1e12), window: z.number().finite().positive().max(1e9) }).strict(),
  z.object({ kind: z.literal('goal-remove'), index: z.number().int().min(0).max(50) }).strict(),
  z.object({ kind: z.literal('row-add'), recipe: name }).strict(),
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
]);

export const fromBlockEditorSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }).strict(),
  /** `base`: the block's updatedAt the edit was made on (stale-save protection). */
  z.object({ type: z.literal('edit'), edit: blockEditSchema, base: z.string().min(1).max(64) }).strict(),
  /** Pick a good (goal) or a recipe (row) in VS Code's own quick pick. */
  z.object({ type: z.literal('pickGoal'), direction: z.enum(['produce', 'consume']).optional() }).strict(),
  /** Save a row's modules and beacons as a named module preset (the name is asked in VS Code). */
  z.object({ type: z.literal('savePreset'), recipe: name }).strict(),
  z.object({ type: z.literal('pickRecipe'), good: name.optional() }).strict(),
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
