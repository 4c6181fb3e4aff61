// The icon cache beside a project: `<project>.icons/`, one PNG per distinct picture, named by a hash
// of its spec and the source files' stamps (so a re-sync that changes an icon gets a new file and
// no viewer shows a stale picture), plus `manifest.json` mapping each (kind, name) to its file. Each
// project has its own folder, so two projects never fight over one. Names only here: the icon
// thread writes by them without loading the manifest's reader (cache.ts).
import type { IconKind } from './spec';

const ICONS_SUFFIX = '.icons';
export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_FORMAT = 1;
/** A picture's file name: hex digits of its key. */
export const PICTURE_FILE = /^[0-9a-f]{8,64}\.png$/;

export function iconCacheDir(projectFile: string): string {
  return projectFile + ICONS_SUFFIX;
}

export const iconKey = (kind: IconKind, name: string) => `${kind}:${name}`;

export interface IconManifest {
  format: typeof MANIFEST_FORMAT;
  /** Fingerprint of the game data the icons were extracted for. */
  fingerprint: string;
  extractedAt: string;
  /** Pixel size of every picture. */
  size: number;
  /** `kind:name` → file name in the cache folder. */
  icons: Record<string, string>;
  missing: number;
}
