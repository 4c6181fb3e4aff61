// The assistant's home in the extension host: one run store for the window (so the side panel can
// replay and follow a run the chat started), the OpenRouter key and model resolution from VS Code
// settings and SecretStorage, the active conversation of the open project (remembered across
// reloads), and the events the chat, the side panel and the status bar listen to. Every turn —
// whichever model serves it — goes through `turn()`, which adds the run store, the tool registry,
// the game link and the catalogue to core's runTurn.
import * as vscode from 'vscode';
import type { UIMessage, UIMessageChunk } from 'ai';
import type { Project } from '../../core/db/project';
import type { GameLink } from '../../core/bridge';
import { allTools } from '../../core/assistant/tools/registry';
import { agentTools } from '../../core/assistant/agent/tools';
import { runTurn, type TurnOptions, type TurnResult } from '../../core/assistant/turn';
import { RunStore } from '../../core/assistant/runs/store';
import { offlineInfo, sharedCatalog, type ModelCatalog, type ModelInfo, type ReasoningEffort } from '../../core/assistant/models/catalog';
import { rememberSecret } from '../../core/assistant/models/redact';
import { DEFAULT_MODEL, resolveApiKey, resolveBaseURL, resolveModelId, resolveOpenRouterModel, type ResolvedModel, type TurnModel } from '../../core/assistant/models/resolve';
import { OPENROUTER_KEY } from '../../core/assistant/models/secrets';
import { appendMessage, createConversation, getConversation, newId, type Conversation } from '../../core/assistant/conversations/store';
import { estimateOverhead } from '../../core/assistant/compaction/estimate';
import { compactConversation } from '../../core/assistant/compaction/context';
import type { CompactionResult } from '../../core/assistant/compaction/compact';
import { buildSystemPrompt } from '../../core/assistant/prompt/system';
import { readHorizon } from '../../core/assistant/prompt/horizon';
import { listPresets } from '../../core/planning/modulePresets';
import type { ProjectManager } from '../projectManager';
import { readSettings } from '../settings';
import { VsCodeSecretStore } from './secrets';
import { reportMessage, type ReportData } from './reports';
import { vscodeTurnModel } from '../chat/vscodeModel';

export const KEY_HINT = 'Run "PyOps: Set OpenRouter API Key…" (or set OPENROUTER_API_KEY), or pick a Copilot or other VS Code model in the chat\'s model picker.';

/** What a finished turn looked like, kept for the integration tests (newest last, at most 10). */
export interface TurnRecord {
  conversationId: string;
  source: 'openrouter' | 'vscode';
  chunkTypes: string[];
  message?: UIMessage;
  finishReason: string;
  aborted: boolean;
  modelId: string | null;
  requestedModel: string | null;
  usage: TurnResult['usage'];
  error?: string;
}

/** What @pyops showed for a request, kept for the integration tests (newest last, at most 10). */
export interface ResponseRecord {
  conversationId: string;
  command?: string;
  proposals: Array<{ ref: { conversationId: string; messageId: string; toolCallId: string }; kind: string; title: string }>;
  buttons: Array<{ command: string; title: string }>;
  progress: string[];
  followups: Array<{ prompt: string; label: string }>;
  error?: string;
}

export interface ModelSummary {
  /** Id shown to the user (the concrete id when known). */
  modelId: string;
  contextWindow: number;
  source: 'openrouter' | 'vscode';
  /** What the catalogue knows about an OpenRouter model (absent for a VS Code chat model). */
  info?: ModelInfo;
}

const ACTIVE_KEY = 'pyops.activeConversations';

export class AssistantHost implements vscode.Disposable {
  readonly runs = new RunStore();
  readonly secrets: VsCodeSecretStore;
  private readonly running = new Map<string, { startedAt: number; title: string }>();
  private readonly vscodeModels = new Map<string, { modelId: string; contextWindow: number }>();
  private pendingContinue: string | undefined;
  private readonly infoCache = new Map<string, { at: number; info: ModelInfo }>();
  private readonly disposables: vscode.Disposable[] = [];
  readonly recentTurns: TurnRecord[] = [];
  readonly recentResponses: ResponseRecord[] = [];

