// Which models PyOps puts in VS Code's model picker (its vendor id, the curated list plus the
// user's extra OpenRouter ids), and how @pyops recognises one of them in a chat request.
import { CURATED_MODELS } from '../../core/assistant/models/catalog';

export const PYOPS_VENDOR = 'pyops';

export function isPyOpsModel(m: { vendor: string }): boolean {
  return m.vendor === PYOPS_VENDOR;
}

export interface PickerModel {
  id: string;
  label: string;
}

/** Curated models first, then the user's extra ids (deduplicated, in order). */
export function pickerModels(extra: readonly string[]): PickerModel[] {
  const out: PickerModel[] = [];
  const seen = new Set<string>();
  for (const m of [...CURATED_MODELS, ...extra.map((id) => ({ id, label: id }))]) {
    const id = m.id.trim();
    if (!id || seen.has(id)) continue;
    seen.add(id);
    out.push({ id, label: m.label });
  }
  return out;
}
