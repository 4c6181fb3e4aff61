// One chat turn, end to end (ARCHITECTURE "A chat turn"): load or create the conversation →
// persist the user message at once → resolve the model → compact if the context needs it (saved
// before generation) → start a run (abort signal, replay buffer) → system prompt with the current
// horizon contract → stream with tools and the step bound → save the assistant message with the
// last step's usage and the concrete model id → title the first exchange (with the same model). Nothing a user typed
// or a model produced is lost on failure: errors come back as a result with the partial answer
// saved, never as an exception.
import type { UIMessage, UIMessageChunk } from 'ai';
import type { Project } from '../db/project';
import type { AnyTool, ToolContext } from './tools/types';
import type { ModelCatalog } from './models/catalog';
import type { TurnModel } from './models/resolve';
import { describeModelError, type ModelFailure } from './models/errors';
import { agentTools, toAiTools } from './agent/tools';
import { runAgent, type TurnUsage, type AssistantMetadata } from './agent/loop';
import { buildSystemPrompt, MAX_STEPS } from './prompt/system';
import { readHorizon } from './prompt/horizon';
import { listPresets } from '../planning/modulePresets';
import { estimateOverhead } from './compaction/estimate';
import { COMPACTION_TARGET, compactMessages, estimateForModel, type CompactionResult } from './compaction/compact';
import { contextWindowFor, prepareTurnContext, saveCompaction } from './compaction/context';
import { pruneToolOutputs } from './compaction/prune';
import {
  appendMessage,
  createConversation,
  getConversation,
  loadMessages,
  newId,
  recordUsage,
  syncMessages,
  truncateFrom,
  updateConversation,
  upsertMessage,
  ConversationError,
  type Conversation,
} from './conversations/store';
import { deriveTitle, generateTitle, isAutomaticTitle, messageText } from './conversations/title';
import { hasContent, type Run, type RunStore } from './runs/store';

export interface TurnOptions {
  project: Project;
  /** Conversation to continue; created (with this id, if given) when it does not exist. */
  conversationId?: string;
  /** The new user message. Omit to answer the stored transcript as it stands (retry, edit). */
  message?: string | UIMessage;
  /** The model, or how to get it once the conversation (and its override) is known. */
  model: TurnModel | ((conversation: Conversation) => Promise<TurnModel>);
  tools: readonly AnyTool[];
  /** Process-wide run store; without one the turn still runs, just without replay/stop. */
  runs?: RunStore;
  /** Host cancellation (e.g. VS Code's CancellationToken); same effect as stopping the run. */
  signal?: AbortSignal;
  /** Every UI message chunk of the turn, in order (also pushed to the run). */
  onChunk?: (chunk: UIMessageChunk) => void;
  caller?: ToolContext['caller'];
  game?: unknown;
  maxSteps?: number;
  /** Provider retries per model call (SDK default 2). */
  maxRetries?: number;
  /**
   * 'background' (default) returns before the title is written; 'await' waits for it. The title
   * (like a compaction summary) always comes from the turn's own model: a conversation goes only
   * to the model its user chose, never to another provider for a side job.
   */
  title?: 'background' | 'await' | 'off';
  /** Looks up the window of the last concrete model id. */
  catalog?: ModelCatalog;
  /** How this host tells a user to store a key (appended to key errors). */
  keyHint?: string;
  now?: () => Date;
}

export interface TurnResult {
  conversationId: string;
  conversation: Conversation;
  userMessage?: UIMessage;
  /** The assistant message as saved (undefined when nothing was generated or saved). */
  message?: UIMessage;
  finishReason: string;
  aborted: boolean;
  stepCapHit: boolean;
  /** Last step's usage. */
  usage: TurnUsage | null;
  /** Concrete model id that served the last step. */
  modelId: string | null;
  /** The model id the turn asked for (alias or concrete). */
  requestedModel: string | null;
  error?: ModelFailure;
  compaction?: CompactionResult;
  /** A "context too long" refusal was answered by compacting and retrying once. */
  contextRetried: boolean;
  /** Resolves once title generation is over (the new title, or undefined). Never rejects. */
  title: Promise<string | undefined>;
}

