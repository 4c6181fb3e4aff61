/** Whether the process was started with a V8 or Node flag matching `pattern` (its command line or NODE_OPTIONS): such a choice is the user's, and PyOps leaves it alone. */
export function startedWithFlag(pattern: RegExp): boolean {
  return [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((a) => pattern.test(a));
}
