// Stored transcript (AI SDK UI messages) → model messages. Data parts (compaction archives, turn
// errors, proposal extras) never reach the model; tool calls left incomplete by an abort are
// dropped so every tool call the model sees has its result next to it.
import { convertToModelMessages, type ModelMessage, type ToolSet, type UIMessage } from 'ai';

type Part = UIMessage['parts'][number];

/** A tool call part: `tool-<name>` for registered tools, `dynamic-tool` for the rest. */
export function isToolPart(p: Part): boolean {
  return p.type === 'dynamic-tool' || p.type.startsWith('tool-');
}

/** The tool a tool part called; `fallback` for a dynamic part without a name. */
export function toolPartName(p: Part, fallback = 'tool'): string {
  return p.type === 'dynamic-tool' ? ((p as { toolName?: string }).toolName ?? fallback) : p.type.slice('tool-'.length);
}

const MODEL_VISIBLE = (p: Part) =>
  p.type === 'text' ? (p as { text: string }).text.length > 0 : p.type === 'reasoning' ? false : p.type === 'file' || isToolPart(p);

/** Tool parts whose call never completed (input still streaming or never answered). */
function isIncompleteTool(p: Part): boolean {
  if (!isToolPart(p)) return false;
  const s = (p as { state?: string }).state;
  return s !== 'output-available' && s !== 'output-error' && s !== 'output-denied';
}

/** Messages with something for the model; parts it must not see are removed. */
export function modelVisible(messages: readonly UIMessage[]): UIMessage[] {
  const out: UIMessage[] = [];
  for (const m of messages) {
    // Reasoning is shown in the UI but not replayed: providers reject foreign or unsigned reasoning.
    const parts = m.parts.filter((p) => !p.type.startsWith('data-') && p.type !== 'reasoning' && !isIncompleteTool(p));
    if (!parts.some(MODEL_VISIBLE)) continue;
    out.push({ ...m, parts });
  }
  return out;
}

export async function toModelMessages(messages: readonly UIMessage[], tools: ToolSet): Promise<ModelMessage[]> {
  return convertToModelMessages(modelVisible(messages), { tools, ignoreIncompleteToolCalls: true });
}
