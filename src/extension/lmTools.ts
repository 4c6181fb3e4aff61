// The registry's tools as VS Code language-model tools (Copilot agent mode, #pyops… references).
// Each call runs against the active project through the same runTool path as the agent and MCP.
// Writes, and drafts kept as pending proposals, tell the project's listeners (side panel, blocks).
import * as vscode from 'vscode';
import { runTool } from '../core/assistant/tools/run';
import { vscodeTools, vscodeToolName } from '../core/assistant/tools/vscodeManifest';
import { changesProject } from '../core/assistant/tools/run';
import { modelText, type AnyTool } from '../core/assistant/tools/types';
import type { GameLink } from '../core/bridge';
import type { ProjectManager } from './projectManager';

function resultParts(tool: AnyTool, outcome: Awaited<ReturnType<typeof runTool>>): vscode.LanguageModelToolResult {
  if (!outcome.ok) return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(modelText(outcome))]);
  return new vscode.LanguageModelToolResult([
    new vscode.LanguageModelTextPart(modelText(outcome)),
    vscode.LanguageModelDataPart.json({ tool: tool.name, summary: outcome.summary, result: outcome.result }),
  ]);
}

export function registerLanguageModelTools(projects: ProjectManager, game: () => GameLink | undefined): vscode.Disposable[] {
  return vscodeTools().map((tool) =>
    vscode.lm.registerTool<Record<string, unknown>>(vscodeToolName(tool.name), {
      prepareInvocation(options) {
        const base = { invocationMessage: `PyOps: ${tool.displayName}…` };
        if (tool.tier !== 'write') return base;
        return {
          ...base,
          confirmationMessages: {
            title: `PyOps: ${tool.displayName}`,
            message: new vscode.MarkdownString(`This changes the project **${projects.active?.name ?? '(none open)'}** (one undoable action):\n\n\`\`\`json\n${JSON.stringify(options.input, null, 2)}\n\`\`\``),
          },
        };
      },
      async invoke(options, token) {
        const project = projects.active;
        if (!project) {
          return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(JSON.stringify({ error: 'No PyOps project is open. Ask the user to open one (PyOps: Open Project… or Open Sample Project).', code: 'failed' }))]);
        }
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        const outcome = await runTool(tool, options.input, { project, caller: 'vscode', signal: abort.signal, game: game() });
        if (changesProject(tool, outcome)) projects.touch();
        return resultParts(tool, outcome);
      },
    }),
  );
}
