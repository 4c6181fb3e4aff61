// The pure parts of @pyops: linking VS Code's chat history to the stored conversation (and cutting
// it back after an edit or retry), slash-command framing, and the chat summary of a proposal.
import assert from 'node:assert/strict';
import type { UIMessage } from 'ai';
import { keepCount, linkFromHistory, parseTurnMetadata } from '../../../src/extension/chat/history';
import { emptyCommandHint, framedMessage, isSlashCommand } from '../../../src/extension/chat/slashCommands';
import { dedupeFollowups, draftFollowups, draftMarkdown, escapeMd, evalMarkdown, planFollowups, planMarkdown } from '../../../src/extension/chat/proposalSummary';
import { deriveTitle, isAutomaticTitle } from '../../../src/core/assistant/conversations/title';
import { isReportMessage, reportMessage } from '../../../src/extension/assistant/reports';
import { toDraftView, toPlanView } from '../../../src/extension/proposals/views';

const request = (prompt: string) => ({ prompt, command: undefined, references: [], participant: 'pyops.assistant', toolReferences: [] });
const response = (metadata: unknown) => ({ response: [], result: { metadata }, participant: 'pyops.assistant' });
const msg = (id: string, role: UIMessage['role'] = 'user'): UIMessage => ({ id, role, parts: [{ type: 'text', text: id }] });

describe('@pyops chat history', () => {
  it('finds the conversation and newest message of the last answer', () => {
    const history = [request('a'), response({ conversationId: 'c1', userMessageId: 'u1', assistantMessageId: 'a1' }), request('b'), response({ conversationId: 'c1', userMessageId: 'u2', assistantMessageId: 'a2' })];
    assert.deepEqual(linkFromHistory(history), { conversationId: 'c1', anchorId: 'a2' });
  });

  it('skips answers without stored messages (/compact) back to the last one with an anchor', () => {
    const history = [response({ conversationId: 'c1', assistantMessageId: 'a1' }), response({ conversationId: 'c1' })];
    assert.deepEqual(linkFromHistory(history), { conversationId: 'c1', anchorId: 'a1' });
  });

  it('follows the newest conversation after /new and ignores foreign or malformed metadata', () => {
    const history = [response({ conversationId: 'old', assistantMessageId: 'x' }), response({ conversationId: 'new' }), response({ nope: true }), response(undefined)];
    assert.deepEqual(linkFromHistory(history), { conversationId: 'new' });
    assert.equal(linkFromHistory([request('hi')]), undefined);
    assert.equal(parseTurnMetadata({ conversationId: '' }), undefined);
  });

  it('keeps the stored transcript up to the anchor plus the notes PyOps added right after it', () => {
    const report = reportMessage('r1', '[PyOps] created', { kind: 'applied' });
    const stored = [msg('u1'), msg('a1', 'assistant'), report, msg('u2'), msg('a2', 'assistant')];
    assert.equal(keepCount(stored, 'a1', isReportMessage), 3, 'a retry of the second turn keeps the first turn and its note');
    assert.equal(keepCount(stored, 'a2', isReportMessage), 5);
    assert.equal(keepCount(stored, 'missing', isReportMessage), 5, 'an unknown anchor cuts nothing');
    assert.equal(keepCount(stored, undefined, isReportMessage), 5);
    assert.equal(isReportMessage(msg('u3')), false);
  });
});

