// A block as a Markdown page (what "Open" shows in the Factory view until it opens in the block
// editor): its state, goals, recipes with machines and building counts, and the flows it trades with
// the rest of the factory — from the cached projection, as the factory views see it.
import type { Project } from '../../db/project';
import type { GameIndex } from '../gameIndex';
import { blockFlows, blockMachines, getBlock } from './blocks';
import { blockState } from './outline';
import { goalRate } from '../block/document';

const num = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 1 ? x.toFixed(2) : x.toPrecision(3));
const power = (w: number) => (w >= 1e6 ? `${(w / 1e6).toFixed(2)} MW` : `${(w / 1e3).toFixed(1)} kW`);

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
  lines.push('', '## Recipes', '', '| recipe | machine | buildings |', '| --- | --- | --- |');
  for (const row of b.doc.recipes) {
    const m = machines.filter((x) => x.recipe === row.recipe);
    const count = m.reduce((n, x) => n + x.count, 0);
    lines.push(`| ${d(row.recipe)} (\`${row.recipe}\`) | ${m.map((x) => d(x.machine)).join(', ') || row.machine || '—'} | ${m.length ? `${num(count)} (${Math.ceil(count - 1e-6)} whole)` : '—'} |`);
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
