// Game data is validated in bulk — every prototype of a 16 MB dump, every entry of a FactorioLab set —
// so its schemas run compiled (zod's z.compile: generated code instead of the interpreted walk, 3–4×
// faster on these shapes). A value the compiled check refuses goes through the interpreted walk, so
// the issues reported are the same. Each schema is compiled at its first use, not when the module
// loads (a `pyops` command that reads no game data pays nothing), and once per process.
import { z } from 'zod';

const cache = new WeakMap<z.ZodType, z.ZodType>();

export function compiled<S extends z.ZodType>(schema: S): S {
  let c = cache.get(schema);
  if (!c) cache.set(schema, (c = z.compile(schema)));
  return c as S;
}
