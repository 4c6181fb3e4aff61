// Running the Factorio executable once with one flag: capture its output, stop it on timeout or
// abort (and wait until it has exited, so nothing writes to the user's folder afterwards), and
// turn the outcome into a FactorioSyncError the user can act on. Factorio may exit with code 0
// after failing to load mods, so the output and the part of factorio-current.log written during
// the run are checked for the error banner as well.
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { FactorioSyncError } from './errors';
import { findErrorBanner, parseVersionOutput, type FactorioVersion } from './banner';

export const DEFAULT_TIMEOUT_MS = 10 * 60_000;
export const VERSION_TIMEOUT_MS = 60_000;
export const LOG_FILE = 'factorio-current.log';
/** Time between SIGTERM and SIGKILL, and how long we then still wait for the exit. */
const KILL_GRACE_MS = 5_000;
/** Output kept per stream; a Py run logs a few hundred KB. */
const MAX_CAPTURE = 8 * 1024 * 1024;
/** File-system clocks round (FAT: 2 s); older than start minus this means "not from this run". */
export const MTIME_SLACK_MS = 2_000;

const EXECUTABLE_HINT = 'the executable setting points to the Factorio game binary itself, not a launcher or a shortcut';

export interface RunOptions {
  /** Where factorio-current.log is checked for an error banner. */
  userDataDir?: string;
  timeoutMs?: number;
  /** The timeout the message names, when `timeoutMs` is what is left of a larger one. */
  timeoutBudgetMs?: number;
  signal?: AbortSignal;
  /** Environment of the child (default: this process's). */
  env?: Record<string, string | undefined>;
  /** Check output and log for the mod-loading error banner (default true). */
  checkBanner?: boolean;
}

export interface RunResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** factorio-current.log as written during this run ('' when it was not). */
  log: string;
  seconds: number;
}

interface LogMark {
  ino: number;
  size: number;
  birthtimeMs: number;
}

function statOrNull(file: string): fs.Stats | null {
  try {
    return fs.statSync(file);
  } catch {
    return null;
  }
}

function markLog(file: string): LogMark | null {
  const s = statOrNull(file);
  return s ? { ino: s.ino, size: s.size, birthtimeMs: s.birthtimeMs } : null;
}

/** The text added to the log since `mark` (the whole file if the game started a new one). */
function readLogSince(file: string, mark: LogMark | null, startedAt: number): string {
  const s = statOrNull(file);
  if (!s || s.mtimeMs < startedAt - MTIME_SLACK_MS) return '';
  const sameFile = mark && mark.ino === s.ino && mark.birthtimeMs === s.birthtimeMs && s.size >= mark.size;
  let from = sameFile ? mark.size : 0;
  from = Math.max(from, s.size - MAX_CAPTURE);
  const length = s.size - from;
  if (length <= 0) return '';
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(length);
    const n = fs.readSync(fd, buf, 0, length, from);
    return buf.subarray(0, n).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

function tail(text: string, lines = 8): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter(Boolean)
    .slice(-lines);
}

function describe(args: string[]): string {
  return ['factorio', ...args].join(' ');
}

