// Pending proposals render with the same block and plan cards as a chat's proposals, but their
// buttons name the pending proposal by id, they say where they came from, and they can be dismissed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Project } from '../../../../src/core/db/project';
import { importGameData } from '../../../../src/core/gamedata/import';
import { writeSettings } from '../../../../src/core/planning/settings';
import { findTool } from '../../../../src/core/assistant/tools/registry';
import { runTool } from '../../../../src/core/assistant/tools/run';
import { solverFor } from '../../../../src/core/assistant/tools/context';
import { planningContext } from '../../../../src/core/planning/context';
import { gameIndex } from '../../../../src/core/planning/gameIndex';
import { undoAndResolve } from '../../../../src/core/planning/factory/blocks';
import { applyPending } from '../../../../src/core/planning/proposals/pending';
import { pendingViews } from '../../../../src/extension/panel/state';
import { namesFrom } from '../../../../src/extension/proposals/views';
import { pendingCard, proposalCard, type CardContext } from '../../../../src/webview/panel/cards';
import type { FromWebview, PendingProposalView } from '../../../../src/webview/protocol';
import { SAMPLE_DUMP, tempDir } from '../../../helpers/paths';
import { FakeElement, installFakeDom } from './fakeDom';

describe('pending proposal cards', function () {
  this.timeout(60_000);
  let dir: string;
  let project: Project;
  let uninstall: () => void;
  const posted: FromWebview[] = [];
  const ctx = (): CardContext => ({ post: (m) => posted.push(m), game: { linked: true, detail: '' }, open: new Map(), toggled: () => {}, busy: new Set(), icons: {} });
  const buttons = (card: FakeElement) => card.all().filter((e) => e.tagName === 'vscode-button');
  const buttonNamed = (card: FakeElement, label: string) => buttons(card).find((b) => b.textContent === label);
  const views = (): PendingProposalView[] => pendingViews(project, namesFrom(gameIndex(project)));

  before(async () => {
    uninstall = installFakeDom();
    dir = tempDir('pyops-pending-cards-');
    project = await Project.create(path.join(dir, 'c.pyops'));
    await importGameData(project, SAMPLE_DUMP);
    writeSettings(project, { research_mode: 'future' });
    await runTool(findTool('submitBlock')!, { name: 'Gears', target: 'gear', rate: 1, recipes: ['gear'] }, { project, caller: 'vscode' });
    await runTool(findTool('submitPlan')!, { title: 'Plates', objective: 'plates', blocks: [{ target: 'ferrite-plate', rate: 1, recipes: ['ferrite-plate'] }] }, { project, caller: 'mcp' });
  });
  after(() => {
    uninstall();
    project.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => posted.splice(0));

  it('renders a pending block with its origin, and its buttons name it by id', () => {
    const gears = views().find((v) => v.kind === 'block')!;
    const card = pendingCard(ctx(), gears) as unknown as FakeElement;
    assert.match(card.textContent, /Gears/);
    assert.match(card.textContent, /Drafted by Copilot agent mode, .* not saved until applied/);
    assert.deepEqual(buttons(card).map((b) => b.textContent), ['Create Block', 'Show in Game', 'Dismiss']);
    buttonNamed(card, 'Create Block')!.click();
    buttonNamed(card, 'Show in Game')!.click();
    buttonNamed(card, 'Dismiss')!.click();
    assert.deepEqual(posted, [{ type: 'applyPending', id: gears.id }, { type: 'showPendingInGame', id: gears.id }, { type: 'dismissPending', id: gears.id }]);
  });

  it('renders a pending plan from an MCP client, with per-block Show in Game', () => {
    const plan = views().find((v) => v.kind === 'plan')!;
    const card = pendingCard(ctx(), plan) as unknown as FakeElement;
    assert.match(card.textContent, /Drafted by an MCP client/);
    buttonNamed(card, 'Apply Plan')!.click();
    buttonNamed(card, 'Show in Game')!.click();
    assert.deepEqual(posted, [{ type: 'applyPending', id: plan.id }, { type: 'showPendingInGame', id: plan.id, blockIndex: 0 }]);
  });

  it('says applied, offers to apply again, and reads as undone after an undo', async () => {
    const gears = views().find((v) => v.kind === 'block')!;
    const solve = solverFor(planningContext(project));
    await applyPending(project, solve, gears.id);
    const applied = pendingCard(ctx(), views().find((v) => v.id === gears.id)!) as unknown as FakeElement;
    assert.match(applied.textContent, /Applied .*\(1 created\)/);
    assert.ok(buttonNamed(applied, 'Create Block Again'));
    await undoAndResolve(project, solve);
    const undone = pendingCard(ctx(), views().find((v) => v.id === gears.id)!) as unknown as FakeElement;
    assert.match(undone.textContent, /then undone — it can be applied again/);
  });

  it('leaves a conversation card as it was: apply by ref, no Dismiss', () => {
    const gears = views().find((v) => v.kind === 'block')!;
    if (gears.kind !== 'block') return;
    const ref = { conversationId: 'c', messageId: 'm', toolCallId: 't' };
    const card = proposalCard(ctx(), { kind: 'block', ref, title: gears.title, draft: gears.draft }) as unknown as FakeElement;
    assert.deepEqual(buttons(card).map((b) => b.textContent), ['Create Block', 'Show in Game']);
    assert.doesNotMatch(card.textContent, /Drafted by/);
    buttonNamed(card, 'Create Block')!.click();
    assert.deepEqual(posted, [{ type: 'apply', ref }]);
  });
});
