// Correlated commands: each gets a fresh request id and waits in the pending map until the mod's
// `bridge.result` with that id arrives or the timeout fires. A reply for an id that is not
// pending (late, duplicated or invented) is reported as such and dropped by the caller.
import crypto from 'node:crypto';

export const READ_TIMEOUT_MS = 4_000;
/** Eval and mod reload may take a while in a big save (and a reload re-runs every mod's script). */
export const SLOW_TIMEOUT_MS = 8_000;

export type CommandFailure = 'no-peer' | 'unpaired' | 'timeout' | 'send-failed' | 'stopped' | 'invalid-input' | 'refused' | 'bad-reply' | 'unavailable';

export type CommandOutcome = { ok: true; payload: unknown } | { ok: false; code: CommandFailure; error: string };

interface Pending {
  type: string;
  timer: NodeJS.Timeout;
  resolve: (o: CommandOutcome) => void;
}

export class PendingRequests {
  private readonly pending = new Map<string, Pending>();

  get size(): number {
    return this.pending.size;
  }

  /** Register a request; `onTimeout` builds the failure the caller sees after `timeoutMs`. */
  create(type: string, timeoutMs: number, onTimeout: () => CommandOutcome): { id: string; done: Promise<CommandOutcome> } {
    const id = crypto.randomUUID();
    const done = new Promise<CommandOutcome>((resolve) => {
      const timer = setTimeout(() => {
        if (this.pending.delete(id)) resolve(onTimeout());
      }, timeoutMs);
      timer.unref?.();
      this.pending.set(id, { type, timer, resolve });
    });
    return { id, done };
  }

  /** Settle a request. False when the id is not pending (a late or unknown reply). */
  settle(id: string, outcome: CommandOutcome): boolean {
    const p = this.pending.get(id);
    if (!p) return false;
    this.pending.delete(id);
    clearTimeout(p.timer);
    p.resolve(outcome);
    return true;
  }

  /** Fail everything still waiting (bridge stopped). */
  failAll(outcome: CommandOutcome): void {
    for (const id of [...this.pending.keys()]) this.settle(id, outcome);
  }
}
