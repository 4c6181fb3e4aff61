// Reading the icon cache beside a project (its layout is in cacheLayout.ts): the manifest, checked
// before any view trusts it, and never read through a link in place of the cache folder or the
// manifest (extraction refuses those too, so what shows is only what PyOps drew).
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { iconCacheDir, iconKey, MANIFEST_FILE, MANIFEST_FORMAT, PICTURE_FILE, type IconManifest } from './cacheLayout';

export { iconCacheDir, iconKey, MANIFEST_FILE, MANIFEST_FORMAT, type IconManifest } from './cacheLayout';

const manifestSchema: z.ZodType<IconManifest> = z.object({
  format: z.literal(MANIFEST_FORMAT),
  fingerprint: z.string(),
  extractedAt: z.string(),
  size: z.number().int().positive(),
  icons: z.record(z.string(), z.string().regex(PICTURE_FILE, 'an icon file name')),
  missing: z.number().int().min(0),
});

/**
 * The cache's manifest, or undefined when there is none or it is not one PyOps wrote (then no icons
 * show, as before any extraction: a bad manifest must not break a view).
 */
export function readManifest(projectFile: string): IconManifest | undefined {
  const dir = iconCacheDir(projectFile);
  const file = path.join(dir, MANIFEST_FILE);
  try {
    if (!fs.lstatSync(dir).isDirectory() || !fs.lstatSync(file).isFile()) return undefined;
    const m = manifestSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    return m.success ? m.data : undefined;
  } catch {
    return undefined;
  }
}

/** The picture for a good: items first, then fluids (the game keeps them in separate name spaces). */
export function goodIconFile(m: IconManifest, good: string): string | undefined {
  return m.icons[iconKey('item', good)] ?? m.icons[iconKey('fluid', good)];
}
