// The "Get started with PyOps" walkthrough (package.json `walkthroughs`), as VS Code names it.
import * as vscode from 'vscode';

/** `<publisher>.<name>#<walkthrough id>`. */
export const WALKTHROUGH_ID = 'pyops.pyops-vscode#pyops.start';

/**
 * Tick a step. The package's completion events cannot do it alone: a command run from the extension
 * host never reaches the workbench's command events, and an `onContext` key that is already true
 * when VS Code first loads its walkthroughs (the sample opened at startup) is remembered without
 * ticking the step (VS Code 1.106–1.139). The workbench's own command has neither gap.
 */
export function completeWalkthroughStep(step: 'model' | 'sample' | 'ask'): void {
  // "Ask a first question" waits for this key (package.json): opening the chat or the side panel is not a question.
  if (step === 'ask') void vscode.commands.executeCommand('setContext', 'pyops.askedFirstQuestion', true);
  void vscode.commands.executeCommand('welcome.markStepComplete', `${WALKTHROUGH_ID}#${step}`).then(undefined, () => undefined);
}
