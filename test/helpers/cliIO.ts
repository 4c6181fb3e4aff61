// A CliIO that keeps what a command printed, for assertions on stdout and stderr; and `pyops` run
// as a real process, for what only a process shows (process.stdout writes, exit codes).
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { CliIO } from '../../src/cli/io';
import { REPO } from './paths';

export function capture(): CliIO & { stdout: string; stderr: string } {
  const io = { stdout: '', stderr: '', out: (t: string) => void (io.stdout += t + '\n'), err: (t: string) => void (io.stderr += t + '\n') };
  return io;
}

/**
 * `pyops <args>` as a child process (through tsx, from the sources). The key and model variables of
 * the calling environment are cleared, so only `env` decides them.
 */
export function runCliProcess(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO, 'src', 'cli', 'index.ts'), ...args], {
      cwd: REPO,
      env: { ...process.env, OPENROUTER_API_KEY: '', PYOPS_AGENT_MODEL: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
