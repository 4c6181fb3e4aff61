// The per-block solve cache: a result is reused until the block's document, the game data
// fingerprint or the planning state (horizon, research, TURD choices → solve_generation) changes.
import assert from 'node:assert/strict';
import { parseBlockDoc } from '../../../../../src/core/planning/block/document';
import { setTurdSelection, writeSettings } from '../../../../../src/core/planning/settings';
import { availabilityFor, projectSolveCache, solveProjectBlock, solveStamp } from '../../../../../src/core/planning/solver/cache';
import type { World } from './helpers';
import { freshWorld } from './helpers';

describe('block solver: result cache', () => {
  let w: World;
  before(async () => {
    w = await freshWorld();
  });

  const doc = parseBlockDoc({ goals: [{ good: 'gear', rate: 3 }], recipes: [{ recipe: 'gear', machine: 'press' }] });

  it('reuses a result until the document changes', async () => {
    const cache = projectSolveCache(w.project);
    const a = await solveProjectBlock(w.project, 'b1', doc);
    const b = await solveProjectBlock(w.project, 'b1', doc);
    assert.equal(a, b);
    const c = await solveProjectBlock(w.project, 'b1', parseBlockDoc({ ...doc, goals: [{ good: 'gear', rate: 4 }] }));
    assert.notEqual(c, a);
    assert.equal(c.rows[0].craftsPerSecond, 4);
    assert.ok(cache.hits >= 1 && cache.misses >= 2);
    // Another block with the same document has its own entry.
    assert.notEqual(await solveProjectBlock(w.project, 'b2', doc), a);
  });

  it('shares one solve between concurrent requests', async () => {
    const cache = projectSolveCache(w.project);
    cache.invalidate();
    const misses = cache.misses;
    const [a, b] = await Promise.all([solveProjectBlock(w.project, 'b3', doc), solveProjectBlock(w.project, 'b3', doc)]);
    assert.equal(a, b);
    assert.equal(cache.misses - misses, 1);
  });

  // Each planning-state change below runs in a world of its own: a second undoable bump of the
  // solve generation in one project currently fails in the undo log (reported separately).
  it('solves again after the horizon changes the solve generation', async () => {
    const own = await freshWorld();
    const a = await solveProjectBlock(own.project, 'b4', doc);
    const gen = solveStamp(own.project).generation;
    const availability = availabilityFor(own.project);
    writeSettings(own.project, { research_mode: 'future' });
    assert.equal(solveStamp(own.project).generation, gen + 1);
    const b = await solveProjectBlock(own.project, 'b4', doc);
    assert.notEqual(b, a);
    assert.notEqual(availabilityFor(own.project), availability, 'a new planning state gets a new Availability');
    assert.equal(await solveProjectBlock(own.project, 'b4', doc), b);
  });

  it('solves again after a TURD choice, with the branch module applied', async () => {
    const own = await freshWorld();
    const a = await solveProjectBlock(own.project, 'b4', doc);
    setTurdSelection(own.project, 'press-upgrade', 'lean-press');
    const b = await solveProjectBlock(own.project, 'b4', doc);
    assert.notEqual(b, a);
    // The lean-press branch's always-on module lowers the press's consumption by 30 %.
    assert.ok(b.rows[0].powerW < a.rows[0].powerW, `${b.rows[0].powerW} vs ${a.rows[0].powerW}`);
  });

  it('solves again when the game data fingerprint changes', async () => {
    const a = await solveProjectBlock(w.project, 'b5', doc);
    w.project.write((db) => db.run("UPDATE gd.gd_meta SET value = value || '-changed' WHERE key = 'fingerprint'"));
    const b = await solveProjectBlock(w.project, 'b5', doc);
    assert.notEqual(b, a);
    assert.match(solveStamp(w.project).fingerprint, /-changed$/);
  });
});
