// The run being written, rebuilt from its UI message chunks (the extension replays the run's
// buffer, then forwards live chunks): answer text (as Markdown), each tool call as a step that turns into its
// past-tense summary when done, and whether the run finished, was stopped or failed.
import type { RunEvent } from '../protocol';
import { button, h, icon } from './dom';
import { markdown } from './transcript';

interface Step {
  id: string;
  tool: string;
  summary?: string;
  ok?: boolean;
}

export class LiveRun {
  conversationId: string | undefined;
  private text: string[] = [];
  private steps: Step[] = [];
  private order: Array<{ kind: 'text'; index: number } | { kind: 'step'; id: string }> = [];
  private openText = -1;
  /** Text parts by their chunk id: a part's deltas may arrive after a tool step has begun (smoothed text). */
  private textIds = new Map<string, number>();
  state: 'idle' | 'running' | 'done' | 'stopped' | 'error' = 'idle';
  error: string | undefined;

  apply(e: RunEvent): void {
    if (e.phase === 'start') {
      this.conversationId = e.conversationId;
      this.text = [];
      this.steps = [];
      this.order = [];
      this.openText = -1;
      this.textIds = new Map();
      this.error = undefined;
      this.state = 'running';
      return;
    }
    if (e.conversationId !== this.conversationId) return;
    if (e.phase === 'detach') {
      // Not ours to show any more; the active conversation has no run (or a new 'start' follows).
      this.conversationId = undefined;
      this.state = 'idle';
      return;
    }
    if (e.phase === 'end') {
      if (this.state === 'running') this.state = e.reason === 'stopped' || e.reason === 'replaced' ? 'stopped' : 'done';
      return;
    }
    const c = e.chunk;
    if (!c) return;
    switch (c.type) {
      case 'text-delta': {
        const id = typeof c.id === 'string' ? c.id : undefined;
        let at = id !== undefined ? this.textIds.get(id) : undefined;
        if (at === undefined) {
          if (this.openText < 0 || id !== undefined) {
            this.openText = this.text.push('') - 1;
            this.order.push({ kind: 'text', index: this.openText });
          }
          at = this.openText;
          if (id !== undefined) this.textIds.set(id, at);
        }
        this.text[at] += String(c.delta ?? '');
        return;
      }
      case 'text-end':
        this.openText = -1;
        return;
      case 'start-step':
        // Text ids are only unique within a step (a provider may number them from 0 each time).
        this.textIds = new Map();
        this.openText = -1;
        return;
      case 'tool-input-start':
      case 'tool-input-available': {
        const id = String(c.toolCallId);
        if (!this.steps.some((s) => s.id === id)) {
          this.steps.push({ id, tool: String(c.toolName) });
          this.order.push({ kind: 'step', id });
          this.openText = -1;
        }
        return;
      }
      case 'tool-output-available': {
        const s = this.steps.find((x) => x.id === String(c.toolCallId));
        const out = c.output as { ok?: boolean; summary?: string } | undefined;
        if (s) {
          s.ok = out?.ok !== false;
          s.summary = typeof out?.summary === 'string' ? out.summary : `Ran ${s.tool}`;
        }
        return;
      }
      case 'tool-output-error': {
        const s = this.steps.find((x) => x.id === String(c.toolCallId));
        if (s) {
          s.ok = false;
          s.summary = `${s.tool} failed: ${String(c.errorText ?? '')}`;
        }
        return;
      }
      case 'error':
        this.state = 'error';
        this.error = String(c.errorText ?? 'The model call failed.');
        return;
      case 'abort':
        this.state = 'stopped';
        return;
      case 'finish':
        if (this.state === 'running') this.state = 'done';
    }
  }

  render(stop: (conversationId: string) => void, title: string | null): HTMLElement {
    if (this.state === 'idle' || !this.conversationId) {
      return h('p', { class: 'empty' }, 'No answer is being written right now. When @pyops works on the active conversation, its progress shows here — also after you reopen this panel.');
    }
    const status = {
      running: [icon('loading codicon-modifier-spin'), ' Writing…'],
      done: [icon('pass'), ' Finished'],
      stopped: [icon('debug-stop'), ' Stopped — the partial answer was kept'],
      error: [icon('error'), ` ${this.error ?? 'Failed'}`],
    }[this.state];
    const id = this.conversationId;
    return h(
      'div',
      { class: 'live-run' },
      h('header', null, h('h3', null, title ?? 'Conversation'), h('span', { class: `run-status run-${this.state}`, role: 'status', 'aria-live': 'polite' }, status), this.state === 'running' ? button('Stop', () => stop(id), { icon: 'debug-stop', secondary: true, key: 'stop-run' }) : null),
      h(
        'div',
        { class: 'run-body' },
        this.order.map((o) => {
          // The answer as it will read in the chat: Markdown, drawn again as each chunk arrives.
          if (o.kind === 'text') return h('div', { class: 'run-text' }, markdown(this.text[o.index]));
          const s = this.steps.find((x) => x.id === o.id)!;
          return h('div', { class: `run-step${s.ok === false ? ' failed' : ''}` }, icon(s.summary === undefined ? 'loading codicon-modifier-spin' : s.ok === false ? 'error' : 'check'), ' ', s.summary ?? `${s.tool}…`);
        }),
      ),
    );
  }
}
