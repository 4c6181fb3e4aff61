// Views that show the active project rebuild after it is written — by anyone: an edit, a chat apply,
// a game sync, an undo. Writes come in bursts (an apply, a sync), so one rebuild after the burst.
import type { Project } from '../../core/db/project';

export class WriteFollower {
  private unsubscribe: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly delayMs: number,
    private readonly onChange: () => void,
  ) {}

  /** Follow `p` (or nothing) from now on, and rebuild once for the switch. */
  follow(p: Project | undefined): void {
    this.unsubscribe?.();
    this.unsubscribe = p?.onDidWrite(() => {
      clearTimeout(this.timer);
      this.timer = setTimeout(this.onChange, this.delayMs);
    });
    this.onChange();
  }

  dispose(): void {
    this.unsubscribe?.();
    clearTimeout(this.timer);
  }
}
