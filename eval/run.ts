// `npm run eval -- --model <id> [--model <id> …] [--only=<case,…>] [--json]`: the accuracy suite. Each
// Py planning request goes through the real agent loop against each model, and each answer is judged
// by the planner (see judge.ts). Needs an OpenRouter key (OPENROUTER_API_KEY, or the file `pyops ask`
// names); without one it runs the scripted model, which is how `npm test` checks the suite itself.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { CASES, type EvalCase } from './cases';
import { prepareProject, runCase, type CaseRun } from './harness';
import { CHECKS } from './judge';
import { scriptedModel } from './scripted';
import { FileConfigStore, configDir } from '../src/core/config/fileStore';
import { resolveApiKey, resolveOpenRouterModel } from '../src/core/assistant/models/resolve';
import type { TurnModel } from '../src/core/assistant/models/resolve';

const here = path.dirname(fileURLToPath(import.meta.url));
export const PY_DUMP = path.resolve(here, '..', '..', 'shared', 'data', 'py-hightech-2.0-data-raw', 'data-raw-dump.json');
export const SAMPLE = path.resolve(here, '..', 'test', 'fixtures', 'sample-world', 'sample-world.dump.json');
export const PYSALF = path.resolve(here, '..', '..', 'shared', 'data', 'factoriolab-pysalf');

/** Where a case's game data comes from. */
const SOURCES = { py: PY_DUMP, pysalf: PYSALF, sample: SAMPLE } as const;

/** One row per case and model: each check ✔/✘ (· when it does not apply), then calls, size, tokens, cost, time. */
export function table(runs: CaseRun[]): string {
  const head = ['case', 'model', ...CHECKS, 'calls', 'chars', 'tokens', 'cost $', 's'];
  const rows = runs.map((r) => [
    r.id, r.model, ...CHECKS.map((c) => (r.checks[c].na ? '·' : r.checks[c].pass ? '✔' : '✘')),
    String(r.calls), String(r.chars), String(r.inputTokens + r.outputTokens), r.cost === null ? 'n/a' : r.cost.toFixed(4), r.seconds.toFixed(1),
  ]);
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(w[i])).join('  ');
  const failures = runs.flatMap((r) => [...CHECKS.filter((c) => !r.checks[c].pass).map((c) => `  ${r.id} / ${r.model}: ${c}: ${r.checks[c].detail}`), ...(r.error ? [`  ${r.id} / ${r.model}: error: ${r.error}`] : [])]);
  const passed = runs.filter((r) => CHECKS.every((c) => r.checks[c].pass) && !r.error).length;
  return [line(head), ...rows.map(line), '', `${passed} of ${runs.length} answers pass every check`, ...(failures.length ? ['', 'Why:', ...failures] : [])].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { model: { type: 'string', multiple: true }, only: { type: 'string' }, json: { type: 'boolean' } } });
  const store = new FileConfigStore(configDir(process.env));
  const key = await resolveApiKey(process.env, store);
  const only = values.only?.split(',');
  const cases = CASES.filter((c) => !only || only.includes(c.id));
  for (const d of ['py', 'pysalf'] as const) if (!fs.existsSync(SOURCES[d]) && cases.some((c) => c.data === d)) console.error(`(skipping the ${d} cases: ${SOURCES[d]} is not present)`);
  const runnable = cases.filter((c) => fs.existsSync(SOURCES[c.data]));
  const models = key ? (values.model?.length ? values.model : [null]) : ['scripted'];
  if (!key) console.error('No OpenRouter key (OPENROUTER_API_KEY): running the scripted model, which tests the suite, not a model.');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pyops-eval-'));
  const runs: CaseRun[] = [];
  try {
    const bases: Record<EvalCase['data'], string> = { py: '', pysalf: '', sample: '' };
    for (const d of Object.keys(bases) as Array<EvalCase['data']>) if (runnable.some((c) => c.data === d)) bases[d] = await prepareProject(path.join(work, `base-${d}`), SOURCES[d], d);
    for (const m of models) {
      for (const c of runnable) {
        const turnModel: TurnModel =
          m === 'scripted' ? { model: scriptedModel(c.script), modelId: 'scripted', info: { requestedId: 'scripted', id: 'scripted', contextWindow: 200_000, supportsReasoning: false, efforts: [], source: 'offline' } } : await resolveOpenRouterModel({ env: process.env, secrets: store, override: m });
        const r = await runCase(c, bases[c.data], path.join(work, `${c.id}-${runs.length}`), turnModel);
        runs.push(r);
        if (!values.json) console.error(`${c.id} (${r.model}): ${r.calls} calls, ${r.seconds.toFixed(1)} s`);
      }
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  if (values.json) process.stdout.write(JSON.stringify(runs.map(({ toolCalls: _t, ...r }) => r)) + '\n');
  else console.log(table(runs));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(`eval: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
