// Confirmations of quick, undoable actions (undo, redo) go to the status bar: they fade by
// themselves, and a second one replaces the first instead of stacking up as toasts.
import * as vscode from 'vscode';

let shown: vscode.Disposable | undefined;

/** Say `text` in the status bar for a few seconds, replacing the previous confirmation. */
export function confirmInStatusBar(text: string, ms = 6000): void {
  shown?.dispose();
  shown = vscode.window.setStatusBarMessage(text, ms);
}
