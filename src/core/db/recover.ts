// Recovering a damaged project from every copy the store keeps: the project file or its `.bak`, the
// journal folded by the last checkpoint (`.journal.bak`, which turns `.bak` into the file) and the
// current journal. Generations chain them: a base file of generation G takes the journal of
// generation G, then G + 1, … Every intact frame is replayed (frames after a damaged stretch too);
// what cannot be replayed is listed before anything is written.
//
// Applying is crash-safe: every original is first copied into `<file>.damaged-<time>/`, then the
// recovered project is written atomically under a generation newer than any journal, and only then
// are the journals removed from beside it (their copies stay in the folder). Killed at any point,
// the project is either the old files (run recovery again) or the recovered one.
import fs from 'node:fs';
import path from 'node:path';
import { loadSqlJs, scalar, type Database } from './sqlite';
import { atomicWriteFile, BACKUP_SUFFIX, fsyncPath } from './atomicFile';
import { describeDamage, journalPath, previousJournalPath, readJournal, type JournalDamage, type JournalRead } from './journal';
import { ackRecordPath, readAckRecord } from './ackRecord';
import { acquireLock } from './lock';
import { ProjectError } from './errors';
import { applyFrames } from './rowImages';
import { journalGeneration, setMetaRaw } from './meta';
import { projectPath, validateProjectBytes } from './projectFile';
import { sealImage } from './seal';
import { PROJECT_TABLES } from './schema/project';

export interface JournalUse {
  file: string;
  /** The journal's generation (assumed when its header is damaged; see `note`). */
  generation: number | undefined;
  /** Replayed onto the recovered project. */
  used: boolean;
  intact: number;
  replayed: number;
  /** Intact frames that did not apply (their rows no longer fit the schema). */
  failed: number;
  damage: JournalDamage[];
  torn: boolean;
  /** Stray bytes after its last save, which hold no save. */
  noise: boolean;
  /** Saves the save record says were acknowledged in it (undefined: the record does not cover it). */
  confirmed?: number;
  /** Acknowledged saves that are not among its intact frames. */
  missing: number;
  note?: string;
}

export interface RecoveryReport {
  file: string;
  /** True when nothing is damaged: recovery has nothing to do. */
  healthy: boolean;
  /** The copy the recovered project starts from. */
  base: { file: string; generation: number };
  /** Problems with the copies, one sentence each (a copy that is fine is not listed). */
  problems: string[];
  journals: JournalUse[];
  savesReplayed: number;
  /** What the recovered project will not have, one sentence each. Empty: nothing is lost. */
  lost: string[];
  /** Rows per table in the recovered project (tables with rows only). */
  counts: Record<string, number>;
  /** After applying: the folder holding copies of every original file. */
  keptIn?: string;
  /** The save record: how many saves of which journal generation were acknowledged (when it is readable). */
  record?: { generation: number; saves: number };
}

interface Candidate {
  file: string;
  db?: Database;
  generation?: number;
  error?: string;
}

type SqlJs = Awaited<ReturnType<typeof loadSqlJs>>;

