// Marking research by hand: the unresearched prerequisites of what was marked, as the sample world's
// technology tree (its dump's `prerequisites`) has them — TURD selections left out, each with what needs it.
import assert from 'node:assert/strict';
import { missingPrerequisites } from '../../../../src/core/planning/prerequisites';
import { planningContext } from '../../../../src/core/planning/context';
import { useSampleProject } from '../../../helpers/sampleProject';

describe('unresearched prerequisites of marked research', () => {
  const sample = useSampleProject();

  it('lists the whole chain below a technology, by name, each with the marked ones needing it', () => {
    const pc = planningContext(sample.project);
    // advanced-research ← fluid-handling ← electronics ← automation-basics (the dump's prerequisites).
    assert.deepEqual(missingPrerequisites(pc, new Set(), ['advanced-research'], new Set(['advanced-research'])), [
      { name: 'automation-basics', neededBy: ['advanced-research'] },
      { name: 'electronics', neededBy: ['advanced-research'] },
      { name: 'fluid-handling', neededBy: ['advanced-research'] },
    ]);
  });

  it('leaves out what is researched or marked with it, and the TURD selections', () => {
    const pc = planningContext(sample.project);
    // tempered-press ← press-upgrade, turd-select-tempered-press; press-upgrade ← advanced-pressing ← advanced-research ← …
    const got = missingPrerequisites(pc, new Set(['automation-basics', 'electronics']), ['tempered-press', 'fluid-handling'], new Set(['tempered-press', 'fluid-handling', 'advanced-research']));
    assert.deepEqual(got, [
      { name: 'advanced-pressing', neededBy: ['tempered-press'] },
      { name: 'press-upgrade', neededBy: ['tempered-press'] },
    ]);
    assert.deepEqual(missingPrerequisites(pc, new Set(), ['automation-basics'], new Set(['automation-basics'])), [], 'a root technology needs nothing');
  });
});
