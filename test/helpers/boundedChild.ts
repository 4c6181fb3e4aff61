// Runs a TypeScript script in a child process under a watchdog, for tests that must show a piece
// of work stays within bounded memory and time: the child's resident memory is sampled from /proc
// while it runs and it is killed the moment it passes the ceiling (or the deadline), so a
// regression fails the test instead of exhausting the machine. The child reports its own peak
// (process.resourceUsage().maxRSS) too, which covers what sampling can miss.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { REPO } from './paths';

export interface BoundedRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Highest resident memory sampled, in MB (0 where /proc is not available). */
  sampledPeakMb: number;
  /** Why the watchdog killed the child, if it did. */
  killed?: string;
  seconds: number;
}

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

export function runBounded(script: string, args: string[], ceiling: { rssMb: number; seconds: number }): Promise<BoundedRun> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let peak = 0;
  let killed: string | undefined;
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const kill = (why: string) => {
    killed ??= why;
    child.kill('SIGKILL');
  };
  const sampler = setInterval(() => {
    if (!child.pid) return;
    peak = Math.max(peak, rssMb(child.pid));
    if (peak > ceiling.rssMb) kill(`resident memory passed ${ceiling.rssMb} MB`);
  }, 20);
  const deadline = setTimeout(() => kill(`still running after ${ceiling.seconds} s`), ceiling.seconds * 1000);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      clearInterval(sampler);
      clearTimeout(deadline);
      resolve({ code, signal, stdout, stderr, sampledPeakMb: Math.round(peak), killed, seconds: (performance.now() - t0) / 1000 });
    });
  });
}
