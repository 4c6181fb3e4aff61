// Tool economy on the Py data: how many characters a model receives from `recipeGraph` at default
// settings, over every good with at least two real producers (a choice to explore). Each call goes
// through runTool exactly as the agent does, and the figure is the serialized outcome. The horizon
// is the one a fresh import sets (readSettings of the imported project, nothing researched).
import { findTool } from '../src/core/assistant/tools/registry';
import { MAX_RESULT_CHARS, runTool } from '../src/core/assistant/tools/run';
import { planningContext } from '../src/core/planning/context';
import { realProducers } from '../src/core/planning/queries/common';
import { percentile } from './stats';
import { pyProject } from './queries';

export interface RecipeGraphEconomy {
  /** Goods measured (real producers ≥ 2). */
  goods: number;
  maxChars: number;
  maxGood: string;
  p50Chars: number;
  p95Chars: number;
  /** Results refused as larger than the tool result cap. */
  overCap: number;
  cap: number;
  horizon: string;
}

export async function benchRecipeGraphEconomy(): Promise<RecipeGraphEconomy> {
  const { project } = await pyProject();
  const pc = planningContext(project);
  const tool = findTool('recipeGraph');
  if (!tool) throw new Error('recipeGraph is not in the tool registry');
  const goods = [...pc.g.goods.values()]
    .filter((x) => !x.synthetic && realProducers(pc, x.name).length >= 2)
    .map((x) => x.name)
    .sort();
  const sizes: number[] = [];
  let overCap = 0;
  let maxChars = 0;
  let maxGood = '';
  for (const target of goods) {
    const outcome = await runTool(tool, { target }, { project, caller: 'agent' });
    let chars = JSON.stringify(outcome).length;
    if (!outcome.ok) {
      if (outcome.code !== 'too-large') throw new Error(`recipeGraph ${target} failed: ${outcome.error}`);
      // The model got a refusal; what it would have cost is the size the refusal reports.
      overCap++;
      chars = Number(/\((\d+) characters/.exec(outcome.error)?.[1] ?? chars);
    }
    sizes.push(chars);
    if (chars > maxChars) {
      maxChars = chars;
      maxGood = target;
    }
  }
  const s = pc.availability.state.settings;
  return {
    goods: goods.length,
    maxChars,
    maxGood,
    p50Chars: percentile(sizes, 50),
    p95Chars: percentile(sizes, 95),
    overCap,
    cap: MAX_RESULT_CHARS,
    horizon: `${s.research_mode}, packs [${s.available_science_packs.join(', ')}], ${pc.availability.state.researched.size} researched`,
  };
}
