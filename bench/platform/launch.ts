// Platform figures measured in the real VS Code the integration suite uses (code-server + headless
// Chromium): activation to a usable window with the sample project and with a Py-sized project, the
// extension host's memory for a Py session, and the cold start of one `pyops tool` call.
//
// One code-server, one Chromium profile kept across page loads (each load is a new extension
// host): a warm-up load (the sample project is imported into global storage and becomes the last
// project), five loads time the sample project's startup, one load opens the Py project and runs
// tools (it becomes the last project), five loads time the Py project's startup. The PyOps side
// panel is not on screen at startup in these windows, so "ready" is the project open and the status
// bar showing it (the extension's timing would include the panel if it were resolved).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Project } from '../../src/core/db/project';
import { importGameData } from '../../src/core/gamedata/import';
import { gameIndex } from '../../src/core/planning/gameIndex';
import { buildChain } from '../solve';
import { median, round } from '../stats';
import { activationFigure, memoryFigure, parseHostResult, type ActivationFigure, type HostResult, type Job, type MemoryFigure, type ToolCall } from './protocol';
import { ROOT, CODE_SERVER_BIN, isolatedEnv } from '../../scripts/test-runtime/install.mjs';
import { createProfile, freePort, launchPersistentChromium, payloadUrl, run, runtimeProblem, startCodeServer, waitForCodeServer, type WorkbenchContext, type WorkbenchPage } from '../../scripts/test-runtime/codeServer.mjs';
import { bundleForExtensionHost } from '../../scripts/test-runtime/hostBundle.mjs';
import { vscePackageArgs } from '../../scripts/vsce.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.join(ROOT, 'test-output', 'bench-platform');
const LAUNCHES = Number(process.env.PYOPS_BENCH_LAUNCHES || 5);
const LAUNCH_TIMEOUT_MS = 240_000;
const log = (m: string) => process.stderr.write(`[bench platform] ${m}\n`);

export interface PlatformBench {
  activation: { ms: number; pyMs: number; runs: number; sample: ActivationFigure; py: ActivationFigure };
  memory: MemoryFigure;
  cliColdMs: number;
  /** In order: the first has no code cache yet and stores one. */
  cliRunsMs: number[];
  /** 1/5/15-minute load averages at the start and the end (the machine is shared). */
  load: { start: number[]; end: number[] };
}

/** Why the platform figures cannot be measured here, or undefined. */
export function platformSkipReason(pyData: string): string | undefined {
  return runtimeProblem() ?? (fs.existsSync(pyData) ? undefined : `${pyData} is missing (the platform figures need the Py data)`);
}

/** The tool calls of the memory launch, from the Py data itself: a search, a one-building solve, a 40-recipe block draft. */
function toolCalls(project: Project): ToolCall[] {
  const target = 'utility-science-pack';
  const recipes = (buildChain(gameIndex(project), target, { size: 40 }).recipes ?? []).map((r) => r.recipe);
  return [
    { role: 'search', tool: 'searchGoods', input: { query: 'utility science pack' } },
    { role: 'solve', tool: 'calcRecipe', input: { recipe: recipes[0], targetRate: 1 } },
    { role: 'draft', tool: 'submitBlock', input: { target, rate: 1, recipes } },
  ];
}

/**
 * `pyops tool searchGoods` as a fresh process, several times; the median wall time. The first run
 * has no code cache (a new scratch cache folder) and stores it, as the first call after an install or
 * an update does.
 */
export function benchCliCold(projectFile: string, runs = 7): { ms: number; runsMs: number[] } {
  const cli = path.join(ROOT, 'dist', 'cli.cjs');
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pyops-bench-cli-cache-'));
  const times: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, [cli, 'tool', 'searchGoods', '--project', projectFile, '--input', JSON.stringify({ query: 'utility science pack' })], { encoding: 'utf8', env: { ...process.env, PYOPS_CACHE_DIR: cacheDir } });
      times.push(performance.now() - t0);
      if (r.status !== 0) throw new Error(`pyops tool searchGoods failed (${r.status}): ${(r.stderr || r.stdout).slice(0, 400)}`);
      if (!/utility-science-pack/.test(r.stdout)) throw new Error(`pyops tool searchGoods did not find utility-science-pack: ${r.stdout.slice(0, 400)}`);
    }
  } finally {
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
  return { ms: round(median(times), 1), runsMs: times.map((t) => round(t, 1)) };
}

/** Drives page loads of one workbench: each writes the job, loads the payload URL, and waits for the entry's exit. */
class Launcher {
  private finish: ((code: unknown) => void) | undefined;
  private launches = 0;

  constructor(
    private readonly page: WorkbenchPage,
    private readonly url: string,
    private readonly jobFile: string,
    private readonly work: string,
  ) {}

