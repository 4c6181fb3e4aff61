// Where command output goes. Commands write through this so tests can capture it in-process.
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /** Progress lines are shown only to a person at a terminal. */
  interactive?: boolean;
}

export const processIO: CliIO = {
  out: (t) => process.stdout.write(t.endsWith('\n') ? t : t + '\n'),
  err: (t) => process.stderr.write(t.endsWith('\n') ? t : t + '\n'),
  interactive: !!process.stderr.isTTY,
};
