// What a newly made sample project starts with, so a first look finds something in every part of
// the Factory view: a small solved block (azurite plates from the sample world's kilns), a task with
// steps linked to it, and a note on where to look next. Written once, as one undoable action, into a
// project that has none of them yet.
import type { Project } from '../db/project';
import { applyPlan, listBlocks, type BlockSolver } from '../planning/factory/blocks';
import { createTask, listTasks } from './tasks';
import { createNote, noteHeads } from './notes';

export const STARTER_BLOCK = 'Azurite plates';
export const STARTER_TASK = 'Build the azurite smelting line';
export const STARTER_NOTE = 'Start here';

const NOTE_BODY = [
  'This sample world is small on purpose: a few ores, plates, gears and circuits, research and one TURD choice.',
  '',
  `- **${STARTER_BLOCK}** (Factory view, under Blocks) is a solved block: click it to open its editor, change its rate, add a recipe.`,
  `- **${STARTER_TASK}** (under Tasks) has steps to tick; it links the block.`,
  '- **Planning** sets what the solver may use: the horizon, research, favourite machines and fuel.',
  '- Ask **@pyops** in the chat for a block ("@pyops /block 1 circuit per second") and create it from its card.',
  '',
  'Notes are ordinary Markdown documents: edit this one, or make your own with the Notes "New Note" button.',
].join('\n');

/**
 * Give an empty sample project its starter block, task and note (one undoable action). Does nothing
 * when the project already has blocks, tasks or notes (the player's own, or an earlier start).
 */
export async function seedSampleStarter(p: Project, solve: BlockSolver): Promise<boolean> {
  if (listBlocks(p).length || listTasks(p).length || noteHeads(p).length) return false;
  await applyPlan(
    p,
    solve,
    { create: [{ name: STARTER_BLOCK, doc: { goals: [{ good: 'azurite-plate', rate: 0.5 }], recipes: [{ recipe: 'azurite-plate' }] } }], update: [] },
    'Set up the sample project (a block, a task and a note)',
    {
      extra: (db) => {
        const blockId = db.exec('SELECT id FROM main.blocks WHERE name = ? ORDER BY rowid DESC LIMIT 1', [STARTER_BLOCK])[0]?.values[0]?.[0];
        createTask(p, {
          title: STARTER_TASK,
          body: 'Place the kilns the block lists and keep them fed; tick each step as you go.',
          steps: ['Place the kilns the block asks for', 'Bring azurite ore in', 'Keep the kilns fuelled'],
          links: typeof blockId === 'string' ? [{ kind: 'block', name: blockId }] : [],
        });
        createNote(p, { title: STARTER_NOTE, body: NOTE_BODY });
      },
    },
  );
  return true;
}
