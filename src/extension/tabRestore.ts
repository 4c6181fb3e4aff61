// Webview tabs VS Code brings back after a window reload: each kind of tab says how to revive one
// from the state its webview saved (and package.json wakes the extension for it with an
// `onWebviewPanel:<view type>` activation event). Documents of PyOps' own schemes (notes, tasks, block
// and good pages) come back without this: `onFileSystem:<scheme>` activation events wake the
// extension and their providers wait for the startup project.
import * as vscode from 'vscode';

export function restoreTabs(viewType: string, revive: (panel: vscode.WebviewPanel, state: unknown) => Promise<void> | void): vscode.Disposable {
  return vscode.window.registerWebviewPanelSerializer(viewType, {
    async deserializeWebviewPanel(panel, state) {
      try {
        await revive(panel, state);
      } catch (err) {
        // A tab that cannot come back closes rather than stay blank.
        panel.dispose();
        void vscode.window.showWarningMessage(`PyOps: a tab could not be restored after the reload (${(err as Error).message}); open it again from the Factory view.`);
      }
    },
  });
}
