// The science block editor's message protocol, shared like blockEditorProtocol.ts: the extension
// validates every incoming message with the zod schema below; the webview imports the types only.
// Rates travel per second; the webview shows them in the unit the player picked.
import type { ToEditor } from './editorProtocol';
import { z } from 'zod';
import type { ScienceEdit } from '../core/planning/science/scienceEdit';
import { beaconConfigSchema, moduleCountSchema } from '../core/planning/block/document';
import type { Assert, BeaconChoiceView, ChoiceView, EditorBeaconView, EditorModuleView, ModuleChoiceView, Same } from './blockEditorProtocol';

export interface LabOptionView extends ChoiceView {
  /** researching_speed of one lab. */
  speed: number;
  /** Packs the bank uses that this lab does not take (it cannot be picked while there are any). */
  refuses: string[];
}

export interface SciencePackView {
  pack: string;
  display: string;
  icon?: string;
  /** Packs consumed per second. */
  rate: number;
  /** Lab-seconds one pack takes (speed 1, before productivity); null: the typical value is used. */
  labSeconds: number | null;
}

export interface ScienceResultView {
  status: string;
  message?: string;
  lab: string;
  labDisplay: string;
  labs: number;
  wholeLabs: number;
  /** Research speed of one lab, with modules, beacons and research. */
  labSpeed: number;
  /** Fractions: 0.1 = +10 %. */
  productivity: number;
  bonuses: { speed: number; productivity: number };
  labSecondsPerSecond: number;
  powerW: number;
  pollutionPerMinute: number;
  beaconBuildings: number;
  packs: Array<{ pack: string; display: string; perSecond: number; icon?: string }>;
  research?: {
    display: string;
    minutes: number;
    totalUnits: number;
    alreadyResearched: boolean;
    /** In research order, prerequisites first. */
    techs: Array<{ tech: string; display: string; units: number; packs: Array<{ pack: string; display: string; amount: number }> }>;
    skipped: Array<{ tech: string; display: string; reason: string }>;
  };
  warnings: string[];
}

export interface ScienceEditorView {
  id: string;
  name: string;
  updatedAt: string;
  enabled: boolean;
  /** solved, error, disabled, broken (the Factory view's words). */
  state: string;
  stateDetail?: string;
  mode: 'research' | 'packs';
  research: { tech: string; display: string; minutes: number; prerequisites: boolean; researched: boolean } | null;
  /** The packs as the block holds them (hand-set), or as the research derives them now. */
  packs: SciencePackView[];
  /** Science packs that can be added (taken by some lab, not used yet). */
  packOptions: Array<{ pack: string; display: string }>;
  lab: { pinned: string | null; current: string | null; currentDisplay: string | null; options: LabOptionView[] };
  moduleSlots: number;
  moduleNote?: string;
  modules: EditorModuleView[];
  beacons: EditorBeaconView[];
  moduleOptions: string[];
  beaconOptions: string[];
  moduleCatalog: Record<string, ModuleChoiceView>;
  beaconCatalog: Record<string, BeaconChoiceView>;
  result: ScienceResultView | null;
  undoLabel?: string;
  redoLabel?: string;
}

export type ToScienceEditor = ToEditor<ScienceEditorView>;

// ── messages (webview → extension), validated ───────────────────────────────

const name = z.string().trim().min(1).max(200);
const rate = z.number().finite().min(0).max(1e6);
const minutes = z.number().finite().positive().max(1e6);
// The lab's modules and beacons as the block document bounds them.
const modules = z.array(moduleCountSchema.strict()).max(16);
const beacons = z.array(beaconConfigSchema.strict()).max(4);

export const scienceEditSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('derive'), tech: name, minutes, prerequisites: z.boolean().optional() }).strict(),
  z.object({ kind: z.literal('research-minutes'), minutes }).strict(),
  z.object({ kind: z.literal('research-prerequisites'), on: z.boolean() }).strict(),
  z.object({ kind: z.literal('pack-rate'), pack: name, rate }).strict(),
  z.object({ kind: z.literal('pack-add'), pack: name, rate }).strict(),
  z.object({ kind: z.literal('pack-remove'), pack: name }).strict(),
  z.object({ kind: z.literal('lab'), lab: name.nullable() }).strict(),
  z.object({ kind: z.literal('modules'), modules }).strict(),
  z.object({ kind: z.literal('beacons'), beacons }).strict(),
]);

export const fromScienceEditorSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }).strict(),
  /** `base`: the block's updatedAt the edit was made on (stale-save protection). */
  z.object({ type: z.literal('edit'), edit: scienceEditSchema, base: z.string().min(1).max(64) }).strict(),
  /** "Derive from a technology…": the technology and minutes are asked in VS Code's own pickers. */
  z.object({ type: z.literal('pickTech') }).strict(),
  /** Add a pack: picked in VS Code, rate asked there. */
  z.object({ type: z.literal('pickPack') }).strict(),
  z.object({ type: z.literal('undo') }).strict(),
  z.object({ type: z.literal('redo') }).strict(),
  z.object({ type: z.literal('openGood'), good: name }).strict(),
]);

export type FromScienceEditor = z.infer<typeof fromScienceEditorSchema>;
export type ScienceEditMessage = z.infer<typeof scienceEditSchema>;

// The schema above and the core's ScienceEdit are written apart; a kind or field added to one and not
// the other must fail to compile.
export type EditsMatchCore = Assert<Same<ScienceEditMessage, ScienceEdit>>;
