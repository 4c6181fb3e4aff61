// Commands of the Factory view: open a block (as a read-only page, see pageFiles.ts), rename, enable or disable,
// duplicate, delete (a snapshot is kept first), take a snapshot, restore one. Each is one undoable
// action through the same core functions the assistant's apply uses. They take the tree node they
// were invoked on, `{ blockId }` / `{ snapshotId }` from tests and links, or ask with a quick pick.
import * as vscode from 'vscode';
import path from 'node:path';
import { z } from 'zod';
import { planningContext } from '../../core/planning/context';
import { gameIndex } from '../../core/planning/gameIndex';
import { solverFor } from '../../core/assistant/tools/context';
import { BlockError, createBlock, deleteBlock, getBlock, listBlocks, restoreSnapshot, snapshotHeads, saveBlock, snapshotBlock } from '../../core/planning/factory/blocks';
import { blockMarkdown } from '../../core/planning/factory/blockReport';
import type { ProjectManager } from '../projectManager';
import { notOpenText, ProjectHomes } from '../projectHomes';
import type { FactoryNode } from '../views/factoryTree';
import { registerCommand } from './register';
import { fileTitle, recordIdOf } from '../views/recordFiles';
import { ProjectPages, registerPages } from '../views/pageFiles';

const blockArg = z.object({ blockId: z.string().min(1), name: z.string().optional() }).loose();
const snapshotArg = z.object({ snapshotId: z.string().min(1) }).loose();

function nodeBlockId(arg: unknown): string | undefined {
  const n = arg as FactoryNode | undefined;
  if (n && typeof n === 'object' && 'kind' in n && (n.kind === 'block' || n.kind === 'snapshots')) return n.block.id;
  const r = blockArg.safeParse(arg);
  return r.success ? r.data.blockId : undefined;
}

/** The block a command was invoked on (a tree node, `{ blockId }`), else one the user picks. */
export async function pickBlock(projects: ProjectManager, arg: unknown, title: string): Promise<string | undefined> {
  const id = nodeBlockId(arg);
  if (id) return id;
  const blocks = listBlocks(projects.require());
  if (!blocks.length) throw new Error('This project has no blocks yet: create one with "PyOps: New Block…", ask @pyops for one, or create one from a proposal card.');
  const pick = await vscode.window.showQuickPick(blocks.map((b) => ({ label: b.name, description: b.enabled ? undefined : 'disabled', id: b.id })), { title });
  return pick?.id;
}

/** `pyops-page:/<name>.md?block=<id>`: a block as a read-only Markdown page (see pageFiles.ts). */
export const BLOCK_PAGE_SCHEME = 'pyops-page';

/** The block's page, or what to say when its project is not the open one (after a switch or a reload). */
function blockPage(projects: ProjectManager, homes: ProjectHomes, uri: vscode.Uri): string {
  const p = projects.active;
  const id = recordIdOf(uri, 'block');
  const home = homes.elsewhere(id, p?.id);
  if (home) return `# ${path.posix.basename(uri.path, '.md')}\n\n_${notOpenText('This block', home, p)} Open "${home.name}" again and this page follows it._\n`;
  if (!p) return '# No PyOps project is open\n\nOpen the project this block belongs to.\n';
  try {
    const text = blockMarkdown(p, p.hasGameData() ? gameIndex(p) : undefined, id);
    homes.remember(id, p);
    return text;
  } catch (err) {
    if (!(err instanceof BlockError)) throw err;
    return `# ${path.posix.basename(uri.path, '.md')}\n\n_This block is not in the open project "${p.name}": it was deleted (Undo brings it back) or it belongs to another project._\n`;
  }
}

