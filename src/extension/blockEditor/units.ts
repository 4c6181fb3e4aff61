// The rate unit a player picked for each block (per second, minute or hour), remembered across
// sessions in the workspace. The block's flow diagram shows it, and the Factory Balance follows the
// unit picked last, so one choice reads the same in every view.
import * as vscode from 'vscode';
import type { RateUnit } from '../../webview/format';

const KEY = 'pyops.rateUnits';
const UNITS = new Set<RateUnit>(['s', 'min', 'h']);

interface Stored {
  last?: RateUnit;
  blocks?: Record<string, RateUnit>;
}

export class RateUnits implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly memento: vscode.Memento) {}

  private read(): Stored {
    const v = this.memento.get<Stored>(KEY);
    return v && typeof v === 'object' ? v : {};
  }

  /** The unit of one block (the last picked anywhere when it has none yet). */
  of(projectId: string, blockId: string): RateUnit {
    const s = this.read();
    const u = s.blocks?.[`${projectId}/${blockId}`];
    return u && UNITS.has(u) ? u : this.last;
  }

  /** The unit picked last in any block: what the Factory Balance shows. */
  get last(): RateUnit {
    const u = this.read().last;
    return u && UNITS.has(u) ? u : 's';
  }

  async set(projectId: string, blockId: string, unit: RateUnit): Promise<void> {
    const s = this.read();
    await this.memento.update(KEY, { last: unit, blocks: { ...(s.blocks ?? {}), [`${projectId}/${blockId}`]: unit } });
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
