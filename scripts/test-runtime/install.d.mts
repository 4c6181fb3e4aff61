export const ROOT: string;
export const RUNTIME: string;
export const NODE24_DIR: string;
export const CODE_SERVER_BIN: string;
export const TOOLS_DIR: string;
export function codeServerEnv(extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export function isolatedEnv(home: string, extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export function npmInstall(cwd: string, pkgs: string[], opts?: { node?: string; env?: NodeJS.ProcessEnv; quiet?: boolean }): void;
export function ensureRuntime(): void;
