// The LP layer: programs assembled as plain arrays (constants only in row bounds), solved through
// HiGHS's structured API, with HiGHS model statuses mapped to ours.
import assert from 'node:assert/strict';
import { loadHighs } from '../../../../../src/core/planning/solver/highs';
import { LpSession, mapStatus, ProgramBuilder, rowEntries, solveLinearProgram } from '../../../../../src/core/planning/solver/program';

describe('block solver: LP layer', () => {
  it('maps HiGHS model statuses: 7 optimal, 8/9 infeasible, 10 unbounded, the rest errors with a message', () => {
    assert.equal(mapStatus(7).status, 'optimal');
    assert.equal(mapStatus(8).status, 'infeasible');
    assert.equal(mapStatus(9).status, 'infeasible');
    assert.equal(mapStatus(10).status, 'unbounded');
    for (const code of [0, 4, 6, 13, 14, 15]) {
      const m = mapStatus(code);
      assert.equal(m.status, 'error');
      assert.ok(m.message && m.message.length > 5, `code ${code}`);
    }
    assert.match(mapStatus(13).message!, /time limit/);
  });

  it('builds CSR rows with duplicate entries summed and zeros dropped', () => {
    const b = new ProgramBuilder();
    b.addCol(1);
    b.addCol(2);
    b.addCol(3);
    b.addRow([2, 0, 2, 1, 1], [1, 4, 2, 5, -5], 1, 2);
    const lp = b.build();
    const e = rowEntries(lp, 0);
    assert.deepEqual([...e.cols], [0, 2]);
    assert.deepEqual([...e.vals], [4, 3]);
    assert.deepEqual([lp.rowLower[0], lp.rowUpper[0]], [1, 2]);
  });

  it('solves a generic program and reports time inside HiGHS', async () => {
    const highs = await loadHighs();
    const b = new ProgramBuilder();
    b.addCol(1);
    b.addCol(1);
    b.addRow([0, 1], [1, 2], 4, Infinity);
    b.addRow([0, 1], [3, 1], 6, Infinity);
    const r = solveLinearProgram(highs, b.build());
    assert.equal(r.status, 'optimal');
    assert.ok(Math.abs(r.x[0] - 1.6) < 1e-9 && Math.abs(r.x[1] - 1.2) < 1e-9);
    assert.ok(Math.abs(r.objective - 2.8) < 1e-9);
    assert.ok(r.highsMs > 0);
  });

  it('tells infeasible from unbounded programs', async () => {
    const highs = await loadHighs();
    const inf = new ProgramBuilder();
    inf.addCol(1, 0, 1);
    inf.addRow([0], [1], 2, Infinity);
    assert.equal(solveLinearProgram(highs, inf.build()).status, 'infeasible');
    const unb = new ProgramBuilder();
    unb.addCol(-1);
    unb.addCol(-1);
    unb.addRow([0, 1], [1, -1], 1, Infinity);
    assert.equal(solveLinearProgram(highs, unb.build()).status, 'unbounded');
  });

  it('re-solves a persistent model after bounds, costs and new columns change', async () => {
    const highs = await loadHighs();
    const b = new ProgramBuilder();
    b.addCol(1);
    b.addRow([0], [1], 3, Infinity);
    const s = new LpSession(highs, b.build());
    try {
      assert.equal(s.run().x[0], 3);
      s.setRowBounds(0, 5, Infinity);
      assert.equal(s.run().x[0], 5);
      const slack = s.addCol(0.5, 0, Infinity, [0], [1]);
      const r = s.run();
      assert.equal(r.x[slack], 5); // the new, cheaper column takes the row
      assert.equal(r.x[0], 0);
    } finally {
      s.dispose();
    }
  });

  it('treats a column-free program as feasible exactly when every row admits zero', async () => {
    const highs = await loadHighs();
    const ok = new ProgramBuilder();
    ok.addRow([], [], -1, 1);
    assert.equal(solveLinearProgram(highs, ok.build()).status, 'optimal');
    const bad = new ProgramBuilder();
    bad.addRow([], [], 1, Infinity);
    assert.equal(solveLinearProgram(highs, bad.build()).status, 'infeasible');
  });
});
