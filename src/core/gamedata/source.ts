// Which kind of game data a path holds: a Factorio dump (`data-raw-dump.json` with its locale files,
// or the folder holding it) or a FactorioLab data set (`data.json`, or its folder). A file is told
// apart by its first key: a dump's keys are prototype types, a data set's are its own sections.
import fs from 'node:fs';
import path from 'node:path';
import { DUMP_FILE, findDumpSource, type DumpSource } from './dump/read';
import { DumpError } from './normalize/context';
import { FLAB_FILE } from './factoriolab/read';
import { FLAB_TOP_LEVEL_KEYS } from './factoriolab/schema';

export type GameDataSource = { format: 'dump'; dump: DumpSource } | { format: 'factoriolab'; file: string };

export function findGameDataSource(p: string): GameDataSource {
  const abs = path.resolve(p);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(abs);
  } catch {
    throw new DumpError([`${abs} does not exist; point at a data-raw-dump.json, a FactorioLab data.json, or the folder holding one`]);
  }
  if (stat.isDirectory()) {
    const dump = [path.join(abs, DUMP_FILE), path.join(abs, 'script-output', DUMP_FILE)].some((c) => fs.existsSync(c));
    if (dump) return { format: 'dump', dump: findDumpSource(abs) };
    const flab = path.join(abs, FLAB_FILE);
    if (fs.existsSync(flab)) return { format: 'factoriolab', file: flab };
    throw new DumpError([`${abs} holds neither a ${DUMP_FILE} nor a FactorioLab ${FLAB_FILE}; run "factorio --dump-data" (its script-output folder), or pick a FactorioLab data set`]);
  }
  const key = firstKey(abs);
  return key !== undefined && FLAB_TOP_LEVEL_KEYS.has(key) ? { format: 'factoriolab', file: abs } : { format: 'dump', dump: findDumpSource(abs) };
}

/** The first key of a JSON object file, read from its first kilobytes (undefined when there is none). */
function firstKey(file: string): string | undefined {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(4096);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    return /^\uFEFF?\s*\{\s*"((?:[^"\\]|\\.)*)"/.exec(buf.subarray(0, n).toString('utf8'))?.[1];
  } finally {
    fs.closeSync(fd);
  }
}
