// @pyops answers instead of failing: the set-up steps when PyOps' own model has no key, and a
// notice in the answer when the chat's thread is not in the open project (another project opened).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { keySetupAnswer, staleThreadNotice } from '../../../src/extension/chat/setup';
import { linkFromHistory } from '../../../src/extension/chat/history';

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as { contributes: { commands: Array<{ command: string }> } };

function recorder() {
  const text: string[] = [];
  const buttons: Array<{ command: string; title: string }> = [];
  return { text, buttons, stream: { markdown: (t: string) => text.push(t), button: (b: { command: string; title: string }) => buttons.push(b) } };
}

describe('@pyops set-up answers', () => {
  it('explains both ways to get a model, names the picked model, and offers buttons for real commands', () => {
    const r = recorder();
    keySetupAnswer(r.stream, '~anthropic/claude-sonnet-latest');
    const md = r.text.join('');
    assert.match(md, /\*\*Claude Sonnet \(latest\)\*\*/);
    assert.match(md, /Set an OpenRouter API key[\s\S]*openrouter\.ai\/settings\/keys[\s\S]*pick another model/);
    assert.deepEqual(r.buttons.map((b) => b.title), ['Set OpenRouter API Key…', 'Choose Default Model…']);
    const known = new Set(manifest.contributes.commands.map((c) => c.command));
    for (const b of r.buttons) assert.ok(known.has(b.command), `${b.command} is a contributed command`);
    const other = recorder();
    keySetupAnswer(other.stream, 'mistralai/mistral-large');
    assert.match(other.text.join(''), /\*\*mistralai\/mistral-large\*\*/);
  });

  it('says in the answer that another project is open and a new conversation starts', () => {
    const response = (metadata: unknown) => ({ response: [], result: { metadata }, participant: 'pyops.assistant' });
    const link = linkFromHistory([response({ conversationId: 'c1', assistantMessageId: 'a1', projectId: 'p-old', projectName: 'Old factory' })]);
    assert.deepEqual(link, { conversationId: 'c1', anchorId: 'a1', projectId: 'p-old', projectName: 'Old factory' });
    const open = { id: 'p-new', name: 'Sample world' };
    assert.match(staleThreadNotice(link!, open), /This chat was with the project "Old factory"; the open project is "Sample world", so this message starts a \*\*new conversation\*\* there/);
    assert.match(staleThreadNotice(link!, { id: 'p-old', name: 'Old factory' }), /not in the open project "Old factory" \(it was deleted\)/);
    assert.match(staleThreadNotice({ conversationId: 'c1' }, open), /\(deleted, or it belongs to another project\)/, 'answers from before the project was recorded');
  });
});
