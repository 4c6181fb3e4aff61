// Py's TURD upgrades as they appear in a dump: a branch technology has exactly two prerequisites,
// its master and a cost-free gate `turd-select-<branch>`. Recipe replacements come from the PyOps
// helper mod's export when present; otherwise they are inferred from names (a branch's new recipe
// is its old one plus a suffix: `Moss-1` → `Moss-1-chlorinated`), which holds for 506 of the 509
// replacements in the published TURD definitions.
import type { Ctx } from './context';
import type { TurdReplacementRow } from '../model';

export const TURD_GATE_PREFIX = 'turd-select-';

export function normalizeTurd(ctx: Ctx, helperReplacements: Array<{ branch: string; old: string; new: string }> | undefined): void {
  const out = ctx.out;
  const prereqs = new Map<string, string[]>();
  for (const p of out.tech_prerequisites) {
    const list = prereqs.get(p.tech);
    if (list) list.push(p.prerequisite);
    else prereqs.set(p.tech, [p.prerequisite]);
  }
  const techNames = new Set(out.technologies.map((t) => t.name));
  const branches = new Map<string, { master: string; gate: string }>();
  for (const [tech, pre] of prereqs) {
    if (pre.length !== 2) continue;
    const gate = TURD_GATE_PREFIX + tech;
    if (!pre.includes(gate) || !techNames.has(gate)) continue;
    const master = pre.find((p) => p !== gate)!;
    branches.set(tech, { master, gate });
  }
  if (!branches.size) return;

  const masters = new Set([...branches.values()].map((b) => b.master));
  for (const m of [...masters].sort()) out.turd_masters.push({ name: m });
  for (const [name, { master, gate }] of [...branches].sort(([a], [b]) => a.localeCompare(b))) {
    out.turd_branches.push({ name, master, gate });
  }
  const turdTechs = new Set<string>([...branches.keys(), ...[...branches.values()].map((b) => b.gate)]);
  for (const t of out.technologies) if (turdTechs.has(t.name)) t.is_turd = 1;

  const moduleNames = out.modules.map((m) => m.name);
  for (const branch of branches.keys()) {
    const exact = `${branch}-module`;
    for (const m of moduleNames) {
      if (m === exact || m.startsWith(`${exact}-mk`)) out.turd_branch_modules.push({ branch, module: m });
    }
  }

  const recipeNames = new Set(out.recipes.map((r) => r.name));
  const unlocksByTech = new Map<string, string[]>();
  for (const u of out.tech_unlocks) {
    const list = unlocksByTech.get(u.tech);
    if (list) list.push(u.recipe);
    else unlocksByTech.set(u.tech, [u.recipe]);
  }
  const rows = new Map<string, TurdReplacementRow>();
  if (helperReplacements?.length) {
    for (const r of helperReplacements) {
      if (!branches.has(r.branch)) {
        ctx.warn(`helper export names TURD branch "${r.branch}", which the dump does not define; ignored`);
        continue;
      }
      if (!recipeNames.has(r.old) || !recipeNames.has(r.new)) {
        ctx.warn(`TURD replacement ${r.old} → ${r.new} (${r.branch}) names a recipe missing from the dump; ignored`);
        continue;
      }
      rows.set(`${r.branch}\0${r.old}`, { branch: r.branch, old: r.old, new: r.new, source: 'helper' });
    }
  } else {
    const branchRecipes = new Set<string>();
    for (const branch of branches.keys()) for (const r of unlocksByTech.get(branch) ?? []) branchRecipes.add(r);
    const candidates = [...recipeNames].filter((r) => !branchRecipes.has(r)).sort((a, b) => b.length - a.length);
    for (const branch of branches.keys()) {
      for (const created of unlocksByTech.get(branch) ?? []) {
        const old = candidates.find((o) => created.length > o.length + 1 && created.startsWith(o + '-'));
        if (old) rows.set(`${branch}\0${old}`, { branch, old, new: created, source: 'inferred' });
      }
    }
  }
  for (const r of [...rows.values()].sort((a, b) => a.branch.localeCompare(b.branch) || a.old.localeCompare(b.old))) out.turd_replacements.push(r);
}
