// The side panel's host: a webview view in PyOps' own activity-bar container, with a strict CSP
// (nonce'd script, styles and fonts from the extension only) and `retainContextWhenHidden`. It
// posts the panel state whenever the project, a conversation, a run or the game link changes,
// forwards the active conversation's run (replay, then live chunks), and turns the webview's
// messages — validated with zod, since webview input is untrusted — into the same commands the
// chat buttons run. A conversation's transcript is sent only when asked for (it can be long), and
// conversation links land here too.
import * as vscode from 'vscode';
import { branchConversation, deleteConversation, getConversation, loadMessages, updateConversation } from '../../core/assistant/conversations/store';
import { fromWebviewSchema, type FromWebview, type PanelState, type ProposalRef, type RunEvent, type Tab, type ToWebview, type TranscriptView } from '../../webview/protocol';
import type { AssistantHost } from '../assistant/host';
import type { ProposalActions } from '../proposals/actions';
import { archivedMessages, buildPanelState } from './state';
import { startupClock } from '../startupTiming';
import { webviewHtml } from '../webviewHtml';
import { transcriptView } from './transcript';
import { conversationLinkParts, parseConversationLink } from '../conversationLinks';
import type { GameIcons } from '../icons';
import { iconNamesOf } from './iconNames';

export const PANEL_CONTAINER_ID = 'pyops';
export const PANEL_VIEW_ID = 'pyops.assistantPanel';

/** Exposed for the integration tests: what the panel last received and sent. */
export interface PanelProbe {
  resolved: boolean;
  ready: boolean;
  lastState?: ToWebview & { type: 'state' };
  received: FromWebview[];
  rejected: number;
  lastTranscript?: TranscriptView;
  /** The last link "Copy Link" put on the clipboard. */
  lastLink?: string;
}

