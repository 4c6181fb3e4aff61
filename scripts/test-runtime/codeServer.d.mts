export interface Profile {
  dir: string;
  home: string;
  ud: string;
  exts: string;
  ws: string;
  work: string;
}
/** The parts of playwright-core's API the runners use (it is installed in .vscode-test/tools, not the project). */
export interface WorkbenchPage {
  goto(url: string, opts?: { timeout?: number }): Promise<unknown>;
  on(event: 'console', fn: (m: { text(): string }) => void): void;
  screenshot(opts: { path: string }): Promise<unknown>;
}
export interface WorkbenchContext {
  pages(): WorkbenchPage[];
  newPage(): Promise<WorkbenchPage>;
  exposeFunction(name: string, fn: (...args: unknown[]) => unknown): Promise<void>;
  close(): Promise<void>;
}
export function run(cmd: string, args: string[], opts?: import('node:child_process').SpawnSyncOptions): string;
export function freePort(): Promise<number>;
export function createProfile(dir: string, settings?: Record<string, unknown>): Profile;
export function startCodeServer(opts: { host: string; profile: Profile; env: NodeJS.ProcessEnv; logFile: string }): { pid: number; stop(): void };
export function waitForCodeServer(host: string, logHint: string, timeoutMs?: number): Promise<void>;
export function payloadUrl(host: string, extDir: string, entry: string, ws: string): string;
export function launchChromium(): Promise<unknown>;
export function launchPersistentChromium(userDataDir: string, viewport?: { width: number; height: number }): Promise<WorkbenchContext>;
export function runtimeProblem(): string | undefined;
