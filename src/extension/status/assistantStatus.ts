// Two status bar items for the assistant: the context gauge of the active conversation (used /
// limit tokens, measured or estimated, and the model; warning and error colours as it fills) and,
// while answers are being written, a running-runs indicator. Each opens the matching tab of the
// side panel. (The game-link indicator belongs to the bridge.)
import * as vscode from 'vscode';
import type { AssistantHost } from '../assistant/host';
import { conversationGauge } from '../assistant/gauge';
import { percent, tokens } from '../../webview/format';

export function createAssistantStatus(host: AssistantHost): vscode.Disposable {
  const gauge = vscode.window.createStatusBarItem('pyops.context', vscode.StatusBarAlignment.Right, 100);
  gauge.name = 'PyOps Context';
  gauge.command = { command: 'pyops.panel.open', title: 'Show Conversations', arguments: [{ tab: 'conversations' }] };
  const runs = vscode.window.createStatusBarItem('pyops.runs', vscode.StatusBarAlignment.Right, 101);
  runs.name = 'PyOps Runs';
  runs.command = { command: 'pyops.panel.open', title: 'Show Live Run', arguments: [{ tab: 'run' }] };

  let seq = 0;
  const renderGauge = async () => {
    const mine = ++seq;
    const p = host.projects.active;
    const id = host.activeConversationId();
    if (!p || !id) {
      gauge.hide();
      return;
    }
    const g = await conversationGauge(host, p, id).catch(() => undefined);
    if (mine !== seq) return;
    if (!g) {
      gauge.hide();
      return;
    }
    gauge.text = `$(dashboard) ${tokens(g.usedTokens)}/${tokens(g.contextWindow)}`;
    const md = new vscode.MarkdownString(undefined, true);
    md.appendMarkdown(`**PyOps context** — ${g.title.replace(/[[\]*_`]/g, '')}\n\n`);
    md.appendMarkdown(`${g.usedTokens.toLocaleString()} of ${g.contextWindow.toLocaleString()} tokens (${percent(g.ratio)}), ${g.source === 'measured' ? 'measured from the last answer' : 'estimated'}\n\n`);
    md.appendMarkdown(`Model: \`${g.modelId}\` · ${g.messageCount} messages\n\n`);
    md.appendMarkdown(g.level === 'ok' ? 'Click for the conversations; compact there or with /compact.' : 'The context is filling up: compact the conversation (PyOps: Compact Conversation, or /compact) or start a new one.');
    gauge.tooltip = md;
    gauge.accessibilityInformation = { label: `PyOps context: ${percent(g.ratio)} of ${g.modelId}'s window used` };
    gauge.backgroundColor = g.level === 'danger' ? new vscode.ThemeColor('statusBarItem.errorBackground') : g.level === 'warning' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    gauge.show();
  };

  const renderRuns = () => {
    const list = host.runningConversations();
    if (!list.length) {
      runs.hide();
      return;
    }
    runs.text = `$(loading~spin) PyOps${list.length > 1 ? ` ×${list.length}` : ''}`;
    runs.tooltip = `Writing: ${list.map((r) => `"${r.title}"`).join(', ')}. Click to follow; "PyOps: Stop Run" stops it.`;
    runs.accessibilityInformation = { label: `PyOps is writing ${list.length} answer${list.length === 1 ? '' : 's'}` };
    runs.show();
  };

  const render = () => {
    void renderGauge();
    renderRuns();
  };
  render();
  return vscode.Disposable.from(
    gauge,
    runs,
    host.onDidChangeActive(render),
    host.onDidChangeConversations(render),
    host.onDidChangeRuns(render),
    host.onDidChangeModels(render),
  );
}
