// The agent loop: one `streamText` call with the tool set and a step bound, streamed as AI SDK UI
// message chunks (for VS Code, the side panel and the CLI) while the assistant message is built
// for persistence. Every chunk passes the secret redaction first (redactChunks.ts), so nothing
// built from the stream can carry a key. It never throws: provider failures, aborts and the step
// cap come back in the result, with the partial message intact. Accepts any AI SDK LanguageModel.
import { readUIMessageStream, stepCountIs, streamText, type FinishReason, type ToolSet, type UIMessage, type UIMessageChunk } from 'ai';
import type { TurnModel } from '../models/resolve';
import type { ReasoningEffort } from '../models/catalog';
import { reasoningOptions } from '../models/openrouter';
import { describeModelError, isContextLengthError, type ModelFailure } from '../models/errors';
import { MAX_STEPS } from '../prompt/system';
import { toModelMessages } from './messages';
import { ChunkRedactor } from './redactChunks';

export interface TurnUsage {
  inputTokens: number | null;
  outputTokens: number | null;
  /** input + output of the last step; null when the provider reported neither. */
  totalTokens: number | null;
}

/** Stored on the assistant message (`metadata`). */
export interface AssistantMetadata {
  createdAt?: string;
  /** Concrete id of the model that served the last step. */
  modelId?: string;
  usage?: TurnUsage;
  finishReason?: string;
  stepCapHit?: boolean;
}

export interface AgentOptions {
  model: TurnModel;
  /** System prompt (policy + horizon contract). */
  system: string;
  /** Transcript to answer, ending with the user message (already pruned for the model). */
  messages: readonly UIMessage[];
  tools: ToolSet;
  /** Id for the assistant message being generated. */
  messageId: string;
  reasoningEffort?: ReasoningEffort | null;
  maxSteps?: number;
  signal?: AbortSignal;
  /** Provider retries per call (429/5xx); the SDK default is 2. */
  maxRetries?: number;
  /** Every UI message chunk, in order. */
  onChunk?: (chunk: UIMessageChunk) => void;
  /** The assistant message as built so far (after each chunk is applied). */
  onMessage?: (message: UIMessage) => void;
  /**
   * Withhold output until the model produces content, so that a "context too long" refusal can
   * be retried after compaction without the user ever seeing the failed attempt.
   */
  holdForContextRetry?: boolean;
  maxOutputTokens?: number;
  /** How the host tells a user to store a key, appended to key errors. */
  keyHint?: string;
  now?: () => Date;
}

export interface AgentResult {
  /** The assistant message as streamed (plus the step-limit notice when the cap was hit). */
  message: UIMessage;
  finishReason: FinishReason | 'aborted';
  aborted: boolean;
  stepCapHit: boolean;
  steps: number;
  /** The last step's usage (the last one that reported any). */
  usage: TurnUsage | null;
  /** Concrete model id reported for the last step. */
  modelId: string | null;
  error?: ModelFailure;
  /** The raw provider error, for logs and tests. */
  rawError?: unknown;
  /** Context-length refusal before any output: nothing was emitted, compaction and retry may help. */
  contextRetryable?: boolean;
}

export function stepLimitNotice(maxSteps: number): string {
  return `\n\n_I stopped after ${maxSteps} tool steps, the limit for one turn, before finishing. The work so far is above; reply "continue" and I will pick up where I left off._`;
}

/** Chunks that carry no content: safe to hold back while waiting to see whether the call failed. */
const PREAMBLE = new Set(['start', 'start-step', 'message-metadata']);

