// The block editor's message protocol (one editor tab per block), shared like protocol.ts: the
// extension validates every incoming message with the zod schema below; the webview imports the
// types only. Rates travel per second; the webview converts the unit the user picked.
import { z } from 'zod';

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
}

export interface EditorFlowView {
  good: string;
  display: string;
  icon?: string;
  rate: number;
  kind: 'item' | 'fluid';
}

export interface EditorGoodView {
  good: string;
  display: string;
  net: number;
  made: boolean;
  drained: boolean;
}

export interface BlockEditorView {
  id: string;
  name: string;
  updatedAt: string;
  enabled: boolean;
  /** solved, infeasible, stale, disabled, broken, error (the Factory view's words). */
  state: string;
  stateDetail?: string;
  goals: Array<{ index: number; good: string; display: string; rate: number; direction: 'produce' | 'consume'; stock?: string; icon?: string }>;
  rows: EditorRowView[];
  /** Goods the block makes or uses, for the made/balanced toggles. */
  goods: EditorGoodView[];
  result: {
    status: string;
    message?: string;
    imports: EditorFlowView[];
    exports: EditorFlowView[];
    byproducts: EditorFlowView[];
    powerW: number;
    fuel: Array<{ fuel: string; display: string; rate: number }>;
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

export const blockEditSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('rename'), name: z.string().trim().min(1).max(120) }).strict(),
  z.object({ kind: z.literal('goal-add'), good: name, rate }).strict(),
  z.object({ kind: z.literal('goal-rate'), index: z.number().int().min(0).max(50), rate }).strict(),
  z.object({ kind: z.literal('goal-remove'), index: z.number().int().min(0).max(50) }).strict(),
  z.object({ kind: z.literal('row-add'), recipe: name }).strict(),
  z.object({ kind: z.literal('row-remove'), recipe: name }).strict(),
  z.object({ kind: z.literal('row-disable'), recipe: name, disabled: z.boolean() }).strict(),
  z.object({ kind: z.literal('row-machine'), recipe: name, machine: name.nullable() }).strict(),
  z.object({ kind: z.literal('row-fuel'), recipe: name, fuel: name.nullable() }).strict(),
  z.object({ kind: z.literal('good-made'), good: name, on: z.boolean() }).strict(),
  z.object({ kind: z.literal('good-drain'), good: name, on: z.boolean() }).strict(),
]);

export const fromBlockEditorSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }).strict(),
  /** `base`: the block's updatedAt the edit was made on (stale-save protection). */
  z.object({ type: z.literal('edit'), edit: blockEditSchema, base: z.string().min(1).max(64) }).strict(),
  /** Pick a good (goal) or a recipe (row) in VS Code's own quick pick. */
  z.object({ type: z.literal('pickGoal') }).strict(),
  z.object({ type: z.literal('pickRecipe'), good: name.optional() }).strict(),
  z.object({ type: z.literal('undo') }).strict(),
  z.object({ type: z.literal('redo') }).strict(),
  z.object({ type: z.literal('ask') }).strict(),
  z.object({ type: z.literal('openGood'), good: name }).strict(),
]);

export type FromBlockEditor = z.infer<typeof fromBlockEditorSchema>;
export type BlockEditMessage = z.infer<typeof blockEditSchema>;
