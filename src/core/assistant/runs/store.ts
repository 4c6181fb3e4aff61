// Runs in progress, owned by the process (not by any view): one per conversation. A run buffers
// every UI message chunk so a view that attaches late — the side panel opened mid-answer, a
// reloaded webview — gets the replay and then the live chunks. Starting a run aborts and replaces
// the previous one of that conversation. Stop is explicit: abort, save the partial assistant
// message, close the subscribers, drop the run. A subscriber going away is never a cancellation.
// A process restart loses the buffers, not the messages (those are saved by the turn).
import crypto from 'node:crypto';
import type { UIMessage, UIMessageChunk } from 'ai';

export type CloseReason = 'done' | 'stopped' | 'replaced';

export interface RunSubscriber {
  onChunk(chunk: UIMessageChunk): void;
  onClose?(reason: CloseReason): void;
}

export class Run {
  readonly streamId = crypto.randomUUID();
  readonly chunks: UIMessageChunk[] = [];
  readonly startedAt = Date.now();
  private readonly controller = new AbortController();
  private readonly subscribers = new Set<RunSubscriber>();
  private closed: CloseReason | undefined;
  /** Latest partial assistant message, provided by the turn. */
  snapshot?: () => UIMessage | undefined;
  /** Saves an assistant message (partial on stop), provided by the turn. */
  persist?: (message: UIMessage) => void | Promise<void>;

  constructor(readonly conversationId: string) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get done(): boolean {
    return this.closed !== undefined;
  }

  get closeReason(): CloseReason | undefined {
    return this.closed;
  }

  abort(reason = 'stopped'): void {
    if (!this.controller.signal.aborted) this.controller.abort(new DOMException(reason, 'AbortError'));
  }

  /** Buffer a chunk and hand it to every live subscriber. */
  push(chunk: UIMessageChunk): void {
    if (this.closed) return;
    this.chunks.push(chunk);
    for (const s of [...this.subscribers]) {
      try {
        s.onChunk(chunk);
      } catch {
        // one broken view must not affect the others or the run
      }
    }
  }

  /** Replay the buffer, then follow live chunks. Returns the unsubscribe function (not a cancellation). */
  subscribe(sub: RunSubscriber): () => void {
    for (const c of this.chunks) {
      try {
        sub.onChunk(c);
      } catch {
        return () => {};
      }
    }
    if (this.closed) {
      sub.onClose?.(this.closed);
      return () => {};
    }
    this.subscribers.add(sub);
    return () => {
      this.subscribers.delete(sub);
    };
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  close(reason: CloseReason): void {
    if (this.closed) return;
    this.closed = reason;
    const subs = [...this.subscribers];
    this.subscribers.clear();
    for (const s of subs) {
      try {
        s.onClose?.(reason);
      } catch {
        // ignore
      }
    }
  }
}

export class RunStore {
  private readonly runs = new Map<string, Run>();

  /** Start a run for a conversation, aborting and replacing any run it already has. */
  start(conversationId: string): Run {
    const previous = this.runs.get(conversationId);
    if (previous) {
      previous.abort('replaced');
      previous.close('replaced');
    }
    const run = new Run(conversationId);
    this.runs.set(conversationId, run);
    return run;
  }

  get(conversationId: string): Run | undefined {
    return this.runs.get(conversationId);
  }

  list(): Run[] {
    return [...this.runs.values()];
  }

  /** Attach to a conversation's run: replay then live. Undefined when no run is in progress. */
  subscribe(conversationId: string, sub: RunSubscriber): (() => void) | undefined {
    return this.runs.get(conversationId)?.subscribe(sub);
  }

  /** The run ended normally: close subscribers and drop it — only if it is still the current run. */
  finish(run: Run): void {
    run.close('done');
    if (this.runs.get(run.conversationId) === run) this.runs.delete(run.conversationId);
  }

  /**
   * Stop a conversation's run: abort it, save the partial assistant message (the host's copy when
   * given, else the run's own), close the subscribers and drop the run.
   */
  async stop(conversationId: string, assistantMessage?: UIMessage): Promise<{ stopped: boolean; saved?: UIMessage }> {
    const run = this.runs.get(conversationId);
    if (!run) return { stopped: false };
    run.abort('stopped');
    const message = assistantMessage ?? run.snapshot?.();
    let saved: UIMessage | undefined;
    if (message && hasContent(message) && run.persist) {
      try {
        await run.persist(message);
        saved = message;
      } catch {
        // the turn saves the partial message itself once its stream ends
      }
    }
    run.close('stopped');
    if (this.runs.get(conversationId) === run) this.runs.delete(conversationId);
    return { stopped: true, saved };
  }
}

/** A message worth saving: anything beyond step markers. */
export function hasContent(m: UIMessage): boolean {
  return m.parts.some((p) => p.type !== 'step-start' && !(p.type === 'text' && !(p as { text: string }).text));
}