  private readonly conversationsChanged = new vscode.EventEmitter<string | undefined>();
  /** A conversation's messages or fields changed (id), or the list did (undefined). */
  readonly onDidChangeConversations = this.conversationsChanged.event;
  private readonly activeChanged = new vscode.EventEmitter<string | undefined>();
  readonly onDidChangeActive = this.activeChanged.event;
  private readonly runsChanged = new vscode.EventEmitter<void>();
  /** A run started or ended. */
  readonly onDidChangeRuns = this.runsChanged.event;
  private readonly modelsChanged = new vscode.EventEmitter<void>();
  /** The key, base URL, default or extra models changed. */
  readonly onDidChangeModels = this.modelsChanged.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly projects: ProjectManager,
    readonly game: () => GameLink | undefined,
  ) {
    this.secrets = new VsCodeSecretStore(context.secrets);
    this.disposables.push(
      this.secrets.onDidChangeKey(() => this.modelsChanged.fire()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('pyops.models') || e.affectsConfiguration('pyops.openrouter')) this.modelsChanged.fire();
      }),
      projects.onDidChange(() => {
        this.activeChanged.fire(this.activeConversationId());
        this.conversationsChanged.fire(undefined);
      }),
    );
  }

  // ── models ────────────────────────────────────────────────────────────

  baseURL(): string {
    return resolveBaseURL({ env: process.env, setting: readSettings().openrouterBaseUrl || null });
  }

  catalog(): ModelCatalog {
    return sharedCatalog(this.baseURL());
  }

  async hasKey(): Promise<boolean> {
    return !!(await resolveApiKey(process.env, this.secrets));
  }

  async setKey(key: string): Promise<void> {
    await this.secrets.store(OPENROUTER_KEY, key.trim());
    rememberSecret(key);
    this.modelsChanged.fire();
  }

  async clearKey(): Promise<void> {
    await this.secrets.delete(OPENROUTER_KEY);
    this.modelsChanged.fire();
  }

  /** The default OpenRouter model id (setting, else built-in), env override first. */
  defaultModelId(): string {
    return resolveModelId({ env: process.env, storedDefault: readSettings().defaultModel || null }).id;
  }

  /** An OpenRouter model for a turn: `override` (the chat's pick or the conversation's) or the default. Throws without a key. */
  openRouterModel(override?: string | null): Promise<ResolvedModel> {
    const s = readSettings();
    return resolveOpenRouterModel({
      env: process.env,
      secrets: this.secrets,
      storedDefaultModel: s.defaultModel || null,
      baseURL: s.openrouterBaseUrl || null,
      override: override ?? null,
      catalog: this.catalog(),
      keyHint: KEY_HINT,
      appName: 'PyOps for VS Code',
    });
  }

  /**
   * What is known about an OpenRouter id without a key (catalogue, else the offline table). Cached
   * here, and never slower than a moment: the catalogue retries its fetch on every call while
   * offline, and views must not wait for the network.
   */
  async modelInfo(id: string): Promise<ModelInfo> {
    const key = `${this.baseURL()}\0${id}`;
    const hit = this.infoCache.get(key);
    if (hit && Date.now() - hit.at < (hit.info.source === 'catalog' ? 10 * 60_000 : 60_000)) return hit.info;
    const info = await Promise.race([this.catalog().info(id), new Promise<ModelInfo>((resolve) => setTimeout(() => resolve(offlineInfo(id)), 2500))]);
    this.infoCache.set(key, { at: Date.now(), info });
    return info;
  }

  /** Reasoning effort for new conversations (null = Auto). */
  defaultEffort(): ReasoningEffort | null {
    const e = readSettings().reasoningEffort;
    return e === 'auto' ? null : e;
  }

  /** The model a conversation last ran on, with its window (for the gauge and the list). */
  async modelOf(conv: Conversation): Promise<ModelSummary> {
    const vs = this.vscodeModels.get(conv.id);
    if (vs) return { ...vs, source: 'vscode' };
    const id = conv.lastUsage?.modelId ?? conv.model ?? this.defaultModelId();
    const info = await this.modelInfo(id);
    return { modelId: info.id, contextWindow: info.contextWindow, source: 'openrouter', info };
  }

  /**
   * The model that may summarize a conversation outside a turn (the Compact command): its own.
   * A chat held with a VS Code model (Copilot …) is summarized through that model, or by the
   * extractive digest when it is gone — never sent to OpenRouter because a key happens to be stored.
   */
  async summaryModelFor(conv: Conversation): Promise<TurnModel | undefined> {
    const vs = this.vscodeModels.get(conv.id)?.modelId ?? (conv.model ? undefined : conv.lastUsage?.modelId);
    if (vs) {
      const at = vs.indexOf('/');
      const vendor = at > 0 ? vs.slice(0, at) : '';
      const id = vs.slice(at + 1);
      if (vendor && vendor !== 'pyops') {
        const [chat] = await Promise.resolve(vscode.lm.selectChatModels({ vendor, id })).catch(() => []);
        if (chat) return vscodeTurnModel(chat, vscode, { justification: 'PyOps summarizes the earlier part of this conversation with the model it was held with.' });
        // Known (this session) or recognisably a VS Code chat model: no OpenRouter fallback.
        if (this.vscodeModels.has(conv.id) || vendor === 'copilot') return undefined;
      }
    }
    if (!(await this.hasKey())) return undefined;
    return this.openRouterModel(conv.model).catch(() => undefined);
  }

  overheadTokens(project: Project): number {
    return estimateOverhead(buildSystemPrompt(readHorizon(project), listPresets(project).map((x) => x.name)), agentTools(allTools()));
  }

  /**
   * Compact a conversation now (a summary by `model`, else an extractive digest), for /compact and
   * the command alike. Does nothing and returns undefined while an answer is still being written in it.
   */
  async compact(project: Project, conversationId: string, model?: TurnModel, signal?: AbortSignal): Promise<CompactionResult | undefined> {
    if (this.isRunning(conversationId)) return undefined;
    const conv = getConversation(project, conversationId)!;
    const contextWindow = model?.info.contextWindow ?? (await this.modelOf(conv)).contextWindow;
    const r = await compactConversation(project, conversationId, { contextWindow, overheadTokens: this.overheadTokens(project), summaryModel: model, signal });
    this.changed(conversationId);
    return r;
  }

  // ── conversations ─────────────────────────────────────────────────────

  /** The active conversation of the open project, if it still exists. */
  activeConversationId(): string | undefined {
    const p = this.projects.active;
    if (!p) return undefined;
    const id = this.context.globalState.get<Record<string, string>>(ACTIVE_KEY, {})[p.file];
    return id && getConversation(p, id) ? id : undefined;
  }

  setActive(id: string | undefined): void {
    const p = this.projects.active;
    if (!p) return;
    const map = { ...this.context.globalState.get<Record<string, string>>(ACTIVE_KEY, {}) };
    if (map[p.file] === id) return;
    if (id) map[p.file] = id;
    else delete map[p.file];
    void this.context.globalState.update(ACTIVE_KEY, map);
    this.activeChanged.fire(id);
  }

  /** The next @pyops request in a fresh chat continues this conversation (instead of starting one). */
  continueInChat(id: string): void {
    this.pendingContinue = id;
    this.setActive(id);
  }

  takePendingContinue(): string | undefined {
    const id = this.pendingContinue;
    this.pendingContinue = undefined;
    return id;
  }

  /** A new, empty conversation with the default reasoning effort; becomes the active one. */
  newConversation(project: Project): Conversation {
    const conv = createConversation(project, { reasoningEffort: this.defaultEffort() });
    this.setActive(conv.id);
    this.conversationsChanged.fire(undefined);
    return conv;
  }

  /** Tell listeners a conversation changed outside a turn (rename, compaction, report…). */
  changed(conversationId?: string): void {
    this.conversationsChanged.fire(conversationId);
  }

  /** Add a PyOps note to a conversation (the model reads the text next turn; the data part is for the UI). */
  appendReport(project: Project, conversationId: string, text: string, data: Omit<ReportData, 'at'>): UIMessage {
    const message = reportMessage(newId(), text, data);
    appendMessage(project, conversationId, message);
    this.conversationsChanged.fire(conversationId);
    return message;
  }

  recordResponse(r: ResponseRecord): void {
    this.recentResponses.push(r);
    if (this.recentResponses.length > 10) this.recentResponses.shift();
  }

  // ── runs ──────────────────────────────────────────────────────────────

  isRunning(conversationId: string): boolean {
    return this.running.has(conversationId);
  }

  runningConversations(): Array<{ conversationId: string; startedAt: number; title: string }> {
    return [...this.running].map(([conversationId, r]) => ({ conversationId, ...r }));
  }

  async stop(conversationId: string): Promise<boolean> {
    const r = await this.runs.stop(conversationId);
    if (r.stopped) this.conversationsChanged.fire(conversationId);
    return r.stopped;
  }

  /** One assistant turn against the open project with the full tool set, tracked for the UI. */
  async turn(
    opts: Omit<TurnOptions, 'runs' | 'tools' | 'catalog' | 'keyHint' | 'game' | 'caller'> & {
      source: 'openrouter' | 'vscode';
      /** For VS Code models: what the gauge should show. */
      vscodeModel?: { modelId: string; contextWindow: number };
    },
  ): Promise<TurnResult> {
    const { source, vscodeModel, ...turnOpts } = opts;
    const chunkTypes: string[] = [];
    let conversationId = opts.conversationId ?? '';
    const onChunk = (c: UIMessageChunk) => {
      // The first chunk comes after the run is in the store: views may subscribe to it now.
      if (!chunkTypes.length) this.runsChanged.fire();
      chunkTypes.push(c.type);
      opts.onChunk?.(c);
    };
    if (conversationId) this.markRunning(conversationId);
    if (conversationId && vscodeModel) this.vscodeModels.set(conversationId, vscodeModel);
    if (conversationId && source === 'openrouter') this.vscodeModels.delete(conversationId);
    try {
      const result = await runTurn({ ...turnOpts, onChunk, runs: this.runs, tools: allTools(), catalog: this.catalog(), keyHint: KEY_HINT, game: this.game(), caller: 'agent' });
      conversationId = result.conversationId;
      this.recentTurns.push({
        conversationId,
        source,
        chunkTypes,
        message: result.message,
        finishReason: result.finishReason,
        aborted: result.aborted,
        modelId: result.modelId,
        requestedModel: result.requestedModel,
        usage: result.usage,
        error: result.error?.message,
      });
      if (this.recentTurns.length > 10) this.recentTurns.shift();
      void result.title.then((t) => {
        if (t) this.conversationsChanged.fire(conversationId);
      });
      return result;
    } finally {
      if (conversationId) this.running.delete(conversationId);
      this.runningContext();
      this.runsChanged.fire();
      this.conversationsChanged.fire(conversationId || undefined);
    }
  }

  private markRunning(conversationId: string): void {
    const p = this.projects.active;
    const title = (p && getConversation(p, conversationId)?.title) || 'New chat';
    this.running.set(conversationId, { startedAt: Date.now(), title });
    this.runningContext();
    this.runsChanged.fire();
  }

  /** `pyops.assistantRunning` for menus (the panel's Stop button). */
  private runningContext(): void {
    void vscode.commands.executeCommand('setContext', 'pyops.assistantRunning', this.running.size > 0);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.conversationsChanged.dispose();
    this.activeChanged.dispose();
    this.runsChanged.dispose();
    this.modelsChanged.dispose();
  }
}

export { DEFAULT_MODEL };
