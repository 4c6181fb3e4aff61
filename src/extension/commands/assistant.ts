// Assistant commands (palette category "PyOps"): the OpenRouter key, the default model and
// reasoning effort, conversations (new, open in chat, compact), stopping a run, the side panel,
// the proposal buttons of the chat and the panel, and undo. Arguments from tests and buttons are
// validated like any other boundary input.
import * as vscode from 'vscode';
import { z } from 'zod';
import { getConversation, updateConversation } from '../../core/assistant/conversations/store';
import { CURATED_MODELS, REASONING_EFFORTS } from '../../core/assistant/models/catalog';
import { proposalRefSchema } from '../../webview/protocol';
import type { AssistantHost } from '../assistant/host';
import type { ProposalActions } from '../proposals/actions';
import type { AssistantPanel } from '../panel/provider';
import { readSettings } from '../settings';
import { tokens } from '../../webview/format';
import { objectArg } from './args';
import { confirmInStatusBar } from './confirm';
import { registerCommand } from './register';
import { completeWalkthroughStep } from '../walkthrough';

const conversationArg = z.object({ conversationId: z.string().min(1) });
const applyArg = proposalRefSchema.extend({ confirm: z.boolean().optional() });
const showArg = proposalRefSchema.extend({ blockIndex: z.number().int().min(0).max(50).optional() });
/** A toast's own change: its Undo reverts exactly this entry (or says why it cannot). */
const undoArg = z.object({ id: z.number().int().positive(), label: z.string().max(500) });
const EFFORT_LABEL = { auto: 'Auto — the model decides', low: 'Low', medium: 'Medium', high: 'High' } as const;

/** Open the chat ready to continue a conversation (a fresh chat session, "@pyops " typed). */
export async function openInChat(host: AssistantHost, conversationId: string, query = '@pyops '): Promise<void> {
  host.continueInChat(conversationId);
  await vscode.commands.executeCommand('workbench.action.chat.newChat').then(undefined, () => undefined);
  await vscode.commands.executeCommand('workbench.action.chat.open', { query, isPartialQuery: true });
}

