// The one error type of "sync from Factorio". `code` lets the extension and the CLI pick a gesture
// (open settings, offer a retry, …); `message` says what went wrong and what the user can do.

export type FactorioSyncErrorCode =
  /** No executable or user-data folder where we looked (or where the settings point). */
  | 'not-found'
  /** Factorio is running; nothing was touched. */
  | 'running'
  /** The game could not be started, exited with an error, or its files could not be prepared. */
  | 'failed'
  /** Factorio reported a mod-loading error (often with exit code 0). */
  | 'error-banner'
  | 'timeout'
  | 'aborted'
  /** Factorio finished but did not (re)write the dump or the locale files. */
  | 'no-output';

export class FactorioSyncError extends Error {
  constructor(
    readonly code: FactorioSyncErrorCode,
    message: string,
    /** Paths searched, for `not-found`. */
    readonly tried: string[] = [],
  ) {
    super(message);
    this.name = 'FactorioSyncError';
  }
}

/** Settings the user can set when detection fails (declared by the extension). */
export const EXECUTABLE_SETTING = 'pyops.factorio.executablePath';
export const USER_DATA_SETTING = 'pyops.factorio.userDataPath';
