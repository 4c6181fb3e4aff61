// The requests of the accuracy suite: Py planning questions a player asks, each with the horizon it
// is asked under and the kind of answer it needs. `script` is what the scripted model (used when no
// OpenRouter key is set, and in `npm test`) calls before it answers — a fixed list, or a script that
// reads each result before its next call; a real model plans on its own.
import { fullPlanScript } from '../bench/fullPlan';

export type CaseKind = 'block' | 'plan' | 'research' | 'turd' | 'factory';

export interface ScriptedCall {
  name: string;
  input: unknown;
}

/** A script that decides each call from what the model read of the results so far (given back by next()). */
export type ScriptSource = ScriptedCall[] | (() => Generator<ScriptedCall, void, unknown>);

export interface EvalCase {
  id: string;
  /** `py`: ../shared/data/py-hightech-2.0-data-raw; `pysalf`: the full Py FactorioLab set
   *  (../shared/data/factoriolab-pysalf); `sample`: the sample world (it has the TURD master Py's subset lacks). */
  data: 'py' | 'pysalf' | 'sample';
  horizon: 'now' | 'future';
  /** The player's completed research (the project's setting) before the question; none when absent. */
  researched?: string[];
  kind: CaseKind;
  /** The player's factory before the question: proposals (submitBlock/submitPlan) drafted and applied as the player would. */
  factory?: ScriptedCall[];
  prompt: string;
  script: ScriptSource;
}

/** A Py game where red science runs by machine: the first research a player does. */
const RED_RUNNING = ['steam-power', 'automation-science-pack', 'automation'];

// Py's red science takes fawogae substrate and flasks (not gears): the flasks get their own block.
const RED_SCIENCE_PLAN: ScriptedCall = { name: 'submitPlan', input: { title: 'Red science', objective: '0.5 automation science packs per second', blocks: [
  { name: 'Red science', target: 'automation-science-pack', rate: 0.5, recipes: ['automation-science-pack', 'fawogae-substrate'], subBlocksNeeded: ['flask'] },
  { name: 'Flasks', target: 'flask', rate: 'fromPlan', recipes: ['flask'] },
] } };

const block = (target: string, rate: number, recipes: string[]): ScriptedCall => ({ name: 'submitBlock', input: { target, rate, recipes } });

export const CASES: EvalCase[] = [
  {
    id: 'red-science', data: 'py', horizon: 'now', researched: RED_RUNNING, kind: 'block',
    prompt: 'Draft a block for 0.5 automation science packs per second with what I can build now.',
    script: [{ name: 'searchGoods', input: { query: 'automation science pack' } }, { name: 'recipeOptions', input: { good: 'automation-science-pack' } }, block('automation-science-pack', 0.5, ['automation-science-pack'])],
  },
  {
    id: 'iron-plates', data: 'py', horizon: 'now', kind: 'block',
    prompt: 'How many furnaces do I need for 3 iron plates per second?',
    script: [{ name: 'recipeOptions', input: { good: 'iron-plate' } }, block('iron-plate', 3, ['iron-plate'])],
  },
  {
    id: 'copper-cable', data: 'py', horizon: 'now', researched: RED_RUNNING, kind: 'block',
    prompt: 'A block for 120 copper cable per minute.',
    script: [{ name: 'recipeOptions', input: { good: 'copper-cable' } }, block('copper-cable', 2, ['copper-cable'])],
  },
  {
    id: 'coal-gas', data: 'py', horizon: 'future', kind: 'block',
    prompt: 'Plan a block for 10 coal gas per second and tell me where its byproducts go.',
    script: [{ name: 'recipeOptions', input: { good: 'coal-gas' } }, block('coal-gas', 10, ['coal-gas'])],
  },
  {
    id: 'syngas', data: 'py', horizon: 'future', kind: 'block',
    prompt: 'I need 20 syngas per second. Draft the block.',
    script: [{ name: 'recipeOptions', input: { good: 'syngas' } }, block('syngas', 20, ['syngas'])],
  },
  {
    id: 'glass', data: 'py', horizon: 'future', kind: 'block',
    prompt: 'Draft a glass block for 2 glass per second.',
    // Py's `glass` recipe does not make glass: the option recipeOptions returns (`molten-glass`) does.
    script: [{ name: 'recipeOptions', input: { good: 'glass' } }, block('glass', 2, ['molten-glass'])],
  },
  {
    id: 'red-science-plan', data: 'py', horizon: 'now', researched: RED_RUNNING, kind: 'plan',
    prompt: 'Plan 0.5 automation science packs per second as a few blocks that supply each other, from plates.',
    script: [
      { name: 'recipeGraph', input: { target: 'automation-science-pack' } },
      RED_SCIENCE_PLAN,
    ],
  },
  {
    id: 'steel', data: 'py', horizon: 'future', kind: 'block',
    prompt: 'How do I make 1 steel plate per second?',
    script: [{ name: 'recipeOptions', input: { good: 'steel-plate' } }, block('steel-plate', 1, ['steel-plate'])],
  },
  {
    // The scripted tool session's full plan (bench/fullPlan.ts): it sets the horizon itself, as asked.
    id: 'logistic-full-plan', data: 'py', horizon: 'now', kind: 'plan',
    prompt: 'Plan 0.25 logistic science packs per second with their supporting blocks. Set the horizon to what it takes to be able to make them, and tell me what I still have to research.',
    script: fullPlanScript,
  },
  {
    // The same plan on full Py (Alien Life's samples, cottongut, navens, blood): eight blocks.
    id: 'logistic-full-plan-full-py', data: 'pysalf', horizon: 'now', kind: 'plan',
    prompt: 'Plan 0.25 logistic science packs per second with their supporting blocks. Set the horizon to what it takes to be able to make them, and tell me what I still have to research.',
    script: fullPlanScript,
  },
  {
    // The whole factory: red science at 0.5/s in two blocks, raised to 1/s. Judged on the factory
    // after Balance Factory is applied: every block solved, nothing short, the pack at its new rate.
    id: 'scale-red-science', data: 'py', horizon: 'now', researched: RED_RUNNING, kind: 'factory',
    factory: [RED_SCIENCE_PLAN],
    prompt: 'My factory makes 0.5 automation science packs per second. Raise it to 1 per second and resize every block that supplies it.',
    script: [
      { name: 'factoryScenario', input: { pins: [{ good: 'automation-science-pack', rate: 1 }] } },
      { name: 'balanceFactory', input: { pins: [{ good: 'automation-science-pack', rate: 1 }] } },
    ],
  },
  {
    id: 'research-green', data: 'py', horizon: 'now', kind: 'research',
    prompt: 'What do I need to research for logistic science packs, and what does it cost?',
    script: [{ name: 'researchPath', input: { target: 'logistic-science-pack' } }],
  },
  {
    id: 'turd-press', data: 'sample', horizon: 'future', kind: 'turd',
    prompt: 'Which TURD branch should I pick for my presses?',
    script: [{ name: 'turdChoices', input: { master: 'press-upgrade' } }],
  },
];
