// The menus package.json contributes: a view's title carries each action once, each with an icon of
// its own (one "+" per view), every menu names a contributed command, and activation events wake
// PyOps for the tabs VS Code restores after a reload (its own file schemes and the science editor's and board's webview panels; the block editor is a custom editor, which wakes it by itself).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

interface Manifest {
  activationEvents: string[];
  contributes: {
    commands: Array<{ command: string; icon?: string }>;
    menus: Record<string, Array<{ command: string; when?: string; group?: string }>>;
  };
}
const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as Manifest;
const icons = new Map(manifest.contributes.commands.map((c) => [c.command, c.icon]));
const viewOf = (when = '') => /view == ([\w.]+)/.exec(when)?.[1] ?? '';

describe('contributed menus', () => {
  it('puts each action once in a view title, each with its own icon: one "+" per view', () => {
    const byView = new Map<string, string[]>();
    for (const m of manifest.contributes.menus['view/title'] ?? []) byView.set(viewOf(m.when), [...(byView.get(viewOf(m.when)) ?? []), m.command]);
    for (const [view, commands] of byView) {
      assert.deepEqual(commands, [...new Set(commands)], `${view}: an action twice`);
      // Only the inline (navigation) actions show their icons; the rest sit in the "…" menu.
      const inline = (manifest.contributes.menus['view/title'] ?? []).filter((m) => viewOf(m.when) === view && (m.group ?? '').startsWith('navigation')).map((m) => icons.get(m.command));
      assert.deepEqual(inline, [...new Set(inline)], `${view}: two title buttons share an icon`);
      assert.ok(inline.filter((i) => i === '$(add)').length <= 1, `${view}: more than one "+"`);
    }
    const factory = (manifest.contributes.menus['view/title'] ?? []).filter((m) => viewOf(m.when) === 'pyops.factory').map((m) => m.command);
    assert.deepEqual(new Set(factory), new Set(['pyops.block.new', 'pyops.task.new', 'pyops.note.new', 'pyops.factory.refresh', 'pyops.board.open', 'pyops.science.open']));
  });

  it('names only contributed commands in its menus', () => {
    const known = new Set(manifest.contributes.commands.map((c) => c.command));
    for (const [menu, entries] of Object.entries(manifest.contributes.menus)) for (const m of entries) assert.ok(known.has(m.command), `${menu}: ${m.command}`);
  });

  it('wakes PyOps for the tabs a window reload restores', () => {
    for (const e of ['onFileSystem:pyops-note', 'onFileSystem:pyops-task', 'onFileSystem:pyops-page', 'onFileSystem:pyops', 'onWebviewPanel:pyops.scienceEditor', 'onWebviewPanel:pyops.board']) {
      assert.ok(manifest.activationEvents.includes(e), e);
    }
  });
});
