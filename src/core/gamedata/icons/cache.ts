// The icon cache beside a project: `<project>.icons/`, one PNG per distinct picture, named by a hash
// of its spec and the source files' stamps (so a re-sync that changes an icon gets a new file and
// no viewer shows a stale picture), plus `manifest.json` mapping each (kind, name) to its file. Each
// project has its own folder, so two projects never fight over one.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { IconKind } from './spec';

const ICONS_SUFFIX = '.icons';
export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_FORMAT = 1;

export function iconCacheDir(projectFile: string): string {
  return projectFile + ICONS_SUFFIX;
}

export const iconKey = (kind: IconKind, name: string) => `${kind}:${name}`;

const fileName = z.string().regex(/^[0-9a-f]{8,64}\.png$/, 'an icon file name');

const manifestSchema = z.object({
  format: z.literal(MANIFEST_FORMAT),
  /** Fingerprint of the game data the icons were extracted for. */
  fingerprint: z.string(),
  extractedAt: z.string(),
  /** Pixel size of every picture. */
  size: z.number().int().positive(),
  /** `kind:name` → file name in the cache folder. */
  icons: z.record(z.string(), fileName),
  missing: z.number().int().min(0),
});
export type IconManifest = z.infer<typeof manifestSchema>;

/**
 * The cache's manifest, or undefined when there is none or it is not one PyOps wrote (then no icons
 * show, as before any extraction: a bad manifest must not break a view).
 */
export function readManifest(projectFile: string): IconManifest | undefined {
  try {
    const raw = JSON.parse(fs.readFileSync(path.join(iconCacheDir(projectFile), MANIFEST_FILE), 'utf8'));
    const m = manifestSchema.safeParse(raw);
    return m.success ? m.data : undefined;
  } catch {
    return undefined;
  }
}

/** The picture for a good: items first, then fluids (the game keeps them in separate name spaces). */
export function goodIconFile(m: IconManifest, good: string): string | undefined {
  return m.icons[iconKey('item', good)] ?? m.icons[iconKey('fluid', good)];
}
