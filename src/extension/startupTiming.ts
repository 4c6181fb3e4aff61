// How long PyOps takes from activate() to a usable window: the startup project open (the status bar
// shows it) and, when the side panel is on screen at startup, its webview running and showing that
// project. Recorded once per extension host and read by the platform benchmark through the API.
// No vscode import: the clock is plain so it can be tested on its own.

/** activated: activate() returned (every view, command and tool registered); sqlReady: sql.js is
 *  compiled and running — the two things opening the startup project waits for. */
export type StartupMark = 'activated' | 'sqlReady' | 'projectOpen' | 'panelResolved' | 'panelReady' | 'panelShowsProject';

export interface StartupTiming {
  /** The startup project's file (restored last project or the sample), or null when none was opened. */
  project: string | null;
  /** ms from activate() entry to each mark, for the marks reached so far. */
  marks: Partial<Record<StartupMark, number>>;
  /**
   * ms from activate() entry until the window is ready: the startup project is open and, if the side
   * panel was resolved, its script has posted ready and received a state naming the project.
   * Undefined until then (and when no project opens at startup).
   */
  activationToReadyMs?: number;
  /** Whether the extension's code came from the code cache (used), was compiled and stored for next time (stored), or neither (off). */
  codeCache?: 'used' | 'stored' | 'off';
  /** ms the extension's bundle took to load and run its top level, before activate() (VS Code counts it in the activation time it shows). */
  codeLoadMs?: number;
}

export class StartupClock {
  private start: number | undefined;
  private readonly marks: Partial<Record<StartupMark, number>> = {};
  private project: string | null | undefined;
  private code: Pick<StartupTiming, 'codeCache' | 'codeLoadMs'> = {};

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** At activate() entry; a second call (a new activation in the same host) is ignored. */
  begin(): void {
    this.start ??= this.now();
  }

  /** Only the first time counts: later panel states or reopened views are not startup. */
  mark(name: StartupMark): void {
    if (this.start === undefined || this.marks[name] !== undefined) return;
    this.marks[name] = this.now() - this.start;
  }

  /** How the extension's code was loaded, and how long that took (extension/entry.ts). */
  codeLoaded(use: NonNullable<StartupTiming['codeCache']>, ms: number): void {
    this.code = { codeCache: use, codeLoadMs: ms };
  }

  /** The startup project settled: `file` opened (and the status bar shows it), or null for none. */
  projectSettled(file: string | null): void {
    if (this.project !== undefined) return;
    this.project = file;
    if (file) this.mark('projectOpen');
  }

  snapshot(): StartupTiming | undefined {
    if (this.start === undefined) return undefined;
    const m = { ...this.marks };
    const panelDone = m.panelResolved === undefined || m.panelShowsProject !== undefined;
    const ready = m.projectOpen !== undefined && panelDone ? Math.max(m.projectOpen, m.panelShowsProject ?? 0) : undefined;
    return { project: this.project ?? null, marks: m, ...(ready !== undefined ? { activationToReadyMs: ready } : {}), ...this.code };
  }
}

/** The extension host's one clock (activate() begins it; the panel and the project manager mark it). */
export const startupClock = new StartupClock();
