// Foundation benchmarks: a full import of the run's data set (a Py dump or a FactorioLab set) into a
// new project against JSON.parse of the same file, and the cost of durably saving one
// chat-message-sized row next to exporting the whole database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { Project, gamedataPath } from '../src/core/db/project';
import { importGameData } from '../src/core/gamedata/import';
import { atomicWriteFile } from '../src/core/db/atomicFile';
import { median, round, time, timeAsync } from './stats';
import type { BenchDataSet } from './data';

export interface ImportBench {
  dataset: string;
  seconds: number;
  parseSeconds: number;
  ratio: number;
  dbBytes: number;
  projectBytes: number;
  runs: number;
}

export interface SmallWriteBench {
  ms: number;
  /** One durable 4 KB write on the same disk, in the same run. */
  fsyncFloorMs: number;
  /** ms ÷ fsyncFloorMs (target ≤ 2). */
  floorRatio: number;
  fullExportMs: number;
  ratio: number;
  /** Export plus a durable atomic write of both databases: what a one-file design pays per save. */
  fullSaveMs: number;
  fullSaveRatio: number;
  samples: number;
}

function freshDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'pyops-bench-'));
}

export async function benchImport(data: BenchDataSet, runs = 5): Promise<{ result: ImportBench; projectFile: string; dir: string }> {
  // Each import is timed right after a parse of the same file and the ratio is the median of those
  // pairs: on a shared machine whose load drifts, a parse measured minutes away from the import says
  // little about it.
  const parse: number[] = [];
  const seconds: number[] = [];
  const ratios: number[] = [];
  let last = { dir: '', file: '' };
  for (let i = 0; i < runs; i++) {
    const ms0 = time(() => JSON.parse(fs.readFileSync(data.parseFile, 'utf8')))[1];
    parse.push(ms0);
    if (last.dir) fs.rmSync(last.dir, { recursive: true, force: true });
    const dir = freshDir();
    const file = path.join(dir, 'bench.pyops');
    const [, ms] = await timeAsync(async () => {
      const p = await Project.create(file);
      await importGameData(p, data.source);
      p.close();
    });
    seconds.push(ms / 1000);
    ratios.push(ms / ms0);
    last = { dir, file };
  }
  const s = median(seconds);
  const ps = median(parse) / 1000;
  return {
    result: {
      dataset: data.label,
      seconds: round(s),
      parseSeconds: round(ps),
      ratio: round(median(ratios), 2),
      dbBytes: fs.statSync(gamedataPath(last.file)).size + fs.statSync(last.file).size,
      projectBytes: fs.statSync(last.file).size,
      runs,
    },
    projectFile: last.file,
    dir: last.dir,
  };
}

export async function benchSmallWrite(projectFile: string, samples = 200): Promise<SmallWriteBench> {
  const p = await Project.open(projectFile);
  const floor = fsyncFloor(path.dirname(projectFile));
  try {
    p.write((db) => db.run("INSERT INTO conversations(id, title, created_at, updated_at) VALUES ('bench', 'Bench', 't', 't')"));
    const text = 'Build 2.4 /s of `dense-circuit` from `circuit` and `resin`; route `tailings` back to `brine`. '.repeat(12);
    const times: number[] = [];
    const floors: number[] = [];
    // Saves and floor writes alternate, so both see the same disk at the same moments: this disk's
    // flush time drifts by half over a few seconds.
    for (let i = 0; i < samples; i++) {
      const parts = JSON.stringify([{ type: 'text', text: `${i}: ${text}` }]);
      times.push(
        time(() =>
          p.write((db) =>
            db.run('INSERT INTO conversation_messages(id, conversation_id, role, parts, seq, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
              crypto.randomUUID(), 'bench', i % 2 ? 'assistant' : 'user', parts, i, new Date().toISOString(),
            ]),
          ),
        )[1],
      );
      floors.push(floor.sample(i));
    }
    // What a single-file design would pay per save: exporting project and game data together.
    const exports: number[] = [];
    for (let i = 0; i < 5; i++) exports.push(time(() => [p.db.export(), p.exportGameData()])[1]);
    const saves: number[] = [];
    const tmp = path.join(path.dirname(projectFile), 'full-save-bench');
    for (let i = 0; i < 5; i++) {
      saves.push(time(() => {
        atomicWriteFile(tmp + '.pyops', p.db.export(), { keepPrevious: false });
        atomicWriteFile(tmp + '.gamedata', p.exportGameData(), { keepPrevious: false });
      })[1]);
    }
    const ms = median(times);
    const fsyncFloor = median(floors);
    const full = median(exports);
    const fullSave = median(saves);
    return { ms: round(ms), fsyncFloorMs: round(fsyncFloor), floorRatio: round(ms / fsyncFloor, 2), fullExportMs: round(full), ratio: round(full / ms, 1), fullSaveMs: round(fullSave), fullSaveRatio: round(fullSave / ms, 1), samples };
  } finally {
    floor.close();
    p.close();
  }
}

/**
 * This disk's price of one durable 4 KB write (overwrite in place + fdatasync), measured beside the
 * project in the same run: no save can be cheaper than that, so the small-write target is a multiple of it.
 */
function fsyncFloor(dir: string): { sample(i: number): number; close(): void } {
  const file = path.join(dir, 'fsync-floor.bench');
  const block = Buffer.alloc(4096, 7);
  const fd = fs.openSync(file, 'w+');
  fs.writeSync(fd, block, 0, block.length, 0);
  fs.fsyncSync(fd);
  return {
    sample(i) {
      block[i % block.length] = i & 0xff;
      return time(() => {
        fs.writeSync(fd, block, 0, block.length, 0);
        fs.fdatasyncSync(fd);
      })[1];
    },
    close() {
      fs.closeSync(fd);
      fs.rmSync(file, { force: true });
    },
  };
}
