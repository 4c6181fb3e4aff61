// `npm run manifest`: rewrites the generated parts of package.json from the code — the
// languageModelTools contribution (from the tool registry) and their activation events.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { languageModelToolsContribution } from '../src/core/assistant/tools/vscodeManifest';

const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'package.json');
const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
const tools = languageModelToolsContribution();
pkg.contributes.languageModelTools = tools;
const others = (pkg.activationEvents as string[]).filter((e) => !e.startsWith('onLanguageModelTool:'));
pkg.activationEvents = [...others, ...tools.map((t) => `onLanguageModelTool:${t.name}`)];
fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + '\n');
console.log(`package.json: ${tools.length} language-model tools`);
