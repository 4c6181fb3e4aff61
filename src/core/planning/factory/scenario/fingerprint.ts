// What a scenario result was computed from, as one comparable string: the pins, the supply
// priorities, the enabled blocks as saved (id and updatedAt) and the solve stamp (game data, rules,
// horizon). A result whose fingerprint differs from the project's current one is stale.
import crypto from 'node:crypto';
import type { Project } from '../../../db/project';
import { currentStamp, listBlocks, type BlockRecord } from '../blocks';
import { readFactoryPins, readSupplyPriorities, type FactoryPin, type SupplyPriority } from './inputs';

export function inputsFingerprint(
  p: Project, blocks: BlockRecord[] = listBlocks(p, { enabledOnly: true }), pins: FactoryPin[] = readFactoryPins(p), priorities: SupplyPriority[] = readSupplyPriorities(p),
): string {
  const stamp = currentStamp(p);
  const text = JSON.stringify([stamp.fingerprint, stamp.generation, pins, priorities, blocks.map((b) => [b.id, b.updatedAt])]);
  return crypto.createHash('sha256').update(text).digest('hex').slice(0, 32);
}
