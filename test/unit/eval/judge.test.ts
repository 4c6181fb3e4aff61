// The accuracy suite's judge: it must catch what a player would have to correct — an unsolved or
// unbuildable draft, a shortfall between blocks, a byproduct left unsaid, a number no tool gave —
// and accept honest roundings and unit changes.
import assert from 'node:assert/strict';
import { Project } from '../../../src/core/db/project';
import { planningContext } from '../../../src/core/planning/context';
import { writeSettings } from '../../../src/core/planning/settings';
import { answerNumbers, judge, numbersCheck, type CapturedCall } from '../../../eval/judge';
import { useSampleProject } from '../../helpers/sampleProject';

const call = (name: string, result: unknown, ok = true): CapturedCall => ({ name, input: {}, ok, result, chars: JSON.stringify(result).length });
const draft = (over: Record<string, unknown> = {}) => ({
  name: 'Gears', status: 'optimal', invalid: [], rows: [{ recipe: 'gear', machine: 'press', buildings: 2.4, wholeBuildings: 3 }],
  imports: [{ good: 'ferrite-plate', rate: 4.8 }], byproducts: [], powerW: 360_000, ...over,
});

describe('eval judge', () => {
  let p: Project;
  const sample = useSampleProject({});
  before(() => (p = sample.project));

  it('passes a solved, buildable block whose numbers come from the draft, in other units too', () => {
    writeSettings(p, { research_mode: 'future' });
    const r = judge(planningContext(p), 'block', '2 gears per second', [call('submitBlock', draft())], 'Build 3 presses (2.40 exactly) for 2 gears/s: 288 ferrite plates per minute, 0.36 MW or 360 kW.');
    for (const [k, v] of Object.entries(r)) assert.equal(v.pass, true, `${k}: ${v.detail}`);
    assert.equal(r.shortfall.na, true);
  });

  it('fails a draft that is infeasible, uses a machine outside the horizon, or invents numbers', () => {
    writeSettings(p, { research_mode: 'now', available_science_packs: [] });
    const ctx = planningContext(p);
    assert.equal(ctx.availability.machine('press-mk2').buildableNow, false, 'precondition: press-mk2 is locked under Now');
    const r = judge(ctx, 'block', 'gears', [call('submitBlock', draft({ status: 'infeasible', rows: [{ recipe: 'gear', machine: 'press-mk2', buildings: 1 }] }))], 'You need 17 presses.');
    assert.equal(r.solved.pass, false);
    assert.match(r.horizon.detail, /machine press-mk2/);
    assert.match(r.numbers.detail, /17/);
    const none = judge(ctx, 'plan', 'x', [call('searchGoods', { matches: [] })], 'Here is a plan.');
    assert.equal(none.solved.pass, false);
    assert.equal(none.solved.detail, 'no draft was proposed');
  });

  it('fails a plan with a shortfall between blocks and a byproduct nobody takes and the answer never names', () => {
    writeSettings(p, { research_mode: 'future' });
    const plan = {
      kind: 'plan', blocks: [draft({ name: 'Solvent', byproducts: [{ good: 'tailings', rate: 0.75 }] }), draft({ name: 'Brine' })], updates: [],
      balance: { underSupplied: [{ good: 'brine', shortBy: 1.25 }] },
    };
    const r = judge(planningContext(p), 'plan', 'x', [call('submitPlan', plan)], 'The plan has two blocks.');
    assert.match(r.shortfall.detail, /brine short by 1.25/);
    assert.match(r.byproducts.detail, /tailings/);
    const named = judge(planningContext(p), 'plan', 'x', [call('submitPlan', plan)], 'Tailings leave the Solvent block; void them.');
    assert.equal(named.byproducts.pass, true, 'naming the byproduct to the user counts');
  });

  it('fails a plan with a row it runs at zero, and passes it once every row runs', () => {
    writeSettings(p, { research_mode: 'future' });
    const rows = (n: number) => [{ recipe: 'gear', machine: 'press', buildings: 2.4, wholeBuildings: 3 }, { recipe: 'gear-tempered', machine: 'press', buildings: n, wholeBuildings: Math.ceil(n) }];
    const plan = (n: number) => ({ kind: 'plan', blocks: [draft({ rows: rows(n) })], updates: [], balance: { underSupplied: [] } });
    const idle = judge(planningContext(p), 'plan', 'x', [call('submitPlan', plan(0))], 'The Gears block: 3 presses.');
    assert.equal(idle.idle.pass, false);
    assert.match(idle.idle.detail, /Gears \/ gear-tempered/);
    assert.equal(judge(planningContext(p), 'plan', 'x', [call('submitPlan', plan(1))], 'The Gears block: 3 presses.').idle.pass, true);
  });

  it('fails a plan whose answer leaves out research a row waits for; the internal or the display name counts', () => {
    writeSettings(p, { research_mode: 'future' });
    const ctx = planningContext(p);
    const rows = [{ recipe: 'circuit', machine: 'press', buildings: 1, wholeBuildings: 1, research: { recipe: 'electronics', machine: 'automation-basics', modules: ['modules-1'] } }];
    const calls = [call('submitPlan', { kind: 'plan', blocks: [draft({ rows })], updates: [], balance: { underSupplied: [] } })];
    const gap = judge(ctx, 'plan', 'x', calls, 'Research electronics first.');
    assert.equal(gap.research.pass, false);
    assert.match(gap.research.detail, /automation-basics, modules-1/);
    const display = ctx.g.technologies.get('modules-1')!.display;
    assert.notEqual(display.toLowerCase(), 'modules-1', 'precondition: a display name unlike the internal one');
    assert.equal(judge(ctx, 'plan', 'x', calls, `Research \`automation-basics\`, \`electronics\` and ${display}.`).research.pass, true);
    assert.equal(judge(ctx, 'plan', 'x', [call('submitPlan', { kind: 'plan', blocks: [draft()], updates: [], balance: { underSupplied: [] } })], 'Nothing to research.').research.pass, true, 'nothing to say when no row waits');
    assert.equal(judge(ctx, 'research', 'x', [call('researchPath', { steps: [] })], 'x').research.na, true);
  });

  it('reads numbers written in the answer, not digits inside names', () => {
    assert.deepEqual(answerNumbers('Use `small-parts-01` and assembling-machine-3 (mk02): 1,234.5 plates, 0.5/s').map((n) => n.raw), ['1,234.5', '0.5']);
    assert.equal(numbersCheck('make 40 per minute', [], 'That is 40 per minute.').pass, true, 'numbers from the question are known');
    assert.equal(numbersCheck('', [call('calcRecipe', { craftsPerSecond: 0.123456 })], 'About 0.12 crafts/s, 7.4 per minute.').pass, true);
    assert.equal(numbersCheck('', [call('calcRecipe', { craftsPerSecond: 0.123456 })], 'About 0.13 crafts/s.').pass, false);
  });
});
