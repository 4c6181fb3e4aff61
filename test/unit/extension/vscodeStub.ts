// The few `vscode` classes the language-model adapters use, as plain stand-ins, plus a scripted
// `LanguageModelChat`: each sendRequest answers with the next list of parts and records what it got.
import type * as vscode from 'vscode';
import type { VsCodeLmApi } from '../../../src/extension/chat/vscodeModel';

export class TextPart {
  constructor(public value: string) {}
}
export class ToolCallPart {
  constructor(
    public callId: string,
    public name: string,
    public input: object,
  ) {}
}
export class ToolResultPart {
  constructor(
    public callId: string,
    public content: unknown[],
  ) {}
}
export class DataPart {
  constructor(
    public data: Uint8Array,
    public mimeType: string,
  ) {}
}
export class ChatMessage {
  constructor(
    public role: number,
    public content: unknown[],
    public name?: string,
  ) {}
  static User(content: string | unknown[], name?: string) {
    return new ChatMessage(1, typeof content === 'string' ? [new TextPart(content)] : content, name);
  }
  static Assistant(content: string | unknown[], name?: string) {
    return new ChatMessage(2, typeof content === 'string' ? [new TextPart(content)] : content, name);
  }
}
export class TokenSource {
  cancelled = false;
  private listeners: Array<() => void> = [];
  readonly token = {
    get isCancellationRequested(): boolean {
      return false;
    },
    onCancellationRequested: (l: () => void) => {
      this.listeners.push(l);
      return { dispose() {} };
    },
  };
  cancel() {
    this.cancelled = true;
    for (const l of this.listeners) l();
  }
  dispose() {}
}

export const stubApi = {
  LanguageModelChatMessage: ChatMessage,
  LanguageModelTextPart: TextPart,
  LanguageModelToolCallPart: ToolCallPart,
  LanguageModelToolResultPart: ToolResultPart,
  LanguageModelChatToolMode: { Auto: 1, Required: 2 },
  CancellationTokenSource: TokenSource,
} as unknown as VsCodeLmApi;

export interface RecordedRequest {
  messages: ChatMessage[];
  options: vscode.LanguageModelChatRequestOptions;
  token: TokenSource['token'];
}

/** A chat model answering each request with the next scripted part list (or throwing it). */
export function stubChat(script: Array<unknown[] | Error | ((token: TokenSource['token']) => AsyncIterable<unknown>)>, over: Partial<vscode.LanguageModelChat> = {}) {
  const requests: RecordedRequest[] = [];
  const chat = {
    id: 'stub-1',
    name: 'Stub Model',
    vendor: 'stubvendor',
    family: 'stub',
    version: '1',
    maxInputTokens: 64_000,
    async sendRequest(messages: ChatMessage[], options: vscode.LanguageModelChatRequestOptions, token: TokenSource['token']) {
      requests.push({ messages, options, token });
      const next = script[requests.length - 1];
      if (!next) throw new Error(`stub model: no scripted answer for request #${requests.length}`);
      if (next instanceof Error) throw next;
      const stream = typeof next === 'function' ? next(token) : (async function* () {
        for (const p of next) yield p;
      })();
      return { stream, text: (async function* () {})() };
    },
    async countTokens() {
      return 1;
    },
    ...over,
  } as unknown as vscode.LanguageModelChat;
  return { chat, requests };
}
