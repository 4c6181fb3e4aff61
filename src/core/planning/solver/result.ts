// What a block solve returns. Shared by the solver, the blocks repository (which caches it as
// projections), the factory analyses, the proposal tools and the CLI.
import type { MachineRule } from '../availability';
import type { ModuleCount, BeaconConfig } from '../effects';
import type { CampaignReport } from '../block/campaign';
import type { ScienceReport } from '../science/labBank';

/** How a row's machine was chosen, and whether the player can build it under the horizon. */
export interface MachineChoice {
  /** `user`: named by the block or draft; `favorite`; `fastest-buildable`; `none-buildable`: no machine
   *  for the recipe is buildable, the fastest is used; `by-hand`: only the player's hand crafts it;
   *  `none`: no machine can run it; `not-needed`. */
  rule: MachineRule | 'not-needed';
  explanation: string;
  buildable: boolean;
  /** Not buildable: the technology that unlocks the machine. */
  needs?: string;
}

/** `optimal`: solved; `infeasible`: constraints conflict (see diagnosis); `unbounded`/`error`: see message. */
export type SolveStatus = 'optimal' | 'infeasible' | 'unbounded' | 'error';

export interface SolvedRow {
  recipe: string;
  display: string;
  machine: string | null;
  machineDisplay: string | null;
  /** Why this machine, in words (the rule's explanation). */
  machineRule: string;
  /** How the machine was chosen, whether it is buildable under the horizon, and what unlocks it if not. */
  machineChoice: MachineChoice;
  craftsPerSecond: number;
  /** Fractional building count (never rounded by the solve). */
  buildings: number;
  /** Whole buildings to place (ceiling, with a small tolerance). */
  wholeBuildings: number;
  modules: ModuleCount[];
  beacons: BeaconConfig[];
  /** Beacon buildings this row needs (after sharing). */
  beaconBuildings: number;
  fuel: string | null;
  /** Fuel this row burns per second: items (solid), fluid units (filtered or temperature-fed), MJ (fluid-fuel pool). */
  fuelPerSecond?: number;
  /** Energy that fuel delivers (W): burner, fluid-fuel and fluid-fed machines; 0 for electric and heat. */
  fuelW?: number;
  /** What the row takes and gives per second (negative = consumed), fuel and burnt results included
   *  (`fuel`), fluids of several temperatures summed per good. */
  flows?: RowFlow[];
  /** Electric power of the buildings and their beacons (W), drain included. */
  powerW: number;
  /** The part of `powerW` the row's beacon buildings draw (whole beacons at full usage). */
  beaconPowerW?: number;
  pollutionPerMinute: number;
  /** Per-building speed, for display. */
  speed: number;
  effects: { speed: number; productivity: number; consumption: number; pollution: number };
  /** Spoiling rows (`spoil-<item>`): items held while they spoil (rate × spoil seconds). */
  buffer?: number;
  /** The composed group the row belongs to (its counts are the module's, scaled to the block). */
  group?: string;
}

export interface RowFlow {
  good: string;
  rate: number;
  /** Drawn or given by the building's energy source rather than listed by the recipe. */
  fuel?: true;
}

export interface Flow {
  good: string;
  display: string;
  kind: 'item' | 'fluid';
  rate: number;
  /** Fluids: the exact temperature of an export, or the accepted range of an import. */
  temperature?: number;
  minTemperature?: number | null;
  maxTemperature?: number | null;
  /** Goal flows of a stock goal (amount over a window). */
  stock?: boolean;
  /** Goal flows set (wholly or partly) by the block's campaign. */
  campaign?: boolean;
}

export interface GoodBalance {
  good: string;
  produced: number;
  consumed: number;
  net: number;
}

export interface DiagnosisMember {
  /** The user gesture involved. */
  kind: 'goal' | 'pin-count' | 'pin-cap' | 'pin-share' | 'made' | 'drain';
  /** Good or recipe it concerns. */
  ref: string;
  /** How far it is from being satisfied, in its own unit (items/s or buildings). */
  shortBy: number;
  message: string;
}

