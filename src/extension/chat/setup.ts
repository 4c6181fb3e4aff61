// What @pyops answers instead of failing: without a model it can use (PyOps' own OpenRouter model
// picked but no key) it explains the two ways to get one, with buttons; and when this chat's thread
// belongs to a conversation the open project does not have (another project was opened, or the
// conversation was deleted) it says, in the answer, that this message starts a new conversation.
// No `vscode` here: the stream is anything with `markdown` and `button`.
import { DEFAULT_MODEL } from '../../core/assistant/models/resolve';
import { CURATED_MODELS } from '../../core/assistant/models/catalog';
import type { HistoryLink } from './history';

export interface SetupStream {
  markdown(text: string): void;
  button(b: { command: string; title: string; arguments?: unknown[] }): void;
}

const modelLabel = (id: string) => CURATED_MODELS.find((m) => m.id === id)?.label ?? id;

/** The set-up steps for a first message without an OpenRouter key. */
export function keySetupAnswer(stream: SetupStream, modelId: string = DEFAULT_MODEL): void {
  stream.markdown(
    [
      `PyOps is ready, but the model picked for this chat (**${modelLabel(modelId)}**, one of PyOps' OpenRouter models) needs an OpenRouter API key first. Two ways to go on:`,
      '',
      '1. **Set an OpenRouter API key** (create one at https://openrouter.ai/settings/keys). It is kept in VS Code\'s secret storage; PyOps then answers on the model picked below the chat input.',
      '2. **Or pick another model** in the chat\'s model picker — Copilot or any other model VS Code has. @pyops then plans with its own tools on that model, no key needed.',
      '',
      'Then send your message again.',
    ].join('\n'),
  );
  stream.button({ command: 'pyops.openrouter.setKey', title: 'Set OpenRouter API Key…' });
  stream.button({ command: 'pyops.models.chooseDefault', title: 'Choose Default Model…' });
}

/**
 * Said at the top of the answer when the conversation of the chat's earlier thread (`link`) is not in
 * the open project, so the user knows the turns above are not part of what PyOps now sees.
 */
export function staleThreadNotice(link: HistoryLink, project: { id: string; name: string }): string {
  if (link.projectId && link.projectId !== project.id) {
    const was = link.projectName ? `the project "${link.projectName}"` : 'another project';
    return `_This chat was with ${was}; the open project is "${project.name}", so this message starts a **new conversation** there — the turns above are not part of it. Open ${was} again to continue that conversation, or start a new chat to keep them apart._`;
  }
  const why = link.projectId ? 'it was deleted' : 'deleted, or it belongs to another project';
  return `_The earlier conversation of this chat is not in the open project "${project.name}" (${why}), so this message starts a **new conversation** — the turns above are not part of it._`;
}
