// A block as a Markdown page (what "Open" shows in the Factory view until it opens in the block
// editor): its state, goals, recipes with machines and building counts, and the flows it trades with
// the rest of the factory — from the cached projection, as the factory views see it.
import type { Project } from '../../db/project';
import type { GameIndex } from '../gameIndex';
import { blockFlows, blockMachines, getBlock } from './blocks';
import { blockState } from './outline';
import { goalRate } from '../block/document';

// The views' one formatter (pure, no DOM): the page shows a figure as the editor and the Balance do.
import { power, short as num } from '../../../webview/format';
import { placedBuildings, rowsOfBlock } from './buildings';

export function blockMarkdown(p: Project, g: GameIndex | undefined, id: string): string {
  const b = getBlock(p, id);
  const d = (n: string) => g?.displayOf(n) ?? n;
  const { state, detail } = blockState(b);
  const lines = [`# ${b.name}`, '', `**${state}**${detail ? ` — ${detail}` : ''}${b.cache.powerW != null ? ` · ${power(b.cache.powerW)}` : ''}`, ''];
  lines.push('## Goals', '');
  if (!b.doc.goals.length) lines.push('_none_');
  for (const x of b.doc.goals) {
    const r = goalRate(x);
    lines.push(`- ${r.direction === 'consume' ? 'Takes' : 'Makes'} ${d(x.good)} (\`${x.good}\`) ${num(Math.abs(r.rate))}/s${r.stock ? ` (stock of ${x.stock!.amount} over ${x.stock!.window} s)` : ''}`);
  }
  const machines = blockMachines(p, id);
  const placed = placedBuildings(rowsOfBlock(b.doc, machines));
  lines.push('', '## Recipes', '', '| recipe | machine | buildings | beacons |', '| --- | --- | --- | --- |');
  for (const row of b.doc.recipes) {
    const m = machines.filter((x) => x.recipe === row.recipe);
    const count = m.reduce((n, x) => n + x.count, 0);
    const whole = placed.filter((x) => x.recipe === row.recipe && !x.beacon).reduce((n, x) => n + x.count, 0);
    const beacons = placed.filter((x) => x.recipe === row.recipe && x.beacon);
    lines.push(`| ${d(row.recipe)} (\`${row.recipe}\`) | ${m.map((x) => d(x.machine)).join(', ') || row.machine || '—'} | ${m.length ? `${num(count)} (${whole} whole)` : '—'} | ${beacons.map((x) => `${x.count} × ${d(x.entity)}`).join(', ') || '—'} |`);
  }
  const flows = blockFlows(p, id);
  for (const [title, role] of [['Imports', 'import'], ['Byproducts', 'byproduct']] as const) {
    const f = flows.filter((x) => x.role === role);
    if (!f.length) continue;
    lines.push('', `## ${title}`, '');
    for (const x of f) lines.push(`- ${d(x.item)} ${num(x.rate)}/s${x.temperature_mode === 'exact' ? ` at ${x.temperature_min}°` : x.temperature_mode === 'range' ? ` at ${x.temperature_min ?? '…'}–${x.temperature_max ?? '…'}°` : ''}`);
  }
  lines.push('', `_Updated ${b.updatedAt}._`, '');
  return lines.join('\n');
}
