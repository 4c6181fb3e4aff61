// Errors a user can act on. `code` lets callers (extension, CLI) pick a gesture; `message` says
// what is wrong and what to do next.
export type ProjectErrorCode =
  | 'missing'
  | 'exists'
  | 'not-sqlite'
  | 'not-project'
  | 'damaged'
  | 'newer-version'
  | 'is-bundle'
  | 'not-bundle'
  | 'read-only'
  | 'closed'
  | 'disk-full';

export class ProjectError extends Error {
  constructor(
    readonly code: ProjectErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ProjectError';
  }
}
