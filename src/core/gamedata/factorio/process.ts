// Is Factorio running? A sync starts the game itself and edits mods/mod-list.json for one run, so
// it must not happen while the user plays. A probe that cannot run answers "no": a second game
// instance then refuses to start on the user-data lock, and that error is reported instead.
import fs from 'node:fs';
import { execFile } from 'node:child_process';

export interface ProcessProbe {
  platform: NodeJS.Platform;
  /** Process names from /proc (Linux). */
  linuxProcessNames(): string[];
  /** Run a command; resolves with its exit code and stdout, never rejects. */
  exec(command: string, args: string[]): Promise<{ code: number | null; stdout: string }>;
}

function linuxProcessNames(): string[] {
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n) && Number(n) !== process.pid);
  } catch {
    return [];
  }
  const names: string[] = [];
  for (const pid of pids) {
    try {
      names.push(fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim());
    } catch {
      // the process ended while we looked
    }
  }
  return names;
}

function exec(command: string, args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { windowsHide: true, timeout: 10_000 }, (err, stdout) => {
      const code = err ? (typeof (err as NodeJS.ErrnoException).code === 'number' ? Number((err as NodeJS.ErrnoException).code) : null) : 0;
      resolve({ code, stdout: String(stdout ?? '') });
    });
  });
}

export const systemProcessProbe: ProcessProbe = { platform: process.platform, linuxProcessNames, exec };

export async function isFactorioRunning(probeIn: Partial<ProcessProbe> = {}): Promise<boolean> {
  const probe: ProcessProbe = { ...systemProcessProbe, ...probeIn };
  switch (probe.platform) {
    case 'linux':
      return probe.linuxProcessNames().includes('factorio');
    case 'win32': {
      // With no match tasklist prints "INFO: No tasks are running which match the specified criteria."
      const r = await probe.exec('tasklist', ['/FI', 'IMAGENAME eq factorio.exe', '/NH']);
      return /^\s*factorio\.exe\s/im.test(r.stdout);
    }
    case 'darwin': {
      // pgrep exits 0 when something matched, 1 when nothing did.
      const r = await probe.exec('pgrep', ['-x', 'factorio']);
      return r.code === 0;
    }
    default:
      return false;
  }
}
