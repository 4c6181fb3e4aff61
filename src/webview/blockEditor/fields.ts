// Text and number fields of the block editor. A value commits on Enter or when the field loses focus
// (never half typed, never on a spinner click), Escape puts the shown value back, and Ctrl+Z /
// Ctrl+Shift+Z / Ctrl+Y inside a field are the field's own undo: the keys are kept from VS Code,
// which would otherwise undo a project change and clear its redo. A redraw while the player types
// (the project changed meanwhile) keeps what they typed.
import { h } from '../panel/dom';

const TEXT_TYPES = new Set(['text', 'number', 'search', '']);

/** A field whose keys are the field's own (undo, redo, select all, …). */
export function isTextField(el: EventTarget | null): el is HTMLInputElement | HTMLTextAreaElement {
  if (el instanceof HTMLTextAreaElement) return true;
  return el instanceof HTMLInputElement && TEXT_TYPES.has(el.type);
}

const isUndoRedo = (e: KeyboardEvent) => (e.ctrlKey || e.metaKey) && !e.altKey && ['z', 'y'].includes(e.key.toLowerCase());

/**
 * Keep undo and redo keys inside text fields. VS Code listens for keys on the webview's window (it
 * forwards them to its keybindings, where Ctrl+Z is the document's Undo); stopping the event on the
 * way down leaves the browser's own field undo to run.
 */
export function keepFieldUndo(doc: Document): void {
  doc.addEventListener('keydown', (e) => {
    if (isUndoRedo(e) && isTextField(e.target)) e.stopPropagation();
  }, true);
}

interface FieldOptions<T> {
  value: T;
  /** Stable across redraws: focus and a half-typed value find the field again by it. */
  key: string;
  label: string;
  commit: (v: T) => void;
}

/** Commit on Enter or blur, once per change; Escape restores the shown value. */
function committing(input: HTMLInputElement, parse: (text: string) => { ok: true; text: string; apply: () => void } | { ok: false }): HTMLInputElement {
  let done = input.value;
  const commit = () => {
    // A field a redraw removed is gone; its text was carried into the new one.
    if (!input.isConnected) return;
    const text = input.value.trim();
    if (text === done.trim()) return;
    const r = parse(text);
    if (!r.ok) {
      input.value = done;
      return;
    }
    done = r.text;
    r.apply();
  };
  input.addEventListener('blur', commit);
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      commit();
    } else if (e.key === 'Escape') {
      input.value = done;
    }
  });
  return input;
}

export function numberField(o: FieldOptions<number> & { min?: number; max?: number; step?: string; class?: string; valid?: (n: number) => boolean }): HTMLInputElement {
  const shown = String(o.value);
  const input = h('input', {
    type: 'number', step: o.step ?? 'any', value: shown, 'aria-label': o.label, 'data-key': o.key, 'data-shown': shown, class: o.class,
    ...(o.min !== undefined ? { min: String(o.min) } : {}), ...(o.max !== undefined ? { max: String(o.max) } : {}),
  });
  return committing(input, (text) => {
    const n = Number(text);
    if (text === '' || !Number.isFinite(n) || (o.min !== undefined && n < o.min) || (o.max !== undefined && n > o.max) || (o.valid && !o.valid(n))) return { ok: false };
    return { ok: true, text, apply: () => o.commit(n) };
  });
}

export function textField(o: FieldOptions<string> & { class?: string }): HTMLInputElement {
  const input = h('input', { type: 'text', value: o.value, 'aria-label': o.label, 'data-key': o.key, 'data-shown': o.value, class: o.class });
  return committing(input, (text) => (text ? { ok: true, text, apply: () => o.commit(text) } : { ok: false }));
}

/** The focused field before a redraw: which one, and what the player typed that is not committed. */
export interface FocusMemo {
  key: string;
  typed?: string;
  selection?: [number | null, number | null];
}

export function rememberFocus(doc: Document): FocusMemo | undefined {
  const el = doc.activeElement as HTMLElement | null;
  const key = el?.getAttribute?.('data-key') ?? (el?.closest?.('[data-focus-key]') as HTMLElement | null)?.getAttribute('data-focus-key');
  if (!key) return undefined;
  if (!(el instanceof HTMLInputElement) || !isTextField(el)) return { key };
  const typed = el.value !== el.getAttribute('data-shown') ? el.value : undefined;
  let selection: FocusMemo['selection'];
  try {
    selection = [el.selectionStart, el.selectionEnd];
  } catch {
    // Number fields have no selection API.
  }
  return { key, ...(typed !== undefined ? { typed } : {}), ...(selection ? { selection } : {}) };
}

export function restoreFocus(root: HTMLElement, memo: FocusMemo | undefined): void {
  if (!memo) return;
  const el = root.querySelector(`[data-key="${CSS.escape(memo.key)}"], [data-focus-key="${CSS.escape(memo.key)}"]`) as HTMLElement | null;
  if (!el) return;
  if (memo.typed !== undefined && el instanceof HTMLInputElement) el.value = memo.typed;
  el.focus();
  if (memo.selection && el instanceof HTMLInputElement) {
    try {
      el.setSelectionRange(memo.selection[0], memo.selection[1]);
    } catch {
      // Number fields have no selection API.
    }
  }
}
