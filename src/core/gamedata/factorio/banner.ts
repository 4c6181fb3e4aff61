// Reading Factorio's log text: the mod-loading error banner (which the game prints even when it
// exits with code 0), and the write-data folder it actually used. Pure text in, facts out.

/** A log entry starts with seconds since start: `   1.234 Error ModManager.cpp:1075: …`. */
const ENTRY = /^\s*\d+\.\d+\s+/;

/** Lines that mean the mods did not load (or the game could not start), whatever the exit code. */
const FATAL: RegExp[] = [
  /\bFailed to load mods?\b/i,
  /\bError while loading\b/i,
  /\bMods to disable\b/i,
  /\bError in assignID\b/i,
  /\bError\s+Mod[A-Za-z]*\.cpp:\d+:/,
  /\bError\s+[A-Za-z]+\.cpp:\d+:.*\b(prototype|data\.lua|data-updates\.lua|data-final-fixes\.lua|settings\.lua|dependency|dependencies)\b/i,
  /Couldn't acquire exclusive lock/i,
  /Is another instance already running/i,
  /\bUnexpected error occurred\b/i,
];

/** An error-level log entry: `   1.234 Error Foo.cpp:12: message`. */
const ERROR_ENTRY = /^\s*\d+\.\d+\s+Error\s+/;

export const MAX_QUOTED_LINES = 6;
const MAX_CONTINUATION = 3;

/** Strip the timestamp and trailing space so a quote reads like the game's dialog. */
function clean(line: string): string {
  return line.replace(ENTRY, '').trimEnd();
}

/**
 * The first few lines of an error banner in `text`, or null when there is none. A banner line
 * brings up to three continuation lines (Lua tracebacks and "Source: …" lines carry no timestamp).
 */
export function findErrorBanner(text: string): string[] | null {
  const lines = text.split(/\r?\n/);
  if (!lines.some((l) => FATAL.some((re) => re.test(l)))) return null;
  const quoted: string[] = [];
  const seen = new Set<string>();
  const add = (l: string) => {
    const c = clean(l);
    if (!c || seen.has(c) || quoted.length >= MAX_QUOTED_LINES) return;
    seen.add(c);
    quoted.push(c);
  };
  for (let i = 0; i < lines.length && quoted.length < MAX_QUOTED_LINES; i++) {
    const line = lines[i];
    if (!ERROR_ENTRY.test(line) && !FATAL.some((re) => re.test(line))) continue;
    add(line);
    for (let j = i + 1, n = 0; j < lines.length && n < MAX_CONTINUATION && !ENTRY.test(lines[j]); j++) {
      if (!lines[j].trim()) continue;
      add(lines[j]);
      n++;
      i = j;
    }
  }
  return quoted;
}

/** Error-level entries (not necessarily fatal), for hints when a run produced nothing. */
export function errorEntries(text: string, max = MAX_QUOTED_LINES): string[] {
  return text
    .split(/\r?\n/)
    .filter((l) => ERROR_ENTRY.test(l))
    .slice(0, max)
    .map(clean);
}

/** `   0.013 Write data path: /home/u/.factorio [50442/120039MB]` → `/home/u/.factorio`. */
export function writeDataPath(text: string): string | undefined {
  const m = /Write data path:\s*(.+?)(?:\s+\[[^\]]*\])?\s*$/m.exec(text);
  return m ? m[1] : undefined;
}

export interface FactorioVersion {
  /** `2.0.77` */
  version: string;
  /** `2.0`: what a mod's `factorio_version` must say. */
  series: string;
  build?: number;
}

/** `Version: 2.0.77 (build 83912, linux64, full, space-age)`. */
export function parseVersionOutput(text: string): FactorioVersion | undefined {
  const m = /Version:\s*(\d+)\.(\d+)\.(\d+)(?:\s*\(build\s+(\d+))?/i.exec(text);
  if (!m) return undefined;
  return { version: `${m[1]}.${m[2]}.${m[3]}`, series: `${Number(m[1])}.${Number(m[2])}`, build: m[4] ? Number(m[4]) : undefined };
}
