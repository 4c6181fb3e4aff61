// The platform benchmark's entry inside VS Code's extension host (loaded as extensionTestsPath, one
// page load per job). It never activates PyOps itself — startup must be what the window does on
// its own — it waits for the extension's startup timing, and for the memory job opens the Py project
// and runs tools through vscode.lm.invokeTool, reading the host's resident memory around them.
import * as vscode from 'vscode';
import fs from 'node:fs';
import type { PyOpsApi } from '../../src/extension/extension';
import { jobSchema, type HostResult, type Job, type Startup } from './protocol';

const EXTENSION_ID = 'pyops.pyops-vscode';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, timeoutMs: number, probe: () => T | undefined): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}

function readJob(): Job {
  const file = process.env.PYOPS_BENCH_JOB;
  if (!file) throw new Error('PYOPS_BENCH_JOB is not set; run this through `npm run bench -- --only=platform`');
  return jobSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
}

function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

async function startup(job: Job): Promise<{ api: PyOpsApi; startup: Startup }> {
  const ext = vscode.extensions.getExtension<PyOpsApi>(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not installed in this VS Code`);
  const api = await until('PyOps to activate', job.readyTimeoutMs, () => (ext.isActive ? ext.exports : undefined));
  try {
    const s = await until('the startup project and views', job.readyTimeoutMs, () => {
      const t = api.startup();
      return t && t.activationToReadyMs !== undefined ? t : undefined;
    });
    return { api, startup: s };
  } catch (err) {
    throw new Error(`${(err as Error).message} (startup so far: ${JSON.stringify(api.startup())})`);
  }
}

async function memory(job: Job, api: PyOpsApi): Promise<NonNullable<HostResult['memory']>> {
  if (!job.pyProject || !job.tools?.length) throw new Error('the memory job names no Py project or tools');
  // Let the startup work (panel state, block refresh) finish before the baseline.
  await sleep(1000);
  const rssBeforeBytes = process.memoryUsage().rss;
  await api.projects.open(job.pyProject);
  const tools = [];
  for (const call of job.tools) {
    const t0 = performance.now();
    let ok = false;
    let error: string | undefined;
    try {
      const out = JSON.parse(textOf(await vscode.lm.invokeTool(`pyops_${call.tool}`, { input: call.input, toolInvocationToken: undefined })));
      ok = !out?.error;
      if (!ok) error = String(out.error);
    } catch (err) {
      error = (err as Error).message;
    }
    tools.push({ role: call.role, tool: call.tool, ms: performance.now() - t0, ok, ...(error ? { error } : {}) });
  }
  // The panel and the block refresh react to the project change; count what they hold too.
  await sleep(1000);
  return { rssBeforeBytes, rssAfterBytes: process.memoryUsage().rss, tools };
}

export async function run(): Promise<void> {
  const job = readJob();
  const result: HostResult = { launch: job.launch, kind: job.kind };
  try {
    const { api, startup: s } = await startup(job);
    result.startup = s;
    // A first start also stores the extension's compiled code a moment after (extension/entry.ts):
    // the launches after it start as a returning user's window does.
    if (job.kind === 'warmup') await sleep(3000);
    if (job.kind === 'memory') result.memory = await memory(job, api);
  } catch (err) {
    result.error = (err as Error).message;
  }
  fs.writeFileSync(job.resultFile, JSON.stringify(result));
  if (result.error) throw new Error(result.error);
}
