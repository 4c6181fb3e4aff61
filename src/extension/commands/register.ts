// Every PyOps command goes through here: an error becomes one clear notification ("PyOps: …")
// instead of VS Code's generic "command failed", and is kept for the integration tests.
import * as vscode from 'vscode';
import { ArgumentError } from './args';

export interface CommandError {
  command: string;
  message: string;
  /** The command could not use what it was given (see args.ts): a menu or caller passing the wrong thing. */
  argument?: boolean;
}

const recent: CommandError[] = [];

/** Errors of the latest command runs (newest last, at most 20). */
export function recentCommandErrors(): readonly CommandError[] {
  return recent;
}

export function registerCommand(id: string, handler: (...args: unknown[]) => unknown): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      return await handler(...args);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      recent.push({ command: id, message, ...(err instanceof ArgumentError ? { argument: true } : {}) });
      if (recent.length > 20) recent.shift();
      void vscode.window.showErrorMessage(`PyOps: ${message}`);
      return undefined;
    }
  });
}
