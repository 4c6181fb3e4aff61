// Read tools over the game data and the current horizon: search, good/recipe facts, recipe
// options, the production graph, one-building math, research, TURD, chain closure, byproducts,
// logistics. Thin wrappers: the queries in src/core/planning/queries do the work.
import { defineTool, plural, type AnyTool } from '../types';
import { planning, blockGoods, blockImporters } from '../context';
import { listBlocks } from '../../../planning/factory/blocks';
import * as q from '../../../planning/queries';

export const planningTools: AnyTool[] = [
  defineTool({
    name: 'searchGoods',
    displayName: 'Search goods',
    tier: 'read',
    tags: ['lookup'],
    description:
      "Turns the user's words into internal item/fluid names (exact > prefix > substring > all words in any order > near spellings > some of the words; hidden goods last; case, '-', '_' and spaces ignored; localized names too). Call it only for names the user typed; names returned by other tools are already exact — reuse them, never re-search them.",
    input: q.searchGoodsInput,
    run: (i, ctx) => q.searchGoods(planning(ctx), i),
    describe: (i, o) => `Searched goods for "${i.query}" — ${plural(o.matches.length, 'match', 'matches')}`,
  }),
  defineTool({
    name: 'goodInfo',
    displayName: 'Good info',
    tier: 'read',
    tags: ['lookup'],
    description:
      'Build-or-import verdict for one good: kind, intrinsic cost, producer and consumer counts, whether it is an additive (a high fan-out commodity best imported), its classification and spoilage. Use before deciding whether a good gets its own block, is built inline, or is imported.',
    input: q.goodInfoInput,
    run: (i, ctx) => q.goodInfo(planning(ctx), i, { blockGoods: blockGoods(ctx) }),
    describe: (i) => `Looked up ${i.good}`,
  }),
  defineTool({
    name: 'recipeInfo',
    displayName: 'Recipe info',
    tier: 'read',
    tags: ['lookup'],
    description:
      'One recipe in depth: category, craft time, its `state` and `needs` (as in recipeOptions), the default machine (rule favorite/fastest-buildable/none-buildable; its own state and needs, and a warning when not buildable), the machines that run it (state, speed, slots, power, energy source, unlock, allowed modules), fuels, spoilage, what unlocks it (science packs, TURD branch). Use for research cost or craft-time questions; for choosing between recipes use recipeOptions instead.',
    input: q.recipeInfoInput,
    run: (i, ctx) => q.recipeInfo(planning(ctx), i),
    describe: (i) => `Read recipe ${i.recipe}`,
  }),
  defineTool({
    name: 'recipeOptions',
    displayName: 'Recipe options',
    tier: 'read',
    tags: ['recipes'],
    description:
      'Ranked recipes that produce (or consume) one good under the current horizon, each with one `state`: unlocked (usable in the save), buildable (usable under the horizon), needs-research, unobtainable (not enabled and no technology unlocks it: never usable), turd-pick (a TURD branch to pick; plannable under Up to target), turd-blocked (another branch is picked: a respec), no-machine (no machine that can run it is reachable), by-hand (only the player crafts it; no building can run it) or superseded; and, only when not unlocked/buildable, `needs`: research (technologies), packs (science packs not produced), turd (branch to pick), machine (to unlock, with its technology), use (the recipe replacing it). Also cost (absent when unknown), productivity (`prod: true` when allowed), the machine a draft would use (the default-machine rule, not buildable yet says what unlocks it) and in/out text. Machines elsewhere use the same state words. Prefer recipeOptionsBatch for several goods at once.',
    input: q.recipeOptionsInput,
    run: (i, ctx) => q.recipeOptions(planning(ctx), i),
    forModel: (o) => q.recipeOptionsForModel(o),
    describe: (i, o) => `Listed ${plural(o.candidates.length, 'recipe')} for ${i.good}`,
  }),
  defineTool({
    name: 'recipeOptionsBatch',
    displayName: 'Recipe options (batch)',
    tier: 'read',
    tags: ['recipes'],
    description: 'recipeOptions for up to 30 goods in one call (fewer candidates each). Use it to expand the seams chosen from recipeGraph in one step instead of many recipeOptions calls.',
    input: q.recipeOptionsBatchInput,
    run: (i, ctx) => q.recipeOptionsBatch(planning(ctx), i),
    forModel: (o) => q.recipeOptionsBatchForModel(o),
    describe: (i) => `Listed recipe options for ${plural(i.goods.length, 'good')}`,
  }),
  defineTool({
    name: 'recipeGraph',
    displayName: 'Recipe graph',
    tier: 'read',
    tags: ['recipes', 'planning'],
    description:
      "The production neighbourhood of a target under the current horizon, breadth first, cut at seams (raw goods, goods an existing block makes, high fan-out goods, the depth limit, dead ends nothing selectable makes). Lists and expands only recipes selectable under the horizon (state as in recipeOptions); each good's locked ones come as one line with the cheapest unlock. Bounded by maxChars; `truncated`/`unexpanded`/`next` say where it stopped. Call it FIRST when drafting a block; then expand the chosen seams with one recipeOptionsBatch. For several goods at once (a plan's supplier blocks), give the others in `also`: one graph, each shared good described once.",
    input: q.recipeGraphInput,
    run: (i, ctx) => q.recipeGraph(planning(ctx), i, { blockGoods: blockGoods(ctx) }),
    describe: (i, o) => `Explored the recipe graph of ${[i.target, ...(o.also ?? [])].join(', ')} — ${plural(o.goodCount, 'good')}${o.deadEnds?.length ? `, ${plural(o.deadEnds.length, 'dead end')}` : ''}${o.truncated ? ' (budget reached)' : ''}`,
  }),
  defineTool({
    name: 'calcRecipe',
    displayName: 'Calculate one building',
    tier: 'read',
    tags: ['math'],
    description:
      'What one building running a recipe does: the machine (machine.rule: user when given, else favorite/fastest-buildable/none-buildable; machine.state/needs in the words of recipeOptions, machine.warning when it is not buildable under the horizon; recipeState/recipeNeeds for the recipe), modules placed and rejected with reasons, beacons, TURD branch, effect percentages, per-building crafts/s, inputs, outputs and power, and buildings needed for a target rate. For whole chains draft a block instead.',
    input: q.calcRecipeInput,
    run: (i, ctx) => q.calcRecipe(planning(ctx), i),
    describe: (i) => `Calculated ${i.recipe}${i.targetRate ? ` for ${i.targetRate}/s` : ''}`,
  }),
  defineTool({
    name: 'researchPath',
    displayName: 'Research path',
    tier: 'read',
    tags: ['research'],
    description:
      'The unresearched technologies on the way to a target (technology, recipe or good), in prerequisite order with their costs, the total cost of the whole path, and TURD gates needed. Uses the real researched set in every horizon.',
    input: q.researchPathInput,
    run: (i, ctx) => q.researchPath(planning(ctx), i),
    describe: (i) => `Traced the research path to ${i.target}`,
  }),
  defineTool({
    name: 'turdChoices',
    displayName: 'TURD choices',
    tier: 'read',
    tags: ['turd'],
    description:
      "Py's TURD upgrades: for a master technology, a recipe or a good, every branch with its unlocks, recipe replacements (old → new), modules and which one is selected. Use to compare branches; a branch is a near-permanent, factory-wide choice.",
    input: q.turdChoicesInput,
    run: (i, ctx) => q.turdChoices(planning(ctx), i),
    describe: (_i, o) => `Compared TURD branches of ${plural(o.masters.length, 'master')}`,
  }),
  defineTool({
    name: 'availableTurds',
    displayName: 'Available TURD upgrades',
    tier: 'read',
    tags: ['turd'],
    description: 'End-of-plan advice for the Now horizon: TURD masters whose branches would replace recipes of the plan, with their options. Present the result as advice only — never make a plan depend on an unchosen branch.',
    input: q.availableTurdsInput,
    run: (i, ctx) => q.availableTurds(planning(ctx), i),
    describe: (_i, o) => `Found ${plural(o.opportunities.length, 'TURD opportunity', 'TURD opportunities')}`,
  }),
  defineTool({
    name: 'turdConsistency',
    displayName: 'TURD consistency',
    tier: 'read',
    tags: ['turd'],
    description: 'Checks one-branch-per-master across a set of recipes (or all enabled blocks when omitted): conflicts, and per master whether the needed branch is already selected, must be picked, or would need a switch (respec).',
    input: q.turdConsistencyInput,
    run: (i, ctx) => q.turdConsistency(planning(ctx), i, { blockRecipes: () => listBlocks(ctx.project, { enabledOnly: true }).flatMap((b) => b.doc.recipes.map((r) => r.recipe)) }),
    describe: (_i, o) => `Checked TURD consistency — ${o.ok ? 'consistent' : `${plural(o.conflicts.length, 'conflict')}`}`,
  }),
  defineTool({
    name: 'chainStatus',
    displayName: 'Chain status',
    tier: 'read',
    tags: ['planning'],
    description:
      'Does a recipe set close towards a target? Solves exactly the block submitBlock would draft for these recipes (same made marks, machines, fuel — a fuel the set makes, unless a favourite is set — and LP; subBlocksNeeded and drains as in submitBlock), without modules, per craft of the set\'s best recipe for the target: how often each recipe runs, open inputs the chain must still build (a good the set makes but not enough makes the block infeasible: add a recipe or list it in subBlocksNeeded), intentional imports (raw, energy, shared goods), byproducts, fuel, and `idle`: each listed recipe that does not run (or burns with no building) with why and what to change. closed = the block solves and nothing is open, so submitBlock with the same set solves too. Call it on every draft until it is closed.',
    input: q.chainStatusInput,
    run: (i, ctx) => q.chainStatus(planning(ctx), i),
    describe: (_i, o) => `Checked the chain — ${o.closed ? 'closed' : `${plural(o.openInputs.length, 'open input')}`}`,
  }),
  defineTool({
    name: 'byproductSinks',
    displayName: 'Byproduct sinks',
    tier: 'read',
    tags: ['planning'],
    description:
      'Where byproducts can go — give `goods` (up to 10) or one `good`; returns `results`, one per good: recipes that consume it (with state and needs as in recipeOptions), blocks that import it, void/disposal options (in → out shows what is lost or given back; state and needs too), spoilage, and a one-line note. Route byproducts with it: consumer/cascade first, then an importing block, then a void. The balance of a submitted plan already names where each good it leaves over can go; ask here for the others.',
    input: q.byproductSinksBatchInput,
    run: (i, ctx) => q.byproductSinksBatch(planning(ctx), i, (good) => blockImporters(ctx, good)),
    forModel: (o) => q.byproductSinksForModel(o),
    describe: (i, o) => `Looked for sinks of ${i.goods ? plural(o.results.length, 'good') : i.good}`,
  }),
  defineTool({
    name: 'logisticsFor',
    displayName: 'Logistics for a flow',
    tier: 'read',
    tags: ['logistics'],
    description: 'Belts and inserters needed to move an item flow (items/s): belts with saturation per tier, inserters with hand stack and count, loaders; tiers limited to what the horizon reaches. Fluids get a note instead. Call it only when the user asks about belts or inserters.',
    input: q.logisticsForInput,
    run: (i, ctx) => q.logisticsFor(planning(ctx), i),
    describe: (i) => `Sized logistics for ${i.rate}/s of ${i.good}`,
  }),
];
