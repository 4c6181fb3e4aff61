// Planning commands: the horizon (now / up to a target / able to make a target / future) with the science packs produced,
// completed research, and TURD branch choices. Each change is one undoable action in the project.
import * as vscode from 'vscode';
import { z } from 'zod';
import { gameIndex } from '../../core/planning/gameIndex';
import { gamedataProblem } from '../../core/db/project';
import { readPlanningState, readSettings, setResearched, setTurdSelection, writeSettings, RESEARCH_MODES, TARGET_SCOPES, type ResearchMode, type TargetScope } from '../../core/planning/settings';
import { sciencePacks, targetScope } from '../../core/planning/makeClosure';
import { planningContext } from '../../core/planning/context';
import { missingPrerequisites } from '../../core/planning/prerequisites';
import type { ProjectManager } from '../projectManager';
import { objectArg } from './args';
import { registerCommand } from './register';

/** The horizon picker's choices: "Up to a target" and "Able to make a target" are both the target
 *  mode, with the prerequisite closure or the research making the target takes. */
const CHOICES = [
  { label: 'Now — what I can build today', mode: 'now' },
  { label: 'Up to a target — the research that unlocks a goal', mode: 'target', scope: 'research' },
  { label: 'Able to make a target — that research plus what making the goal takes', mode: 'target', scope: 'make' },
  { label: 'Future — everything', mode: 'future' },
] as const satisfies ReadonlyArray<{ label: string; mode: ResearchMode; scope?: TargetScope }>;

/** The writable active project and its game index; an error saying why when there is no usable game data. */
export function withData(projects: ProjectManager) {
  const p = projects.requireWritable();
  const g = gameIndex(p);
  if (g.isEmpty) throw new Error(gamedataProblem(p) ?? `"${p.name}" has no game data yet; import a dump or sync from Factorio first.`);
  return { p, g };
}

