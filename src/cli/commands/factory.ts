// `pyops factory scenario <project> [--pin good=rate …] [--json]`: the whole factory solved toward its
// pins (stored ones, or these instead), nothing saved. `pyops factory balance … --yes` applies every
// goal change (and the pins given) as one undoable action; without --yes it only reports.
import { Project } from '../../core/db/project';
import { factoryScenario, type ScenarioResult } from '../../core/planning/factory/scenario/scenario';
import { balanceFactory } from '../../core/planning/factory/scenario/apply';
import { scenarioForModel } from '../../core/planning/factory/scenario/modelView';
import type { FactoryPin } from '../../core/planning/factory/scenario/inputs';
import { parse, UsageError } from '../args';
import type { CliIO } from '../io';
import { projectPlanning, projectSolver } from './planning';

/** "good=rate" or "good@temperature=rate" (per second; negative = absorbed). */
export function parsePin(text: string): FactoryPin {
  const m = /^([^=@\s]+)(?:@(-?\d+(?:\.\d+)?))?=(-?\d+(?:\.\d+)?(?:e-?\d+)?)$/.exec(text.trim());
  if (!m) throw new UsageError(`--pin takes good=rate (per second), e.g. --pin logistic-science-pack=1; got "${text}"`);
  const rate = Number(m[3]);
  if (!Number.isFinite(rate)) throw new UsageError(`--pin ${text}: the rate is not a number`);
  return { good: m[1], rate, ...(m[2] !== undefined ? { temperature: Number(m[2]) } : {}) };
}

const n = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(1) : Math.abs(v) >= 1 ? v.toFixed(3) : v.toPrecision(3));

function print(io: CliIO, r: ScenarioResult): void {
  io.out(`Status: ${r.status}${r.message ? ` — ${r.message}` : ''}${r.status === 'optimal' ? (r.balanced ? ' · balanced' : ' · not balanced') : ''}`);
  if (r.pins.length) io.out(`Pins: ${r.pins.map((p) => `${p.good}${p.temperature !== undefined ? `@${p.temperature}` : ''} ${n(p.rate)}/s (${p.source})`).join(', ')}`);
  if (r.assumed?.science) io.out(`Science block: ${n(r.assumed.science.labs)} labs; ${r.assumed.science.packs.map((p) => `${p.pack} ${n(p.rate)}/s`).join(', ')}`);
  io.out(r.goalChanges.length ? `Goal changes (${r.goalChanges.length}, ${r.unchanged} unchanged):` : `No goal changes (${r.unchanged} goals already fit).`);
  for (const c of r.goalChanges) io.out(`  ${c.block.padEnd(28)} ${c.good.padEnd(28)} ${n(c.current).padStart(10)} → ${n(c.next)}/s`);
  for (const u of r.unsupplied) io.out(`Unsupplied: ${u.label} ${n(u.rate)}/s (${u.reason}) — ${u.newBlock}`);
  for (const o of r.overproduced) io.out(`Left over: ${o.label} ${n(o.rate)}/s`);
  if (r.rawInputs.length) io.out(`Raw inputs: ${r.rawInputs.map((x) => `${x.label} ${n(x.rate)}/s`).join(', ')}`);
  for (const x of r.excluded) io.out(`Left out: ${x.name} — ${x.reason}`);
  for (const w of r.warnings) io.out(`Warning: ${w}`);
}

export async function factoryCommand(argv: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== 'scenario' && sub !== 'balance') throw new UsageError(sub ? `unknown factory command "${sub}"` : 'missing factory command (scenario or balance)');
  const a = parse(rest, { pin: { type: 'string', multiple: true }, json: { type: 'boolean' }, yes: { type: 'boolean' } }, { min: 1, max: 1, names: 'the project file' });
  if (sub === 'scenario' && a.values.yes) throw new UsageError('--yes is for pyops factory balance');
  const pins = a.values.pin?.map(parsePin);
  const apply = sub === 'balance' && !!a.values.yes;
  const p = await Project.open(a.positionals[0], { readOnly: !apply, app: 'cli' });
  try {
    const solve = projectSolver(p);
    const r = await factoryScenario(p, projectPlanning(p), solve, pins ? { pins } : {});
    let applied: Awaited<ReturnType<typeof balanceFactory>> | undefined;
    if (apply && r.status === 'optimal') applied = await balanceFactory(p, solve, r);
    if (a.values.json) io.out(JSON.stringify({ ...(scenarioForModel(r) as object), ...(applied ? { applied } : {}) }));
    else {
      print(io, r);
      if (applied) io.out(`Applied: ${applied.label} — undo with PyOps: Undo Last Project Change.`);
      else if (sub === 'balance') io.out('Nothing was changed; add --yes to apply these changes as one undoable action.');
    }
    return r.status === 'optimal' ? 0 : 1;
  } finally {
    p.close();
  }
}