export async function runAgent(opts: AgentOptions): Promise<AgentResult> {
  const maxSteps = opts.maxSteps ?? MAX_STEPS;
  const now = opts.now ?? (() => new Date());
  const emit = (c: UIMessageChunk) => {
    try {
      opts.onChunk?.(c);
    } catch {
      // a failing listener must not break the turn
    }
  };

  // Build the message from the same chunks the listeners get.
  const pipe = new TransformStream<UIMessageChunk, UIMessageChunk>();
  const writer = pipe.writable.getWriter();
  let message: UIMessage = { id: opts.messageId, role: 'assistant', parts: [] };
  const built = (async () => {
    for await (const m of readUIMessageStream<UIMessage>({ stream: pipe.readable, onError: () => {} })) {
      message = m;
      try {
        opts.onMessage?.(m);
      } catch {
        // listeners are not part of the turn
      }
    }
  })();
  const push = async (c: UIMessageChunk) => {
    emit(c);
    await writer.write(c);
  };

  let steps = 0;
  let finishReason: FinishReason | undefined;
  let usage: TurnUsage | null = null;
  let modelId: string | null = null;
  let rawError: unknown;
  let aborted = false;

  const modelMessages = await toModelMessages(opts.messages, opts.tools);
  const result = streamText({
    model: opts.model.model,
    instructions: opts.system,
    messages: modelMessages,
    allowSystemInMessages: true,
    tools: opts.tools,
    stopWhen: stepCountIs(maxSteps),
    abortSignal: opts.signal,
    maxRetries: opts.maxRetries,
    maxOutputTokens: opts.maxOutputTokens,
    providerOptions: reasoningOptions(opts.reasoningEffort, opts.model.info.supportsReasoning) as any,
    onStepEnd: (step) => {
      steps++;
      finishReason = step.finishReason;
      const i = step.usage?.inputTokens;
      const o = step.usage?.outputTokens;
      if (typeof i === 'number' || typeof o === 'number') {
        usage = { inputTokens: i ?? null, outputTokens: o ?? null, totalTokens: (i ?? 0) + (o ?? 0) };
      }
      if (step.response?.modelId) modelId = step.response.modelId;
    },
    onError: ({ error }) => {
      rawError ??= error;
    },
    onAbort: () => {
      aborted = true;
    },
  });

  const redactor = new ChunkRedactor();
  const held: UIMessageChunk[] = [];
  let holding = !!opts.holdForContextRetry;
  let contextRetryable = false;
  try {
    const ui = result.toUIMessageStream({
      generateMessageId: () => opts.messageId,
      sendFinish: false,
      messageMetadata: ({ part }) => (part.type === 'start' ? ({ createdAt: now().toISOString() } satisfies AssistantMetadata) : undefined),
      onError: (e) => {
        rawError ??= e;
        return describeModelError(e, opts.keyHint).message;
      },
    });
    stream: for await (const raw of ui as AsyncIterable<UIMessageChunk>) {
      if (raw.type === 'abort') aborted = true;
      for (const chunk of redactor.chunk(raw)) {
        if (holding) {
          if (PREAMBLE.has(chunk.type)) {
            held.push(chunk);
            continue;
          }
          if (chunk.type === 'error' && isContextLengthError(rawError)) {
            contextRetryable = true;
            break stream;
          }
          holding = false;
          for (const h of held) await push(h);
        }
        await push(chunk);
      }
    }
  } catch (err) {
    // toUIMessageStream reports provider errors as chunks; anything thrown here is unexpected
    rawError ??= err;
  }

  if (contextRetryable) {
    await writer.close().catch(() => {});
    await built;
    return {
      message: { id: opts.messageId, role: 'assistant', parts: [] },
      finishReason: 'error',
      aborted: false,
      stepCapHit: false,
      steps,
      usage,
      modelId,
      error: describeModelError(rawError, opts.keyHint),
      rawError,
      contextRetryable: true,
    };
  }
  if (holding) for (const h of held) await push(h);
  // Parts the stream left open (a cut connection, an abort) still pass on what they held back.
  for (const chunk of redactor.end()) await push(chunk);

  aborted ||= !!opts.signal?.aborted;
  const error = !aborted && rawError !== undefined ? describeModelError(rawError, opts.keyHint) : undefined;
  const stepCapHit = !aborted && !error && finishReason === 'tool-calls' && steps >= maxSteps;
  if (stepCapHit) {
    const id = 'step-limit';
    await push({ type: 'text-start', id });
    await push({ type: 'text-delta', id, delta: stepLimitNotice(maxSteps).trimStart() });
    await push({ type: 'text-end', id });
  }
  if (error) {
    await push({ type: 'data-turn-error', data: { kind: error.kind, status: error.status ?? null, message: error.message } } as UIMessageChunk);
  }
  const final: FinishReason | 'aborted' = aborted ? 'aborted' : error ? 'error' : (finishReason ?? 'other');
  const metadata: AssistantMetadata = { finishReason: final, ...(modelId ? { modelId } : {}), ...(usage ? { usage } : {}), ...(stepCapHit ? { stepCapHit } : {}) };
  await push({ type: 'finish', finishReason: final === 'aborted' ? 'other' : final, messageMetadata: metadata });
  await writer.close().catch(() => {});
  await built;
  // JSON-clean (no undefined fields), so the returned message equals what a reload reads back.
  return { message: JSON.parse(JSON.stringify(message)) as UIMessage, finishReason: final, aborted, stepCapHit, steps, usage, modelId, error, rawError };
}
