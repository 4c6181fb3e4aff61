// `pyops ask "<question>" --project <file> [--conversation <id>] [--model <id>] [--json]`: one
// assistant turn against a project. The answer streams to stdout, tool calls appear as progress
// lines on stderr; --json prints the final assistant message instead. Key, model and endpoint
// resolve as everywhere (OPENROUTER_API_KEY / PYOPS_AGENT_MODEL / PYOPS_OPENROUTER_BASE_URL, else
// the user-only config file), so pointing PYOPS_OPENROUTER_BASE_URL at any OpenAI-compatible
// server works end to end.
import path from 'node:path';
import type { UIMessageChunk } from 'ai';
import { Project } from '../../core/db/project';
import type { AnyTool } from '../../core/assistant/tools/types';
import { allTools } from '../../core/assistant/tools/registry';
import { runTurn } from '../../core/assistant/turn';
import { updateConversation } from '../../core/assistant/conversations/store';
import { FileConfigStore, configDir } from '../../core/config/fileStore';
import { ModelCatalog } from '../../core/assistant/models/catalog';
import { OPENROUTER_KEY } from '../../core/assistant/models/secrets';
import { resolveBaseURL, resolveOpenRouterModel } from '../../core/assistant/models/resolve';
import { isToolOutcome } from '../../core/assistant/agent/tools';
import { redactSecrets } from '../../core/assistant/models/redact';
import { parse, UsageError } from '../args';
import { processIO, type CliIO } from '../io';


export interface AskDeps {
  /** The tool set; default: the registry's `allTools()` (tests pass their own). */
  tools?: readonly AnyTool[] | (() => Promise<readonly AnyTool[]>);
  env?: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
  /** Where the key/config file lives; default the OS config folder (PYOPS_CONFIG_DIR overrides). */
  configDir?: string;
  /** Raw stdout writer for streamed text; default process.stdout for the process IO, else line-buffered io.out. */
  write?: (text: string) => void;
  maxRetries?: number;
  signal?: AbortSignal;
}

function clip(s: string, n: number): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length <= n ? t : `${t.slice(0, n - 1)}…`;
}

/** Writes streamed text through a line-oriented sink: complete lines go out as they arrive. */
function lineWriter(out: (line: string) => void): { write(t: string): void; flush(): void } {
  let buf = '';
  return {
    write(t) {
      buf += t;
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        out(buf.slice(0, i));
        buf = buf.slice(i + 1);
      }
    },
    flush() {
      if (buf) out(buf);
      buf = '';
    },
  };
}

