// Records left open across a project switch (a block's tab or page, a note or task as a file) keep
// the project they were read from, so they say where they live instead of reading or writing the
// project that is open now.
import type { Memento } from 'vscode';
import type { Project } from '../core/db/project';

export interface ProjectHome {
  projectId: string;
  name: string;
}

export const homeOf = (p: Project): ProjectHome => ({ projectId: p.id, name: p.name });

/** `This block is in the project "A", which is not open now (the open project is "B").` */
export function notOpenText(what: string, home: ProjectHome, active: Project | undefined): string {
  return `${what} is in the project "${home.name}", which is not open now${active ? ` (the open project is "${active.name}")` : ''}.`;
}

/** How many records a persisted ProjectHomes keeps (the most recently read ones). */
const KEPT = 200;

/**
 * Record id → the project it was read from. Given a memento (workspace state) and a key, it is kept
 * across window reloads, so a tab VS Code restores can still say which project it belongs to.
 */
export class ProjectHomes {
  private readonly homes: Map<string, ProjectHome>;

  constructor(private readonly persist?: { memento: Memento; key: string }) {
    this.homes = new Map(Object.entries(persist?.memento.get<Record<string, ProjectHome>>(persist.key) ?? {}));
  }

  remember(id: string, p: Project): void {
    const home = homeOf(p);
    const had = this.homes.get(id);
    if (had?.projectId === home.projectId && had.name === home.name) return;
    this.homes.delete(id);
    this.homes.set(id, home);
    if (!this.persist) return;
    const kept = [...this.homes].slice(-KEPT);
    void this.persist.memento.update(this.persist.key, Object.fromEntries(kept));
  }

  /** The record's project when it is not the active one (given as its id, read once by the caller). */
  elsewhere(id: string, activeId: string | undefined): ProjectHome | undefined {
    const home = this.homes.get(id);
    return home && home.projectId !== activeId ? home : undefined;
  }
}