function userMessageOf(m: string | UIMessage): UIMessage {
  if (typeof m === 'string') return { id: newId(), role: 'user', parts: [{ type: 'text', text: m }] };
  return { ...m, id: m.id || newId(), role: 'user' };
}

/** Chunks and a saved message for a failure that happened before the model produced anything. */
function failureMessage(id: string, failure: ModelFailure, emit: (c: UIMessageChunk) => void): UIMessage {
  const data = { kind: failure.kind, status: failure.status ?? null, message: failure.message };
  emit({ type: 'start', messageId: id });
  emit({ type: 'error', errorText: failure.message });
  emit({ type: 'data-turn-error', data } as UIMessageChunk);
  emit({ type: 'finish', finishReason: 'error', messageMetadata: { finishReason: 'error' } });
  return { id, role: 'assistant', parts: [{ type: 'data-turn-error', data } as UIMessage['parts'][number]], metadata: { finishReason: 'error' } satisfies AssistantMetadata };
}

const resolved = Promise.resolve<string | undefined>(undefined);

export async function runTurn(opts: TurnOptions): Promise<TurnResult> {
  const { project } = opts;
  const now = opts.now ?? (() => new Date());

  // 1. Conversation.
  let conv = (opts.conversationId ? getConversation(project, opts.conversationId) : undefined) ?? createConversation(project, { id: opts.conversationId });
  let stored = loadMessages(project, conv.id);
  // A saved failure (only a data-turn-error part) is not an exchange worth titling from.
  const hadAssistant = stored.some((m) => m.role === 'assistant' && hasContent({ ...m, parts: m.parts.filter((p) => p.type !== 'data-turn-error') }));

  // 2. The user message, saved before anything can fail.
  let userMessage: UIMessage | undefined;
  if (opts.message !== undefined) {
    userMessage = userMessageOf(opts.message);
    const at = stored.findIndex((m) => m.id === userMessage!.id);
    if (at >= 0) {
      // A host re-submitted a message it already sent (edit/retry): answer it again from there.
      stored = [...stored.slice(0, at), userMessage];
      syncMessages(project, conv.id, stored, { usage: null });
      // Reloaded: the sync cleared the last measured usage, which belonged to the longer history.
      conv = getConversation(project, conv.id)!;
      if (!conv.title) conv = updateConversation(project, conv.id, { title: deriveTitle(messageText(stored.find((m) => m.role === 'user'))) });
    } else {
      // One durable write for the message and the first title.
      const um = userMessage;
      const name = conv.title ? undefined : deriveTitle(messageText(stored.find((m) => m.role === 'user') ?? um));
      project.write(() => {
        appendMessage(project, conv.id, um);
        if (name) updateConversation(project, conv.id, { title: name });
      });
      stored = [...stored, userMessage];
      if (name) conv = { ...conv, title: name };
    }
  } else {
    const last = stored[stored.length - 1];
    if (!last || last.role !== 'user') throw new ConversationError('Nothing to answer: the conversation does not end with a user message.', 'bad-message');
    userMessage = last;
  }

  const emitters: Array<(c: UIMessageChunk) => void> = [];
  const emit = (c: UIMessageChunk) => {
    for (const e of emitters) {
      try {
        e(c);
      } catch {
        // listeners never break a turn
      }
    }
  };
  if (opts.onChunk) emitters.push(opts.onChunk);

  const base = {
    conversationId: conv.id,
    userMessage,
    aborted: false,
    stepCapHit: false,
    usage: null,
    modelId: null,
    contextRetried: false,
    title: resolved,
  };

  // 3. Run: abort signal and replay buffer; a new run replaces this conversation's previous one.
  // Registered before anything is awaited, so a turn sent later always replaces an earlier one.
  const run: Run | undefined = opts.runs?.start(conv.id);
  const local = new AbortController();
  const signal = run?.signal ?? local.signal;
  const onHostAbort = () => (run ? run.abort('cancelled') : local.abort());
  if (opts.signal?.aborted) onHostAbort();
  opts.signal?.addEventListener('abort', onHostAbort, { once: true });
  if (run) emitters.push((c) => run.push(c));

  const assistantId = newId();
  let partial: UIMessage | undefined;
  if (run) {
    run.snapshot = () => partial;
    run.persist = (m) => {
      if (!project.isClosed) upsertMessage(project, conv.id, m, { afterId: userMessage!.id });
    };
  }

  try {
    // 4. Model (after the conversation: its override decides).
    let model: TurnModel;
    try {
      model = typeof opts.model === 'function' ? await opts.model(conv) : opts.model;
    } catch (err) {
      const error = describeModelError(err, opts.keyHint);
      const message = failureMessage(newId(), error, emit);
      upsertMessage(project, conv.id, message, { afterId: userMessage.id });
      return { ...base, conversation: getConversation(project, conv.id)!, message, finishReason: 'error', requestedModel: null, error };
    }
    const stoppedEarly = (): TurnResult => ({ ...base, conversation: project.isClosed ? conv : getConversation(project, conv.id)!, finishReason: 'aborted', aborted: true, requestedModel: model.modelId });
    if (signal.aborted) return stoppedEarly();

    // 5. Horizon contract and prompt overhead.
    const system = buildSystemPrompt(readHorizon(project), listPresets(project).map((x) => x.name));
    const offered = agentTools(opts.tools);
    const overheadTokens = estimateOverhead(system, offered);
    const contextWindow = await contextWindowFor(conv, model, opts.catalog);

    // 6. Compaction, saved before generation.
    const prepared = await prepareTurnContext({ project, conversation: conv, messages: stored, overheadTokens, contextWindow, summaryModel: model, signal, now });
    // Stopped (or replaced) while compacting: nothing was saved, and nothing is generated.
    if (signal.aborted) return stoppedEarly();
    let transcript = prepared.messages;
    let compaction = prepared.compaction;
    if (compaction) {
      emit({
        type: 'data-pyops-compaction',
        transient: true,
        data: { summarized: compaction.summarizedCount, kept: compaction.keptCount, method: compaction.method, estimatedBefore: compaction.estimatedBefore, estimatedAfter: compaction.estimatedAfter },
      } as UIMessageChunk);
    }

    // 7. Stream.
    const aiTools = toAiTools(offered, { project, game: opts.game, caller: opts.caller ?? 'agent' });
    const agentOpts = {
      model,
      system,
      tools: aiTools,
      messageId: assistantId,
      reasoningEffort: conv.reasoningEffort,
      maxSteps: opts.maxSteps ?? MAX_STEPS,
      maxRetries: opts.maxRetries,
      signal,
      onChunk: emit,
      onMessage: (m: UIMessage) => {
        partial = m;
      },
      keyHint: opts.keyHint,
      now,
    };
    let agent = await runAgent({ ...agentOpts, messages: prepared.modelMessages, holdForContextRetry: true });
    let contextRetried = false;
    if (agent.contextRetryable) {
      // The provider says the request is too long although our estimate disagreed: compact
      // deterministically (no model call) and retry once. The estimate just proved low, so the
      // target is half of what it says was sent, not the usual share of the window.
      const sentEstimate = estimateForModel(transcript, overheadTokens).total;
      const target = Math.min(COMPACTION_TARGET, (0.5 * sentEstimate) / contextWindow);
      const forced = await compactMessages(transcript, { contextWindow, overheadTokens, force: true, target, now });
      if (forced.compacted) {
        saveCompaction(project, conv.id, forced);
        transcript = forced.messages;
        compaction = forced;
        contextRetried = true;
        agent = await runAgent({ ...agentOpts, messages: pruneToolOutputs(transcript, 1), holdForContextRetry: false });
      }
      if (agent.contextRetryable || !forced.compacted) {
        const error = agent.error ?? describeModelError(agent.rawError, opts.keyHint);
        const message = failureMessage(assistantId, error, emit);
        upsertMessage(project, conv.id, message, { afterId: userMessage.id });
        return { ...base, conversation: getConversation(project, conv.id)!, message, finishReason: 'error', requestedModel: model.modelId, error, compaction, contextRetried };
      }
    }

    // 8. Save the assistant message with the last step's usage and concrete model id.
    let saved: UIMessage | undefined;
    const usage = agent.usage ? { ...agent.usage, modelId: agent.modelId } : null;
    if (hasContent(agent.message) || agent.error) {
      saved = agent.message;
      if (project.isClosed) saved = undefined;
      else upsertMessage(project, conv.id, saved, { afterId: userMessage.id, usage });
    } else if (!project.isClosed && usage) {
      recordUsage(project, conv.id, usage);
    }
    const error = agent.error;

    // 9. Title the first completed exchange.
    let title: Promise<string | undefined> = resolved;
    const mode = opts.title ?? 'background';
    if (mode !== 'off' && !hadAssistant && !agent.aborted && !error && saved) {
      title = titleFirstExchange(project, conv.id, model, userMessage, saved);
      if (mode === 'await') await title;
    }

    return {
      ...base,
      conversation: project.isClosed ? conv : getConversation(project, conv.id)!,
      message: saved,
      finishReason: agent.finishReason,
      aborted: agent.aborted,
      stepCapHit: agent.stepCapHit,
      usage: agent.usage,
      modelId: agent.modelId,
      requestedModel: model.modelId,
      error,
      compaction,
      contextRetried,
      title,
    };
  } finally {
    opts.signal?.removeEventListener('abort', onHostAbort);
    if (run) opts.runs!.finish(run);
  }
}

