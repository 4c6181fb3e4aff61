// Before each turn, old tool results are replaced by short markers in the copy sent to the model
// (the stored transcript keeps them for the UI). Errors and the newest assistant turns stay
// intact: the model still needs its recent evidence, and errors explain why it changed course.
import type { UIMessage } from 'ai';
import { isToolOutcome } from '../agent/tools';
import { isToolPart, toolPartName } from '../agent/messages';

/** Newest assistant messages whose tool results are never pruned. */
export const KEEP_ASSISTANT_TURNS = 5;
/** Results at or below this many characters of JSON are cheaper to keep than to describe. */
const SMALL_RESULT_CHARS = 400;

type Part = UIMessage['parts'][number];

export function isPrunedOutput(output: unknown): boolean {
  return isToolOutcome(output) && output.ok && (output as { pruned?: unknown }).pruned === true;
}

function prunePart(p: Part): Part {
  if (!isToolPart(p)) return p;
  const t = p as Part & { state?: string; output?: unknown };
  if (t.state !== 'output-available') return p; // errors (output-error) and unfinished calls stay
  const out = t.output;
  if (isToolOutcome(out) && !out.ok) return p; // structured tool errors stay
  if (isPrunedOutput(out)) return p;
  const size = JSON.stringify(out ?? null)?.length ?? 0;
  if (size <= SMALL_RESULT_CHARS) return p;
  const name = toolPartName(p, 'the tool');
  const summary = isToolOutcome(out) ? out.summary : `Ran ${name}`;
  return {
    ...t,
    output: { ok: true, pruned: true, summary, result: { omitted: `Result of an earlier ${name} call left out to save context (${summary}). Call ${name} again if you need its details.` } },
  } as Part;
}

/** A copy with tool results older than the newest `keepAssistantTurns` assistant messages replaced by markers. */
export function pruneToolOutputs(messages: readonly UIMessage[], keepAssistantTurns = KEEP_ASSISTANT_TURNS): UIMessage[] {
  let seen = 0;
  let cut = -1; // messages at or before this index are pruned
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role !== 'assistant') continue;
    seen++;
    if (seen > keepAssistantTurns) {
      cut = i;
      break;
    }
  }
  if (cut < 0) return [...messages];
  return messages.map((m, i) => {
    if (i > cut || m.role !== 'assistant') return m;
    let changed = false;
    const parts = m.parts.map((p) => {
      const q = prunePart(p);
      if (q !== p) changed = true;
      return q;
    });
    return changed ? { ...m, parts } : m;
  });
}
