// The real tool registry through the agent: every tool converts to an AI SDK tool with a JSON
// Schema, every schema turns bad input into a clear result the model can act on (via runTool),
// and a scripted turn calling read tools on the sample world leaves the project unchanged.
import assert from 'node:assert/strict';
import { allTools } from '../../../../src/core/assistant/tools/registry';
import { agentTools, toAiTools, toolInputJsonSchema } from '../../../../src/core/assistant/agent/tools';
import { runTool } from '../../../../src/core/assistant/tools/run';
import { runTurn } from '../../../../src/core/assistant/turn';
import { importGameData } from '../../../../src/core/gamedata/import';
import { SAMPLE_DUMP } from '../../../helpers/paths';
import { mockModel, tempProject, textStep, toolStep, turnModel, type TempProject } from './helpers';

describe('assistant agent with the real tool registry', () => {
  let tp: TempProject;
  before(async () => {
    tp = await tempProject('registry');
    await importGameData(tp.project, SAMPLE_DUMP);
  });
  after(() => tp.cleanup());

  it('converts every in-app tool, with an object JSON Schema and its description', () => {
    const offered = agentTools(allTools());
    assert.ok(offered.length >= 20);
    const set = toAiTools(offered, { project: tp.project, caller: 'agent' });
    for (const t of offered) {
      assert.ok(set[t.name], t.name);
      const s = toolInputJsonSchema(t) as { type?: string };
      assert.equal(s.type, 'object', t.name);
      assert.equal((set[t.name] as { description?: string }).description, t.description);
    }
    assert.ok(offered.every((t) => t.tier !== 'developer'));
  });

  it('answers bad input for every tool with a clear, field-naming error instead of throwing', async () => {
    for (const t of agentTools(allTools())) {
      const out = await runTool(t, 'not an object', { project: tp.project, caller: 'agent' });
      assert.equal(out.ok, false, t.name);
      assert.equal((out as { code: string }).code, 'invalid-input', t.name);
      assert.match((out as { error: string }).error, new RegExp(`^Invalid input for ${t.name}: .+Fix these fields and call it again\\.$`), t.name);
    }
  });

  it("refuses at the tool boundary what the game link would refuse (whole-tile radius)", async () => {
    const inspect = allTools().find((t) => t.name === 'gameInspectArea')!;
    const out = await runTool(inspect, { x: 0, y: 0, radius: 2.5 }, { project: tp.project, caller: 'agent' });
    assert.equal(out.ok, false);
    assert.equal((out as { code: string }).code, 'invalid-input');
    assert.match((out as { error: string }).error, /radius/);
  });

  it('runs read tools in a turn without changing the project', async () => {
    const snapshot = () => JSON.stringify(['blocks', 'tasks', 'notes', 'planning_settings', 'undo_actions'].map((t) => tp.project.query(`SELECT * FROM ${t}`)));
    const before = snapshot();
    const model = mockModel([
      toolStep([
        { name: 'searchGoods', input: { query: 'gear' } },
        { name: 'factoryBlocks', input: {} },
        { name: 'recipeGraph', input: { target: 'gear', depth: 'deep' } },
      ]),
      textStep('Use `gear`.'),
    ]);
    const r = await runTurn({ project: tp.project, message: 'What makes gears?', model: turnModel(model), tools: allTools(), title: 'off' });
    assert.equal(r.error, undefined);
    const parts = r.message!.parts as Array<{ type: string; output?: { ok: boolean; error?: string } }>;
    assert.equal(parts.find((p) => p.type === 'tool-searchGoods')?.output?.ok, true);
    assert.equal(parts.find((p) => p.type === 'tool-factoryBlocks')?.output?.ok, true);
    const bad = parts.find((p) => p.type === 'tool-recipeGraph')?.output;
    assert.equal(bad?.ok, false);
    assert.match(bad!.error!, /depth/);
    assert.equal(snapshot(), before);
  });
});
