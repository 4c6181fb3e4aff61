// What a proposal looks like in the chat: a compact markdown summary (the full card lives in the
// side panel) and the follow-up chips it suggests — a block for each good it leaves to a supplier
// ("Draft a block: <good> @ <rate>.") and a routing question for each byproduct.
import type { BalanceView, DraftView, EvalView, FlowView, PlanView } from '../../webview/protocol';
import { campaignLines, groupLines, perSecond, power, powerAndFuel, short, temperature, totalBuildings } from '../../webview/format';

/** Escape text from game data or the model for markdown. */
export function escapeMd(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+!|<>~]/g, (c) => `\\${c}`).replace(/\$\(/g, '\\$(');
}

const STATUS: Record<string, string> = { optimal: '$(pass) solved', infeasible: '$(error) infeasible', unbounded: '$(error) unbounded', error: '$(error) solver error' };

const flowList = (fs: FlowView[], max = 6) => {
  const shown = fs.slice(0, max).map((f) => `${escapeMd(f.display)}${temperature(f) ? ` (${temperature(f)})` : ''} ${perSecond(f.rate)}${f.blocks?.length ? ` (from ${f.blocks.map((b) => `"${escapeMd(b)}"`).join(', ')})` : ''}`);
  if (fs.length > max) shown.push(`and ${fs.length - max} more`);
  return shown.join(', ');
};

/** One line of status for a draft: solved/infeasible · buildings · power. */
export function draftHeadline(d: DraftView): string {
  const status = STATUS[d.status] ?? escapeMd(d.status);
  if (d.status !== 'optimal') return status;
  const n = totalBuildings(d);
  return `${status} · ${n} building${n === 1 ? '' : 's'} · ${powerAndFuel(d)}`;
}

export function draftMarkdown(d: DraftView, heading = d.kind === 'update' ? 'Block revision' : 'Block proposal'): string {
  const lines: string[] = [`**${heading}: ${escapeMd(d.name)}** — ${draftHeadline(d)}`, ''];
  if (d.goals.length) lines.push(`- **Makes:** ${d.goals.map((g) => `${escapeMd(g.display)}${temperature(g) ? ` at ${temperature(g)}` : ''} ${perSecond(g.rate)}`).join(', ')}`);
  if (d.campaign) lines.push(`- **Campaign:** ${campaignLines(d.campaign).map(escapeMd).join('; ')}`);
  if (d.groups?.length) lines.push(`- **Composed groups:** ${groupLines(d.groups).map(escapeMd).join('; ')}`);
  if (d.revision) {
    const r = d.revision;
    const changes = [
      r.oldRate !== null && d.goals[0] ? `rate ${perSecond(r.oldRate)} → ${perSecond(d.goals[0].rate)}` : '',
      r.recipesAdded.length ? `adds ${r.recipesAdded.map(escapeMd).join(', ')}` : '',
      r.recipesRemoved.length ? `removes ${r.recipesRemoved.map(escapeMd).join(', ')}` : '',
      r.newByproducts.length ? `new byproducts ${r.newByproducts.map(escapeMd).join(', ')}` : '',
    ].filter(Boolean);
    if (changes.length) lines.push(`- **Changes:** ${changes.join('; ')}`);
  }
  const rows = d.rows.filter((r) => r.machine && r.buildings > 1e-9);
  if (rows.length) {
    const shown = rows.slice(0, 8).map((r) => `${escapeMd(r.display)} — ${r.wholeBuildings} × ${escapeMd(r.machineDisplay ?? r.machine ?? '?')} (${short(r.buildings)})${r.modules.length ? ` with ${r.modules.map((m) => `${m.count} ${escapeMd(m.display)}`).join(', ')}` : ''}`);
    if (rows.length > 8) shown.push(`and ${rows.length - 8} more recipes`);
    lines.push(`- **Buildings:** ${shown.join('; ')}`);
  }
  if (d.importsFromBlocks.length) lines.push(`- **Imports from blocks:** ${flowList(d.importsFromBlocks)}`);
  if (d.importsExternal.length) lines.push(`- **Imports:** ${flowList(d.importsExternal)}`);
  if (d.byproducts.length) lines.push(`- **Byproducts:** ${flowList(d.byproducts)}`);
  const energy = [d.powerW ? `power ${power(d.powerW)}` : '', d.fuelW > 0 ? `fuel ${power(d.fuelW)}` : '', d.heatW ? `heat ${power(d.heatW)}${d.heatSourceNeeded ? ' (needs a heat source)' : ''}` : '', d.pollutionPerMinute ? `pollution ${short(d.pollutionPerMinute)}/min` : ''].filter(Boolean);
  if (energy.length) lines.push(`- **Energy:** ${energy.join(' · ')}`);
  if (d.turd.requirements.length) lines.push(`- **TURD:** ${d.turd.requirements.map((q) => `${escapeMd(q.masterDisplay)} → ${escapeMd(q.branchDisplay)} (${escapeMd(q.state)})`).join(', ')}`);
  for (const c of d.turd.conflicts) lines.push(`- $(warning) **TURD conflict:** ${escapeMd(c.masterDisplay)} needs one of ${c.branches.map(escapeMd).join(' or ')}, not both`);
  for (const c of d.diagnosis.slice(0, 3)) lines.push(`- $(error) ${escapeMd(c.message)}${c.fixes.length ? ` — fix: ${c.fixes.map(escapeMd).join('; ')}` : ''}`);
  if (d.message && d.status !== 'optimal') lines.push(`- ${escapeMd(d.message)}`);
  for (const i of d.invalid.slice(0, 4)) lines.push(`- $(error) ${escapeMd(i)}`);
  for (const w of d.warnings.slice(0, 3)) lines.push(`- $(warning) ${escapeMd(w)}`);
  return lines.join('\n') + '\n';
}

