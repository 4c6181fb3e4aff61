// `pyops proposal list|apply|dismiss <project> [<id>]`: the pending proposals — drafts made by
// `pyops tool`, an MCP client or Copilot agent mode — from a terminal. Apply is the side panel's
// Apply (applyPending: one undoable action, recorded on the proposal); a draft that is not solved,
// or one applied before, is applied only with --yes, since there is nobody to ask.
import { Project } from '../../core/db/project';
import { projectPlanning, projectSolver } from './planning';
import { applyPending, dismissPending, listPending, type PendingProposal } from '../../core/planning/proposals/pending';
import { parse, UsageError } from '../args';
import type { CliIO } from '../io';

/** One proposal as `list --json` prints it: no input or draft body, what a script decides by. */
function summary(x: PendingProposal) {
  const ok = (x.result as { ok?: unknown } | null)?.ok;
  return {
    id: x.id, kind: x.kind, tool: x.tool, source: x.source, title: x.title, createdAt: x.createdAt,
    ok: ok === true,
    ...(x.applied ? { applied: { label: x.applied.label, created: x.applied.created, updated: x.applied.updated, at: x.applied.at, undone: x.undone } } : {}),
  };
}

function line(x: ReturnType<typeof summary>): string {
  const state = x.applied ? (x.applied.undone ? 'applied, undone' : 'applied') : x.ok ? 'ready' : 'needs attention';
  return `${x.id}  ${x.kind.padEnd(6)} ${state.padEnd(15)} ${x.title}  (${x.source}, ${x.createdAt})`;
}

export async function proposalCommand(argv: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case 'list': {
      const a = parse(rest, { json: { type: 'boolean' } }, { min: 1, max: 1, names: 'the project file' });
      const p = await Project.open(a.positionals[0], { readOnly: true, app: 'cli' });
      try {
        const xs = listPending(p).map(summary);
        if (a.values.json) io.out(JSON.stringify({ proposals: xs }));
        else if (!xs.length) io.out('No pending proposals.');
        else for (const x of xs) io.out(line(x));
      } finally {
        p.close();
      }
      return 0;
    }
    case 'apply': {
      const a = parse(rest, { yes: { type: 'boolean' }, json: { type: 'boolean' } }, { min: 2, max: 2, names: 'the project file and the proposal id' });
      const p = await writable(a.positionals[0]);
      try {
        projectPlanning(p); // refuses a project without game data
        let refused: string | undefined;
        const outcome = await applyPending(p, projectSolver(p), a.positionals[1], (q) => {
          if (a.values.yes) return true;
          refused = `${q.message} Nothing was applied; run it again with --yes to apply it anyway.`;
          return false;
        });
        if (!outcome) throw new Error(refused ?? 'Nothing was applied.');
        if (a.values.json) io.out(JSON.stringify(outcome));
        else {
          io.out(`${outcome.label}: done (one undoable change).`);
          if (outcome.created.length) io.out(`Created block${outcome.created.length === 1 ? '' : 's'}: ${outcome.created.join(', ')}`);
          if (outcome.updated.length) io.out(`Updated block${outcome.updated.length === 1 ? '' : 's'}: ${outcome.updated.join(', ')}`);
        }
      } finally {
        p.close();
      }
      return 0;
    }
    case 'dismiss': {
      const a = parse(rest, {}, { min: 2, max: 2, names: 'the project file and the proposal id' });
      const p = await writable(a.positionals[0]);
      try {
        dismissPending(p, a.positionals[1]);
        io.out(`Dismissed ${a.positionals[1]} (blocks it created stay).`);
      } finally {
        p.close();
      }
      return 0;
    }
    default:
      throw new UsageError(sub ? `unknown proposal command "${sub}"` : 'missing proposal command (list, apply or dismiss)');
  }
}

/** The project open for writing, or an error saying why it cannot be (another window holds it, …). */
async function writable(file: string): Promise<Project> {
  const p = await Project.open(file, { app: 'cli' });
  if (p.readOnly) {
    const why = p.readOnlyReason ?? 'it opened read-only';
    p.close();
    throw new Error(`cannot change ${file}: ${why}`);
  }
  return p;
}
