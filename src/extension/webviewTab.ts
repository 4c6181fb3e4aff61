// What the science editor and the factory board tabs share: the webview's options (the extension's
// files and the project's icon cache), the page and its wiring (also for a tab VS Code restores after
// a window reload), and turning a game icon into a webview URI.
import * as vscode from 'vscode';
import type { GameIcons } from './icons';
import { webviewHtml } from './webviewHtml';

export function tabOptions(extensionUri: vscode.Uri, icons?: GameIcons): vscode.WebviewOptions {
  const roots = [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')];
  return { enableScripts: true, localResourceRoots: icons?.withCacheRoot(roots) ?? roots };
}

/** A new editor tab showing `dist/webview/<script>.js`, wired to `on`. */
export function openTab(
  extensionUri: vscode.Uri, icons: GameIcons | undefined,
  page: { viewType: string; title: string; script: string; css: string[]; label: string },
  on: { message: (raw: unknown) => void; dispose: () => void },
): vscode.WebviewPanel {
  const panel = vscode.window.createWebviewPanel(page.viewType, page.title, vscode.ViewColumn.Active, { ...tabOptions(extensionUri, icons), retainContextWhenHidden: false });
  return wireTab(panel, extensionUri, icons, page, on);
}

/**
 * Close the tabs of `viewType` that VS Code restored after a reload but has not revived yet (it
 * revives a background webview tab only when it is shown): an owner opening its one tab calls this
 * when it holds none, so the player never sees two.
 */
export function closeUnrevived(viewType: string): void {
  const stale = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith(viewType));
  if (stale.length) void vscode.window.tabGroups.close(stale).then(undefined, () => undefined);
}

/** A tab's page and wiring, on a new panel or on one VS Code restored after a window reload. */
export function wireTab(
  panel: vscode.WebviewPanel, extensionUri: vscode.Uri, icons: GameIcons | undefined,
  page: { title: string; script: string; css: string[]; label: string },
  on: { message: (raw: unknown) => void; dispose: () => void },
): vscode.WebviewPanel {
  panel.webview.options = tabOptions(extensionUri, icons);
  panel.webview.html = tabHtml(panel.webview, extensionUri, { script: page.script, css: page.css, title: page.title, label: page.label });
  panel.onDidDispose(on.dispose);
  panel.webview.onDidReceiveMessage(on.message);
  return panel;
}

/** The tab's page: `dist/webview/<script>.js` and `media/<css>` files. */
export function tabHtml(webview: vscode.Webview, extensionUri: vscode.Uri, page: { script: string; css: string[]; title: string; label: string }): string {
  return webviewHtml(webview, extensionUri, {
    script: vscode.Uri.joinPath(extensionUri, 'dist', 'webview', `${page.script}.js`),
    css: page.css.map((c) => vscode.Uri.joinPath(extensionUri, 'media', c)),
    title: page.title,
    label: page.label,
  });
}

/** A game icon by view key (`good:…`, `recipe:…`, `entity:…`) as a URI the webview may load. */
export function iconUri(webview: vscode.Webview, icons: GameIcons | undefined, key: string): string | undefined {
  const u = icons?.count ? icons.byKey(key) : undefined;
  return u ? webview.asWebviewUri(u).toString() : undefined;
}
