// The page every PyOps webview loads: its script under a nonce, its stylesheets, the codicons, and
// a Content-Security-Policy that allows nothing else (webview content is built from game data and
// model text, so no inline script and no remote origin).
import * as vscode from 'vscode';
import crypto from 'node:crypto';

export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, page: { script: vscode.Uri; css: vscode.Uri | vscode.Uri[]; title: string; label: string }): string {
  const nonce = crypto.randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(page.script);
  const css = (Array.isArray(page.css) ? page.css : [page.css]).map((u) => webview.asWebviewUri(u));
  const codicons = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'codicons', 'codicon.css'));
  const csp = [`default-src 'none'`, `script-src 'nonce-${nonce}'`, `style-src ${webview.cspSource} 'unsafe-inline'`, `img-src ${webview.cspSource} data:`, `font-src ${webview.cspSource}`].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${codicons}" id="vscode-codicon-stylesheet">
${css.map((u) => `<link rel="stylesheet" href="${u}">`).join('\n')}
<title>${page.title}</title>
</head>
<body>
<main id="app" aria-label="${page.label}"></main>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
}
