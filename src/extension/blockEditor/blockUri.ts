// A block as a document VS Code knows: `pyops-block:/<project id>/<block id>.pyops-block`. The block
// editor is a custom editor over these URIs, so VS Code's own Undo/Redo (the Edit menu) and its save
// model reach it, and a tab survives a reload. The id pair never changes when the block is renamed.
import * as vscode from 'vscode';

export const BLOCK_SCHEME = 'pyops-block';
const SUFFIX = '.pyops-block';

export function blockUri(projectId: string, blockId: string): vscode.Uri {
  return vscode.Uri.from({ scheme: BLOCK_SCHEME, path: `/${encodeURIComponent(projectId)}/${encodeURIComponent(blockId)}${SUFFIX}` });
}

export function parseBlockUri(uri: vscode.Uri): { projectId: string; blockId: string } | undefined {
  if (uri.scheme !== BLOCK_SCHEME) return undefined;
  const m = /^\/([^/]+)\/([^/]+)\.pyops-block$/.exec(uri.path);
  return m ? { projectId: decodeURIComponent(m[1]), blockId: decodeURIComponent(m[2]) } : undefined;
}
