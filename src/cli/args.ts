// Argument parsing for the `pyops` command: node's parseArgs plus a usage error type, so every
// command reports bad input the same way (exit code 2 and the usage text).
import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

export function parse<O extends Options>(argv: string[], options: O, positionals: { min: number; max: number; names: string }) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const n = parsed.positionals.length;
  if (n < positionals.min) throw new UsageError(`missing ${positionals.names}`);
  if (n > positionals.max) throw new UsageError(`unexpected argument "${parsed.positionals[positionals.max]}"`);
  return parsed;
}

/** An error as one line, for stderr. */
export function oneLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join('; ')
    .replace(/:;/g, ':');
}