export class AssistantPanel implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private ready = false;
  private queue: ToWebview[] = [];
  private refreshTimer: NodeJS.Timeout | undefined;
  private stateGeneration = 0;
  private unsubscribeRun: (() => void) | undefined;
  private followed: { conversationId: string; streamId: string } | undefined;
  /** The conversation whose run the Live Run tab shows (running or finished), until it is taken off. */
  private shownRun: string | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly viewListeners: vscode.Disposable[] = [];
  readonly probe: PanelProbe = { resolved: false, ready: false, received: [], rejected: 0 };

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly host: AssistantHost,
    private readonly actions: ProposalActions,
    gameEvents: ReadonlyArray<vscode.Event<unknown>> = [],
    private readonly icons?: GameIcons,
  ) {
    this.disposables.push(
      host.onDidChangeConversations(() => this.refresh()),
      host.onDidChangeActive(() => {
        this.refresh();
        this.followRun();
      }),
      host.onDidChangeRuns(() => {
        this.followRun();
        this.refresh();
      }),
      host.onDidChangeModels(() => this.refresh()),
      actions.onDidChangeEvalResult(() => this.refresh()),
    );
    // Synced game state and the link coming and going both change what the cards offer ("Show in game").
    for (const e of gameEvents) this.disposables.push(e(() => this.refresh()));
    if (icons) {
      this.disposables.push(
        icons.onDidChange(() => {
          if (this.view) this.view.webview.options = this.options();
          this.refresh();
        }),
      );
    }
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.ready = false;
    this.probe.resolved = true;
    startupClock.mark('panelResolved');
    const dist = vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'webview');
    const media = vscode.Uri.joinPath(this.context.extensionUri, 'media');
    view.webview.options = this.options();
    view.webview.html = this.html(view.webview, dist, media);
    // Per view: VS Code resolves a new view each time the old one was disposed (moved, closed).
    for (const d of this.viewListeners.splice(0)) d.dispose();
    this.viewListeners.push(
      view.webview.onDidReceiveMessage((m) => void this.receive(m)),
      view.onDidDispose(() => {
        if (this.view === view) {
          for (const d of this.viewListeners.splice(0)) d.dispose();
          this.view = undefined;
          this.ready = false;
          this.probe.ready = false;
          this.unsubscribeRun?.();
          this.unsubscribeRun = undefined;
          this.followed = undefined;
          this.shownRun = undefined;
        }
      }),
      view.onDidChangeVisibility(() => {
        if (view.visible) this.refresh();
      }),
    );
  }

  /** The extension's own files, and the active project's icon cache when it has one. */
  private options(): vscode.WebviewOptions {
    const ext = this.context.extensionUri;
    const roots = [vscode.Uri.joinPath(ext, 'dist', 'webview'), vscode.Uri.joinPath(ext, 'media'), vscode.Uri.joinPath(ext, 'dist', 'codicons')];
    return { enableScripts: true, localResourceRoots: this.icons?.withCacheRoot(roots) ?? roots };
  }

  /** Webview URIs of the game icons of what the cards show. */
  private iconsFor(state: PanelState): Record<string, string> | undefined {
    const icons = this.icons;
    const webview = this.view?.webview;
    if (!icons?.count || !webview) return undefined;
    const out: Record<string, string> = {};
    for (const key of iconNamesOf(state)) {
      const uri = icons.byKey(key);
      if (uri) out[key] = webview.asWebviewUri(uri).toString();
    }
    return out;
  }

  private html(webview: vscode.Webview, dist: vscode.Uri, media: vscode.Uri): string {
    return webviewHtml(webview, this.context.extensionUri, { script: vscode.Uri.joinPath(dist, 'panel.js'), css: [vscode.Uri.joinPath(media, 'flow-diagram.css'), vscode.Uri.joinPath(media, 'panel.css')], title: 'PyOps', label: 'PyOps assistant' });
  }

  /** Show the panel on a tab, optionally scrolled to one proposal's card. */
  async reveal(tab: Tab = 'proposals', ref?: ProposalRef): Promise<void> {
    if (ref) this.host.setActive(ref.conversationId);
    await vscode.commands.executeCommand(`${PANEL_VIEW_ID}.focus`);
    this.post({ type: 'focus', tab, ...(ref ? { ref } : {}) });
    this.refresh(0);
  }

  /** Make a conversation active and show its transcript in the panel, scrolled to a message. */
  async showConversation(conversationId: string, messageId?: string): Promise<void> {
    const p = this.host.projects.require();
    if (!getConversation(p, conversationId)) throw new Error(`The conversation is not in the project "${p.name}"; it may have been deleted.`);
    this.host.setActive(conversationId);
    await vscode.commands.executeCommand(`${PANEL_VIEW_ID}.focus`);
    this.post({ type: 'focus', tab: 'conversations' });
    this.sendTranscript(conversationId, { focusMessageId: messageId });
    this.refresh(0);
  }

  /** Open a conversation link (from the URI handler); a link for another project says so rather than guess. */
  async openLink(uri: vscode.Uri): Promise<void> {
    const r = parseConversationLink(uri.path, uri.query);
    if (!r.ok) throw new Error(r.error.charAt(0).toUpperCase() + r.error.slice(1));
    const { conversationId, projectId, messageId } = r.link;
    const p = this.host.projects.active;
    if (!p) throw new Error('This link is for a conversation in a PyOps project, but no project is open. Open the project ("PyOps: Open Project…"), then open the link again.');
    if (projectId && projectId !== p.id) {
      throw new Error(`This link is for a conversation in another PyOps project, not the open one ("${p.name}"). Open the project the link was copied from, then open the link again.`);
    }
    if (!getConversation(p, conversationId)) throw new Error(`The linked conversation is not in the project "${p.name}"; it may have been deleted.`);
    const found = !messageId || loadMessages(p, conversationId).some((x) => x.id === messageId);
    await this.showConversation(conversationId, found ? messageId : undefined);
    if (!found) void vscode.window.showWarningMessage('PyOps: the linked message is no longer in that conversation (it was edited, retried or compacted away); showing the conversation\'s newest messages instead.');
  }

  private sendTranscript(conversationId: string, opts: { focusMessageId?: string; start?: number }): void {
    const p = this.host.projects.require();
    const conv = getConversation(p, conversationId);
    if (!conv) throw new Error('That conversation no longer exists.');
    const transcript = transcriptView(conv.id, conv.title ?? 'New chat', loadMessages(p, conv.id), opts);
    this.probe.lastTranscript = transcript;
    this.post({ type: 'transcript', transcript, ...(opts.focusMessageId ? { focusMessageId: opts.focusMessageId } : {}) });
  }

  private post(m: ToWebview): void {
    if (!this.view || !this.ready) {
      if (m.type !== 'run') this.queue.push(m);
      return;
    }
    if (m.type === 'state') {
      this.probe.lastState = m;
      if (m.state.project) startupClock.mark('panelShowsProject');
    }
    void this.view.webview.postMessage(m);
  }

  refresh(delay = 60): void {
    if (!this.view) return;
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      // A build awaits model lookups, so two can overlap: only the newest may post (or complain —
      // an older one may fail only because the project it read was closed meanwhile).
      const generation = ++this.stateGeneration;
      void buildPanelState(this.host, this.actions).then(
        (state) => {
          if (generation === this.stateGeneration) this.post({ type: 'state', state: { ...state, icons: this.iconsFor(state) } });
        },
        (err) => {
          if (generation === this.stateGeneration) void vscode.window.showWarningMessage(`PyOps side panel: ${(err as Error).message}`);
        },
      );
    }, delay);
  }

  /** Follow the active conversation's run: replay its buffer, then live chunks. */
  private followRun(): void {
    if (!this.view || !this.ready) return;
    const id = this.host.activeConversationId();
    const run = id ? this.host.runs.get(id) : undefined;
    if (run && this.followed?.streamId === run.streamId) return;
    // Unsubscribing never closes the run, so say so: else the view would keep showing "Writing…".
    // A finished run stays on view as done while its conversation is the active one; another
    // conversation (a switch, or another project opened) takes it off.
    const f = this.followed;
    const going = f && this.host.runs.get(f.conversationId)?.streamId === f.streamId;
    const shown = going ? f.conversationId : this.shownRun !== id ? this.shownRun : undefined;
    if (shown) {
      this.sendRun({ conversationId: shown, phase: 'detach' });
      this.shownRun = undefined;
    }
    this.unsubscribeRun?.();
    this.unsubscribeRun = undefined;
    this.followed = undefined;
    if (!run || !id) return;
    this.followed = { conversationId: id, streamId: run.streamId };
    this.shownRun = id;
    this.sendRun({ conversationId: id, phase: 'start' });
    this.unsubscribeRun = run.subscribe({
      onChunk: (chunk) => this.sendRun({ conversationId: id, phase: 'chunk', chunk: chunk as { type: string } }),
      onClose: (reason) => {
        this.sendRun({ conversationId: id, phase: 'end', reason });
        this.refresh();
      },
    });
  }

  /** Run events are live only: never queued for a view that is not there yet (it replays on ready). */
  private sendRun(event: RunEvent): void {
    if (this.view && this.ready) void this.view.webview.postMessage({ type: 'run', event } satisfies ToWebview);
  }

  private async receive(raw: unknown): Promise<void> {
    const parsed = fromWebviewSchema.safeParse(raw);
    if (!parsed.success) {
      this.probe.rejected++;
      return;
    }
    const m = parsed.data;
    this.probe.received.push(m);
    if (this.probe.received.length > 50) this.probe.received.shift();
    try {
      await this.handle(m);
    } catch (err) {
      void vscode.window.showErrorMessage(`PyOps: ${(err as Error).message}`);
    }
  }

  private async handle(m: FromWebview): Promise<void> {
    const project = () => this.host.projects.require();
    switch (m.type) {
      case 'ready': {
        this.ready = true;
        this.probe.ready = true;
        startupClock.mark('panelReady');
        const queued = this.queue;
        this.queue = [];
        for (const q of queued) this.post(q);
        this.refresh(0);
        this.followed = undefined;
        this.shownRun = undefined;
        this.followRun();
        return;
      }
      case 'tab':
        return;
      case 'apply':
        this.post({ type: 'busy', ref: m.ref, busy: true });
        try {
          await vscode.commands.executeCommand('pyops.proposal.apply', m.ref);
        } finally {
          this.post({ type: 'busy', ref: m.ref, busy: false });
          this.refresh(0);
        }
        return;
      case 'applyPending':
        this.post({ type: 'busyPending', id: m.id, busy: true });
        try {
          const r = await this.actions.applyPending(m.id);
          if (r) void vscode.window.showInformationMessage(`PyOps: ${r.label} — done (one undoable change).`, 'Undo').then((c) => c === 'Undo' && void vscode.commands.executeCommand('pyops.edit.undo', r.undo));
        } finally {
          this.post({ type: 'busyPending', id: m.id, busy: false });
          this.refresh(0);
        }
        return;
      case 'dismissPending':
        this.actions.dismissPending(m.id);
        return;
      case 'showPendingInGame':
        await this.actions.showPendingInGame(m.id, m.blockIndex);
        return;
      case 'showInGame':
        await vscode.commands.executeCommand('pyops.proposal.showInGame', { ...m.ref, blockIndex: m.blockIndex });
        return;
      case 'runEval':
        await vscode.commands.executeCommand('pyops.proposal.runEval', m.ref);
        return;
      case 'sendEvalResult':
        await vscode.commands.executeCommand('pyops.proposal.sendEvalResult', m.ref);
        return;
      case 'openInChat':
        await vscode.commands.executeCommand('pyops.conversation.openInChat', { conversationId: m.conversationId });
        return;
      case 'switchConversation':
        if (!getConversation(project(), m.conversationId)) throw new Error('That conversation no longer exists.');
        this.host.setActive(m.conversationId);
        return;
      case 'newConversation':
        await vscode.commands.executeCommand('pyops.conversation.new');
        return;
      case 'branchConversation': {
        const { conversation } = branchConversation(project(), m.conversationId);
        this.host.setActive(conversation.id);
        this.host.changed();
        void vscode.window.showInformationMessage(`PyOps: branched into "${conversation.title ?? 'New chat'}". It is now the active conversation; "Open in Chat" continues it.`);
        return;
      }
      case 'renameConversation': {
        const p = project();
        const conv = getConversation(p, m.conversationId);
        if (!conv) throw new Error('That conversation no longer exists.');
        const title = await vscode.window.showInputBox({ title: 'Rename conversation', value: conv.title ?? '', prompt: 'A short name for this conversation', validateInput: (v) => (v.trim().length > 120 ? 'At most 120 characters.' : undefined) });
        if (title === undefined) return;
        updateConversation(p, m.conversationId, { title: title.trim() || null });
        this.host.changed(m.conversationId);
        return;
      }
      case 'deleteConversation': {
        const p = project();
        const conv = getConversation(p, m.conversationId);
        if (!conv) return;
        if (this.host.isRunning(m.conversationId)) throw new Error('An answer is still being written in that conversation; stop it first.');
        const choice = await vscode.window.showWarningMessage(`Delete the conversation "${conv.title ?? 'New chat'}" and its ${loadMessages(p, conv.id).length} messages? This cannot be undone (blocks created from it stay).`, { modal: true }, 'Delete');
        if (choice !== 'Delete') return;
        deleteConversation(p, m.conversationId);
        if (this.host.activeConversationId() === undefined) this.host.setActive(undefined);
        this.host.changed();
        return;
      }
      case 'compactConversation':
        await vscode.commands.executeCommand('pyops.conversation.compact', { conversationId: m.conversationId });
        return;
      case 'setEffort':
        updateConversation(project(), m.conversationId, { reasoningEffort: m.effort });
        this.host.changed(m.conversationId);
        return;
      case 'showArchive': {
        const messages = archivedMessages(loadMessages(project(), m.conversationId), m.messageId);
        this.post({ type: 'archive', conversationId: m.conversationId, messageId: m.messageId, messages });
        return;
      }
      case 'stopRun':
        await this.host.stop(m.conversationId);
        return;
      case 'showTranscript':
        this.sendTranscript(m.conversationId, { focusMessageId: m.messageId, start: m.start });
        return;
      case 'branchFromMessage': {
        const { conversation, messages } = branchConversation(project(), m.conversationId, m.messageId);
        this.host.setActive(conversation.id);
        this.host.changed();
        this.sendTranscript(conversation.id, { focusMessageId: messages.at(-1)?.id });
        void vscode.window.showInformationMessage(`PyOps: branched into "${conversation.title ?? 'New chat'}" with ${messages.length} messages. It is now the active conversation; "Open in Chat" continues it.`);
        return;
      }
      case 'copyLink': {
        const p = project();
        if (!getConversation(p, m.conversationId)) throw new Error('That conversation no longer exists.');
        const { path, query } = conversationLinkParts({ conversationId: m.conversationId, projectId: p.id || undefined, messageId: m.messageId });
        const link = vscode.Uri.from({ scheme: vscode.env.uriScheme, authority: this.context.extension.id, path, query }).toString();
        this.probe.lastLink = link;
        await vscode.env.clipboard.writeText(link);
        void vscode.window.showInformationMessage(`PyOps: copied a link to this ${m.messageId ? 'message' : 'conversation'}. Opening it in VS Code shows it in the side panel while the project "${p.name}" is open.`);
        return;
      }
      case 'revealProposal':
        await this.reveal('proposals', m.ref);
        return;
    }
  }

  dispose(): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.unsubscribeRun?.();
    for (const d of [...this.viewListeners, ...this.disposables]) d.dispose();
  }
}
