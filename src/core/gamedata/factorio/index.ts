// Public face of "sync game data from the user's Factorio install" (plain Node; no VS Code).
export { syncFromFactorio, SCRIPT_OUTPUT, type SyncOptions, type SyncResult } from './sync';
export { FactorioSyncError, EXECUTABLE_SETTING, USER_DATA_SETTING, type FactorioSyncErrorCode } from './errors';
export {
  detectFactorio,
  defaultUserDataDir,
  executableCandidates,
  gameFoldersOf,
  portableUserDataDir,
  systemLocateEnv,
  type FactorioOverrides,
  type FactorioPaths,
  type LocateEnv,
} from './locate';
export { isFactorioRunning, type ProcessProbe } from './process';
export { installHelperMod, recoverHelperMod, type HelperModInstall } from './helperMod';
export { HELPER_MOD_NAME, factorioSeries } from './helperModFiles';
export { runFactorio, readFactorioVersion, DEFAULT_TIMEOUT_MS, type RunOptions, type RunResult } from './run';
export { findErrorBanner, parseVersionOutput, type FactorioVersion } from './banner';
