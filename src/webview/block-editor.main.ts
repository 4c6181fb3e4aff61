// The block editor (browser side): goals with the block's rate unit (blockEditor/goals.ts), recipe rows
// with their machine, fuel, what they take and give, and — expanded — modules, beacons, pin, group,
// shares, temperatures and reactor layout (rows.ts, rowDetail.ts), the goods made or balanced inside,
// the campaign and spoil rates (document.ts), and the solve result with its flow diagram (result.ts).
// Every change goes to the extension as one edit, based on the block version this tab shows; the
// extension answers with the new state (or why it refused). Keys inside a text field stay the field's.
import { nextEditorState, type EditorNotice } from './editorProtocol';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-progress-bar/index.js';
import type { BlockEditMessage, BlockEditorView, FromBlockEditor, ToBlockEditor } from './blockEditorProtocol';
import { append, button, clear, h, icon } from './panel/dom';
import { flowDiagram } from './panel/flowDiagram';
import { keepFieldUndo, rememberFocus, restoreFocus, textField } from './blockEditor/fields';
import type { EditorHost } from './blockEditor/host';
import { goalsSection } from './blockEditor/goals';
import { rowsSection } from './blockEditor/rows';
import { resultSection } from './blockEditor/result';
import { campaignSection, goodsSection, spoilSection } from './blockEditor/document';

declare function acquireVsCodeApi(): { postMessage(m: unknown): void; getState(): unknown; setState(s: unknown): void };

const vscode = acquireVsCodeApi();
const post = (m: FromBlockEditor) => vscode.postMessage(m);

const saved = (vscode.getState() ?? {}) as { open?: string[] };
/** Rows whose detail (modules, beacons, pin, …) is shown; kept across reloads of the tab. */
const open = new Set<string>(Array.isArray(saved.open) ? saved.open : []);
const keep = () => vscode.setState({ open: [...open] });
let view: BlockEditorView | undefined;
let busy = false;
let message: EditorNotice | undefined;

const root = document.getElementById('app')!;
keepFieldUndo(document);

function edit(e: BlockEditMessage): void {
  if (!view) return;
  message = undefined;
  post({ type: 'edit', edit: e, base: view.updatedAt });
}

const host: EditorHost = {
  edit,
  post,
  get unit() {
    return view?.unit ?? 's';
  },
  isOpen: (recipe) => open.has(recipe),
  toggle: (recipe) => {
    if (open.has(recipe)) open.delete(recipe);
    else open.add(recipe);
    keep();
    render();
  },
};

function render(): void {
  const focus = rememberFocus(document);
  clear(root);
  if (!view) {
    root.appendChild(h('p', { class: 'muted' }, message?.text ?? 'Loading the block…'));
    return;
  }
  const v = view;
  const name = textField({ value: v.name, key: 'name', label: 'Block name', class: 'name', commit: (n) => n !== v.name && edit({ kind: 'rename', name: n }) });
  append(root, [
    h('header', { class: 'editor-head' },
      name,
      h('div', { class: 'head-actions' },
        button('Undo', () => post({ type: 'undo' }), { icon: 'discard', secondary: true, disabled: !v.undoLabel, title: v.undoLabel ? `Undo "${v.undoLabel}" (Ctrl+Z)` : 'Nothing to undo', key: 'undo' }),
        button('Redo', () => post({ type: 'redo' }), { icon: 'redo', secondary: true, disabled: !v.redoLabel, title: v.redoLabel ? `Redo "${v.redoLabel}" (Ctrl+Shift+Z)` : 'Nothing to redo', key: 'redo' }),
        button('Ask @pyops about this block', () => post({ type: 'ask' }), { icon: 'comment-discussion', key: 'ask' }),
      ),
    ),
    busy ? h('vscode-progress-bar', { 'aria-label': 'Solving' }) : h('div', { class: 'progress-placeholder' }),
    message ? h('div', { class: `message ${message.kind}`, role: 'alert' }, icon(message.kind === 'gone' ? 'info' : 'error'), ' ', message.text) : null,
    v.stateDetail && v.tone === 'error' ? h('p', { class: 'warn' }, v.stateDetail) : null,
    h('div', { class: 'columns' },
      h('div', { class: 'left' }, goalsSection(v, host), rowsSection(v, host), goodsSection(v, host), campaignSection(v, host), spoilSection(v, host)),
      h('div', { class: 'right' }, resultSection(v, host))),
    // Across the whole tab: a Py block's diagram is wide, and a column would shrink its labels unreadable.
    v.result && v.flow.nodes.length ? h('section', { class: 'flow-section' }, h('h2', null, 'Flow'), flowDiagram(v.flow, v.name, { key: v.id, icon: (n) => n.icon, unit: v.unit })) : null,
  ]);
  restoreFocus(root, focus);
}

window.addEventListener('message', (e: MessageEvent<ToBlockEditor>) => {
  ({ view, busy, message } = nextEditorState({ view, busy, message }, e.data));
  render();
});

render();
post({ type: 'ready' });
