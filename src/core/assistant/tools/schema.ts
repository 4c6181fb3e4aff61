// Tool input schemas as JSON Schema (draft 2020-12 via zod 4), for `pyops tools --json`, VS Code's
// languageModelTools contribution and anyone else that needs the wire form.
import { z } from 'zod';

export function toJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const js = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete js.$schema;
  return js;
}
