// The model's UI message stream with every secret taken out before anyone sees a chunk: the chat
// (VS Code, the side panel, the CLI's stdout and --json), the run's replay buffer and the saved
// message are all built from what comes out of here. Text, reasoning and tool-input deltas go
// through one StreamRedactor per part, so a key split across deltas (or upper-cased) is caught
// whole; a part's held-back rest is passed on just before the part ends. Every other chunk (tool
// inputs and outputs, errors, data parts) is redacted as a whole.
import type { UIMessageChunk } from 'ai';
import { redactDeep, StreamRedactor } from '../models/redact';

type DeltaChunk = Extract<UIMessageChunk, { type: 'text-delta' | 'reasoning-delta' | 'tool-input-delta' }>;

/** A chunk that carries the rest a part held back, in that part's own delta shape. */
type Rest = (text: string) => DeltaChunk;

export class ChunkRedactor {
  private readonly open = new Map<string, { redactor: StreamRedactor; rest: Rest }>();

  /** The chunks to pass on for one chunk of the model's stream (none while a delta is held back). */
  chunk(c: UIMessageChunk): UIMessageChunk[] {
    switch (c.type) {
      case 'text-delta':
      case 'reasoning-delta': {
        const text = this.part(`${c.type}:${c.id}`, (delta) => ({ type: c.type, id: c.id, delta }) as DeltaChunk).push(c.delta);
        return text ? [{ ...c, delta: text }] : [];
      }
      case 'tool-input-delta': {
        const text = this.part(`tool:${c.toolCallId}`, (inputTextDelta) => ({ type: 'tool-input-delta', toolCallId: c.toolCallId, inputTextDelta })).push(c.inputTextDelta);
        return text ? [{ ...c, inputTextDelta: text }] : [];
      }
      case 'text-end':
        return [...this.close(`text-delta:${c.id}`), c];
      case 'reasoning-end':
        return [...this.close(`reasoning-delta:${c.id}`), c];
      case 'tool-input-available':
      case 'tool-input-error':
        return [...this.close(`tool:${c.toolCallId}`), redactDeep(c)];
      case 'error':
      case 'abort':
      case 'finish-step':
      case 'finish':
        // A stream that fails or stops mid-part still passes on what it held (redacted).
        return [...this.end(), redactDeep(c)];
      default:
        return [redactDeep(c)];
    }
  }

  /** The rest of every part still open (the stream ended without closing them). */
  end(): UIMessageChunk[] {
    const out: UIMessageChunk[] = [];
    for (const key of [...this.open.keys()]) out.push(...this.close(key));
    return out;
  }

  private part(key: string, rest: Rest): StreamRedactor {
    let p = this.open.get(key);
    if (!p) this.open.set(key, (p = { redactor: new StreamRedactor(), rest }));
    return p.redactor;
  }

  private close(key: string): UIMessageChunk[] {
    const p = this.open.get(key);
    if (!p) return [];
    this.open.delete(key);
    const text = p.redactor.flush();
    return text ? [p.rest(text)] : [];
  }
}
