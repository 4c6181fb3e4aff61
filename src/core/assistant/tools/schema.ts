// Tool input schemas as JSON Schema (draft 2020-12 via zod 4), for `pyops tools --json`, VS Code's
// languageModelTools contribution and anyone else that needs the wire form.
import { z } from 'zod';

/** `target` defaults to zod's draft 2020-12; the agent asks for draft-07, which the AI SDK speaks. */
export function toJsonSchema(schema: z.ZodType, target?: 'draft-7'): Record<string, unknown> {
  const js = z.toJSONSchema(schema, { ...(target ? { target } : {}), io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete js.$schema;
  return js;
}
