// The host side of pending proposals, without VS Code: a draft made through the VS Code tool path or
// the embedded MCP server tells the extension the project changed (so the side panel refreshes), the
// panel state carries it as a card view (applied, then undone), and the webview's pending messages
// are validated like every other.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Project } from '../../../src/core/db/project';
import { importGameData } from '../../../src/core/gamedata/import';
import { writeSettings } from '../../../src/core/planning/settings';
import { findTool, mcpTools } from '../../../src/core/assistant/tools/registry';
import { changesProject, runTool } from '../../../src/core/assistant/tools/run';
import { solverFor } from '../../../src/core/assistant/tools/context';
import { startHttpMcp } from '../../../src/core/mcp/http';
import { planningContext } from '../../../src/core/planning/context';
import { gameIndex } from '../../../src/core/planning/gameIndex';
import { undoAndResolve } from '../../../src/core/planning/factory/blocks';
import { applyPending } from '../../../src/core/planning/proposals/pending';
import { pendingViews } from '../../../src/extension/panel/state';
import { namesFrom } from '../../../src/extension/proposals/views';
import { fromWebviewSchema } from '../../../src/webview/protocol';
import { SAMPLE_DUMP, tempDir } from '../../helpers/paths';

describe('pending proposals in the extension host', function () {
  this.timeout(60_000);
  let dir: string;
  let project: Project;
  before(async () => {
    dir = tempDir('pyops-pending-host-');
    project = await Project.create(path.join(dir, 'h.pyops'));
    await importGameData(project, SAMPLE_DUMP);
    writeSettings(project, { research_mode: 'future' });
  });
  after(() => {
    project.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('counts a kept draft (and a write) as a project change, but not a read, a chat draft or a failure', async () => {
    const call = (name: string, input: unknown, caller: 'vscode' | 'agent') => runTool(findTool(name)!, input, { project, caller });
    const block = { name: 'Gears', target: 'gear', rate: 1, recipes: ['gear'] };
    assert.equal(changesProject(findTool('submitBlock')!, await call('submitBlock', block, 'vscode')), true);
    assert.equal(changesProject(findTool('submitBlock')!, await call('submitBlock', block, 'agent')), false, 'a chat draft lives in its conversation');
    assert.equal(changesProject(findTool('submitBlock')!, await call('submitBlock', { target: 'gear' }, 'vscode')), false);
    assert.equal(changesProject(findTool('searchGoods')!, await call('searchGoods', { query: 'gear' }, 'vscode')), false);
    assert.equal(changesProject(findTool('createTask')!, await call('createTask', { title: 'x' }, 'vscode')), true);
  });

  it('tells the embedded MCP server\'s listener about each call, so a kept draft refreshes the panel', async () => {
    const seen: Array<[string, boolean]> = [];
    const h = await startHttpMcp({ tools: () => mcpTools(false), context: () => ({ project, caller: 'mcp' }), info: { name: 't', version: '0' }, onCall: (t, o) => seen.push([t.name, changesProject(t, o)]) });
    const client = new Client({ name: 'unit', version: '0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(h.url), { requestInit: { headers: h.headers } }));
      const r = (await client.callTool({ name: 'submitPlan', arguments: { title: 'Plates', objective: 'plates', blocks: [{ target: 'ferrite-plate', rate: 1, recipes: ['ferrite-plate'] }] } })) as { content: Array<{ text: string }> };
      assert.match(JSON.parse(r.content[0].text).pending.note, /PyOps side panel/);
      await client.callTool({ name: 'searchGoods', arguments: { query: 'plate' } });
    } finally {
      await client.close();
      await h.close();
    }
    assert.deepEqual(seen, [['submitPlan', true], ['searchGoods', false]]);
  });

  it('shows pending proposals as cards with their source, then as applied, then as undone', async () => {
    const names = namesFrom(gameIndex(project));
    const views = pendingViews(project, names);
    assert.deepEqual(views.map((v) => [v.kind, v.title, v.source]), [['plan', 'Plates', 'mcp'], ['block', 'Gears', 'vscode']]);
    const gears = views[1];
    assert.ok(gears.kind === 'block' && gears.draft.goals[0].display === 'Gear', 'display names, like a chat card');
    assert.equal(gears.applied, undefined);
    const solve = solverFor(planningContext(project));
    const out = await applyPending(project, solve, gears.id);
    const applied = pendingViews(project, names).find((v) => v.id === gears.id)!;
    assert.deepEqual([applied.applied?.label, applied.applied?.created, applied.applied?.undone], ['Create block "Gears"', out!.created, false]);
    await undoAndResolve(project, solve);
    assert.equal(pendingViews(project, names).find((v) => v.id === gears.id)!.applied?.undone, true);
  });

  it('accepts the pending messages from the webview only in their exact shape', () => {
    for (const ok of [{ type: 'applyPending', id: 'pp-1' }, { type: 'dismissPending', id: 'pp-1' }, { type: 'showPendingInGame', id: 'pp-1' }, { type: 'showPendingInGame', id: 'pp-1', blockIndex: 2 }]) {
      assert.ok(fromWebviewSchema.safeParse(ok).success, JSON.stringify(ok));
    }
    for (const bad of [{ type: 'applyPending' }, { type: 'applyPending', id: '' }, { type: 'dismissPending', id: 'x'.repeat(500) }, { type: 'applyPending', id: 'pp-1', confirm: false }, { type: 'showPendingInGame', id: 'pp-1', blockIndex: -1 }]) {
      assert.equal(fromWebviewSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });
});
