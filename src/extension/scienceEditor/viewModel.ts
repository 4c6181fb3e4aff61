// What the science block editor shows, built from the stored block and its solve (the lab bank): the
// research or the hand-set packs, the labs that take the packs (locked ones with what unlocks them),
// the lab's modules and beacons (the block editor's catalogs, against the research pseudo recipe the
// solve uses), and the result — labs, research speed, productivity, power, pack rates, the
// technologies researched in order and those skipped with why. No vscode import: unit tests build it.
import type { BlockRecord } from '../../core/planning/factory/blocks';
import type { PlanningContext } from '../../core/planning/context';
import type { SolveResult } from '../../core/planning/solver/result';
import { blockState } from '../../core/planning/factory/outline';
import { RESEARCH } from '../../core/planning/science/labBank';
import { sciencePacks } from '../../core/planning/science/scienceEdit';
import type { Science } from '../../core/planning/block/document';
import { Catalogs, needsText } from '../blockEditor/rowView';
import type { LabOptionView, ScienceEditorView, ScienceResultView } from '../../webview/scienceEditorProtocol';

function labOptions(ctx: PlanningContext, packs: string[]): LabOptionView[] {
  const { g, availability: a } = ctx;
  const out: LabOptionView[] = [];
  for (const [name, lab] of g.labs) {
    const m = g.machines.get(name);
    if (!m || a.isExcluded(name) || (m.hidden && !m.item)) continue;
    const v = a.machineVerdict(name);
    const needs = needsText(ctx, v);
    out.push({ name, display: m.display, state: v.state, ...(needs ? { needs } : {}), speed: m.speed, refuses: packs.filter((p) => !lab.inputs.includes(p)) });
  }
  const usable = (o: LabOptionView) => (o.state === 'unlocked' || o.state === 'buildable' ? 0 : 1);
  return out.sort((x, y) => x.refuses.length - y.refuses.length || usable(x) - usable(y) || y.speed - x.speed || x.display.localeCompare(y.display));
}

function resultView(ctx: PlanningContext, result: SolveResult): ScienceResultView | null {
  const s = result.science;
  const d = (n: string) => ctx.g.displayOf(n);
  if (!s) return null;
  const row = result.rows[0];
  return {
    status: result.status,
    ...(result.message ? { message: result.message } : {}),
    lab: s.lab,
    labDisplay: s.labDisplay,
    labs: s.labs,
    wholeLabs: Math.max(0, Math.ceil(s.labs - 1e-6)),
    labSpeed: s.labSpeed,
    productivity: s.productivity,
    bonuses: { speed: s.bonuses.speed, productivity: s.bonuses.productivity },
    labSecondsPerSecond: s.labSecondsPerSecond,
    powerW: result.powerW,
    pollutionPerMinute: result.pollutionPerMinute,
    beaconBuildings: row?.beaconBuildings ?? 0,
    packs: s.packs.map((p) => ({ pack: p.pack, display: p.display, perSecond: p.rate })),
    ...(s.research
      ? {
          research: {
            display: s.research.display,
            minutes: s.research.minutes,
            totalUnits: s.research.totalUnits,
            alreadyResearched: s.research.alreadyResearched,
            techs: s.research.techs.map((t) => ({ tech: t.tech, display: t.display, units: t.units, packs: Object.entries(t.packs).map(([pack, amount]) => ({ pack, display: d(pack), amount })) })),
            skipped: s.research.skipped.map((x) => ({ tech: x.tech, display: x.display, reason: x.reason })),
          },
        }
      : {}),
    // Technologies the labs skip are listed with why; their warnings would say it twice.
    warnings: result.warnings.filter((w) => !(s.research?.skipped ?? []).some((x) => w.startsWith(`${x.display} [${x.tech}] is not researched by labs`))),
  };
}

export function scienceEditorView(ctx: PlanningContext, b: BlockRecord, result: SolveResult | null, extra: { broken?: string; undoLabel?: string; redoLabel?: string } = {}): ScienceEditorView {
  const { g } = ctx;
  const d = (n: string) => g.displayOf(n);
  const science: Science = b.doc.science ?? { modules: [], beacons: [], packs: [] };
  const report = result?.science;
  const derived = new Map((report?.packs ?? []).map((p) => [p.pack, p]));
  const packs = science.research
    ? (report?.packs ?? []).map((p) => ({ pack: p.pack, display: p.display, rate: p.rate, labSeconds: p.labSeconds }))
    : science.packs.map((p) => ({ pack: p.pack, display: d(p.pack), rate: p.rate, labSeconds: p.labSeconds ?? derived.get(p.pack)?.labSeconds ?? null }));
  const used = new Set(packs.map((p) => p.pack));
  const current = report?.lab ?? science.lab ?? null;
  const machine = current ? g.machines.get(current) : undefined;
  const catalogs = new Catalogs(ctx);
  const fit = catalogs.target(machine ? { recipe: RESEARCH, machine } : 'no lab takes these packs yet, so no modules can be chosen');
  const modulesOf = (ms: Array<{ name: string; count: number }>) => ms.map((m) => ({ name: m.name, display: d(m.name), count: m.count }));
  const { state, detail } = blockState(b);
  const shownState = extra.broken ? 'broken' : result ? (result.status === 'optimal' ? (b.enabled ? 'solved' : 'disabled') : result.status) : state;
  return {
    id: b.id,
    name: b.name,
    updatedAt: b.updatedAt,
    enabled: b.enabled,
    state: shownState,
    ...(extra.broken ? { stateDetail: extra.broken } : result?.message ? { stateDetail: result.message } : detail && !result ? { stateDetail: detail } : {}),
    mode: science.research ? 'research' : 'packs',
    research: science.research
      ? { tech: science.research.tech, display: d(science.research.tech), minutes: science.research.minutes, prerequisites: science.research.prerequisites, researched: ctx.availability.state.researched.has(science.research.tech) }
      : null,
    packs,
    packOptions: [...sciencePacks(g)].filter((p) => !used.has(p)).map((pack) => ({ pack, display: d(pack) })).sort((x, y) => x.display.localeCompare(y.display)),
    lab: { pinned: science.lab ?? null, current, currentDisplay: current ? d(current) : null, options: labOptions(ctx, [...used]) },
    moduleSlots: fit.slots,
    ...(fit.note ? { moduleNote: fit.note } : {}),
    modules: modulesOf(science.modules),
    beacons: science.beacons.map((x) => ({ beacon: x.beacon, display: d(x.beacon), count: x.count, modules: modulesOf(x.modules) })),
    moduleOptions: fit.modules,
    beaconOptions: fit.beacons,
    moduleCatalog: catalogs.modules,
    beaconCatalog: catalogs.beacons,
    result: result ? resultView(ctx, result) : null,
    ...(extra.undoLabel ? { undoLabel: extra.undoLabel } : {}),
    ...(extra.redoLabel ? { redoLabel: extra.redoLabel } : {}),
  };
}