export function planMarkdown(p: PlanView): string {
  const lines = [`**Plan: ${escapeMd(p.title)}** — ${p.ok ? '$(pass) ready to apply' : '$(warning) needs attention'}`, '', escapeMd(p.objective), ''];
  for (const b of p.blocks) lines.push(`- **New block ${escapeMd(b.name)}** — ${draftHeadline(b)}${b.goals.length ? ` — makes ${b.goals.map((g) => `${escapeMd(g.display)} ${perSecond(g.rate)}`).join(', ')}` : ''}`);
  for (const u of p.updates) lines.push(`- **Update ${escapeMd(u.name)}** — ${draftHeadline(u)}`);
  for (const c of p.turd.conflicts) lines.push(`- $(warning) **TURD conflict:** ${escapeMd(c.masterDisplay)} needs one of ${c.branches.map(escapeMd).join(' or ')}`);
  for (const i of p.invalid.slice(0, 4)) lines.push(`- $(error) ${escapeMd(i)}`);
  if (!p.buildingMaterialsIncluded) lines.push('', '_Building materials are not included._');
  return lines.join('\n') + '\n';
}

export function balanceMarkdown(b: BalanceView): string {
  if (!b.ok) return `**Balance factory** — $(error) ${escapeMd(b.message ?? b.status)}\n`;
  const lines = [`**Balance factory** — ${b.goalChanges.length ? `${b.goalChanges.length} goal${b.goalChanges.length === 1 ? '' : 's'} to change` : 'every block already fits'}${b.unsupplied.length ? `, $(warning) ${b.unsupplied.length} good${b.unsupplied.length === 1 ? '' : 's'} no block supplies` : ''}`, ''];
  if (b.science) lines.push(`- **${escapeMd(b.science.name)}**${b.science.research ? ` — research ${escapeMd(b.science.research)}` : ''}: ${b.science.labs.toFixed(1)} labs, ${b.science.packs.map((x) => `${escapeMd(x.display)} ${perSecond(x.rate)}`).join(', ')}`);
  for (const c of b.goalChanges.slice(0, 12)) lines.push(`- **${escapeMd(c.block)}**: ${escapeMd(c.display)} ${perSecond(c.current)} → ${perSecond(c.next)}`);
  if (b.goalChanges.length > 12) lines.push(`- … and ${b.goalChanges.length - 12} more`);
  for (const u of b.unsupplied.slice(0, 6)) lines.push(`- $(warning) ${escapeMd(u.label)}: ${perSecond(u.rate)} short — ${escapeMd(u.newBlock)}`);
  return lines.join('\n') + '\n';
}

export function evalMarkdown(e: EvalView): string {
  const fence = e.code.includes('```') ? '~~~~' : '```';
  return `**Lua for the game** — runs only when you click Run${e.note ? `: ${escapeMd(e.note)}` : ''}\n\n${fence}lua\n${e.code}\n${fence}\n`;
}

export interface Followup {
  prompt: string;
  label: string;
}

/**
 * The planner's synthetic goods (electricity, heat, pooled fluid fuel — `pyops-*`, 1 unit = 1 MJ) are
 * energy, not items: nobody can draft a block for "Fluid fuel (MJ)" or route it, so no chip offers them.
 */
const isRealGood = (f: { good: string }) => !f.good.startsWith('pyops-');

/** Chips for a draft: supplier blocks for the goods it leaves to others, routing for byproducts. */
export function draftFollowups(d: DraftView): Followup[] {
  const out: Followup[] = [];
  const needed = d.subBlocksNeeded.filter(isRealGood);
  const suppliers = needed.length ? needed : d.importsExternal.filter(isRealGood).sort((a, b) => b.rate - a.rate).slice(0, 2);
  for (const s of suppliers) out.push({ prompt: `Draft a block: ${s.good} @ ${perSecond(s.rate)}.`, label: `Draft a block for ${s.display}` });
  for (const b of d.byproducts.filter(isRealGood).slice(0, 2)) {
    out.push({ prompt: `Route the byproduct ${b.good} (${perSecond(b.rate)} from "${d.name}"): can another block or recipe use it, or must it be voided?`, label: `Route ${b.display}` });
  }
  return out;
}

export function planFollowups(p: PlanView): Followup[] {
  const made = new Set(p.blocks.flatMap((b) => b.goals.map((g) => g.good)));
  return p.blocks.flatMap((b) => draftFollowups({ ...b, subBlocksNeeded: b.subBlocksNeeded.filter((s) => !made.has(s.good)), importsExternal: b.importsExternal.filter((s) => !made.has(s.good)) }));
}

/**
 * At most four distinct chips, in order. Chips are told apart by what the user sees: two blocks of a
 * plan that both import ferrite plate (at different rates) would otherwise offer "Draft a block for
 * Ferrite plate" twice; the first one stays.
 */
export function dedupeFollowups(list: Followup[], max = 4): Followup[] {
  const seen = new Set<string>();
  const out: Followup[] = [];
  for (const f of list) {
    if (seen.has(f.prompt) || seen.has(f.label)) continue;
    seen.add(f.prompt);
    seen.add(f.label);
    out.push(f);
    if (out.length >= max) break;
  }
  return out;
}