export function registerPlanningCommands(projects: ProjectManager): vscode.Disposable[] {
  return [
    registerCommand('pyops.planning.setHorizon', async (arg?: unknown) => {
      const a = objectArg(arg, z.object({ mode: z.enum(RESEARCH_MODES), packs: z.array(z.string()).optional(), target: z.string().optional(), scope: z.enum(TARGET_SCOPES).optional() }));
      const { p, g } = withData(projects);
      const current = readSettings(p);
      let mode = a?.mode;
      let scope: TargetScope | undefined = a?.scope;
      if (!mode) {
        const now = current.research_mode === 'target' ? targetScope(g, current) : undefined;
        const pick = await vscode.window.showQuickPick(
          CHOICES.map((c) => {
            const isCurrent = c.mode === current.research_mode && ('scope' in c ? c.scope === now : true);
            return { label: c.label, choice: c, picked: isCurrent, description: isCurrent ? 'current' : undefined };
          }),
          { title: 'PyOps: planning horizon' },
        );
        if (!pick) return undefined;
        mode = pick.choice.mode;
        scope = 'scope' in pick.choice ? pick.choice.scope : undefined;
      }
      const patch: { -readonly [K in keyof Parameters<typeof writeSettings>[1]]: Parameters<typeof writeSettings>[1][K] } = { research_mode: mode };
      if (mode === 'now') {
        let packs = a?.packs;
        if (!packs && !a) {
          const picked = await vscode.window.showQuickPick(
            sciencePacks(g).map((name) => ({ label: g.displayOf(name), description: name, name, picked: current.available_science_packs.includes(name) })),
            { title: 'Which science packs do you produce continuously?', canPickMany: true },
          );
          if (!picked) return undefined;
          packs = picked.map((x) => x.name);
        }
        if (packs) patch.available_science_packs = packs;
      }
      if (mode === 'target') {
        let target = a?.target;
        if (!target) {
          // Science packs first: "able to make" is the horizon of a pack to produce.
          const packs = new Set(sciencePacks(g));
          const goods = [...g.goods.values()].filter((x) => !x.synthetic && !x.hidden && g.producersOf(x.name).length).sort((x, y) => Number(packs.has(y.name)) - Number(packs.has(x.name)));
          const pick = await vscode.window.showQuickPick(
            goods.map((x) => ({ label: x.display, description: x.name, detail: packs.has(x.name) ? 'science pack' : undefined, name: x.name })),
            { title: scope === 'make' ? 'Be able to make which good?' : 'Plan up to which good?', matchOnDescription: true },
          );
          if (!pick) return undefined;
          target = pick.name;
        }
        if (!g.goods.has(target)) throw new Error(`There is no good named "${target}" in this project's game data.`);
        patch.horizon_target = target;
        // A scope not chosen is the default for the target (able to make a science pack).
        patch.horizon_target_scope = scope ?? null;
      }
      writeSettings(p, patch, `Set planning horizon to ${mode}`);
      projects.touch();
      if (mode === 'target' && !a) {
        const av = planningContext(p).availability;
        if (av.targetScope === 'make') {
          const added = av.targetAdded.techs.map((t) => g.technologies.get(t)?.display ?? t);
          const what = added.length ? `it adds ${added.slice(0, 8).join(', ')}${added.length > 8 ? ` and ${added.length - 8} more` : ''} to the research that unlocks it` : 'the research that unlocks it already makes it';
          void vscode.window.showInformationMessage(`PyOps: able to make ${g.displayOf(patch.horizon_target!)} — ${what}.`);
        }
      }
      return readSettings(p);
    }),

    registerCommand('pyops.planning.setResearch', async (arg?: unknown) => {
      // `prerequisites`: what to do with unresearched prerequisites of newly marked technologies —
      // ask (a person's default), add them all, or skip (a script's default: the list as given).
      const a = objectArg(arg, z.object({ researched: z.array(z.string()), prerequisites: z.enum(['ask', 'add', 'skip']).optional() }));
      const { p, g } = withData(projects);
      const state = readPlanningState(p);
      let techs = a?.researched;
      if (!techs) {
        const picked = await vscode.window.showQuickPick(
          [...g.technologies.values()].filter((t) => !t.isTurd && !t.hidden).sort((x, y) => x.display.localeCompare(y.display)).map((t) => ({ label: t.display, description: t.name, name: t.name, picked: state.researched.has(t.name) })),
          { title: 'Completed research (a game sync replaces this list)', canPickMany: true, matchOnDescription: true },
        );
        if (!picked) return undefined;
        techs = picked.map((x) => x.name);
      }
      const unknown = techs.filter((t) => !g.technologies.has(t));
      if (unknown.length) throw new Error(`Unknown technologies: ${unknown.slice(0, 5).join(', ')}.`);
      const mode = a ? (a.prerequisites ?? 'skip') : 'ask';
      const missing = mode === 'skip' ? [] : missingPrerequisites(planningContext(p), state.researched, techs.filter((t) => !state.researched.has(t)), new Set(techs));
      if (missing.length) {
        let also = missing.map((m) => m.name);
        if (mode === 'ask') {
          // Pre-ticked: the game cannot have researched a technology without them; untick any on purpose.
          const pick = await vscode.window.showQuickPick(
            missing.map((m) => ({ label: g.technologies.get(m.name)?.display ?? m.name, description: `needed by ${m.neededBy.map((t) => g.technologies.get(t)?.display ?? t).join(', ')}`, name: m.name, picked: true })),
            { title: `Also mark ${missing.length === 1 ? 'this prerequisite' : `these ${missing.length} prerequisites`} researched?`, placeHolder: 'They come before what you marked; untick any you want left out', canPickMany: true, matchOnDescription: true },
          );
          if (!pick) return undefined;
          also = pick.map((x) => x.name);
        }
        techs = [...techs, ...also];
      }
      setResearched(p, techs);
      projects.touch();
      return techs.length;
    }),

    registerCommand('pyops.planning.selectTurd', async (arg?: unknown) => {
      const a = objectArg(arg, z.object({ master: z.string(), branch: z.string().nullable() }));
      const { p, g } = withData(projects);
      if (!g.turdMasters.size) {
        // Not a failure: the game simply has no TURD (it comes with Py Alien Life), so there is nothing to pick.
        void vscode.window.showInformationMessage('PyOps: this game data has no TURD upgrades (they come with Py Alien Life), so there is no branch to select.');
        return undefined;
      }
      let master = a?.master;
      let branch: string | null | undefined = a?.branch;
      const state = readPlanningState(p);
      if (!master) {
        const pick = await vscode.window.showQuickPick(
          [...g.turdMasters.keys()].sort().map((m) => ({ label: g.displayOf(m), description: state.turd.get(m) ? `selected: ${g.displayOf(state.turd.get(m)!.branch)}` : 'undecided', name: m })),
          { title: 'PyOps: TURD upgrade' },
        );
        if (!pick) return undefined;
        master = pick.name;
      }
      const branches = g.turdMasters.get(master);
      if (!branches) throw new Error(`"${master}" is not a TURD master technology.`);
      if (branch === undefined) {
        const pick = await vscode.window.showQuickPick(
          [
            ...branches.map((b) => {
              const br = g.turdBranches.get(b)!;
              const changes = [...br.replacements].map(([o, n]) => `${g.displayOf(o)} → ${g.displayOf(n)}`).join(', ');
              return { label: g.displayOf(b), description: state.turd.get(master!)?.branch === b ? 'selected' : undefined, detail: changes || undefined, name: b as string | null };
            }),
            { label: 'No choice yet', name: null as string | null, description: undefined, detail: undefined },
          ],
          { title: `Branch for ${g.displayOf(master)}` },
        );
        if (!pick) return undefined;
        branch = pick.name;
      }
      if (branch !== null && !branches.includes(branch)) throw new Error(`"${branch}" is not a branch of ${master} (its branches: ${branches.join(', ')}).`);
      setTurdSelection(p, master, branch);
      projects.touch();
      return branch;
    }),
  ];
}