export async function askCommand(argv: string[], rawIO: CliIO, deps: AskDeps = {}): Promise<number> {
  // Every line this command prints is redacted: a provider may echo the key (see redact.ts).
  const io: CliIO = { ...rawIO, out: (t) => rawIO.out(redactSecrets(t)), err: (t) => rawIO.err(redactSecrets(t)) };
  const a = parse(
    argv,
    { project: { type: 'string' }, conversation: { type: 'string' }, model: { type: 'string' }, json: { type: 'boolean' } },
    { min: 1, max: 1, names: 'the question' },
  );
  const question = a.positionals[0].trim();
  if (!question) throw new UsageError('the question is empty');
  if (!a.values.project) throw new UsageError('missing --project <file>');
  const json = !!a.values.json;
  const env = deps.env ?? process.env;
  const store = new FileConfigStore(deps.configDir ?? configDir(env));
  const keyHint = `Set the OPENROUTER_API_KEY environment variable, or store the key in ${store.file} as {"secrets": {"${OPENROUTER_KEY}": "<key>"}} (keep that file readable only by you).`;

  const tools = typeof deps.tools === 'function' ? await deps.tools() : (deps.tools ?? allTools());
  const project = await Project.open(a.values.project, { app: 'cli' });
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  const external = deps.signal;
  external?.addEventListener('abort', onSigint, { once: true });
  if (rawIO === processIO) process.once('SIGINT', onSigint);
  try {
    if (project.readOnly) {
      io.err(`pyops: ${project.readOnlyReason ?? 'the project is read-only'}`);
      return 1;
    }
    const baseURL = resolveBaseURL({ env, setting: store.getSetting<string>('baseURL') ?? null });
    const catalog = new ModelCatalog({ baseURL, fetch: deps.fetch, cacheFile: path.join(store.dir, 'models-cache.json') });
    const rawWrite = deps.write ?? (rawIO === processIO ? (t: string) => void process.stdout.write(redactSecrets(t)) : undefined);
    const lines = rawWrite ? undefined : lineWriter((l) => io.out(l));
    const write = rawWrite ?? ((t: string) => lines!.write(t));
    let wroteText = false;
    let endsWithNewline = true;
    const toolNames = new Map<string, string>();

    const onChunk = (c: UIMessageChunk) => {
      switch (c.type) {
        case 'text-delta':
          if (json || !c.delta) return;
          write(c.delta);
          wroteText = true;
          endsWithNewline = c.delta.endsWith('\n');
          return;
        case 'text-end':
          if (!json && wroteText && !endsWithNewline) {
            write('\n');
            endsWithNewline = true;
          }
          return;
        case 'tool-input-available':
          toolNames.set(c.toolCallId, c.toolName);
          io.err(`… ${c.toolName} ${clip(JSON.stringify(c.input ?? {}), 100)}`);
          return;
        case 'tool-output-available': {
          const o = c.output;
          const name = toolNames.get(c.toolCallId) ?? 'tool';
          if (isToolOutcome(o)) io.err(o.ok ? `✓ ${clip(o.summary, 160)}` : `✗ ${name}: ${clip(o.error, 200)}`);
          else io.err(`✓ ${name}`);
          return;
        }
        case 'tool-output-error':
          io.err(`✗ ${toolNames.get(c.toolCallId) ?? 'tool'}: ${clip(c.errorText, 200)}`);
          return;
        default:
          if (c.type === 'data-pyops-compaction') {
            const d = (c as { data?: { summarized?: number; kept?: number } }).data;
            io.err(`Compacted ${d?.summarized ?? 0} earlier messages into a summary (${d?.kept ?? 0} kept verbatim).`);
          }
      }
    };

    const result = await runTurn({
      project,
      conversationId: a.values.conversation,
      message: question,
      tools,
      caller: 'cli',
      signal: controller.signal,
      maxRetries: deps.maxRetries,
      catalog,
      keyHint,
      title: 'await',
      onChunk,
      model: async (conv) => {
        if (a.values.model && conv.model !== a.values.model) updateConversation(project, conv.id, { model: a.values.model });
        return resolveOpenRouterModel({
          env,
          secrets: store,
          storedDefaultModel: store.getSetting<string>('defaultModel') ?? null,
          baseURL: store.getSetting<string>('baseURL') ?? null,
          override: a.values.model ?? conv.model,
          fetch: deps.fetch,
          catalog,
          keyHint,
        });
      },
    });
    lines?.flush();
    if (json) {
      io.out(
        JSON.stringify({
          conversationId: result.conversationId,
          messageId: result.message?.id ?? null,
          role: 'assistant',
          parts: result.message?.parts ?? [],
          metadata: result.message?.metadata ?? null,
          finishReason: result.finishReason,
          stepCapHit: result.stepCapHit,
          usage: result.usage,
          modelId: result.modelId,
          title: result.conversation.title,
          error: result.error ? { kind: result.error.kind, status: result.error.status ?? null, message: result.error.message } : null,
        }),
      );
    }
    if (result.aborted) {
      io.err(`pyops: stopped; the partial answer is saved in conversation ${result.conversationId}.`);
      return 1;
    }
    if (result.error) {
      io.err(`pyops: ${result.error.message}`);
      io.err(`conversation: ${result.conversationId}`);
      return 1;
    }
    io.err(`conversation: ${result.conversationId}`);
    return 0;
  } finally {
    external?.removeEventListener('abort', onSigint);
    if (rawIO === processIO) process.removeListener('SIGINT', onSigint);
    project.close();
  }
}