export function registerAssistantCommands(host: AssistantHost, actions: ProposalActions, panel: AssistantPanel): vscode.Disposable[] {
  const activeOrArg = (arg: unknown): string => {
    const a = objectArg(arg, conversationArg);
    const id = a?.conversationId ?? host.activeConversationId();
    if (!id) throw new Error('There is no active conversation. Ask @pyops something first, or pick one in the PyOps side panel.');
    if (!getConversation(host.projects.require(), id)) throw new Error('That conversation is not in the open project.');
    return id;
  };

  return [
    registerCommand('pyops.openrouter.setKey', async (arg?: unknown) => {
      const a = objectArg(arg, z.object({ key: z.string().min(1) }));
      const key =
        a?.key ??
        (await vscode.window.showInputBox({
          title: 'PyOps: OpenRouter API key',
          prompt: 'Paste your key from https://openrouter.ai/settings/keys. It is kept in VS Code SecretStorage, never in settings or the project.',
          password: true,
          ignoreFocusOut: true,
          placeHolder: 'sk-or-…',
          validateInput: (v) => (v.trim() ? (/\s/.test(v.trim()) ? 'A key has no spaces.' : undefined) : 'Paste the key, or press Escape to cancel.'),
        }));
      if (!key?.trim()) return false;
      await host.setKey(key);
      completeWalkthroughStep('model');
      if (!a) void vscode.window.showInformationMessage('PyOps: OpenRouter key saved. PyOps models are now in the chat\'s model picker.');
      return true;
    }),

    registerCommand('pyops.openrouter.clearKey', async (arg?: unknown) => {
      const a = objectArg(arg, z.object({ confirm: z.boolean() }));
      if (!a) {
        const choice = await vscode.window.showWarningMessage('Remove the stored OpenRouter API key from this machine?', { modal: true }, 'Remove Key');
        if (choice !== 'Remove Key') return false;
      }
      await host.clearKey();
      if (!a) void vscode.window.showInformationMessage(process.env.OPENROUTER_API_KEY ? 'PyOps: stored key removed (OPENROUTER_API_KEY is still set in the environment and is used instead).' : 'PyOps: OpenRouter key removed.');
      return true;
    }),

    registerCommand('pyops.models.chooseDefault', async (arg?: unknown) => {
      const a = objectArg(arg, z.object({ model: z.string() }));
      let model = a?.model;
      if (model === undefined) {
        const current = readSettings().defaultModel;
        const extra = readSettings().extraModels.filter((id) => !CURATED_MODELS.some((m) => m.id === id));
        const items: Array<vscode.QuickPickItem & { id?: string }> = [
          ...CURATED_MODELS.map((m) => ({ label: m.label, description: m.id + (m.id === current ? ' · current' : ''), id: m.id })),
          ...extra.map((id) => ({ label: id, description: `from pyops.models.extra${id === current ? ' · current' : ''}`, id })),
          { label: '$(edit) Other model id…', description: 'any OpenRouter id, e.g. mistralai/mistral-large' },
          { label: '$(discard) Built-in default', description: 'Claude Sonnet (latest)', id: '' },
        ];
        const pick = await vscode.window.showQuickPick(items, { title: 'PyOps: default OpenRouter model for new conversations', matchOnDescription: true });
        if (!pick) return undefined;
        model = pick.id;
        if (model === undefined) {
          model = await vscode.window.showInputBox({ title: 'OpenRouter model id', prompt: 'As listed on openrouter.ai/models, e.g. anthropic/claude-sonnet-4.5', validateInput: (v) => (/^~?[\w.-]+\/[\w.:-]+$/.test(v.trim()) ? undefined : 'Use the form vendor/model.') });
          if (!model) return undefined;
        }
      }
      await vscode.workspace.getConfiguration('pyops').update('models.default', model.trim(), vscode.ConfigurationTarget.Global);
      completeWalkthroughStep('model');
      return model.trim();
    }),

    registerCommand('pyops.models.chooseReasoningEffort', async (arg?: unknown) => {
      const a = objectArg(arg, z.object({ effort: z.enum(['auto', ...REASONING_EFFORTS]) }));
      let effort = a?.effort;
      if (!effort) {
        const current = readSettings().reasoningEffort;
        const pick = await vscode.window.showQuickPick(
          (['auto', ...REASONING_EFFORTS] as const).map((e) => ({ label: EFFORT_LABEL[e], description: e === current ? 'current default' : undefined, effort: e })),
          { title: 'PyOps: reasoning effort (the default for new conversations, and the active one)' },
        );
        if (!pick) return undefined;
        effort = pick.effort;
      }
      await vscode.workspace.getConfiguration('pyops').update('models.reasoningEffort', effort, vscode.ConfigurationTarget.Global);
      const p = host.projects.active;
      const id = host.activeConversationId();
      if (p && id && !p.readOnly) {
        updateConversation(p, id, { reasoningEffort: effort === 'auto' ? null : effort });
        host.changed(id);
      }
      return effort;
    }),

    registerCommand('pyops.conversation.new', async (arg?: unknown) => {
      const a = objectArg(arg, z.object({ openChat: z.boolean().default(true) }));
      const conv = host.newConversation(host.projects.require());
      if (a?.openChat !== false) await openInChat(host, conv.id);
      return conv.id;
    }),

    registerCommand('pyops.conversation.openInChat', async (arg?: unknown) => {
      const id = activeOrArg(arg);
      await openInChat(host, id);
      return id;
    }),

    registerCommand('pyops.conversation.open', async (arg?: unknown) => {
      const id = activeOrArg(arg);
      host.setActive(id);
      await panel.reveal('proposals');
      await openInChat(host, id);
      return id;
    }),

    registerCommand('pyops.conversation.compact', async (arg?: unknown) => {
      const p = host.projects.require();
      const id = activeOrArg(arg);
      const conv = getConversation(p, id)!;
      const model = await host.summaryModelFor(conv);
      const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'PyOps: compacting the conversation…' }, () => host.compact(p, id, model));
      if (!r) throw new Error('An answer is still being written in this conversation. Wait for it (or stop it), then compact.');
      if (!r.compacted) {
        void vscode.window.showInformationMessage(`PyOps: "${conv.title ?? 'New chat'}" is too short to compact (${r.messages.length} messages; 15 or more are needed).`);
      } else {
        void vscode.window.showInformationMessage(`PyOps: compacted ${r.summarizedCount} messages into a ${r.method === 'model' ? 'summary' : 'digest'} (${tokens(r.estimatedBefore)} → ${tokens(r.estimatedAfter)} tokens); the originals stay viewable in the side panel.`);
      }
      return { compacted: r.compacted, summarized: r.summarizedCount ?? 0, kept: r.keptCount ?? r.messages.length };
    }),

    registerCommand('pyops.run.stop', async (arg?: unknown) => {
      const a = objectArg(arg, conversationArg);
      let id = a?.conversationId;
      if (!id) {
        const running = host.runningConversations();
        if (!running.length) {
          void vscode.window.showInformationMessage('PyOps: no answer is being written right now.');
          return false;
        }
        if (running.length === 1) id = running[0].conversationId;
        else {
          const pick = await vscode.window.showQuickPick(running.map((r) => ({ label: r.title, description: `running for ${Math.round((Date.now() - r.startedAt) / 1000)} s`, id: r.conversationId })), { title: 'PyOps: stop which answer?' });
          if (!pick) return false;
          id = pick.id;
        }
      }
      const stopped = await host.stop(id);
      if (!a) void vscode.window.showInformationMessage(stopped ? 'PyOps: stopped; the partial answer was kept.' : 'PyOps: that answer had already finished.');
      return stopped;
    }),

    registerCommand('pyops.panel.open', async (arg?: unknown) => {
      const a = objectArg(arg, z.object({ tab: z.enum(['proposals', 'conversations', 'run']).optional() }));
      await panel.reveal(a?.tab ?? 'proposals');
    }),

    registerCommand('pyops.proposal.apply', async (arg?: unknown) => {
      const a = objectArg(arg, applyArg);
      if (!a) throw new Error('Apply needs a proposal: use the button on a proposal in the chat or the PyOps side panel.');
      const { confirm, ...ref } = a;
      const r = await actions.apply(ref, { confirm });
      if (!r) return undefined;
      panel.refresh(0);
      if (confirm !== false) {
        void vscode.window.showInformationMessage(`PyOps: ${r.label} — done (one undoable change).`, 'Undo', 'Show in Side Panel').then((choice) => {
          if (choice === 'Undo') void vscode.commands.executeCommand('pyops.edit.undo', r.undo);
          if (choice === 'Show in Side Panel') void panel.reveal('proposals', ref);
        });
      }
      return r;
    }),

    registerCommand('pyops.proposal.reveal', async (arg?: unknown) => {
      const ref = objectArg(arg, proposalRefSchema);
      await panel.reveal('proposals', ref);
    }),

    registerCommand('pyops.proposal.runEval', async (arg?: unknown) => {
      const ref = objectArg(arg, proposalRefSchema);
      if (!ref) throw new Error('Run in Game needs a Lua proposal: use its button in the chat or the side panel.');
      await panel.reveal('proposals', ref);
      return actions.runEval(ref);
    }),

    registerCommand('pyops.proposal.sendEvalResult', async (arg?: unknown) => {
      const ref = objectArg(arg, proposalRefSchema);
      if (!ref) throw new Error('Send Result needs a Lua proposal that was run.');
      await actions.sendEvalResult(ref);
    }),

    registerCommand('pyops.proposal.showInGame', async (arg?: unknown) => {
      const a = objectArg(arg, showArg);
      if (!a) throw new Error('Show in Game needs a proposal: use its button in the side panel.');
      const { blockIndex, ...ref } = a;
      await actions.showInGame(ref, blockIndex);
    }),

    registerCommand('pyops.walkthrough.ask', async () => {
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@pyops /block 1 circuit per second', isPartialQuery: true });
    }),

    registerCommand('pyops.edit.undo', async (arg?: unknown) => {
      // With an argument (a toast's Undo) only that change is undone; from the palette, the latest.
      const r = await actions.undo(objectArg(arg, undoArg));
      panel.refresh(0);
      if (r.undone) confirmInStatusBar(`$(discard) PyOps: undid "${r.label}"`);
      else if (/nothing to undo/i.test(r.message)) confirmInStatusBar(`PyOps: ${r.message}`);
      else void vscode.window.showWarningMessage(`PyOps: ${r.message}`);
      return r.undone ? r.label : undefined;
    }),
  ];
}