async function titleFirstExchange(project: Project, conversationId: string, model: TurnModel, user: UIMessage, assistant: UIMessage): Promise<string | undefined> {
  try {
    const title = await generateTitle({ model, userText: messageText(user), assistantText: messageText(assistant) });
    if (!title || project.isClosed) return undefined;
    const conv = getConversation(project, conversationId);
    if (!conv || !isAutomaticTitle(conv.title, loadMessages(project, conversationId))) return undefined;
    updateConversation(project, conversationId, { title });
    return title;
  } catch {
    return undefined;
  }
}

type RerunOptions = Omit<TurnOptions, 'message' | 'conversationId'> & { conversationId: string };

/** Edit a user message: drop it and everything after, then answer the edited text. */
export async function editAndRerun(opts: RerunOptions & { messageId: string; message: string | UIMessage }): Promise<TurnResult> {
  const messages = loadMessages(opts.project, opts.conversationId);
  const target = messages.find((m) => m.id === opts.messageId);
  if (!target) throw new ConversationError(`Message "${opts.messageId}" is not in conversation "${opts.conversationId}".`, 'not-found');
  if (target.role !== 'user') throw new ConversationError('Only a user message can be edited.', 'bad-message');
  truncateFrom(opts.project, opts.conversationId, opts.messageId);
  const edited = typeof opts.message === 'string' ? opts.message : { ...opts.message, id: newId() };
  return runTurn({ ...opts, message: edited });
}

/** Retry an assistant message: drop it (and anything after) and answer the preceding transcript again. */
export async function retryAssistant(opts: RerunOptions & { messageId: string }): Promise<TurnResult> {
  const messages = loadMessages(opts.project, opts.conversationId);
  const i = messages.findIndex((m) => m.id === opts.messageId);
  if (i < 0) throw new ConversationError(`Message "${opts.messageId}" is not in conversation "${opts.conversationId}".`, 'not-found');
  if (messages[i].role !== 'assistant') throw new ConversationError('Only an assistant message can be retried.', 'bad-message');
  truncateFrom(opts.project, opts.conversationId, opts.messageId);
  return runTurn({ ...opts });
}
