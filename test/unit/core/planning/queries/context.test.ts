// planningContext: built from the project's game index and planning state, reused while neither
// changes (so availability caches stay warm across tool calls), rebuilt when one does.
import assert from 'node:assert/strict';
import { planningContext } from '../../../../../src/core/planning/context';
import { writeSettings } from '../../../../../src/core/planning/settings';
import { searchGoods } from '../../../../../src/core/planning/queries/searchGoods';
import { privateSampleWorld } from './world';

describe('planningContext', () => {
  it('reuses one context while the state is unchanged and rebuilds it after a settings change', async () => {
    const w = await privateSampleWorld();
    const a = planningContext(w.project);
    assert.equal(a.g, w.g);
    assert.equal(a.project, w.project);
    assert.equal(a.availability.mode, 'now');
    assert.equal(planningContext(w.project), a);
    writeSettings(w.project, { research_mode: 'future' });
    const b = planningContext(w.project);
    assert.notEqual(b, a);
    assert.equal(b.availability.mode, 'future');
    assert.equal(searchGoods(b, { query: 'gear' }).matches[0].name, 'gear');
  });
});