export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(ms < 10_000 ? 1 : 0))} seconds`;
  const m = Math.round(ms / 6_000) / 10;
  return `${m} minute${m === 1 ? '' : 's'}`;
}

export async function runFactorio(executable: string, args: string[], opts: RunOptions = {}): Promise<RunResult> {
  const what = describe(args);
  if (opts.signal?.aborted) throw new FactorioSyncError('aborted', `Cancelled before "${what}" started.`);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const logFile = opts.userDataDir ? path.join(opts.userDataDir, LOG_FILE) : undefined;
  const logMark = logFile ? markLog(logFile) : null;
  const startedAt = Date.now();

  const outcome = await new Promise<{ code: number | null; stdout: string; stderr: string; stopped?: 'timeout' | 'aborted'; spawnError?: Error }>((resolve) => {
    let stdout = '';
    let stderr = '';
    let stopped: 'timeout' | 'aborted' | undefined;
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;
    let giveUpTimer: NodeJS.Timeout | undefined;
    const child = spawn(executable, args, {
      env: (opts.env ?? process.env) as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      if (stdout.length < MAX_CAPTURE) stdout += d;
    });
    child.stderr.on('data', (d: string) => {
      if (stderr.length < MAX_CAPTURE) stderr += d;
    });
    const finish = (code: number | null, spawnError?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(killTimer);
      clearTimeout(giveUpTimer);
      opts.signal?.removeEventListener('abort', onAbort);
      resolve({ code, stdout, stderr, stopped, spawnError });
    };
    const stop = (why: 'timeout' | 'aborted') => {
      if (stopped || settled) return;
      stopped = why;
      child.kill('SIGTERM');
      killTimer = setTimeout(() => {
        child.kill('SIGKILL');
        // A process that survives SIGKILL (stuck in the kernel) must not hang the sync forever.
        giveUpTimer = setTimeout(() => finish(null), KILL_GRACE_MS);
      }, KILL_GRACE_MS);
    };
    const onAbort = () => stop('aborted');
    const timer = setTimeout(() => stop('timeout'), timeoutMs);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (err) => finish(null, err));
    child.on('close', (code) => finish(code));
  });
  const seconds = (Date.now() - startedAt) / 1000;

  if (outcome.spawnError) {
    const code = (outcome.spawnError as NodeJS.ErrnoException).code;
    const hint = code === 'EACCES' ? ' The file is not executable: check the path, or make it executable.' : code === 'ENOENT' ? ' The file is gone: check the executable setting.' : '';
    throw new FactorioSyncError('failed', `Could not start Factorio (${executable}): ${outcome.spawnError.message}.${hint}`);
  }
  if (outcome.stopped === 'aborted') throw new FactorioSyncError('aborted', `Cancelled: "${what}" was stopped after ${seconds.toFixed(1)} s.`);
  if (outcome.stopped === 'timeout') {
    throw new FactorioSyncError(
      'timeout',
      `"${what}" did not finish within ${opts.timeoutBudgetMs === undefined ? formatDuration(timeoutMs) : `the sync's time limit of ${formatDuration(opts.timeoutBudgetMs)}`} and was stopped. A large mod set can take long to load: sync again with a longer timeout, or start Factorio by hand once to check that the mods load.`,
    );
  }

  const log = logFile ? readLogSince(logFile, logMark, startedAt) : '';
  if (opts.checkBanner !== false) {
    const banner = findErrorBanner([outcome.stdout, outcome.stderr, log].join('\n'));
    if (banner) {
      throw new FactorioSyncError(
        'error-banner',
        `Factorio could not load the mods during "${what}" (exit code ${outcome.code ?? 'none'}):\n${banner.map((l) => `  ${l}`).join('\n')}\n` +
          `Fix or disable the failing mod in Factorio (or update it), check that the game starts, then sync again.`,
      );
    }
  }
  if (outcome.code !== 0) {
    const last = tail(outcome.stderr).length ? tail(outcome.stderr) : tail(outcome.stdout + '\n' + log);
    throw new FactorioSyncError(
      'failed',
      `"${what}" failed with exit code ${outcome.code ?? 'none'}.${last.length ? `\nLast output:\n${last.map((l) => `  ${l}`).join('\n')}` : ''}\n` +
        `Start Factorio by hand to see whether it loads, then sync again.`,
    );
  }
  return { exitCode: outcome.code, stdout: outcome.stdout, stderr: outcome.stderr, log, seconds };
}

/** `factorio --version`. */
export async function readFactorioVersion(executable: string, opts: RunOptions = {}): Promise<FactorioVersion & { text: string }> {
  // `--version` answers at once; a game that does not is stuck, whatever the sync's budget.
  const capped = (opts.timeoutMs ?? Infinity) > VERSION_TIMEOUT_MS;
  const r = await runFactorio(executable, ['--version'], {
    ...opts,
    userDataDir: undefined,
    checkBanner: false,
    timeoutMs: capped ? VERSION_TIMEOUT_MS : opts.timeoutMs,
    timeoutBudgetMs: capped ? undefined : opts.timeoutBudgetMs,
  });
  const text = r.stdout + r.stderr;
  const v = parseVersionOutput(text);
  if (!v) {
    throw new FactorioSyncError(
      'failed',
      `"${executable} --version" printed no Factorio version (expected a line like "Version: 2.0.77 (build …)"). Check that ${EXECUTABLE_HINT}.${tail(text, 3).length ? `\nIt printed:\n${tail(text, 3).map((l) => `  ${l}`).join('\n')}` : ''}`,
    );
  }
  return { ...v, text };
}
