// A CliIO that keeps what a command printed, for assertions on stdout and stderr.
import type { CliIO } from '../../src/cli/io';

export function capture(): CliIO & { stdout: string; stderr: string } {
  const io = { stdout: '', stderr: '', out: (t: string) => void (io.stdout += t + '\n'), err: (t: string) => void (io.stderr += t + '\n') };
  return io;
}
