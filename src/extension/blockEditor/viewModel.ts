// What the block editor shows, built from the stored block and a solve of it: goals, rows with
// their machine and fuel choices (each machine marked with what the horizon allows, in the words
// every tool uses), the result, and the goods the made/balanced toggles apply to. No vscode
// import: unit tests build it from the real data.
import type { BlockRecord } from '../../core/planning/factory/blocks';
import type { PlanningContext } from '../../core/planning/context';
import type { SolveResult, Flow } from '../../core/planning/solver/result';
import { goalRate, drainGood } from '../../core/planning/block/document';
import { blockState } from '../../core/planning/factory/outline';
import { fuelsFor } from '../../core/planning/energy';
import type { BlockEditorView, EditorFlowView, EditorRowView, MachineOptionView } from '../../webview/blockEditorProtocol';

/** The state's "needs" in one line a player reads: the research, the packs, the TURD pick. */
function needsText(ctx: PlanningContext, machine: string): string | undefined {
  const v = ctx.availability.machineVerdict(machine);
  const n = v.needs;
  if (!n) return v.state === 'no-machine' ? 'cannot be built (no item places it)' : undefined;
  const parts: string[] = [];
  if (n.research?.length) parts.push(`research ${n.research.map((t) => ctx.g.displayOf(t)).join(' or ')}`);
  if (n.packs?.length) parts.push(`${n.packs.map((t) => ctx.g.displayOf(t)).join(', ')} not produced yet`);
  if (n.turd) parts.push(`TURD branch ${ctx.g.displayOf(n.turd.branch)}${n.turd.selected ? ` (now ${ctx.g.displayOf(n.turd.selected)})` : ''}`);
  if (n.research && !n.research.length) parts.push('no research unlocks it');
  return parts.join('; ') || undefined;
}

function machineOptions(ctx: PlanningContext, recipe: string): MachineOptionView[] {
  const rec = ctx.g.recipes.get(recipe);
  if (!rec) return [];
  return ctx.g
    .machinesFor(rec)
    .filter((m) => !ctx.availability.isExcluded(m.name) && !(m.hidden && !m.item))
    .map((m) => {
      const state = ctx.availability.machineVerdict(m.name).state;
      const needs = state === 'unlocked' || state === 'buildable' ? undefined : needsText(ctx, m.name);
      return { name: m.name, display: m.display, state, ...(needs ? { needs } : {}), speed: m.speed };
    })
    .sort((a, b) => Number(usable(b.state)) - Number(usable(a.state)) || b.speed - a.speed || a.display.localeCompare(b.display));
}

const usable = (s: MachineOptionView['state']) => s === 'unlocked' || s === 'buildable';

function flows(ctx: PlanningContext, list: Flow[]): EditorFlowView[] {
  return list.map((f) => ({ good: f.good, display: ctx.g.displayOf(f.good), rate: f.rate, kind: f.kind }));
}

export function blockEditorView(ctx: PlanningContext, b: BlockRecord, result: SolveResult | null, extra: { broken?: string; undoLabel?: string; redoLabel?: string } = {}): BlockEditorView {
  const d = (n: string) => ctx.g.displayOf(n);
  const solved = new Map((result?.rows ?? []).map((r) => [r.recipe, r]));
  const rows: EditorRowView[] = b.doc.recipes.map((row) => {
    const s = solved.get(row.recipe);
    const machine = s?.machine ? ctx.g.machines.get(s.machine) : undefined;
    const fuels = machine ? fuelsFor(ctx.g, machine) : [];
    return {
      recipe: row.recipe,
      display: d(row.recipe),
      disabled: !!row.disabled,
      pinnedMachine: row.machine ?? null,
      machine: s?.machine ?? null,
      machineDisplay: s?.machineDisplay ?? null,
      machineRule: s?.machineChoice.explanation ?? (row.disabled ? 'row disabled' : 'not solved'),
      ...(s && s.machine && !s.machineChoice.buildable ? { machineWarning: `${s.machineDisplay ?? s.machine} cannot be built under the horizon${s.machineChoice.needs ? ` — needs ${s.machineChoice.needs}` : ''}` } : {}),
      machineOptions: machineOptions(ctx, row.recipe),
      pinnedFuel: row.fuel ?? null,
      fuel: s?.fuel ?? null,
      fuelDisplay: s?.fuel ? d(s.fuel) : null,
      fuelOptions: fuels.map((f) => ({ name: f.name, display: f.display })),
      craftsPerSecond: s ? s.craftsPerSecond : null,
      buildings: s ? s.buildings : null,
      wholeBuildings: s ? s.wholeBuildings : null,
      powerW: s ? s.powerW : null,
    };
  });
  const made = new Set(b.doc.made);
  const drained = new Set(b.doc.drains.map(drainGood));
  const goalGoods = new Set(b.doc.goals.map((g) => g.good));
  const goods = (result?.goods ?? [])
    .filter((x) => !goalGoods.has(x.good))
    .map((x) => ({ good: x.good, display: d(x.good), net: x.net, made: made.has(x.good), drained: drained.has(x.good) }))
    .sort((a, b2) => a.display.localeCompare(b2.display));
  const { state, detail } = blockState(b);
  return {
    id: b.id,
    name: b.name,
    updatedAt: b.updatedAt,
    enabled: b.enabled,
    state: extra.broken ? 'broken' : result ? (result.status === 'optimal' ? (b.enabled ? 'solved' : 'disabled') : result.status) : state,
    ...(extra.broken ? { stateDetail: extra.broken } : detail && !result ? { stateDetail: detail } : result?.message ? { stateDetail: result.message } : {}),
    goals: b.doc.goals.map((g, index) => {
      const r = goalRate(g);
      return { index, good: g.good, display: d(g.good), rate: r.rate, direction: r.direction, ...(r.stock ? { stock: `${g.stock!.amount} within ${g.stock!.window} s` } : {}) };
    }),
    rows,
    goods,
    result: result
      ? {
          status: result.status,
          ...(result.message ? { message: result.message } : {}),
          imports: flows(ctx, result.imports),
          exports: flows(ctx, result.exports.filter((f) => !result.byproducts.some((x) => x.good === f.good))),
          byproducts: flows(ctx, result.byproducts),
          powerW: result.powerW,
          fuel: result.fuel.map((f) => ({ fuel: f.fuel, display: d(f.fuel), rate: f.rate })),
          pollutionPerMinute: result.pollutionPerMinute,
          diagnosis: (result.diagnosis ?? []).map((c) => ({ message: c.message, fixes: c.fixes })),
          warnings: result.warnings,
          unmade: result.unmade.map((u) => ({ good: u.good, display: d(u.good), reason: u.reason })),
          ...(result.timing ? { solveMs: result.timing.totalMs } : {}),
        }
      : null,
    ...(extra.undoLabel ? { undoLabel: extra.undoLabel } : {}),
    ...(extra.redoLabel ? { redoLabel: extra.redoLabel } : {}),
  };
}
