// package.json's languageModelTools must be exactly what the registry generates.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { languageModelToolsContribution, MAX_VSCODE_TOOLS } from '../../../src/core/assistant/tools/vscodeManifest';
import { REPO } from '../../helpers/paths';

describe('VS Code tool manifest', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
  it('matches the registry (run `npm run manifest` after changing a tool)', () => {
    assert.deepEqual(pkg.contributes.languageModelTools, JSON.parse(JSON.stringify(languageModelToolsContribution())));
  });
  it('contributes at most 30 tools, each with an activation event and a valid name', () => {
    const tools = pkg.contributes.languageModelTools as Array<{ name: string; toolReferenceName: string }>;
    assert.ok(tools.length <= MAX_VSCODE_TOOLS && tools.length > 15);
    for (const t of tools) {
      assert.match(t.name, /^(?!copilot_|vscode_)[\w-]+$/);
      assert.ok(pkg.activationEvents.includes(`onLanguageModelTool:${t.name}`));
    }
  });
});
