// What a command is given depends on where it was run from: nothing (the palette, a keybinding, a
// walkthrough or welcome link), a Uri (the explorer), the tree row it was run on (a row's context
// menu or inline button) or the row that happens to be selected (a view's title button), or a plain
// object (tests, links, tree rows' own click commands, webview buttons). Arguments are validated like
// any other boundary input; a tree row is never mistaken for one.
import * as vscode from 'vscode';
import { z } from 'zod';

/** A command was given arguments it cannot use (a bug in a caller, never the user's doing). */
export class ArgumentError extends Error {}

const rows = new WeakSet<object>();

/**
 * Mark the elements a tree hands to VS Code. VS Code gives the same objects back to commands: to a
 * row's context-menu and inline commands, and to a view's title commands whenever a row is selected.
 */
export function treeRow<T extends object>(node: T): T {
  rows.add(node);
  return node;
}

export function isTreeRow(arg: unknown): boolean {
  return typeof arg === 'object' && arg !== null && rows.has(arg);
}

/** The argument as a plain object of options, or undefined when it is none (nothing, a Uri, a tree row). */
function options(arg: unknown): Record<string, unknown> | undefined {
  if (arg === undefined || arg === null || arg instanceof vscode.Uri || isTreeRow(arg) || typeof arg !== 'object' || Array.isArray(arg)) return undefined;
  return arg as Record<string, unknown>;
}

export function fileArg(arg: unknown, key = 'file'): string | undefined {
  if (arg instanceof vscode.Uri) return arg.fsPath;
  if (typeof arg === 'string') return arg;
  const r = z.object({ [key]: z.string().min(1) }).loose().safeParse(options(arg));
  return r.success ? (r.data[key] as string) : undefined;
}

/** Options given as an object, checked against `schema`; undefined when the command was given none. */
export function objectArg<S extends z.ZodType>(arg: unknown, schema: S): z.output<S> | undefined {
  if (arg === undefined || arg === null || arg instanceof vscode.Uri || isTreeRow(arg)) return undefined;
  const r = schema.safeParse(arg);
  if (!r.success) throw new ArgumentError(`Invalid command argument: ${r.error.issues.map((i) => `${i.path.join('.') || 'argument'}: ${i.message}`).join('; ')}`);
  return r.data;
}

/** One string option (`{ title: "…" }`), ignoring tree rows and anything that is not an object. */
export function textOption(arg: unknown, key: string): string | undefined {
  const v = options(arg)?.[key];
  return typeof v === 'string' ? v : undefined;
}

/** One boolean option. */
export function flagOption(arg: unknown, key: string): boolean | undefined {
  const v = options(arg)?.[key];
  return typeof v === 'boolean' ? v : undefined;
}

/** A tree's data provider whose rows are marked (treeRow) as VS Code receives them. */
export function markingRows<T extends object>(provider: vscode.TreeDataProvider<T>): vscode.TreeDataProvider<T> {
  const mark = async (result: vscode.ProviderResult<T[] | T>) => {
    const r = await result;
    for (const x of Array.isArray(r) ? r : r ? [r] : []) treeRow(x);
    return r ?? undefined;
  };
  return new Proxy(provider, {
    get(target, prop) {
      if (prop === 'getChildren') return (el?: T) => mark(target.getChildren(el)) as Promise<T[] | undefined>;
      if (prop === 'getParent' && target.getParent) return (el: T) => mark(target.getParent!(el)) as Promise<T | undefined>;
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}
