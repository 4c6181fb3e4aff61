// `pyops solve <block.json> --project <file> [--json]`: solve a block document without saving it.
import fs from 'node:fs';
import { Project, gamedataProblem } from '../../core/db/project';
import { parseBlockDoc } from '../../core/planning/block/document';
import { planningContext } from '../../core/planning/context';
import type { Flow } from '../../core/planning/solver/result';
import { solveBlock } from '../../core/planning/solver/solve';
import { formatRange } from '../../core/planning/solver/temperatures';
import { parse, UsageError } from '../args';
import type { CliIO } from '../io';


/** A flow as JSON: fluids keep the exact temperature of an output or the range an import accepts. */
function flowJson(f: Flow) {
  return {
    good: f.good,
    rate: f.rate,
    ...(f.temperature !== undefined ? { temperature: f.temperature } : {}),
    ...(f.minTemperature != null ? { minTemperature: f.minTemperature } : {}),
    ...(f.maxTemperature != null ? { maxTemperature: f.maxTemperature } : {}),
    ...(f.stock ? { stock: true } : {}),
    ...(f.campaign ? { campaign: true } : {}),
  };
}

function flowText(f: ReturnType<typeof flowJson>): string {
  const t = f.temperature !== undefined ? formatRange(f.temperature, f.temperature) : f.minTemperature !== undefined || f.maxTemperature !== undefined ? formatRange(f.minTemperature, f.maxTemperature) : '';
  return `${f.good}${t ? ` (${t})` : ''} ${f.rate.toFixed(3)}/s`;
}

export async function solveCommand(argv: string[], io: CliIO): Promise<number> {
  const a = parse(argv, { project: { type: 'string' }, json: { type: 'boolean' } }, { min: 1, max: 1, names: 'the block document (a JSON file, or - for stdin)' });
  if (!a.values.project) throw new UsageError('missing --project <file>');
  const file = a.positionals[0];
  let text: string;
  try {
    text = file === '-' ? fs.readFileSync(0, 'utf8') : fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${file}: ${(err as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not JSON: ${(err as Error).message}`);
  }
  const doc = parseBlockDoc(raw);
  const project = await Project.open(a.values.project, { readOnly: true, app: 'cli' });
  try {
    const ctx = planningContext(project);
    if (ctx.g.isEmpty) throw new Error(gamedataProblem(project) ?? `${project.file} has no game data; run pyops import first.`);
    const r = await solveBlock(ctx.g, ctx.availability, doc);
    const out = {
      status: r.status,
      ...(r.message ? { message: r.message } : {}),
      recipes: r.rows.map((x) => ({
        recipe: x.recipe, machine: x.machine, craftsPerSecond: x.craftsPerSecond, buildings: x.buildings, wholeBuildings: x.wholeBuildings, modules: x.modules, powerW: x.powerW,
        ...(x.group ? { group: x.group } : {}),
      })),
      ...(r.groups ? { groups: r.groups } : {}),
      goals: r.goals.map(flowJson),
      imports: r.imports.map(flowJson),
      exports: r.exports.map(flowJson),
      byproducts: r.byproducts.map(flowJson),
      ...(r.campaign ? { campaign: r.campaign } : {}),
      powerW: r.powerW,
      heatW: r.heatW,
      fuel: r.fuel,
      pollutionPerMinute: r.pollutionPerMinute,
      unmade: r.unmade,
      ...(r.diagnosis ? { diagnosis: r.diagnosis } : {}),
      warnings: r.warnings,
    };
    if (a.values.json) io.out(JSON.stringify(out));
    else {
      io.out(`Status: ${r.status}${r.message ? ` — ${r.message}` : ''}`);
      for (const x of out.recipes) io.out(`  ${x.recipe.padEnd(32)} ${(x.machine ?? '-').padEnd(24)} ${x.buildings.toFixed(2).padStart(8)} buildings  ${x.craftsPerSecond.toFixed(3)} crafts/s${x.group ? `  [${x.group}]` : ''}`);
      for (const m of r.groups ?? []) io.out(`Group ${m.name}: module for ${m.referenceRate}/s ${m.good}, run at ×${m.scale.toFixed(3)} (${m.rate.toFixed(3)}/s)`);
      if (out.goals.length) io.out(`Goals: ${out.goals.map(flowText).join(', ')}`);
      const c = r.campaign;
      if (c) {
        const sure = c.confidence === 'expected' ? 'expected' : `${c.confidence}% confidence`;
        const items = c.quantities.map((q) => `${q.good} ${q.quantity}${q.planned !== Math.abs(q.quantity) ? ` (plans ${q.planned.toFixed(2)})` : ''} → ${q.rate.toFixed(5)}/s`);
        io.out(`Campaign over ${c.duration} s, ${sure}${c.completed ? ', completed (sizes nothing)' : ''}: ${items.join(', ')}`);
      }
      if (out.imports.length) io.out(`Imports: ${out.imports.map(flowText).join(', ')}`);
      if (out.exports.length) io.out(`Exports: ${out.exports.map(flowText).join(', ')}`);
      if (out.byproducts.length) io.out(`Byproducts: ${out.byproducts.map(flowText).join(', ')}`);
      io.out(`Power: ${(out.powerW / 1e6).toFixed(3)} MW · pollution ${out.pollutionPerMinute.toFixed(1)}/min`);
      for (const c of r.diagnosis ?? []) io.out(`Conflict: ${c.message}${c.fixes.length ? ` (fix: ${c.fixes.join('; ')})` : ''}`);
    }
    return 0;
  } finally {
    project.close();
  }
}
