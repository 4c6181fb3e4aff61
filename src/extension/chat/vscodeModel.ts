// An AI SDK language model (spec v4) over a VS Code chat model (`vscode.LanguageModelChat`), so the
// core agent loop can run on whatever model the user picked in the chat panel — Copilot or any
// other provider — without an OpenRouter key. Prompts become LanguageModelChatMessages (system text
// rides in a leading user message: the stable API has no system role), AI SDK tools become
// LanguageModelChatTools, tool calls and results map to LanguageModelToolCallPart/ResultPart, and
// the response stream comes back as AI SDK stream parts. VS Code reports no token usage, so none is
// claimed. The VS Code classes are passed in, which keeps this module testable without an editor.
import type * as vscode from 'vscode';
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4ToolResultOutput,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import type { TurnModel } from '../../core/assistant/models/resolve';
import { DEFAULT_CONTEXT_WINDOW, REASONING_EFFORTS } from '../../core/assistant/models/catalog';

/** The parts of the `vscode` namespace the adapter needs (the real module, or a test stub). */
export interface VsCodeLmApi {
  LanguageModelChatMessage: Pick<typeof vscode.LanguageModelChatMessage, 'User' | 'Assistant'>;
  LanguageModelTextPart: typeof vscode.LanguageModelTextPart;
  LanguageModelToolCallPart: typeof vscode.LanguageModelToolCallPart;
  LanguageModelToolResultPart: typeof vscode.LanguageModelToolResultPart;
  LanguageModelChatToolMode: typeof vscode.LanguageModelChatToolMode;
  CancellationTokenSource: typeof vscode.CancellationTokenSource;
}

export interface VsCodeModelOptions {
  /** Shown by VS Code when it asks the user to allow PyOps to use the model. */
  justification?: string;
}

const NO_USAGE: LanguageModelV4Usage = {
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

/** Text the model reads for a tool result. */
export function toolOutputText(output: LanguageModelV4ToolResultOutput): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return JSON.stringify(output.value);
    case 'execution-denied':
      return `The user denied this tool call${output.reason ? `: ${output.reason}` : '.'}`;
    case 'content':
      return output.value.map((p) => (p.type === 'text' ? p.text : `[${p.type}]`)).join('\n');
  }
}

/** AI SDK prompt → VS Code chat messages. */
export function toVsCodeMessages(prompt: LanguageModelV4Prompt, api: VsCodeLmApi): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  const system = prompt.filter((m) => m.role === 'system').map((m) => m.content as string);
  if (system.length) out.push(api.LanguageModelChatMessage.User(`Instructions for this conversation (follow them):\n\n${system.join('\n\n')}`));
  for (const m of prompt) {
    if (m.role === 'system') continue;
    if (m.role === 'user') {
      const parts = m.content.map((p) => new api.LanguageModelTextPart(p.type === 'text' ? p.text : `[attached file: ${p.filename ?? p.mediaType}]`));
      if (parts.length) out.push(api.LanguageModelChatMessage.User(parts));
      continue;
    }
    if (m.role === 'assistant') {
      const parts: Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart> = [];
      const results: vscode.LanguageModelToolResultPart[] = [];
      for (const p of m.content) {
        if (p.type === 'text' && p.text) parts.push(new api.LanguageModelTextPart(p.text));
        else if (p.type === 'tool-call') parts.push(new api.LanguageModelToolCallPart(p.toolCallId, p.toolName, asObject(p.input)));
        // Provider-executed results inside an assistant message: hand them back like any result.
        else if (p.type === 'tool-result') results.push(new api.LanguageModelToolResultPart(p.toolCallId, [new api.LanguageModelTextPart(toolOutputText(p.output))]));
      }
      if (parts.length) out.push(api.LanguageModelChatMessage.Assistant(parts));
      if (results.length) out.push(api.LanguageModelChatMessage.User(results));
      continue;
    }
    if (m.role === 'tool') {
      const results = m.content
        .filter((p) => p.type === 'tool-result')
        .map((p) => new api.LanguageModelToolResultPart(p.toolCallId, [new api.LanguageModelTextPart(toolOutputText(p.output))]));
      if (results.length) out.push(api.LanguageModelChatMessage.User(results));
    }
  }
  return out;
}

function asObject(input: unknown): object {
  if (typeof input === 'string') {
    try {
      const v = JSON.parse(input);
      return v && typeof v === 'object' ? v : { value: v };
    } catch {
      return { input };
    }
  }
  return input && typeof input === 'object' ? input : {};
}

/** AI SDK tools and tool choice → VS Code request options. */
export function toVsCodeTools(opts: Pick<LanguageModelV4CallOptions, 'tools' | 'toolChoice'>, api: VsCodeLmApi): Pick<vscode.LanguageModelChatRequestOptions, 'tools' | 'toolMode'> {
  const choice = opts.toolChoice ?? { type: 'auto' };
  if (choice.type === 'none') return {};
  let tools = (opts.tools ?? []).filter((t) => t.type === 'function');
  if (choice.type === 'tool') tools = tools.filter((t) => t.name === choice.toolName);
  if (!tools.length) return {};
  return {
    tools: tools.map((t) => ({ name: t.name, description: t.description ?? t.name, inputSchema: t.inputSchema as object })),
    toolMode: choice.type === 'required' || choice.type === 'tool' ? api.LanguageModelChatToolMode.Required : api.LanguageModelChatToolMode.Auto,
  };
}

