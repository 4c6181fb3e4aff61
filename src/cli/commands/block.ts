// `pyops block create <project> <block.json> [--name <name>]` and `pyops block list <project> [--json]`:
// blocks in a project from the terminal. Create solves the block and saves it as one undoable action,
// exactly as the Factory view does.
import fs from 'node:fs';
import { Project } from '../../core/db/project';
import { createBlock, listBlocks } from '../../core/planning/factory/blocks';
import { parseBlockDoc } from '../../core/planning/block/document';
import { parse, UsageError } from '../args';
import type { CliIO } from '../io';
import { projectSolver } from './planning';

function readJson(file: string): unknown {
  let text: string;
  try {
    text = file === '-' ? fs.readFileSync(0, 'utf8') : fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not JSON: ${(err as Error).message}`);
  }
}

export async function blockCommand(argv: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'create') {
    const a = parse(rest, { name: { type: 'string' }, json: { type: 'boolean' } }, { min: 2, max: 2, names: 'the project file and the block document (a JSON file, or - for stdin)' });
    const doc = parseBlockDoc(readJson(a.positionals[1]));
    const p = await Project.open(a.positionals[0], { app: 'cli' });
    try {
      const solve = projectSolver(p);
      const name = a.values.name ?? (doc.science ? 'Science' : doc.goals[0]?.good ?? 'Block');
      const id = await createBlock(p, solve, { name, doc });
      const b = listBlocks(p).find((x) => x.id === id)!;
      if (a.values.json) io.out(JSON.stringify({ id, name: b.name, status: b.cache.status, powerW: b.cache.powerW }));
      else io.out(`Created block "${b.name}" (${id}) — ${b.cache.status ?? 'not solved'}`);
      return 0;
    } finally {
      p.close();
    }
  }
  if (sub === 'list') {
    const a = parse(rest, { json: { type: 'boolean' } }, { min: 1, max: 1, names: 'the project file' });
    const p = await Project.open(a.positionals[0], { readOnly: true, app: 'cli' });
    try {
      const blocks = listBlocks(p).map((b) => ({
        id: b.id, name: b.name, enabled: b.enabled, kind: b.doc.science ? 'science' : 'block', status: b.cache.fresh ? b.cache.status : 'stale',
        goals: b.doc.goals.map((g) => ({ good: g.good, ...(g.rate !== undefined ? { rate: g.rate } : {}), ...(g.stock ? { stock: g.stock } : {}) })),
        recipes: b.doc.recipes.length, powerW: b.cache.powerW,
      }));
      if (a.values.json) io.out(JSON.stringify({ blocks }));
      else if (!blocks.length) io.out('No blocks.');
      else for (const b of blocks) io.out(`${b.id}  ${b.name}${b.enabled ? '' : ' (disabled)'}${b.kind === 'science' ? ' [science]' : ''} — ${b.goals.map((g) => `${g.good} ${g.rate ?? ''}${g.rate !== undefined ? '/s' : 'stock'}`).join(', ') || 'no goals'} · ${b.recipes} recipes · ${b.status}`);
      return 0;
    } finally {
      p.close();
    }
  }
  throw new UsageError(sub ? `unknown block command "${sub}"` : 'missing block command (create or list)');
}
