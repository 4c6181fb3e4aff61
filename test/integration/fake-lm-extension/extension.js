// Test-only language model (never shipped with PyOps): stands in for Copilot or any other VS Code
// model. It is scripted by the request it gets: while the conversation has no tool result yet it
// calls `searchGoods` for "circuit"; once the result is there it answers with text quoting it.
// Every request is recorded so the suite can check what @pyops sent through the adapter.
const vscode = require('vscode');

const requests = [];

function partsOf(message) {
  return Array.isArray(message.content) ? message.content : [];
}

exports.activate = function activate(context) {
  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider('pyops-test-lm', {
      provideLanguageModelChatInformation() {
        return [{ id: 'scripted', name: 'Scripted Test Model', family: 'scripted', version: '1', maxInputTokens: 200000, maxOutputTokens: 8000, capabilities: { toolCalling: true, imageInput: false } }];
      },
      async provideLanguageModelChatResponse(model, messages, options, progress, token) {
        const results = [];
        for (const m of messages) for (const p of partsOf(m)) if (p instanceof vscode.LanguageModelToolResultPart) results.push(p);
        const text = messages.map((m) => partsOf(m).map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('')).join('\n');
        requests.push({ tools: (options.tools || []).map((t) => t.name), toolMode: options.toolMode, messageCount: messages.length, results: results.length, text: text.slice(-400) });
        if (token.isCancellationRequested) return;
        if (!results.length && (options.tools || []).some((t) => t.name === 'searchGoods')) {
          progress.report(new vscode.LanguageModelTextPart('Looking it up. '));
          progress.report(new vscode.LanguageModelToolCallPart('fake-call-1', 'searchGoods', { query: 'circuit' }));
          return;
        }
        const last = results[results.length - 1];
        const resultText = last ? last.content.map((c) => (c instanceof vscode.LanguageModelTextPart ? c.value : '')).join('') : '';
        const name = (/"name":"([^"]+)"/.exec(resultText) || [])[1] || 'nothing';
        progress.report(new vscode.LanguageModelTextPart(`The adapter path works: the best match is ${name}.`));
      },
      async provideTokenCount(model, text) {
        return typeof text === 'string' ? Math.ceil(text.length / 4) : 10;
      },
    }),
  );
  return { requests };
};

exports.deactivate = function deactivate() {};
