// package.json's languageModelTools must be exactly what the registry generates.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { languageModelToolsContribution, MAX_VSCODE_TOOLS, NOT_IN_VSCODE, vscodeMcpTools, vscodeTools } from '../../../src/core/assistant/tools/vscodeManifest';
import { mcpTools } from '../../../src/core/assistant/tools/registry';
import type { AnyTool } from '../../../src/core/assistant/tools/types';
import { REPO } from '../../helpers/paths';

describe('VS Code tool manifest', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
  it('matches the registry (run `npm run manifest` after changing a tool)', () => {
    assert.deepEqual(pkg.contributes.languageModelTools, JSON.parse(JSON.stringify(languageModelToolsContribution())));
  });
  it(`contributes at most ${MAX_VSCODE_TOOLS} tools, each with an activation event and a valid name`, () => {
    const tools = pkg.contributes.languageModelTools as Array<{ name: string; toolReferenceName: string }>;
    assert.ok(tools.length <= MAX_VSCODE_TOOLS && tools.length > 15);
    for (const t of tools) {
      assert.match(t.name, /^(?!copilot_|vscode_)[\w-]+$/);
      assert.ok(pkg.activationEvents.includes(`onLanguageModelTool:${t.name}`));
    }
  });
});

describe('tools offered inside VS Code (language-model tools + the embedded MCP definition)', () => {
  /** Every definition agent mode is offered, with how many times. */
  function offers(dev: boolean): Map<AnyTool, number> {
    const n = new Map<AnyTool, number>();
    for (const t of [...vscodeTools(), ...vscodeMcpTools(dev)]) n.set(t, (n.get(t) ?? 0) + 1);
    return n;
  }

  for (const dev of [false, true]) {
    it(`offers each tool once with developer tools ${dev ? 'on' : 'off'}`, () => {
      const n = offers(dev);
      for (const [t, count] of n) assert.equal(count, 1, `${t.name} (${t.tier}) offered ${count} times`);
      // Everything an outside MCP client gets is there, apart from the tools VS Code leaves out on purpose.
      for (const t of mcpTools(dev)) assert.equal(n.has(t), !NOT_IN_VSCODE.has(t.name), `${t.name} offered in VS Code`);
      // Names agent mode sees: the LM tools carry a pyops_ prefix, MCP tools their server's; within each, unique.
      const mcpNames = vscodeMcpTools(dev).map((t) => t.name);
      assert.equal(new Set(mcpNames).size, mcpNames.length);
    });
  }

  it('leaves the in-VS Code MCP definition empty without developer tools, and only the developer tools with them', () => {
    assert.deepEqual(vscodeMcpTools(false), []);
    const dev = vscodeMcpTools(true);
    assert.deepEqual(dev.map((t) => t.name).sort(), ['gameCloseSummary', 'gameEval', 'gameReloadMods', 'gameScreenshot', 'gameShowBlock']);
    assert.ok(dev.every((t) => t.tier === 'developer'));
    // The full set stays for `pyops mcp` and other clients: well beyond what VS Code gets over MCP.
    assert.ok(mcpTools(false).some((t) => t.name === 'searchGoods') && mcpTools(false).length > 30);
  });

  it('keeps agent mode far inside its 128-tool budget', () => {
    assert.equal(offers(false).size, vscodeTools().length);
    assert.ok(vscodeTools().length <= MAX_VSCODE_TOOLS);
    assert.ok(offers(true).size <= MAX_VSCODE_TOOLS + 5, 'plus the five developer tools');
  });
});
