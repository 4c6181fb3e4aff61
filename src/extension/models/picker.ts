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

/**
 * What VS Code's model picker gets for one of PyOps' models. `isUserSelectable` puts it in the
 * picker (without it VS Code keeps the model out of the chat's choice, so a window with no Copilot
 * has no model and @pyops fails with "Language model unavailable" before it is even called), and
 * `isDefault` marks the default model (the `pyops.models.default` setting, else the built-in
 * `~anthropic/claude-sonnet-latest`) so a fresh chat starts on it rather than on whichever model
 * VS Code happens to order first. Both fields are read by VS Code at runtime even where the
 * `vscode` typings of the supported engine do not declare them yet.
 */
export interface PickerModelInformation {
  id: string;
  name: string;
  family: string;
  version: string;
  detail: string;
  tooltip: string;
  maxInputTokens: number;
  maxOutputTokens: number;
  capabilities: { toolCalling: boolean; imageInput: boolean };
  isDefault: boolean;
  isUserSelectable: boolean;
}

const family = (id: string) => id.replace(/^~/, '').split('/')[0] || 'openrouter';

export function pickerInformation(
  models: readonly PickerModel[],
  infos: ReadonlyArray<{ id: string; contextWindow: number }>,
  opts: { hasKey: boolean; defaultId: string },
): PickerModelInformation[] {
  return models.map((m, i) => ({
    id: m.id,
    name: m.label,
    family: family(m.id),
    version: infos[i].id,
    detail: 'OpenRouter',
    tooltip: `${m.id} through OpenRouter (PyOps)${opts.hasKey ? '' : ' — run "PyOps: Set OpenRouter API Key…" first'}`,
    maxInputTokens: infos[i].contextWindow,
    maxOutputTokens: 32_000,
    capabilities: { toolCalling: true, imageInput: false },
    isDefault: m.id === opts.defaultId,
    isUserSelectable: true,
  }));
}