  static async open(context: WorkbenchContext, url: string, jobFile: string, work: string): Promise<Launcher> {
    const page = context.pages()[0] ?? (await context.newPage());
    const consoleLog = fs.createWriteStream(path.join(OUT, 'extension-host-console.log'));
    page.on('console', (m) => consoleLog.write(m.text().replace(/%c|color: #[0-9a-f]+/gi, '').trim() + '\n'));
    const l = new Launcher(page, url, jobFile, work);
    await context.exposeFunction('codeAutomationExit', (code) => l.finish?.(code));
    return l;
  }

  async launch(job: Omit<Job, 'launch' | 'resultFile' | 'readyTimeoutMs'>): Promise<HostResult> {
    const n = this.launches++;
    const resultFile = path.join(this.work, `result-${n}.json`);
    fs.writeFileSync(this.jobFile, JSON.stringify({ ...job, launch: n, resultFile, readyTimeoutMs: 120_000 } satisfies Job));
    const exited = new Promise<unknown>((r) => (this.finish = r));
    const timer = setTimeout(() => this.finish?.('timeout'), LAUNCH_TIMEOUT_MS);
    await this.page.goto(this.url, { timeout: LAUNCH_TIMEOUT_MS });
    const code = await exited;
    clearTimeout(timer);
    this.finish = undefined;
    if (!fs.existsSync(resultFile)) {
      await this.page.screenshot({ path: path.join(OUT, `launch-${n}.png`) }).catch(() => {});
      throw new Error(`launch ${n} (${job.kind}) wrote no result (exit ${String(code)}); see ${path.relative(ROOT, OUT)}/`);
    }
    const r = parseHostResult(fs.readFileSync(resultFile, 'utf8'), resultFile);
    log(`launch ${n} (${job.kind}): ${r.error ? `error: ${r.error}` : `ready in ${r.startup?.activationToReadyMs?.toFixed(0)} ms, code ${r.startup?.codeCache ?? '?'} in ${r.startup?.codeLoadMs?.toFixed(0)} ms ${JSON.stringify(r.startup?.marks)}`}`);
    // The previous extension host lingers for the reconnection grace (5 s); let it go before the next load.
    await new Promise((res) => setTimeout(res, 6_000));
    return r;
  }
}

export async function benchPlatform(pyData: string): Promise<PlatformBench> {
  const load = { start: os.loadavg().map((x) => round(x, 2)), end: [] as number[] };
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pyops-bench-platform-'));
  const removeDir = () => {
    if (process.env.PYOPS_BENCH_KEEP) return;
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // best effort at exit
    }
  };
  // Ctrl-C: exit through the exit handlers, which stop code-server and remove the scratch folder.
  const interrupted = () => process.exit(130);
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted).once('exit', removeDir);
  let stop: (() => void) | undefined;
  let context: WorkbenchContext | undefined;
  try {
    // What ships: a production build, packaged and installed like a user's copy.
    log('building (production) and packaging …');
    run(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs'), '--production']);
    const vsix = path.join(dir, 'pyops-bench.vsix');
    run(process.execPath, vscePackageArgs(vsix, ['--skip-license']));
    const entry = await bundleForExtensionHost({ entry: path.join(here, 'host.ts'), outfile: path.join(dir, 'host', 'index.cjs') });

    log(`importing ${path.basename(pyData)} …`);
    const pyFile = path.join(dir, 'py', 'py-bench.pyops');
    fs.mkdirSync(path.dirname(pyFile));
    const py = await Project.create(pyFile, { name: 'Py bench' });
    await importGameData(py, pyData);
    const tools = toolCalls(py);
    py.close();

    log('timing the CLI cold start …');
    const cli = benchCliCold(pyFile);

    const profile = createProfile(path.join(dir, 'profile'), { 'pyops.startup.openSampleProject': true });
    const jobFile = path.join(profile.work, 'job.json');
    const env = isolatedEnv(profile.home, { PYOPS_BENCH_JOB: jobFile });
    run(CODE_SERVER_BIN, ['--user-data-dir', profile.ud, '--extensions-dir', profile.exts, '--install-extension', vsix], { env });
    const installed = fs.readdirSync(profile.exts).find((d) => d.startsWith('pyops.pyops-vscode-'));
    if (!installed) throw new Error(`the .vsix did not install into ${profile.exts}`);
    const host = `127.0.0.1:${await freePort()}`;
    stop = startCodeServer({ host, profile, env, logFile: path.join(OUT, 'code-server.log') }).stop;
    await waitForCodeServer(host, path.relative(ROOT, path.join(OUT, 'code-server.log')));
    context = await launchPersistentChromium(path.join(dir, 'chromium'));
    const launcher = await Launcher.open(context, payloadUrl(host, path.join(profile.exts, installed), entry, profile.ws), jobFile, profile.work);

    const warmup = await launcher.launch({ kind: 'warmup' });
    if (warmup.error) throw new Error(`warm-up launch: ${warmup.error}`);
    const isSample = (f: string) => path.basename(f) === 'sample.pyops';
    const sampleRuns: HostResult[] = [];
    for (let i = 0; i < LAUNCHES; i++) sampleRuns.push(await launcher.launch({ kind: 'activation' }));
    const mem = await launcher.launch({ kind: 'memory', pyProject: pyFile, tools });
    const pyRuns: HostResult[] = [];
    for (let i = 0; i < LAUNCHES; i++) pyRuns.push(await launcher.launch({ kind: 'activation' }));

    const sample = activationFigure(sampleRuns, isSample);
    const pyFig = activationFigure(pyRuns, (f) => path.resolve(f) === path.resolve(pyFile));
    load.end = os.loadavg().map((x) => round(x, 2));
    return {
      activation: { ms: sample.ms, pyMs: pyFig.ms, runs: LAUNCHES, sample, py: pyFig },
      memory: memoryFigure(mem),
      cliColdMs: cli.ms,
      cliRunsMs: cli.runsMs,
      load,
    };
  } finally {
    await context?.close().catch(() => {});
    stop?.();
    process.off('SIGINT', interrupted).off('SIGTERM', interrupted);
    if (process.env.PYOPS_BENCH_KEEP) log(`kept ${dir}`);
    // Again at exit: code-server's children may still be writing into the profile now.
    removeDir();
  }
}
