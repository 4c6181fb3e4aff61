// The project indicator: which project is active (and whether it is read-only or lacks game data),
// and in its tooltip which game data it holds; a click opens the project actions.
import * as vscode from 'vscode';
import path from 'node:path';
import type { ProjectManager } from './projectManager';
import { gamedataProblem, type Project } from '../core/db/project';
import { describeProvenance, readProvenance } from '../core/gamedata/provenance';

export function createProjectStatus(projects: ProjectManager): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('pyops.project', vscode.StatusBarAlignment.Left, 50);
  item.name = 'PyOps Project';
  item.command = 'pyops.project.actions';
  // The text says which project is open and is set at once; the tooltip reads the game data's
  // provenance and counts, which only a hover needs, so it is filled in right after: the first
  // queries on a freshly opened project's game data are its slowest, and the window need not wait.
  let shown = 0;
  const render = () => {
    const p = projects.active;
    const at = ++shown;
    if (!p) {
      item.text = '$(circuit-board) PyOps: no project';
      item.tooltip = 'No PyOps project is open. Click to open, create or try the sample project.';
      item.backgroundColor = undefined;
    } else {
      const gdFlag = { missing: 'game data missing', unreadable: 'game data unreadable', damaged: 'game data damaged' }[p.gamedataStatus as string] ?? 'no game data';
      const flags = [p.damage ? 'damaged' : p.readOnly ? 'read-only' : '', p.hasGameData() ? '' : gdFlag].filter(Boolean);
      item.text = `$(circuit-board) ${p.name}${flags.length ? ` (${flags.join(', ')})` : ''}`;
      item.tooltip = `PyOps project: ${p.name}`;
      item.backgroundColor = p.readOnly ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
      setImmediate(() => {
        if (at === shown && projects.active === p && !p.isClosed) item.tooltip = tooltipOf(p);
      });
    }
    item.show();
  };
  render();
  const sub = projects.onDidChange(render);
  return vscode.Disposable.from(item, sub);
}

function tooltipOf(p: Project): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**PyOps project:** ${p.name}\n\n`);
  md.appendMarkdown(`File: \`${p.file}\`\n\n`);
  if (p.hasGameData()) {
    const counts = safeJson(p.gamedataMeta('counts'));
    const when = p.gamedataMeta('imported_at');
    const prov = readProvenance(p);
    md.appendMarkdown(`Game data: ${prov ? `${describeProvenance(prov)} — ` : ''}${counts ? `${counts.items} items, ${counts.recipes} recipes, ${counts.technologies} technologies` : 'imported'}${when ? ` (imported ${when.slice(0, 16).replace('T', ' ')})` : ''}\n\n`);
    if (prov?.lacks.length) md.appendMarkdown(`Not in the data set: ${prov.lacks.join('; ')}.\n\n`);
  } else {
    md.appendMarkdown(`Game data: ${gamedataProblem(p) ?? 'none yet — import a dump or sync from Factorio.'}\n\n`);
  }
  if (p.readOnly) md.appendMarkdown(`$(lock) ${p.readOnlyReason}\n\n`);
  md.appendMarkdown(`Click for project actions · ${path.basename(p.file)}`);
  return md;
}

function safeJson(s: string | undefined): Record<string, number> | undefined {
  if (!s) return undefined;
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}
