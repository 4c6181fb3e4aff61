// Commands may be called from the palette (no argument), the explorer (a Uri), keybindings or
// tests (a plain object). Arguments are validated like any other boundary input.
import * as vscode from 'vscode';
import { z } from 'zod';

export function fileArg(arg: unknown, key = 'file'): string | undefined {
  if (arg instanceof vscode.Uri) return arg.fsPath;
  if (typeof arg === 'string') return arg;
  const r = z.object({ [key]: z.string().min(1) }).loose().safeParse(arg);
  return r.success ? (r.data[key] as string) : undefined;
}

export function objectArg<S extends z.ZodType>(arg: unknown, schema: S): z.output<S> | undefined {
  if (arg === undefined || arg === null || arg instanceof vscode.Uri) return undefined;
  const r = schema.safeParse(arg);
  if (!r.success) throw new Error(`Invalid command argument: ${r.error.issues.map((i) => `${i.path.join('.') || 'argument'}: ${i.message}`).join('; ')}`);
  return r.data;
}
