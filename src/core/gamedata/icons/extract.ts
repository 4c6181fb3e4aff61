// Extract the icons a project's game data names from the game's and mods' folders into the cache
// beside the project. The work runs on its own thread (thread.ts) under the limits of limits.ts;
// this module is what the extension, the sync and the CLI call, and how they word the outcome.
import type { Project } from '../../db/project';
import { DEFAULT_ICON_LIMITS, type IconLimits } from './limits';
import type { GameFolders } from './modFiles';
import { ICON_PIXELS, type IconExtractSummary, type IconSpecRow } from './draw';
import { iconSpecSchema, type IconKind } from './spec';
import { readModPins } from './modPins';
import { runIconThread } from './thread';

export { IconsCancelled, type IconExtractSummary, type IconSpecRow } from './draw';

/** The game-data format that first stored icon specs. */
const ICON_FORMAT_VERSION = 3;

export interface ExtractOptions {
  folders: GameFolders;
  size?: number;
  signal?: AbortSignal;
  /** Icons settled so far of all, a few times a second. */
  onProgress?(done: number, total: number): void;
  /** Tighter limits (tests); the defaults otherwise. */
  limits?: Partial<IconLimits>;
}

/** The icon specs the last import stored (none for game data imported before icons existed). */
export function readIconSpecs(project: Project): IconSpecRow[] {
  const out: IconSpecRow[] = [];
  for (const r of project.query<{ kind: IconKind; name: string; spec: string }>('SELECT kind, name, spec FROM gd.icons')) {
    try {
      const spec = iconSpecSchema.safeParse(JSON.parse(r.spec));
      if (spec.success) out.push({ kind: r.kind, name: r.name, spec: spec.data });
    } catch {
      // a row this version cannot read is an icon that does not show
    }
  }
  return out;
}

/** Extract the icons of a project's current game data (its fingerprint goes into the manifest). */
export async function extractProjectIcons(project: Project, opts: ExtractOptions): Promise<IconExtractSummary> {
  if (!project.hasGameData()) throw new Error(`"${project.name}" has no game data yet. Import a dump or sync from Factorio first.`);
  if (Number(project.gamedataMeta('data_format_version') ?? 0) < ICON_FORMAT_VERSION) {
    throw new Error(`The game data of "${project.name}" was imported before PyOps kept icons. Import or sync it again, then extract the icons.`);
  }
  // No specs (a dump without icons) still writes an empty manifest: icons of an earlier import go.
  const specs = readIconSpecs(project);
  return extractIcons(project.file, project.gamedataMeta('fingerprint') ?? '', specs, opts);
}

export function extractIcons(projectFile: string, fingerprint: string, specs: IconSpecRow[], opts: ExtractOptions): Promise<IconExtractSummary> {
  const limits = { ...DEFAULT_ICON_LIMITS, ...opts.limits };
  const job = { projectFile, fingerprint, specs, folders: opts.folders, pins: readModPins(opts.folders.mods), size: opts.size ?? ICON_PIXELS, limits };
  return runIconThread(job, opts);
}

const n = (x: number) => x.toLocaleString('en-US');

/** "icons: 5,210 extracted (120 new), 42 missing" */
export function describeIconSummary(s: IconExtractSummary): string {
  return `icons: ${n(s.extracted)} extracted${s.drawn && s.drawn !== s.extracted ? ` (${n(s.drawn)} new)` : ''}, ${n(s.missing)} missing`;
}

/**
 * The report a person reads after an extraction (VS Code's notification, the CLI): the counts, the
 * commonest reason an icon is missing, and every refused icon by name (up to the summary's list),
 * grouped by why.
 */
export function describeIconReport(s: IconExtractSummary): string {
  const byReason = new Map<string, string[]>();
  for (const r of s.refusedIcons) byReason.set(r.reason, [...(byReason.get(r.reason) ?? []), r.icon]);
  // The refusals say their own reasons; "most often" is for the icons merely missing.
  const why = s.missing > s.refused ? s.missingReasons.find((r) => !byReason.has(r.reason)) : undefined;
  const listed = [...byReason].map(([reason, icons]) => `${icons.join(', ')} (${reason})`).join('; ');
  const more = s.refused > s.refusedIcons.length ? `; and ${n(s.refused - s.refusedIcons.length)} more` : '';
  const refused = s.refused ? ` Refused ${n(s.refused)}, which keep their usual symbol: ${listed}${more}.` : '';
  return `${describeIconSummary(s).replace(/^icons/, 'Icons')}${why ? ` (most often: ${why.reason})` : ''}.${refused}`;
}
