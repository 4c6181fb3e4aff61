// Which game icons the side panel's cards can show: every good, recipe and machine named in the
// proposals on view, as `good:`/`recipe:`/`entity:` keys (PanelState.icons). Only those are sent:
// a whole project's icons would be thousands of URIs in every state message.
import type { DraftView, PanelState } from '../../webview/protocol';
import { flowIconKey } from '../../webview/format';

function draftNames(d: DraftView, out: Set<string>): void {
  for (const g of d.goals) out.add(`good:${g.good}`);
  for (const f of [...d.importsFromBlocks, ...d.importsExternal, ...d.exports, ...d.byproducts]) out.add(`good:${f.good}`);
  for (const r of d.rows) {
    out.add(`recipe:${r.recipe}`);
    if (r.machine) out.add(`entity:${r.machine}`);
  }
  // The flow diagram's goods inside the block, too.
  for (const n of d.flow.nodes) out.add(flowIconKey(n));
}

export function iconNamesOf(state: PanelState): Set<string> {
  const out = new Set<string>();
  for (const p of [...state.proposals, ...state.pending]) {
    if (p.kind === 'plan') for (const d of [...p.plan.blocks, ...p.plan.updates]) draftNames(d, out);
    else if (p.kind === 'balance') for (const x of [...p.balance.goalChanges, ...p.balance.unsupplied]) out.add(`good:${x.good}`);
    else if (p.kind !== 'eval') draftNames(p.draft, out);
  }
  return out;
}
