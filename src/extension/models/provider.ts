// PyOps' OpenRouter models as a VS Code language-model provider: the curated list plus the ids in
// `pyops.models.extra` appear in VS Code's model picker (so @pyops has a model without Copilot,
// and any VS Code feature can use them). A request runs through the OpenRouter provider with the
// key from SecretStorage and the configured base URL; text and tool calls stream back as VS Code
// response parts, secrets taken out (responseParts.ts). When @pyops itself runs on one of these
// models it talks to OpenRouter directly (core's agent loop), not through this provider.
import * as vscode from 'vscode';
import { jsonSchema, streamText, tool, type ToolSet } from 'ai';
import { describeModelError } from '../../core/assistant/models/errors';
import { reasoningOptions } from '../../core/assistant/models/openrouter';
import { KEY_HINT, type AssistantHost } from '../assistant/host';
import { readSettings } from '../settings';
import { estimateTokens, toModelMessages, type VsMessageLike } from './messages';
import { pickerInformation, pickerModels } from './picker';
import { reportResponse } from './responseParts';

export { PYOPS_VENDOR, isPyOpsModel } from './picker';

export class OpenRouterChatProvider implements vscode.LanguageModelChatProvider {
  readonly onDidChangeLanguageModelChatInformation: vscode.Event<void>;
  private asked = false;

  constructor(private readonly host: AssistantHost) {
    this.onDidChangeLanguageModelChatInformation = host.onDidChangeModels;
  }

  async provideLanguageModelChatInformation(options: vscode.PrepareLanguageModelChatModelOptions): Promise<vscode.LanguageModelChatInformation[]> {
    const hasKey = await this.host.hasKey();
    if (!hasKey && !options.silent && !this.asked) {
      // The user opened the model manager for PyOps: offer to store a key (once per session).
      this.asked = true;
      void vscode.commands.executeCommand('pyops.openrouter.setKey');
    }
    // The default model is always offered, even when it is not in the curated list or the extra ids.
    const defaultId = this.host.defaultModelId();
    const models = pickerModels([...readSettings().extraModels, defaultId]);
    const infos = await Promise.all(models.map((m) => this.host.modelInfo(m.id)));
    return pickerInformation(models, infos, { hasKey, defaultId });
  }

  async provideLanguageModelChatResponse(
    model: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    let resolved;
    try {
      resolved = await this.host.openRouterModel(model.id);
    } catch (err) {
      throw new Error(describeModelError(err, KEY_HINT).message);
    }
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    const { system, messages: modelMessages } = toModelMessages(messages as readonly VsMessageLike[]);
    const tools: ToolSet = {};
    for (const t of options.tools ?? []) {
      tools[t.name] = tool({ description: t.description, inputSchema: jsonSchema((t.inputSchema as object | undefined) ?? { type: 'object', properties: {} }) } as any);
    }
    const effort = this.host.defaultEffort();
    try {
      const result = streamText({
        model: resolved.model,
        ...(system ? { instructions: system } : {}),
        messages: modelMessages,
        ...(Object.keys(tools).length ? { tools, toolChoice: options.toolMode === vscode.LanguageModelChatToolMode.Required ? 'required' : 'auto' } : {}),
        abortSignal: abort.signal,
        providerOptions: reasoningOptions(effort, resolved.info.supportsReasoning) as any,
      });
      await reportResponse(result.stream, (p) => progress.report(p), vscode, (e) => describeModelError(e, KEY_HINT).message);
    } finally {
      sub.dispose();
    }
  }

  async provideTokenCount(_model: vscode.LanguageModelChatInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    return estimateTokens(typeof text === 'string' ? text : (text as VsMessageLike));
  }
}