export function registerFactoryCommands(projects: ProjectManager): vscode.Disposable[] {
  /** The project each shown block was read from, to say where it lives after a switch or a reload. */
  const homes = new ProjectHomes({ memento: projects.workspaceState, key: 'pyops.blockPageHomes' });
  const pages = new ProjectPages(BLOCK_PAGE_SCHEME, projects, (uri) => blockPage(projects, homes, uri));
  const solve = () => solverFor(planningContext(projects.requireWritable()));
  const done = () => projects.touch();
  return [
    ...registerPages(BLOCK_PAGE_SCHEME, pages),
    registerCommand('pyops.block.open', async (arg?: unknown) => {
      const id = await pickBlock(projects, arg, 'Open which block?');
      if (!id) return undefined;
      const b = getBlock(projects.require(), id);
      const uri = vscode.Uri.from({ scheme: BLOCK_PAGE_SCHEME, path: `/${fileTitle(b.name)}.md`, query: new URLSearchParams({ block: b.id }).toString() });
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc, { preview: true });
      return uri.toString();
    }),
    registerCommand('pyops.block.rename', async (arg?: unknown) => {
      const id = await pickBlock(projects, arg, 'Rename which block?');
      if (!id) return undefined;
      const p = projects.requireWritable();
      const b = getBlock(p, id);
      const given = blockArg.safeParse(arg);
      const name = (given.success && given.data.name) || (await vscode.window.showInputBox({ title: 'Rename block', value: b.name, validateInput: (v) => (v.trim() ? undefined : 'A block needs a name') }));
      if (!name?.trim() || name.trim() === b.name) return undefined;
      await saveBlock(p, solve(), id, { name: name.trim() }, b.updatedAt, { label: `Rename block "${b.name}" to "${name.trim()}"` });
      done();
      return id;
    }),
    ...(['enable', 'disable'] as const).map((verb) =>
      registerCommand(`pyops.block.${verb}`, async (arg?: unknown) => {
        const id = await pickBlock(projects, arg, `${verb === 'enable' ? 'Enable' : 'Disable'} which block?`);
        if (!id) return undefined;
        const p = projects.requireWritable();
        const b = getBlock(p, id);
        await saveBlock(p, solve(), id, { enabled: verb === 'enable' }, b.updatedAt, { label: `${verb === 'enable' ? 'Enable' : 'Disable'} block "${b.name}"` });
        done();
        return id;
      }),
    ),
    registerCommand('pyops.block.duplicate', async (arg?: unknown) => {
      const id = await pickBlock(projects, arg, 'Duplicate which block?');
      if (!id) return undefined;
      const p = projects.requireWritable();
      const b = getBlock(p, id);
      const copy = await createBlock(p, solve(), { name: `${b.name} (copy)`, doc: b.doc, icon: b.icon, enabled: b.enabled }, `Duplicate block "${b.name}"`);
      done();
      return copy;
    }),
    registerCommand('pyops.block.delete', async (arg?: unknown) => {
      const id = await pickBlock(projects, arg, 'Delete which block?');
      if (!id) return undefined;
      const p = projects.requireWritable();
      const b = getBlock(p, id);
      const sure = blockArg.safeParse(arg).success
        ? 'Delete'
        : await vscode.window.showWarningMessage(`Delete block "${b.name}"?`, { modal: true, detail: 'A snapshot is kept, so you can restore it from the Factory view; "PyOps: Undo Last Project Change" also brings it back.' }, 'Delete');
      if (sure !== 'Delete') return undefined;
      deleteBlock(p, id);
      done();
      return id;
    }),
    registerCommand('pyops.block.snapshot', async (arg?: unknown) => {
      const id = await pickBlock(projects, arg, 'Snapshot which block?');
      if (!id) return undefined;
      const given = blockArg.safeParse(arg);
      const name = (given.success && given.data.name) || (await vscode.window.showInputBox({ title: 'Snapshot name', placeHolder: 'e.g. before the mk2 upgrade' }));
      if (name === undefined) return undefined;
      const snap = snapshotBlock(projects.requireWritable(), id, name);
      done();
      return snap;
    }),
    registerCommand('pyops.snapshot.restore', async (arg?: unknown) => {
      const p = projects.requireWritable();
      const node = arg as FactoryNode | undefined;
      let snapshotId = node && typeof node === 'object' && 'kind' in node && node.kind === 'snapshot' ? node.id : snapshotArg.safeParse(arg).data?.snapshotId;
      if (!snapshotId) {
        const blockId = nodeBlockId(arg);
        const snaps = snapshotHeads(p, blockId);
        if (!snaps.length) throw new Error(blockId ? 'This block has no snapshots yet.' : 'There are no block snapshots in this project yet.');
        const pick = await vscode.window.showQuickPick(snaps.map((s) => ({ label: `${s.blockName}: ${s.name ?? s.reason}`, description: new Date(s.createdAt).toLocaleString(), id: s.id })), { title: 'Restore which snapshot?' });
        snapshotId = pick?.id;
      }
      if (!snapshotId) return undefined;
      const id = await restoreSnapshot(p, solve(), snapshotId);
      done();
      return id;
    }),
  ];
}
