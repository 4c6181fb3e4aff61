// Reading a FactorioLab data set: `data.json` (or a folder holding one), parsed once, fingerprinted
// and validated. A file that is cut short or has a wrong field is refused with where it broke — the
// section and the entry's id — so the user knows which download or edit to redo.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { z } from 'zod';
import { DumpError, found } from '../normalize/context';
import { flabDataSchema, numericAmounts, type FlabChecked, type FlabData } from './schema';
import { JsonFileError, parseJsonFile, readJsonFile } from '../jsonText';
import { compiled } from '../compiledSchema';

export const FLAB_FILE = 'data.json';

/** A refusal of a FactorioLab data set, with every problem found (the dump importer's error type). */
export function flabError(problems: string[], total = problems.length): DumpError {
  return new DumpError(problems, total, 'FactorioLab data set');
}

export interface FlabRead {
  file: string;
  data: FlabData;
  fingerprint: string;
  bytes: number;
  parseSeconds: number;
}

/** The data.json a path names: the file itself or the one inside a folder. */
export function findFlabFile(p: string): string {
  const abs = path.resolve(p);
  if (fs.statSync(abs).isDirectory()) {
    const file = path.join(abs, FLAB_FILE);
    if (!fs.existsSync(file)) throw flabError([`${abs} holds no ${FLAB_FILE}; pick a FactorioLab data set's data.json or the folder holding it`]);
    return file;
  }
  return abs;
}

export function readFlab(file: string): FlabRead {
  let buf: Buffer;
  try {
    buf = readJsonFile(file);
  } catch (err) {
    throw flabError([`cannot read ${file}: ${(err as Error).message}`]);
  }
  const base = path.basename(file);
  // Before the parse, which may escape the bytes in place.
  const fingerprint = crypto.createHash('sha256').update(buf).digest('hex');
  const bytes = buf.length;
  const t0 = performance.now();
  let parsed: unknown;
  try {
    parsed = parseJsonFile(buf);
  } catch (err) {
    const text = err instanceof JsonFileError ? err.text : buf.toString('utf8');
    if (!text.trim()) throw flabError([`${base} is empty`]);
    const msg = (err as Error).message;
    const at = Number(/position (\d+)/.exec(msg)?.[1] ?? text.length);
    throw flabError([`${base} is not valid JSON (${msg}) ${describePosition(text, at)}; the file may be cut short — download or export it again`]);
  }
  const parseSeconds = (performance.now() - t0) / 1000;
  // Checked where it lies (the schema has no transforms); only a refused set is parsed, for its issues.
  const schema = compiled(flabDataSchema);
  let checked: FlabChecked;
  if (schema.validate(parsed)) {
    checked = parsed;
  } else {
    const shape = schema.safeParse(parsed);
    if (!shape.success) throw flabError(shape.error.issues.slice(0, 5).map((i) => `${base}: ${fieldOf(parsed, i)}: ${i.message}${found(parsed, i.path)}`), shape.error.issues.length);
    checked = shape.data;
  }
  return { file, data: numericAmounts(checked), fingerprint, bytes, parseSeconds };
}

/** `recipes[12] ("iron-plate").time`: the path of an issue, with the id of the entry it is in. */
export function fieldOf(value: unknown, issue: Pick<z.core.$ZodIssue, 'path'>): string {
  let out = '';
  let v: unknown = value;
  for (const k of issue.path) {
    if (typeof k === 'number') {
      out += `[${k}]`;
      v = Array.isArray(v) ? v[k] : undefined;
      const entryId = v && typeof v === 'object' ? (v as { id?: unknown }).id : undefined;
      if (typeof entryId === 'string') out += ` ("${entryId}")`;
    } else {
      out += out ? `.${String(k)}` : String(k);
      v = v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
    }
  }
  return out || 'the top level';
}

/**
 * Where in the file a syntax error sits, in the file's own terms: the top-level section, the id of
 * the last entry that started before it and the last field name read. One pass over the text up to
 * the error (strings and nesting tracked), so it costs only on a refused file.
 */
export function describePosition(text: string, at: number): string {
  let depth = 0;
  let section = '';
  let lastKey = '';
  let lastId = '';
  let i = 0;
  const end = Math.min(at, text.length);
  while (i < end) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const s = text.slice(i + 1, Math.min(j, end));
      let k = j + 1;
      while (k < text.length && /\s/.test(text[k])) k++;
      if (text[k] === ':' && j < end) {
        lastKey = s;
        if (depth === 1) {
          section = s;
          lastId = '';
        }
      } else if (lastKey === 'id' && depth === 3) {
        lastId = s;
      }
      i = j + 1;
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    i++;
  }
  const where = [section ? `in ${section}` : 'at the top level', lastId ? `after the entry "${lastId}"` : '', lastKey && lastKey !== section ? `at field "${lastKey}"` : ''].filter(Boolean);
  return `— it breaks ${where.join(', ')} (character ${at})`;
}