export interface DiagnosisCard {
  /** One independent conflict, in the user's terms. */
  message: string;
  members: DiagnosisMember[];
  /** Gestures that resolve it, e.g. "remove the cap on X" or "lower the goal of Y to 3.2/s". */
  fixes: string[];
}

/**
 * A change to the block document that resolves an advice, in the block editor's own edit shapes
 * (a subset of BlockEdit, so the editor can apply it as it is).
 */
export type AdviceFix =
  | { kind: 'good-made'; good: string; on: boolean }
  | { kind: 'good-drain'; good: string; on: boolean }
  | { kind: 'row-remove'; recipe: string };

/**
 * Why a row does not do what it was listed for:
 *   idle-imported     — it does not run; the block imports what it makes, not marked made inside;
 *   idle-cheaper      — it does not run; other rows make what the block needs of its products for less;
 *   idle-unneeded     — it does not run; nothing in the block uses its products and none is a goal;
 *   idle-void         — a void or sink that does not run while its good is left over;
 *   burn-no-building  — a virtual burn-* recipe runs: fuel burnt with no building using its energy.
 */
export type AdviceCode = 'idle-imported' | 'idle-cheaper' | 'idle-unneeded' | 'idle-void' | 'burn-no-building';

/** One row's advice: what happens, why, and the edits that change it (also said in `warnings`). */
export interface RowAdvice {
  recipe: string;
  code: AdviceCode;
  /** The good it is about (the import, the leftover, the fuel), when there is one. */
  good?: string;
  message: string;
  /** Each is one alternative: its words for a button, and the edit. */
  fixes: Array<{ label: string; edit: AdviceFix }>;
}

export interface SolveResult {
  status: SolveStatus;
  message?: string;
  rows: SolvedRow[];
  goods: GoodBalance[];
  /** Consumed from outside the block (goal sinks appear here too); electricity (the block's own draw
   *  beyond what it generates, MW) first, then by rate. */
  imports: Flow[];
  /** Leaves the block: goal outputs beyond their rate and byproducts. */
  exports: Flow[];
  /** Exports that are not goals. */
  byproducts: Flow[];
  /** Goal outputs at their rates. */
  goals: Flow[];
  /** Composed groups: each module's goal, reference rate, and the scale (and rate) the block runs it at. */
  groups?: Array<{ name: string; good: string; referenceRate: number; scale: number; rate: number }>;
  /** The block's campaign: each quantity, what it plans for at its confidence and the rate that sets. */
  campaign?: CampaignReport;
  /** Goals nothing in the block can make (or, for consume goals, uses). */
  unmade: Array<{ good: string; reason: string }>;
  /** Goals whose every producer is count-pinned: the pins decide the rate. */
  goalSuperseded: Array<{ good: string; goalRate: number; actualRate: number; pinnedBuildings: number; buildingsForGoal: number }>;
  /** Electric power: machines and beacons (W), and idle drain included in it. */
  powerW: number;
  drainW: number;
  /** Heat the block's heat machines use (W), met by its own heat producers. */
  heatW: number;
  /** Fuel bought in per second: solid fuel not made in the block (items/s), filtered or temperature-fed
   *  fluids (units/s) and the fluid-fuel pool (`pyops-fluid-fuel`, MJ/s). Fuel the block makes is in its LP flows. */
  fuel: Array<{ fuel: string; rate: number }>;
  pollutionPerMinute: number;
  diagnosis?: DiagnosisCard[];
  warnings: string[];
  /** Rows left idle, or burning without a building, each with why and what to change (their words are in `warnings` too). */
  advice?: RowAdvice[];
  /** Timing, for benchmarks: total and inside HiGHS (ms). */
  timing?: { totalMs: number; highsMs: number };
  /** Objective stage whose solution is used: 1 machine-seconds, 2 goal surplus, 3 machines under minimal surplus. */
  stage?: 1 | 2 | 3;
  /** The science block's lab bank: lab, speed, productivity, pack rates, research derived from. */
  science?: ScienceReport;
  /** Size of the LP that was solved (after temperature expansion). */
  lp?: { columns: number; rows: number; selectors: number };
}
