// Finding and reading a dump: `data-raw-dump.json` plus the locale files beside it. A path may
// name the dump file itself or a folder that holds it (Factorio's `script-output`).
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { cfgLocaleSchema, dumpSchema, factorioLocaleFileSchema } from './schema';
import { DumpError, UNSAFE_KEYS, type RawDump } from '../normalize/context';
import { emptyLocale, type LocaleSources } from '../locale';
import { JsonFileError, parseJsonFile, readJsonFile } from '../jsonText';

export const DUMP_FILE = 'data-raw-dump.json';

export interface DumpSource {
  dumpFile: string;
  localeFiles: string[];
}

export function findDumpSource(p: string): DumpSource {
  const abs = path.resolve(p);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(abs);
  } catch {
    throw new DumpError([`${abs} does not exist; point at a data-raw-dump.json file or the folder holding it`]);
  }
  let dumpFile = abs;
  if (stat.isDirectory()) {
    const candidates = [path.join(abs, DUMP_FILE), path.join(abs, 'script-output', DUMP_FILE)];
    const found = candidates.find((c) => fs.existsSync(c));
    if (!found) throw new DumpError([`${abs} holds no ${DUMP_FILE}; run "factorio --dump-data" or pick the folder it wrote to (script-output)`]);
    dumpFile = found;
  }
  const dir = path.dirname(dumpFile);
  const localeFiles = fs
    .readdirSync(dir)
    .filter((n) => /-locale\.json$/i.test(n) || /^locale-.*\.json$/i.test(n))
    .sort()
    .map((n) => path.join(dir, n));
  const localeDir = path.join(dir, 'prototype-locale');
  if (fs.existsSync(localeDir) && fs.statSync(localeDir).isDirectory()) {
    for (const n of fs.readdirSync(localeDir).sort()) if (n.endsWith('.json')) localeFiles.push(path.join(localeDir, n));
  }
  return { dumpFile, localeFiles };
}

export interface ReadDump {
  raw: RawDump;
  locale: LocaleSources;
  fingerprint: string;
  bytes: number;
  parseSeconds: number;
}

function jsonError(file: string, text: string, err: unknown): DumpError {
  const base = path.basename(file);
  return new DumpError([text.trim() ? `${base} is not valid JSON (${(err as Error).message}); re-run the dump, the file may be cut short` : `${base} is empty`]);
}

function parseJson(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw jsonError(file, text, err);
  }
}

/**
 * Type or prototype keys like `__proto__`: JSON.parse keeps them as plain keys, but copying them into
 * an object (as validation does) would replace its prototype and silently drop the entry.
 */
function unsafeKeys(parsed: unknown): string[] {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(parsed)) return [];
  const out: string[] = [];
  for (const [type, table] of Object.entries(parsed)) {
    if (UNSAFE_KEYS.has(type)) out.push(`prototype type "${type}": not a usable type name`);
    else if (isObject(table)) for (const key of Object.keys(table)) if (UNSAFE_KEYS.has(key)) out.push(`${type} "${key}": "${key}" is not a usable prototype name`);
  }
  return out;
}

export function readDump(src: DumpSource): ReadDump {
  const hash = crypto.createHash('sha256');
  let buf: Buffer;
  try {
    buf = readJsonFile(src.dumpFile);
  } catch (err) {
    throw new DumpError([`cannot read ${src.dumpFile}: ${(err as Error).message}`]);
  }
  // Before the parse, which may escape the bytes in place.
  hash.update(buf);
  const t0 = performance.now();
  let parsed: unknown;
  try {
    parsed = parseJsonFile(buf);
  } catch (err) {
    throw jsonError(src.dumpFile, err instanceof JsonFileError ? err.text : buf.toString('utf8'), err);
  }
  const parseSeconds = (performance.now() - t0) / 1000;
  const unsafe = unsafeKeys(parsed);
  if (unsafe.length) throw new DumpError(unsafe);
  const shape = dumpSchema.safeParse(parsed);
  if (!shape.success) {
    const issue = shape.error.issues[0];
    throw new DumpError([
      `${path.basename(src.dumpFile)} does not have the data.raw shape (prototype type → name → prototype): ${issue.path.length ? issue.path.join('.') + ': ' : ''}${issue.message}`,
    ]);
  }
  const locale = emptyLocale();
  for (const file of src.localeFiles) {
    const text = fs.readFileSync(file, 'utf8');
    hash.update(path.basename(file));
    hash.update(text);
    const value = parseJson(file, text);
    const base = path.basename(file).replace(/\.json$/i, '');
    const factorio = factorioLocaleFileSchema.safeParse(value);
    if (factorio.success && base.endsWith('-locale')) {
      const kind = base.slice(0, -'-locale'.length);
      const m = locale.resolved.get(kind) ?? new Map<string, string>();
      for (const [k, v] of Object.entries(factorio.data.names)) m.set(k, v);
      locale.resolved.set(kind, m);
      continue;
    }
    const cfg = cfgLocaleSchema.safeParse(value);
    if (!cfg.success) {
      throw new DumpError([`${path.basename(file)} is neither a Factorio locale dump ({"names": …}) nor a section → key → text dictionary`]);
    }
    for (const [section, entries] of Object.entries(cfg.data)) {
      const m = locale.cfg.get(section) ?? new Map<string, string>();
      for (const [k, v] of Object.entries(entries)) m.set(k, v);
      locale.cfg.set(section, m);
    }
  }
  return { raw: shape.data as RawDump, locale, fingerprint: hash.digest('hex'), bytes: buf.length, parseSeconds };
}
