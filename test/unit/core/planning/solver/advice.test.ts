// Nothing idle without a word: every listed row the LP leaves at zero, a void idle while its good is
// left over, and a virtual burn-* recipe running with no building each get an advice naming the row,
// a reason code and the block edits that change it — edits the block editor applies as they are,
// after which the row does its job. Sample world, Future horizon (every recipe selectable).
import assert from 'node:assert/strict';
import type { BlockDocInput } from '../../../../../src/core/planning/block/document';
import { parseBlockDoc } from '../../../../../src/core/planning/block/document';
import { applyBlockEdit, type BlockEdit } from '../../../../../src/core/planning/factory/blockEdit';
import { Availability } from '../../../../../src/core/planning/availability';
import type { AdviceFix, SolveResult } from '../../../../../src/core/planning/solver/result';
import { solveBlock } from '../../../../../src/core/planning/solver/solve';
import { assertBalanced, loadWorld, row, type World } from './helpers';

// A fix is a block edit as it is: this fails to compile if the two drift apart.
const asEdit = (f: AdviceFix): BlockEdit => f;

describe('advice on idle rows', () => {
  let w: World;
  let solve: (doc: BlockDocInput) => Promise<SolveResult>;
  before(async () => {
    w = await loadWorld();
    const future = new Availability(w.g, { ...w.state, settings: { ...w.state.settings, research_mode: 'future' } });
    solve = (doc) => solveBlock(w.g, future, parseBlockDoc(doc));
  });
  const advice = (r: SolveResult, recipe: string) => r.advice?.find((a) => a.recipe === recipe);
  /** Applies the advice's first fix to the document, as the block editor would, and solves again. */
  async function fix(doc: BlockDocInput, r: SolveResult, recipe: string, which = 0): Promise<SolveResult> {
    const edit = asEdit(advice(r, recipe)!.fixes[which].edit);
    return solve(applyBlockEdit({ name: 'Test', doc: parseBlockDoc(doc) }, edit).doc);
  }

  it('says a row idles because the block imports what it makes, and marking it made runs the row', async () => {
    // circuit takes 3 wire; wire is not marked made, so buying it is free and the wire row idles.
    const doc = { goals: [{ good: 'circuit', rate: 1 }], recipes: [{ recipe: 'circuit' }, { recipe: 'wire' }] };
    const r = await solve(doc);
    assertBalanced(r);
    const a = advice(r, 'wire')!;
    assert.equal(a.code, 'idle-imported');
    assert.equal(a.good, 'wire');
    assert.deepEqual(a.fixes[0].edit, { kind: 'good-made', good: 'wire', on: true });
    assert.match(a.message, /^Azurite wire \[wire\] does not run: the block imports 3\/s of Azurite wire \[wire\] instead .* Mark Azurite wire \[wire\] made inside/);
    assert.ok(r.warnings.includes(a.message), 'the advice is a warning too');
    const fixed = await fix(doc, r, 'wire');
    assert.ok(row(fixed, 'wire').craftsPerSecond > 0);
    assert.equal(advice(fixed, 'wire'), undefined);
  });

  it('names the rows that won when a cheaper path makes the same good', async () => {
    const r = await solve({ goals: [{ good: 'circuit', rate: 1 }], recipes: [{ recipe: 'circuit' }, { recipe: 'circuit-lean' }] });
    const idle = r.rows.filter((x) => x.craftsPerSecond === 0).map((x) => x.recipe);
    assert.equal(idle.length, 1);
    const a = advice(r, idle[0])!;
    assert.equal(a.code, 'idle-cheaper');
    const other = idle[0] === 'circuit' ? 'circuit-lean' : 'circuit';
    assert.match(a.message, new RegExp(`\\[${other}\\] already makes Circuit \\[circuit\\] for less machine time`));
    assert.deepEqual(a.fixes.map((f) => f.edit), [{ kind: 'row-remove', recipe: idle[0] }]);
  });

  it('says when nothing uses what an idle row makes', async () => {
    const r = await solve({ goals: [{ good: 'circuit', rate: 1 }], recipes: [{ recipe: 'circuit' }, { recipe: 'gear' }] });
    const a = advice(r, 'gear')!;
    assert.equal(a.code, 'idle-unneeded');
    assert.match(a.message, /nothing in the block uses Gear \[gear\] and none is a goal/);
  });

  it('says a void idles while its good is left over, and balancing the good inside runs it', async () => {
    // refine-brine leaves 30 tailings per craft; tailings-void (10 tailings → nothing) is not asked to run.
    const doc = { goals: [{ good: 'solvent', rate: 4 }], recipes: [{ recipe: 'refine-brine' }, { recipe: 'tailings-void' }] };
    const r = await solve(doc);
    const a = advice(r, 'tailings-void')!;
    assert.equal(a.code, 'idle-void');
    assert.deepEqual(a.fixes[0].edit, { kind: 'good-drain', good: 'tailings', on: true });
    assert.match(a.message, /does not run while 3\/s of Tailings \[tailings\] is left over/);
    const fixed = await fix(doc, r, 'tailings-void');
    assertBalanced(fixed);
    assert.ok(Math.abs(row(fixed, 'tailings-void').craftsPerSecond - 0.3) < 1e-9);
    assert.ok(!fixed.byproducts.some((f) => f.good === 'tailings'));
    assert.equal(fixed.advice, undefined);
  });

  it('says a virtual burn recipe burns fuel with no building, and a fluid-fuel surplus no building burns', async () => {
    const solid = await solve({ goals: [{ good: 'lignite', rate: 1, direction: 'consume' }], recipes: [{ recipe: 'burn-lignite' }] });
    const a = advice(solid, 'burn-lignite')!;
    assert.equal(a.code, 'burn-no-building');
    assert.equal(a.good, 'lignite');
    assert.match(a.message, /runs at 1\/s with no building: the fuel is destroyed and no machine uses its energy/);
    const fluid = await solve({ goals: [{ good: 'naphtha', rate: 1, direction: 'consume' }], recipes: [{ recipe: 'burn-fluid-naphtha' }] });
    const b = advice(fluid, 'burn-fluid-naphtha')!;
    assert.equal(b.code, 'burn-no-building');
    // naphtha: 1.5 MJ per unit.
    assert.match(b.message, /1\.5 MJ\/s of fluid fuel is left over: no building burns it/);
    // Feeding a fluid burner, it is how the pool is filled: no advice.
    const fed = await solve({ goals: [{ good: 'ferrite-plate', rate: 1 }], recipes: [{ recipe: 'ferrite-plate', machine: 'naphtha-furnace' }, { recipe: 'burn-fluid-naphtha' }], made: ['pyops-fluid-fuel'] });
    assert.ok(row(fed, 'burn-fluid-naphtha').craftsPerSecond > 0);
    assert.equal(advice(fed, 'burn-fluid-naphtha'), undefined);
  });

  it('has nothing to say about a block whose rows all run', async () => {
    const r = await solve({ goals: [{ good: 'circuit', rate: 1 }], recipes: [{ recipe: 'circuit' }, { recipe: 'wire' }], made: ['wire'] });
    assert.equal(r.advice, undefined);
  });
});