describe('@pyops slash commands', () => {
  it('frames /plan, /block, /turd and /research for the agent and keeps plain prompts as typed', () => {
    assert.match(framedMessage('plan', 'science from ore')!, /^\/plan: .*ONE submitPlan call[\s\S]*\n\nscience from ore$/);
    assert.match(framedMessage('block', '2 iron/s')!, /submitBlock/);
    assert.match(framedMessage('turd', 'circuits')!, /turdChoices/);
    assert.match(framedMessage('research', 'dense circuits')!, /researchPath/);
    assert.equal(framedMessage(undefined, '  hi  '), 'hi');
    assert.equal(framedMessage('plan', '   '), undefined);
    assert.match(emptyCommandHint('plan'), /`\/plan 1 automation science/);
    assert.ok(isSlashCommand('compact') && isSlashCommand('new') && !isSlashCommand('other'));
  });

  it('titles a conversation from the user\'s own words, never from the command framing', () => {
    for (const c of ['plan', 'block', 'turd', 'research'] as const) {
      const framed = framedMessage(c, 'Ferrite plate at 2/s')!;
      assert.equal(deriveTitle(framed), 'Ferrite plate at 2/s', c);
      assert.equal(isAutomaticTitle('Ferrite plate at 2/s', [{ id: 'u', role: 'user', parts: [{ type: 'text', text: framed }] }]), true);
    }
    // Words the user typed that merely look like a command stay (no blank line after them).
    assert.equal(deriveTitle('/block: 2 iron/s'), '/block: 2 iron/s');
  });
});

const draft = {
  kind: 'block',
  name: 'Circuits (drafted)',
  ok: true,
  status: 'optimal',
  goals: [{ good: 'circuit', display: 'Circuit', rate: 1 }],
  rows: [
    { recipe: 'circuit', display: 'Circuit', machine: 'press', machineDisplay: 'Press', machineRule: 'default', modules: [{ name: 'speed-module-s1', count: 2 }], beacons: [], fuel: null, craftsPerSecond: 1, buildings: 1.26, wholeBuildings: 2 },
    { recipe: 'wire', display: 'Wire', machine: 'press', machineDisplay: 'Press', machineRule: 'default', modules: [], beacons: [], fuel: null, craftsPerSecond: 1.5, buildings: 0.8, wholeBuildings: 1 },
  ],
  powerW: 1_300_000,
  heatW: 0,
  heatSourceNeeded: false,
  importsFromBlocks: [{ good: 'ferrite-plate', display: 'Ferrite plate', kind: 'item', rate: 1, blocks: ['Plates'] }],
  importsExternal: [{ good: 'azurite-plate', display: 'Azurite plate', kind: 'item', rate: 1.5 }],
  subBlocksNeeded: [],
  byproducts: [{ good: 'tailings', display: 'Tailings', kind: 'fluid', rate: 3 }],
  exports: [{ good: 'circuit', display: 'Circuit', kind: 'item', rate: 1 }],
  fuel: [],
  pollutionPerMinute: 12,
  turd: { requirements: [{ recipe: 'circuit', master: 'press-upgrade', branch: 'lean-press', state: 'pickable' }], conflicts: [] },
  unmade: [],
  invalid: [],
  warnings: [],
  doc: { goals: [], recipes: [] },
};

describe('@pyops proposal summaries', () => {
  it('summarizes a block: status, buildings, imports split by source, byproducts, energy, TURD', () => {
    const md = draftMarkdown(toDraftView(draft));
    assert.match(md, /^\*\*Block proposal: Circuits \\\(drafted\\\)\*\* — \$\(pass\) solved · 3 buildings · 1\.3 MW/);
    assert.match(md, /Circuit — 2 × Press \(1\.26\) with 2 speed-module-s1/);
    assert.match(md, /Imports from blocks:\*\* Ferrite plate 1\/s \(from "Plates"\)/);
    assert.match(md, /\*\*Imports:\*\* Azurite plate 1\.5\/s/);
    assert.match(md, /Byproducts:\*\* Tailings 3\/s/);
    assert.match(md, /pollution 12\/min/);
    assert.match(md, /press-upgrade → lean-press \(pickable\)/);
  });

  it('says why a draft is not solved and how to fix it', () => {
    const md = draftMarkdown(toDraftView({ ...draft, ok: false, status: 'infeasible', diagnosis: [{ message: 'The goal of Circuit cannot be met', members: [], fixes: ['lower the goal to 0.5/s'] }] }));
    assert.match(md, /\$\(error\) infeasible/);
    assert.match(md, /The goal of Circuit cannot be met — fix: lower the goal to 0\.5\/s/);
  });

  it('suggests supplier blocks and byproduct routing as follow-ups', () => {
    const f = draftFollowups(toDraftView(draft));
    assert.deepEqual(f.map((x) => x.prompt), ['Draft a block: azurite-plate @ 1.5/s.', 'Route the byproduct tailings (3/s from "Circuits (drafted)"): can another block or recipe use it, or must it be voided?']);
    assert.equal(f[0].label, 'Draft a block for Azurite plate');
    assert.equal(dedupeFollowups([...f, ...f, ...f], 2).length, 2);
  });

  it('never offers the planner\'s pseudo-goods, and offers a supplier once even when two blocks import it at different rates', () => {
    const fuel = { good: 'pyops-fluid-fuel', display: 'Fluid fuel (MJ)', kind: 'fluid', rate: 40 };
    const withFuel = draftFollowups(toDraftView({ ...draft, importsExternal: [fuel, ...draft.importsExternal], byproducts: [{ ...fuel, good: 'pyops-heat', display: 'Heat (MJ)' }] }));
    assert.deepEqual(withFuel.map((x) => x.label), ['Draft a block for Azurite plate']);
    const needsFuel = draftFollowups(toDraftView({ ...draft, subBlocksNeeded: [fuel] }));
    assert.deepEqual(needsFuel.map((x) => x.label), ['Draft a block for Azurite plate', 'Route Tailings'], 'a pseudo-good sub-block falls back to the real imports');
    const plan = toPlanView({
      kind: 'plan', title: 'Two blocks', objective: 'x', ok: true, buildingMaterialsIncluded: true, turd: { conflicts: [], picks: [] }, invalid: [], updates: [],
      blocks: [draft, { ...draft, name: 'More circuits', importsExternal: [{ ...draft.importsExternal[0], rate: 3 }], byproducts: [] }],
    });
    const chips = dedupeFollowups(planFollowups(plan));
    assert.deepEqual(chips.map((x) => x.label), ['Draft a block for Azurite plate', 'Route Tailings']);
  });

  it('summarizes a plan and a Lua proposal', () => {
    const plan = toPlanView({ kind: 'plan', title: 'Circuits plan', objective: 'Circuits & wire', ok: false, blocks: [draft], updates: [], buildingMaterialsIncluded: false, turd: { conflicts: [{ master: 'press-upgrade', branches: ['lean-press', 'tempered-press'] }], picks: [] }, invalid: [] });
    const md = planMarkdown(plan);
    assert.match(md, /\*\*Plan: Circuits plan\*\* — \$\(warning\) needs attention/);
    assert.match(md, /New block Circuits \\\(drafted\\\)\*\* — \$\(pass\) solved · 3 buildings/);
    assert.match(md, /TURD conflict:\*\* press-upgrade needs one of lean-press or tempered-press/);
    assert.match(md, /Building materials are not included/);
    assert.match(evalMarkdown({ code: 'game.print("```")', note: 'say hi' }), /^[^\n]*say hi\n\n~~~~lua\ngame\.print/);
  });

  it('escapes names from game data and models', () => {
    assert.equal(escapeMd('a*b_[c](d) $(x)'), 'a\\*b\\_\\[c\\]\\(d\\) $\\(x\\)');
  });
});
