// References to goods and blocks from chat answers: `pyops:` URIs whose read-only documents show a
// good's build-or-import verdict (the goodInfo tool) or a block's goals, flows and buildings, from
// the open project. The chat lists them under "used references"; clicking one opens it.
import * as vscode from 'vscode';
import type { ProjectManager } from '../projectManager';
import { findTool } from '../../core/assistant/tools/registry';
import { runTool } from '../../core/assistant/tools/run';
import { blockFlows, blockMachines, getBlock, listBlocks } from '../../core/planning/factory/blocks';
import { gameIndex } from '../../core/planning/gameIndex';
import { stateWords } from '../../core/planning/availability';
import type { GoodInfoResult } from '../../core/planning/queries';
import { perSecond, power, short } from '../../webview/format';

export const REFERENCE_SCHEME = 'pyops';

const clean = (s: string) => s.replace(/[\\/:*?"<>|#%]+/g, ' ').trim() || 'item';

export function goodUri(good: string, display: string): vscode.Uri {
  return vscode.Uri.from({ scheme: REFERENCE_SCHEME, path: `/goods/${clean(display)}.md`, query: new URLSearchParams({ good }).toString() });
}

export function blockUri(id: string, name: string): vscode.Uri {
  return vscode.Uri.from({ scheme: REFERENCE_SCHEME, path: `/blocks/${clean(name)}.md`, query: new URLSearchParams({ block: id }).toString() });
}

/** Block ids by name in the open project (for references to supplier blocks). */
export function blockIdsByName(projects: ProjectManager): Map<string, string> {
  const p = projects.active;
  if (!p) return new Map();
  return new Map(listBlocks(p).map((b) => [b.name, b.id]));
}

export class ReferenceDocuments implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly projects: ProjectManager) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const q = new URLSearchParams(uri.query);
    const p = this.projects.active;
    if (!p) return '# No PyOps project is open\n\nOpen the project this answer was about (PyOps: Open Project…) and open the reference again.\n';
    const good = q.get('good');
    if (good) return this.good(good);
    const block = q.get('block');
    if (block) return this.block(block);
    return `# Unknown PyOps reference\n\n\`${uri.toString()}\`\n`;
  }

  private async good(name: string): Promise<string> {
    const p = this.projects.require();
    const tool = findTool('goodInfo');
    if (!tool) return `# ${name}\n`;
    const out = await runTool(tool, { good: name }, { project: p, caller: 'vscode' });
    if (!out.ok) return `# ${name}\n\n${out.error}\n`;
    // Typed by the query's own result, so a renamed field fails the build instead of printing "undefined".
    const r = out.result as GoodInfoResult;
    const lines = [
      `# ${r.display}`,
      '',
      `\`${r.name}\` · ${r.kind} · ${r.classification}${r.cost !== null ? ` · cost ${short(r.cost)}` : ''}`,
      '',
      `**Verdict: ${r.verdict}.** ${r.reason}`,
      '',
      r.fromBlock ? `Made by the block **${r.fromBlock}**.\n` : '',
      `## Made by (${r.producers.count})`,
      ...r.producers.top.map((x) => `- ${x.display} (${stateWords(x.state)})`),
      '',
      `## Used by (${r.consumers.count})`,
      ...r.consumers.top.map((x) => `- ${x.display}`),
    ];
    return lines.filter((l, i, a) => !(l === '' && a[i - 1] === '')).join('\n') + '\n';
  }

  private block(id: string): string {
    const p = this.projects.require();
    let b;
    try {
      b = getBlock(p, id);
    } catch {
      return `# Block not found\n\nThe block \`${id}\` is not in "${p.name}" (it may have been deleted or undone).\n`;
    }
    const g = gameIndex(p);
    const flows = blockFlows(p, id);
    const section = (title: string, role: string[]) => {
      const fs = flows.filter((f) => role.includes(f.role));
      return fs.length ? [`## ${title}`, ...fs.map((f) => `- ${g.displayOf(f.item)} ${perSecond(f.rate)}`), ''] : [];
    };
    const machines = blockMachines(p, id);
    return [
      `# ${b.name}`,
      '',
      `${b.enabled ? 'Enabled' : 'Disabled'} · solver status ${b.cache.status ?? 'not solved'}${b.cache.powerW !== null ? ` · ${power(b.cache.powerW)}` : ''}${b.cache.fresh ? '' : ' · needs a re-solve'}`,
      '',
      ...section('Makes', ['primary', 'stock']),
      ...section('Byproducts', ['byproduct']),
      ...section('Imports', ['import']),
      ...(machines.length ? ['## Buildings', ...machines.map((m) => `- ${short(m.count)} × ${g.displayOf(m.machine)} — ${g.displayOf(m.recipe)}`), ''] : []),
    ].join('\n');
  }

  dispose(): void {
    this.changed.dispose();
  }
}
