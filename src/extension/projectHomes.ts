// Records left open across a project switch (a block's tab or page, a note or task as a file) keep
// the project they were read from, so they say where they live instead of reading or writing the
// project that is open now.
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

/** Record id → the project it was read from. */
export class ProjectHomes {
  private readonly homes = new Map<string, ProjectHome>();

  remember(id: string, p: Project): void {
    this.homes.set(id, homeOf(p));
  }

  /** The record's project when it is not the active one (given as its id, read once by the caller). */
  elsewhere(id: string, activeId: string | undefined): ProjectHome | undefined {
    const home = this.homes.get(id);
    return home && home.projectId !== activeId ? home : undefined;
  }
}
