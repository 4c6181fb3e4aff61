// The factory scenario as the window holds it: the last result per project (in memory), marked stale
// after any write that changes what it was computed from (its inputs fingerprint against the
// project's), and the recalculation in progress (one at a time: a new one cancels the old). Balance
// Factory applies the held result as one undoable action and refuses a stale one.
import * as vscode from 'vscode';
import { planningContext } from '../../core/planning/context';
import { solverFor } from '../../core/assistant/tools/context';
import { factoryScenario, type ScenarioResult } from '../../core/planning/factory/scenario/scenario';
import { balanceFactory, isStale, type BalanceApplied } from '../../core/planning/factory/scenario/apply';
import { BlockError } from '../../core/planning/factory/blocks';
import type { ProjectManager } from '../projectManager';
import { WriteFollower } from '../views/followWrites';
import type { HeldScenario } from '../views/scenarioView';

export interface RunningScenario {
  projectId: string;
  message: string;
  fraction: number;
  abort: AbortController;
}

/** Why Balance Factory did nothing, in words a player acts on. */
export type BalanceOutcome = ({ applied: true } & BalanceApplied) | { applied: false; message: string };

export class ScenarioStore implements vscode.Disposable {
  private readonly held = new Map<string, HeldScenario>();
  private run: RunningScenario | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly writes = new WriteFollower(100, () => this.recheck());
  private readonly sub: vscode.Disposable;
  private lastProgress = 0;

  constructor(private readonly projects: ProjectManager) {
    this.sub = projects.onDidChange((p) => this.writes.follow(p));
    this.writes.follow(projects.active);
  }

  /** The last result of the active project, if any. */
  current(): HeldScenario | undefined {
    const p = this.projects.active;
    return p ? this.held.get(p.id) : undefined;
  }

  /** The recalculation in progress for the active project. */
  running(): RunningScenario | undefined {
    return this.run && this.run.projectId === this.projects.active?.id ? this.run : undefined;
  }

  /** After a write: is the held result still the answer for the project as it is? (An undo can make it so again.) */
  private recheck(): void {
    const p = this.projects.active;
    const h = p && !p.isClosed ? this.held.get(p.id) : undefined;
    if (!p || !h) return;
    const stale = isStale(p, h.result);
    // Fresh again after it was applied: the apply was undone, so it can be applied again.
    const undone = !stale && !!h.applied;
    if (stale === h.stale && !undone) return;
    h.stale = stale;
    if (undone) delete h.applied;
    this.changed.fire();
  }

  /** Run the scenario on the active project; keeps and returns the result (a cancelled one is not kept). */
  async recalculate(report?: (message: string, fraction: number) => void, cancel?: vscode.CancellationToken): Promise<ScenarioResult> {
    const p = this.projects.require();
    if (!p.hasGameData()) throw new Error('This project has no game data yet; import it ("PyOps: Import Game Data from Dump…") before calculating the scenario.');
    this.run?.abort.abort();
    const run: RunningScenario = { projectId: p.id, message: 'Starting', fraction: 0, abort: new AbortController() };
    this.run = run;
    const stop = cancel?.onCancellationRequested(() => run.abort.abort());
    this.changed.fire();
    try {
      const pc = planningContext(p);
      const r = await factoryScenario(p, pc, solverFor(pc), {
        signal: run.abort.signal,
        onProgress: (message, fraction) => {
          run.message = message;
          run.fraction = fraction;
          report?.(message, fraction);
          // The view redraws twice a second at most.
          if (Date.now() - this.lastProgress > 500) {
            this.lastProgress = Date.now();
            this.changed.fire();
          }
        },
      });
      if (r.status !== 'cancelled' && !p.isClosed) this.held.set(p.id, { result: r, stale: isStale(p, r) });
      return r;
    } finally {
      stop?.dispose();
      if (this.run === run) this.run = undefined;
      this.changed.fire();
    }
  }

  /** Apply the held result as one undoable action; refuses a stale or missing one, saying what to do. */
  async balance(): Promise<BalanceOutcome> {
    const p = this.projects.requireWritable();
    const h = this.held.get(p.id);
    if (!h) return { applied: false, message: 'There is no scenario to apply yet: Recalculate first, look at the goal changes, then Balance Factory.' };
    if (h.result.status !== 'optimal') return { applied: false, message: `The last scenario did not solve (${h.result.message ?? h.result.status}); change the pins and Recalculate.` };
    if (isStale(p, h.result)) {
      h.stale = true;
      this.changed.fire();
      return { applied: false, message: 'The factory changed since the scenario was calculated (a pin, a priority, a block or the horizon): recalculate it, then Balance Factory.' };
    }
    if (!h.result.goalChanges.length && !h.result.assumed) return { applied: false, message: 'Nothing to change: every block is sized for the pins already.' };
    try {
      const done = await balanceFactory(p, solverFor(planningContext(p)), h.result);
      h.applied = done.label;
      h.stale = isStale(p, h.result);
      this.changed.fire();
      return { applied: true, ...done };
    } catch (err) {
      if (err instanceof BlockError && err.code === 'stale') {
        h.stale = true;
        this.changed.fire();
        return { applied: false, message: `${err.message}` };
      }
      throw err;
    }
  }

  dispose(): void {
    this.run?.abort.abort();
    this.writes.dispose();
    this.sub.dispose();
    this.changed.dispose();
  }
}