/** A VS Code model error in words a user can act on. */
export function describeVsCodeModelError(err: unknown, modelName: string): Error {
  const e = err as { code?: string; message?: string; name?: string };
  const msg = (e?.message ?? String(err)).trim();
  let text: string;
  switch (e?.code) {
    case 'NoPermissions':
      text = `PyOps is not allowed to use the model "${modelName}" (${msg}). Allow it when VS Code asks, or pick another model in the chat's model picker.`;
      break;
    case 'Blocked':
      text = `The model "${modelName}" refused the request: quota or rate limit (${msg}). Wait a moment and retry, or pick another model.`;
      break;
    case 'NotFound':
      text = `The model "${modelName}" is no longer available (${msg}). Pick another model in the chat's model picker.`;
      break;
    default:
      text = `The model "${modelName}" failed: ${msg}. Retry, or pick another model in the chat's model picker.`;
  }
  const out = new Error(text);
  out.name = 'VsCodeModelError';
  (out as Error & { cause?: unknown }).cause = err;
  return out;
}

export function vscodeLanguageModel(chat: vscode.LanguageModelChat, api: VsCodeLmApi, options: VsCodeModelOptions = {}): LanguageModelV4 {
  const modelId = `${chat.vendor}/${chat.id}`;
  const doStream = async (call: LanguageModelV4CallOptions) => {
    const cts = new api.CancellationTokenSource();
    const onAbort = () => cts.cancel();
    if (call.abortSignal?.aborted) cts.cancel();
    call.abortSignal?.addEventListener('abort', onAbort, { once: true });
    const messages = toVsCodeMessages(call.prompt, api);
    const requestOptions: vscode.LanguageModelChatRequestOptions = { ...toVsCodeTools(call, api), ...(options.justification ? { justification: options.justification } : {}) };
    let response: vscode.LanguageModelChatResponse;
    try {
      response = await chat.sendRequest(messages, requestOptions, cts.token);
    } catch (err) {
      call.abortSignal?.removeEventListener('abort', onAbort);
      cts.dispose();
      if (call.abortSignal?.aborted) throw call.abortSignal.reason ?? err;
      throw describeVsCodeModelError(err, chat.name);
    }
    const stream = new ReadableStream<LanguageModelV4StreamPart>({
      async start(controller) {
        controller.enqueue({ type: 'stream-start', warnings: [] });
        controller.enqueue({ type: 'response-metadata', id: undefined, modelId, timestamp: new Date() });
        let textOpen = false;
        let textId = 0;
        let toolCalls = 0;
        const closeText = () => {
          if (textOpen) controller.enqueue({ type: 'text-end', id: `t${textId}` });
          textOpen = false;
        };
        try {
          for await (const part of response.stream) {
            if (call.abortSignal?.aborted) break;
            if (part instanceof api.LanguageModelTextPart) {
              if (!part.value) continue;
              if (!textOpen) {
                textId++;
                textOpen = true;
                controller.enqueue({ type: 'text-start', id: `t${textId}` });
              }
              controller.enqueue({ type: 'text-delta', id: `t${textId}`, delta: part.value });
            } else if (part instanceof api.LanguageModelToolCallPart) {
              closeText();
              toolCalls++;
              controller.enqueue({ type: 'tool-call', toolCallId: part.callId || `vscode-call-${toolCalls}`, toolName: part.name, input: JSON.stringify(part.input ?? {}) });
            }
            // Data parts (and anything newer) carry nothing the loop can use.
          }
          closeText();
          const finishReason: LanguageModelV4FinishReason = call.abortSignal?.aborted
            ? { unified: 'other', raw: 'cancelled' }
            : toolCalls
              ? { unified: 'tool-calls', raw: 'tool_calls' }
              : { unified: 'stop', raw: 'stop' };
          controller.enqueue({ type: 'finish', usage: NO_USAGE, finishReason });
        } catch (err) {
          closeText();
          if (!call.abortSignal?.aborted) controller.enqueue({ type: 'error', error: describeVsCodeModelError(err, chat.name) });
          controller.enqueue({ type: 'finish', usage: NO_USAGE, finishReason: { unified: call.abortSignal?.aborted ? 'other' : 'error', raw: undefined } });
        } finally {
          call.abortSignal?.removeEventListener('abort', onAbort);
          cts.dispose();
          controller.close();
        }
      },
    });
    return { stream, request: { body: { messages: messages.length, tools: requestOptions.tools?.length ?? 0 } } };
  };

  return {
    specificationVersion: 'v4',
    provider: `vscode.${chat.vendor}`,
    modelId,
    supportedUrls: {},
    doStream,
    async doGenerate(call) {
      // Titles and summaries: the same request, collected.
      const { stream } = await doStream(call);
      const content: LanguageModelV4Content[] = [];
      let text = '';
      let finishReason: LanguageModelV4FinishReason = { unified: 'stop', raw: 'stop' };
      const reader = stream.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        if (value.type === 'text-delta') text += value.delta;
        else if (value.type === 'tool-call') content.push(value);
        else if (value.type === 'finish') finishReason = value.finishReason;
        else if (value.type === 'error') throw value.error;
      }
      if (text) content.unshift({ type: 'text', text });
      return { content, finishReason, usage: NO_USAGE, warnings: [], response: { modelId, timestamp: new Date() } };
    },
  };
}

/** A VS Code chat model as a turn model: its id is `vendor/id`, its window its input limit. */
export function vscodeTurnModel(chat: vscode.LanguageModelChat, api: VsCodeLmApi, options: VsCodeModelOptions = {}): TurnModel {
  const modelId = `${chat.vendor}/${chat.id}`;
  return {
    model: vscodeLanguageModel(chat, api, options),
    modelId,
    info: { requestedId: modelId, id: modelId, contextWindow: chat.maxInputTokens > 0 ? chat.maxInputTokens : DEFAULT_CONTEXT_WINDOW, supportsReasoning: false, efforts: [...REASONING_EFFORTS], source: 'offline' },
  };
}
