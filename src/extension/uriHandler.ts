// Links into PyOps: `vscode://pyops.pyops-vscode/conversation/<id>?project=<project id>&message=<id>`
// (from "Copy Link" in the side panel) makes that conversation of the open project the active one
// and shows its transcript in the side panel at the message. Reading the link is conversationLinks.ts.
import * as vscode from 'vscode';
import type { AssistantPanel } from './panel/provider';

export function registerUriHandler(panel: AssistantPanel): vscode.Disposable {
  return vscode.window.registerUriHandler({
    async handleUri(uri: vscode.Uri) {
      try {
        await panel.openLink(uri);
      } catch (err) {
        void vscode.window.showErrorMessage(`PyOps: ${(err as Error).message}`);
      }
    },
  });
}
