// Whether the saves since the last checkpoint are all there, before a project is built on them: the
// journal as read, held against the save record (ackRecord.ts), which knows how many saves were
// acknowledged without relying on the journal's own bytes. Anything that does not add up is a
// problem in the user's words; the project then opens read-only and Recover Project takes over.
import path from 'node:path';
import { describeDamage, journalPath, readJournal, type JournalRead } from './journal';
import { ackRecordPath, readAckRecord, type AckRecord } from './ackRecord';
import { recoverHint } from './storeProblems';

export interface JournalCheck {
  /** The journal as read (undefined: there is none). */
  jr: JournalRead | undefined;
  /** The save record, when it is intact and this project's. */
  record: AckRecord | undefined;
  /** What must stop the project being built on, phrased for the user; undefined when nothing. */
  problem: string | undefined;
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** Read the save record, then the journal (in that order: a live writer updates the record only after the journal). */
export function checkJournal(file: string, generation: number, projectId: string): JournalCheck {
  const record = readAckRecord(file, projectId);
  const jr = readJournal(journalPath(file), generation, record);
  return { jr, record, problem: journalProblem(file, jr, generation, record) };
}

function journalProblem(file: string, jr: JournalRead | undefined, generation: number, record: AckRecord | undefined): string | undefined {
  const base = path.basename(file);
  const name = path.basename(journalPath(file));
  const ackName = path.basename(ackRecordPath(file));
  const hint = recoverHint(file);
  if (jr?.headerDamaged) {
    return `${name} has a damaged header, so it cannot be matched to ${base}; ${plural(jr.frames.length, 'save')} in it are intact and shown here. Nothing was changed.${hint}`;
  }
  if (jr?.newer) {
    return `${name} holds ${plural(jr.frames.length, 'save')} made after a newer version of ${base} (journal generation ${jr.generation}, file ${generation}): the project file was replaced by an older copy. They are shown here on top of it; nothing was changed.${hint}`;
  }
  if (record && record.generation > generation) {
    return `${base} is older than its own saves: ${ackName} records ${plural(record.saves, 'save')} of journal generation ${record.generation}, and the file is generation ${generation}, so it was replaced by an older copy. It opened read-only; nothing was changed.${hint}`;
  }
  const owed = record && record.generation === generation ? record.saves : 0;
  if (!jr || jr.stale) {
    if (!owed) return undefined;
    const where = jr ? `${name} is an older journal (generation ${jr.generation}) than ${base} (generation ${generation})` : `${name} is missing`;
    return `${where}, but ${ackName} records ${plural(owed, 'save')} confirmed since ${base} was last written: they are not in ${base}. It opened read-only so nothing is built without them; put the journal back if you have it.${hint}`;
  }
  if (!jr.damage.length && !jr.missing) return undefined;
  const intact = `${plural(jr.frames.length, 'save')} ${jr.frames.length === 1 ? 'is' : 'are'} intact and shown here`;
  const tail = `The project is read-only and nothing was changed or deleted.${hint}`;
  if (!jr.damage.length) {
    return `${name} ends after ${plural(jr.frames.length, 'save')}, but ${ackName} records ${owed} confirmed: ${plural(jr.missing, 'save')} ${jr.missing === 1 ? 'is' : 'are'} gone (the journal was cut short or overwritten). ${tail}`;
  }
  const bad = jr.damage.map(describeDamage).join(', ');
  if (jr.confirmed === undefined) return `${name} is damaged (${bad}): ${intact}; saves in the damaged bytes cannot be read. ${tail}`;
  const lost = jr.missing
    ? `${plural(jr.missing, 'confirmed save')} in the damaged bytes cannot be read`
    : `every save ${ackName} records as confirmed (${jr.confirmed}) is among them`;
  return `${name} is damaged (${bad}): ${intact}; ${lost}. ${tail}`;
}
