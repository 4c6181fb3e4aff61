// A model's stream as the response parts a VS Code language-model provider reports: text and tool
// calls, with every secret taken out first (a key split across text deltas included), because the
// feature that asked — Copilot Chat or any other extension — shows or stores whatever it gets.
import type * as vscode from 'vscode';
import type { TextStreamPart, ToolSet } from 'ai';
import { redactDeep, StreamRedactor } from '../../core/assistant/models/redact';

export interface ResponsePartApi {
  LanguageModelTextPart: typeof vscode.LanguageModelTextPart;
  LanguageModelToolCallPart: typeof vscode.LanguageModelToolCallPart;
}

/** Report `stream` through `report`; a stream error is thrown as `describe(error)` after what came before it. */
export async function reportResponse(
  stream: AsyncIterable<TextStreamPart<ToolSet>>,
  report: (part: vscode.LanguageModelResponsePart) => void,
  api: ResponsePartApi,
  describe: (error: unknown) => string,
): Promise<void> {
  const text = new StreamRedactor();
  const flush = () => {
    const rest = text.flush();
    if (rest) report(new api.LanguageModelTextPart(rest));
  };
  for await (const part of stream) {
    if (part.type === 'text-delta') {
      const safe = text.push(part.text);
      if (safe) report(new api.LanguageModelTextPart(safe));
    } else if (part.type === 'tool-call') {
      flush();
      const input = part.input && typeof part.input === 'object' ? redactDeep(part.input as object) : {};
      report(new api.LanguageModelToolCallPart(part.toolCallId, part.toolName, input));
    } else if (part.type === 'error') {
      flush();
      throw new Error(describe(part.error));
    }
  }
  flush();
}
