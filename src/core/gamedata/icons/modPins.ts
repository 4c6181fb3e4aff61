// Which version of a mod the game loads when several are installed: the one mods/mod-list.json pins.
// Read (and validated) on the calling thread and handed to the icon thread as plain data, so that
// thread loads no schema library.
import fs from 'node:fs';
import path from 'node:path';
import { modListSchema, MOD_LIST_FILE } from '../factorio/modList';

/** Mod name → pinned version; empty without a readable mod-list.json (the newest versions are used). */
export function readModPins(mods: string | undefined): Record<string, string> {
  const pins: Record<string, string> = {};
  if (!mods) return pins;
  try {
    const list = modListSchema.parse(JSON.parse(fs.readFileSync(path.join(mods, MOD_LIST_FILE), 'utf8')));
    for (const m of list.mods) if (m.version) pins[m.name] = m.version;
  } catch {
    // no or unreadable mod-list.json
  }
  return pins;
}