function readCandidate(SQL: SqlJs, file: string): Candidate {
  let bytes: Uint8Array;
  try {
    bytes = fs.readFileSync(file);
  } catch (err) {
    return { file, error: (err as NodeJS.ErrnoException).code === 'ENOENT' ? `${path.basename(file)} does not exist.` : `${path.basename(file)} cannot be read (${(err as Error).message}).` };
  }
  try {
    const db = validateProjectBytes(SQL, bytes, file, { sealRequired: true });
    return { file, db, generation: journalGeneration(db) };
  } catch (err) {
    // Only the first sentence: the rest is advice to run this very recovery.
    return { file, error: (err as Error).message.replace(/ Run "PyOps: Recover Project\u2026.*$/, '') };
  }
}

/** Work out what recovery would produce, without changing any file. The caller closes `db`. */
export async function planRecovery(file: string): Promise<{ report: RecoveryReport; db: Database }> {
  file = projectPath(file);
  const SQL = await loadSqlJs();
  const project = readCandidate(SQL, file);
  const backup = readCandidate(SQL, file + BACKUP_SUFFIX);
  const problems: string[] = [];
  const lost: string[] = [];
  if (project.error) problems.push(project.error);
  const base = project.db ? project : backup.db ? backup : undefined;
  if (!base) {
    throw new ProjectError(
      'damaged',
      `Nothing to recover ${path.basename(file)} from: ${project.error} ${backup.error ?? ''} Restore a backup ("PyOps: Restore Project from Backup…" or \`pyops project restore\`).`.replace(/\s+/g, ' '),
    );
  }
  if (base === backup) {
    project.db?.close();
  } else {
    backup.db?.close();
  }
  const db = base.db!;
  const baseGen = base.generation!;

  // The file and its .bak are the same project; the save record says how many saves its journal had.
  const record = readAckRecord(file, scalar<string>(db, "SELECT value FROM main.meta WHERE key = 'project_id'") ?? '');
  const reads: Array<{ file: string; r: JournalRead }> = [];
  for (const f of [previousJournalPath(file), journalPath(file)]) {
    const r = readJournal(f, undefined, record);
    if (r) reads.push({ file: f, r });
  }
  const uses: JournalUse[] = reads.map(({ file: f, r }) => {
    let generation = r.generation;
    let note: string | undefined;
    if (r.headerDamaged) {
      // Which file a journal belongs to is in its header; without it, assume the usual place.
      const current = f === journalPath(file);
      const prevGen = reads.find((x) => x.file === previousJournalPath(file))?.r.generation;
      generation = current ? (base === project ? baseGen : (prevGen ?? baseGen - 1) + 1) : baseGen;
      note = `its header is damaged; taken to be generation ${generation} from where it lies`;
      problems.push(`${path.basename(f)} has a damaged header.`);
    }
    return { file: f, generation, used: false, intact: r.frames.length, replayed: 0, failed: 0, damage: r.damage, torn: r.torn, noise: r.noise, confirmed: r.confirmed, missing: r.missing, note };
  });

  // Replay the chain of journals from the base's generation up.
  const chain = uses.map((u, i) => ({ u, r: reads[i].r })).filter((x) => x.u.generation !== undefined && x.u.generation >= baseGen);
  chain.sort((a, b) => a.u.generation! - b.u.generation!);
  let expect = baseGen;
  for (const { u, r } of chain) {
    if (u.generation! > expect) {
      lost.push(`Saves of journal generations ${expect}–${u.generation! - 1} were folded into a version of the project file that is gone or damaged, and are in no journal: they are lost.`);
    }
    expect = u.generation! + 1;
    u.used = true;
    u.failed = applyFrames(db, r.frames, { lenient: true });
    u.replayed = r.frames.length - u.failed;
    if (u.failed) lost.push(`${u.failed} intact save${u.failed === 1 ? '' : 's'} in ${path.basename(u.file)} no longer fit the project and cannot be replayed.`);
  }
  for (const u of uses) {
    const name = path.basename(u.file);
    if (u.damage.length) problems.push(`${name} is damaged (${u.damage.map(describeDamage).join(', ')}).`);
    if (u.used || u.generation === undefined) {
      if (u.confirmed === undefined) {
        if (u.damage.length) lost.push(`The saves in the damaged bytes of ${name} (at least ${u.damage.length}) cannot be read: they are lost.`);
      } else if (u.missing) {
        if (!u.damage.length) problems.push(`${name} ends after ${u.intact} saves, but ${path.basename(ackRecordPath(file))} records ${u.confirmed} confirmed.`);
        lost.push(`${u.missing} confirmed save${u.missing === 1 ? '' : 's'} of ${name} ${u.missing === 1 ? 'is' : 'are'} not among its intact saves: ${u.missing === 1 ? 'it is' : 'they are'} lost.`);
      } else if (u.damage.length) {
        u.note ??= `every save ${path.basename(ackRecordPath(file))} records as confirmed (${u.confirmed}) is intact; the damaged bytes hold none of them`;
      }
    }
    if (!u.used && u.generation !== undefined && u.generation < baseGen) u.note ??= 'already folded into the project file';
  }
  // A journal the record speaks for that is not here at all (deleted, or an older one in its place).
  if (record && record.saves > 0 && record.generation >= baseGen && !chain.some((x) => x.u.generation === record.generation)) {
    problems.push(`The journal of generation ${record.generation} is missing, and ${path.basename(ackRecordPath(file))} records ${record.saves} confirmed save${record.saves === 1 ? '' : 's'} in it.`);
    lost.push(`The ${record.saves} confirmed save${record.saves === 1 ? '' : 's'} of journal generation ${record.generation} ${record.saves === 1 ? 'is' : 'are'} in no file here: lost, unless you put that journal back before recovering.`);
  }
  if (base === backup) {
    problems.push(`Recovery starts from ${path.basename(backup.file)} (generation ${baseGen}), the copy before the last checkpoint.`);
    if (!chain.some((x) => x.u.generation === baseGen)) {
      lost.push(`${path.basename(previousJournalPath(file))} (the saves between ${path.basename(backup.file)} and the damaged file) is missing: those saves are lost.`);
    }
  }
  const savesReplayed = uses.reduce((n, u) => n + u.replayed, 0);
  const healthy = base === project && !problems.length && !lost.length && !uses.some((u) => u.generation !== undefined && u.generation > baseGen && u.intact > 0);
  const counts: Record<string, number> = {};
  for (const t of PROJECT_TABLES) {
    if (t === 'meta' || t === 'undo_changes') continue;
    const n = Number(scalar(db, `SELECT count(*) FROM main.${t}`) ?? 0);
    if (n) counts[t] = n;
  }
  const report: RecoveryReport = {
    file, healthy, base: { file: base.file, generation: baseGen }, problems, journals: uses, savesReplayed, lost, counts,
    ...(record ? { record: { generation: record.generation, saves: record.saves } } : {}),
  };
  return { report, db };
}

/**
 * Recover `file`. With `apply` false this is the dry run: the report of what would happen. With
 * `apply` true the recovered project replaces the file; the originals are kept in a folder beside it.
 */
export async function recoverProject(file: string, opts: { apply: boolean; app?: string; now?: Date }): Promise<RecoveryReport> {
  file = projectPath(file);
  const { report, db } = await planRecovery(file);
  try {
    if (!opts.apply || report.healthy) return report;
    const lock = acquireLock(file, opts.app ?? 'pyops recover');
    if (!lock.acquired) {
      throw new ProjectError('read-only', `${path.basename(file)} is open in another PyOps window${lock.owner ? ` (${lock.owner.app}, process ${lock.owner.pid})` : ''}; close it there, then recover again.`);
    }
    try {
      const originals = [file, file + BACKUP_SUFFIX, journalPath(file), previousJournalPath(file), ackRecordPath(file)].filter((f) => fs.existsSync(f));
      const keptIn = makeAsideFolder(file, opts.now ?? new Date());
      for (const f of originals) {
        fs.copyFileSync(f, path.join(keptIn, path.basename(f)));
        fsyncPath(path.join(keptIn, path.basename(f)));
      }
      fsyncPath(keptIn);
      // Newer than every journal lying around, so none of them is ever replayed onto the result.
      let newest = Math.max(report.base.generation, report.record?.generation ?? 0);
      for (const j of report.journals) newest = Math.max(newest, j.generation ?? 0);
      setMetaRaw(db, 'journal_generation', String(newest + 1));
      setMetaRaw(db, 'image_seal', 'sha256');
      setMetaRaw(db, 'recovered_at', (opts.now ?? new Date()).toISOString());
      // The damaged file is in the folder; `.bak` stays the last good copy it was.
      atomicWriteFile(file, sealImage(db.export()), { keepPrevious: false });
      for (const f of [journalPath(file), previousJournalPath(file), ackRecordPath(file)]) fs.rmSync(f, { force: true });
      report.keptIn = keptIn;
    } finally {
      lock.release();
    }
    return report;
  } finally {
    db.close();
  }
}

/**
 * A new, empty folder for the originals. Created exclusively: whatever already holds a name — a
 * folder, a file, a symlink (dangling or not) — is left alone and the next name is taken.
 */
function makeAsideFolder(file: string, when: Date): string {
  const stamp = when.toISOString().replace(/[:]/g, '-').replace(/\..+$/, '');
  for (let i = 1; ; i++) {
    const dir = i === 1 ? `${file}.damaged-${stamp}` : `${file}.damaged-${stamp}-${i}`;
    try {
      fs.mkdirSync(dir);
      return dir;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || i >= 1000) throw err;
    }
  }
}


/** The report as lines for a person: what is damaged, what comes back, what is lost. */
export function describeRecovery(r: RecoveryReport, applied: boolean): string[] {
  const name = path.basename(r.file);
  if (r.healthy) return [`${name} is not damaged: nothing to recover.`];
  const lines: string[] = [];
  for (const p of r.problems) lines.push(`Damage: ${p}`);
  lines.push(`Recovered project: ${path.basename(r.base.file)} (generation ${r.base.generation}) + ${r.savesReplayed} save${r.savesReplayed === 1 ? '' : 's'} replayed from ${r.journals.filter((j) => j.used).map((j) => path.basename(j.file)).join(' and ') || 'no journal'}.`);
  for (const j of r.journals) {
    if (j.note) lines.push(`  ${path.basename(j.file)}: ${j.note}.`);
    if (j.torn) lines.push(`  ${path.basename(j.file)}: its last save was cut short by a crash before it was confirmed; it is dropped.`);
    if (j.noise) lines.push(`  ${path.basename(j.file)}: a few stray bytes after its last save hold no save; they are ignored.`);
  }
  const counts = Object.entries(r.counts).map(([t, n]) => `${t} ${n}`).join(', ');
  lines.push(`It holds: ${counts || 'no rows'}.`);
  if (r.lost.length) for (const l of r.lost) lines.push(`Lost: ${l}`);
  else lines.push('Lost: nothing that was saved is lost.');
  if (applied) {
    lines.push(`Recovered ${name}. Every original file was copied to ${r.keptIn} first.`);
  } else {
    lines.push(`Nothing was changed. To write the recovered project, run "PyOps: Recover Project…" and confirm, or \`pyops project recover ${name} --yes\` (the current files are copied aside first).`);
  }
  return lines;
}
