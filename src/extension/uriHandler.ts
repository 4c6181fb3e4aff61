// Links into PyOps: `vscode://pyops.pyops-vscode/conversation/<id>` makes that conversation of the
// open project the active one, shows its proposals and opens the chat ready to continue it.
import * as vscode from 'vscode';

export function registerUriHandler(): vscode.Disposable {
  return vscode.window.registerUriHandler({
    async handleUri(uri: vscode.Uri) {
      const m = /^\/conversation\/([^/]+)\/?$/.exec(uri.path);
      if (!m) {
        void vscode.window.showErrorMessage(`PyOps: this link is not one PyOps understands (${uri.path}). Links look like vscode://pyops.pyops-vscode/conversation/<id>.`);
        return;
      }
      await vscode.commands.executeCommand('pyops.conversation.open', { conversationId: decodeURIComponent(m[1]) });
    },
  });
}
