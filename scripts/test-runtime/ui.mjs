// The runner's half of the UI checks, for any host whose workbench page Playwright can reach
// (code-server's page in headless Chromium, or desktop VS Code's window over the DevTools protocol).
import fs from 'node:fs';
import path from 'node:path';

/**
 * Tests in the extension host cannot see the rendered workbench. They write a request file
 * (ui-request-<id>.json: what to look for); we check the page and answer in ui-result-<id>.json.
 */
export function serveUiRequests(page, OUT) {
  const busy = new Set();
  const timer = setInterval(() => {
    for (const f of fs.readdirSync(OUT)) {
      const m = /^ui-request-(.+)\.json$/.exec(f);
      if (!m || busy.has(m[1])) continue;
      busy.add(m[1]);
      const req = JSON.parse(fs.readFileSync(path.join(OUT, f), 'utf8'));
      checkUi(page, req, OUT).then(
        (result) => writeWhole(path.join(OUT, `ui-result-${m[1]}.json`), result),
        (err) => writeWhole(path.join(OUT, `ui-result-${m[1]}.json`), { ok: false, failures: [String(err)] }),
      );
    }
  }, 250);
  return { stop: () => clearInterval(timer) };
}

/**
 * The test polls for the result file and reads it as soon as it exists; a plain write let it read a
 * half-written file (CI: "Unexpected end of JSON input"). A rename makes the file appear whole.
 */
function writeWhole(file, value) {
  fs.writeFileSync(`${file}.part`, JSON.stringify(value));
  fs.renameSync(`${file}.part`, file);
}

const CHAT_INPUT = '.interactive-input-part .monaco-editor';
const CHAT_LIST = '.interactive-list';

/** The PyOps side panel's content frame (webview iframe → its active frame). Webviews float above the workbench parts, so find it by extension. */
function webviewFrame(page, nth = 0) {
  return page.frameLocator('iframe.webview[src*="extensionId=pyops.pyops-vscode"]').nth(nth).frameLocator('#active-frame');
}

/** The PyOps webview whose page shows `text` now (the side panel, a block editor tab, …), if any. */
async function webviewShowing(page, text) {
  const n = await page.locator('iframe.webview[src*="extensionId=pyops.pyops-vscode"]').count();
  for (let i = 0; i < n; i++) {
    const f = webviewFrame(page, i);
    if (await f.locator('body').getByText(text, { exact: false }).count().catch(() => 0)) return f;
    // A name shown in a field (the block editor's name) counts as shown.
    if (await f.locator(`input[value*="${text.replace(/["\\]/g, '\\$&')}"]`).count().catch(() => 0)) return f;
  }
  return undefined;
}

async function waitForWebview(page, text, timeout) {
  const end = Date.now() + timeout;
  for (;;) {
    const f = await webviewShowing(page, text);
    if (f) return f;
    if (Date.now() > end) return undefined;
    await page.waitForTimeout(250);
  }
}

async function waitForText(locator, text, timeout) {
  return locator.getByText(text, { exact: false }).filter({ visible: true }).first().waitFor({ timeout }).then(() => true, () => false);
}

async function waitForGone(locator, text, timeout) {
  const end = Date.now() + timeout;
  for (;;) {
    if (!(await locator.getByText(text, { exact: false }).filter({ visible: true }).count().catch(() => 0))) return true;
    if (Date.now() > end) return false;
    await locator.page().waitForTimeout(250);
  }
}

async function chatInputText(page) {
  return ((await page.locator(CHAT_INPUT).first().innerText().catch(() => '')) ?? '').trim();
}

/**
 * Enter sends the chat input, unless a completion list (participants, commands, variables) that
 * opened while typing takes it: close such a list first, and press again if the text stayed put.
 */
async function submitChat(page, message) {
  for (let attempt = 0; attempt < 3; attempt++) {
    await page.waitForTimeout(300);
    const suggest = page.locator('.interactive-input-part .suggest-widget.visible');
    if (await suggest.count().catch(() => 0)) await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline) {
      if (!(await chatInputText(page)).includes(message)) return true;
      await page.waitForTimeout(200);
    }
  }
  return false;
}

/** The modifier names Playwright takes ("ControlOrMeta", "Shift", …). */
const modifiers = (list) => (Array.isArray(list) ? list.filter((m) => typeof m === 'string') : []);

async function checkUi(page, req, OUT) {
  const failures = [];
  const out = { ok: true, failures };
  const bar = page.locator('#workbench\\.parts\\.statusbar');
  // A window size for what follows (a narrow editor tab); it stays until a request sets another.
  if (req.viewport) {
    await page.setViewportSize(req.viewport);
    await page.waitForTimeout(500);
  }
  for (const text of req.statusBarIncludes ?? []) {
    const ok = await bar.getByText(text, { exact: false }).first().waitFor({ timeout: 15_000 }).then(() => true, () => false);
    if (!ok) failures.push(`status bar does not show "${text}" (it shows: ${(await bar.innerText().catch(() => '?')).replace(/\s+/g, ' ')})`);
  }
  // Clicks on the workbench itself (a view's header to fold it, …), in order.
  for (const selector of req.pageClicks ?? []) {
    const target = page.locator(selector).first();
    const ok = await target.waitFor({ timeout: 15_000 }).then(() => true, () => false);
    if (!ok) failures.push(`the page has nothing to click at ${selector}`);
    else await target.click();
  }
  for (const selector of req.pageSelectors ?? []) {
    const ok = await page.locator(selector).first().waitFor({ timeout: req.timeoutMs ?? 30_000 }).then(() => true, () => false);
    if (!ok) failures.push(`the page has no visible ${selector}`);
  }
  for (const selector of req.pageSelectorsAbsent ?? []) {
    if (await page.locator(selector).filter({ visible: true }).count().catch(() => 0)) failures.push(`the page shows ${selector}`);
  }
  // VS Code's own quick input (an input box or a quick pick a command opened): wait for its texts,
  // then type into it and press keys, as a person answers it.
  if (req.quickInputIncludes?.length) {
    const widget = page.locator('.quick-input-widget');
    for (const text of req.quickInputIncludes) {
      if (!(await waitForText(widget, text, req.timeoutMs ?? 15_000))) failures.push(`the quick input does not show "${text}" (it shows: ${(await widget.innerText().catch(() => '?')).replace(/\s+/g, ' ').slice(0, 300)})`);
    }
    out.quickInputText = (await widget.innerText().catch(() => '')).slice(0, 4000);
    out.quickInputValue = await widget.locator('input').first().inputValue({ timeout: 2000 }).catch(() => undefined);
  }
  if (req.pageType) await page.keyboard.type(req.pageType, { delay: 10 });
  for (const key of req.pagePress ?? []) {
    await page.keyboard.press(key);
    await page.waitForTimeout(200);
  }
  // The editor area (text editors and their error placeholders; webviews float above it). Editors
  // draw spaces as no-break spaces, so the text is compared with its white space folded.
  if (req.editorIncludes?.length || req.editorExcludes?.length) {
    const editor = page.locator('#workbench\\.parts\\.editor');
    const shown = async () => ((await editor.innerText().catch(() => '')) ?? '').replace(/\s+/g, ' ');
    const end = Date.now() + (req.timeoutMs ?? 30_000);
    const missing = () => (req.editorIncludes ?? []).filter((t) => !text.includes(t));
    const present = () => (req.editorExcludes ?? []).filter((t) => text.includes(t));
    let text = await shown();
    while ((missing().length || present().length) && Date.now() < end) {
      await page.waitForTimeout(250);
      text = await shown();
    }
    for (const t of missing()) failures.push(`the editor area does not show "${t}"`);
    for (const t of present()) failures.push(`the editor area still shows "${t}"`);
    out.editorText = text.slice(0, 8000);
  }
  // The side bar (the PyOps container's trees): wait for texts to appear, and for others to go.
  const sidebar = page.locator('#workbench\\.parts\\.sidebar');
  for (const text of req.sidebarIncludes ?? []) {
    if (!(await waitForText(sidebar, text, req.timeoutMs ?? 30_000))) failures.push(`the side bar does not show "${text}"`);
  }
  for (const text of req.sidebarExcludes ?? []) {
    if (!(await waitForGone(sidebar, text, req.timeoutMs ?? 30_000))) failures.push(`the side bar still shows "${text}"`);
  }
  if (req.sidebarIncludes?.length || req.sidebarExcludes?.length) out.sidebarText = (await sidebar.innerText().catch(() => '')).slice(0, 8000);
  if (req.chatType) {
    // The chat input has no textarea (EditContext): click the editor and type.
    const input = page.locator(CHAT_INPUT).first();
    const ok = await input.waitFor({ timeout: 20_000 }).then(() => true, () => false);
    if (!ok) failures.push('the chat input is not visible');
    else {
      await input.click();
      // Replace what is there (a sticky participant pre-fills "@pyops ").
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.press('Backspace');
      await page.keyboard.type(req.chatType, { delay: 5 });
      if (req.chatSubmit !== false) {
        const submitted = await submitChat(page, req.chatType.replace(/^@\S+\s*/, ''));
        if (!submitted) failures.push(`the chat input kept "${await chatInputText(page)}" after Enter`);
      }
    }
  }
  // A quick pick VS Code shows (a picker the webview asked for): type to filter, click a row by its text.
  if (req.quickPick) {
    const widget = page.locator('.quick-input-widget');
    const ok = await widget.waitFor({ state: 'visible', timeout: req.timeoutMs ?? 15_000 }).then(() => true, () => false);
    if (!ok) failures.push('no quick pick is open');
    else {
      if (req.quickPick.type) await page.keyboard.type(req.quickPick.type, { delay: 5 });
      const row = widget.locator('.monaco-list-row', { hasText: req.quickPick.click }).first();
      const found = await row.waitFor({ timeout: 10_000 }).then(() => true, () => false);
      if (!found) failures.push(`the quick pick has no row "${req.quickPick.click}" (it shows: ${(await widget.innerText().catch(() => '?')).replace(/\s+/g, ' ').slice(0, 400)})`);
      else {
        out.quickPickText = (await widget.innerText().catch(() => '')).slice(0, 4000);
        await row.click();
      }
    }
  }
  const list = page.locator(CHAT_LIST).last();
  for (const text of req.chatIncludes ?? []) {
    if (!(await waitForText(list, text, req.timeoutMs ?? 30_000))) failures.push(`the chat does not show "${text}"`);
  }
  if (req.chatIncludes?.length || req.collectChat) out.chatText = (await list.innerText().catch(() => '')).slice(-8000);
  // A request may name the webview by a text only it shows (req.webview); the side panel otherwise.
  // A named webview that never shows its text is a failure, never a silent look at another webview.
  const wantsWebview = req.webviewIncludes?.length || req.webviewClick || req.webviewReveal || req.collectWebview
    || req.webviewClickSelector || req.webviewSelect || req.webviewType || req.webviewPress?.length || req.webviewValueOf || req.webviewMeasure || req.webviewRevealSelector
    || req.webviewDblClick || req.webviewFocusPress;
  const frame = !wantsWebview ? undefined : req.webview ? await waitForWebview(page, req.webview, req.timeoutMs ?? 30_000) : webviewFrame(page);
  const which = req.webview ? `the PyOps webview showing "${req.webview}"` : 'the PyOps side panel';
  if (wantsWebview && !frame) failures.push(`no PyOps webview shows "${req.webview}"`);
  if (frame) {
    for (const text of req.webviewIncludes ?? []) {
      if (!(await waitForText(frame.locator('body'), text, req.timeoutMs ?? 30_000))) failures.push(`${which} does not show "${text}"`);
    }
    if (req.webviewClick) {
      // VS Code-styled buttons, and plain buttons (the block editor's link-like row toggles).
      const target = frame.locator('vscode-button, button', { hasText: req.webviewClick }).first();
      const ok = await target.waitFor({ timeout: 15_000 }).then(() => true, () => false);
      if (!ok) failures.push(`${which} has no button "${req.webviewClick}"`);
      else await target.click({ modifiers: modifiers(req.webviewClickModifiers) });
    }
    if (req.webviewClickSelector) {
      const target = frame.locator(req.webviewClickSelector).first();
      const ok = await target.waitFor({ timeout: req.timeoutMs ?? 15_000 }).then(() => true, () => false);
      if (!ok) failures.push(`${which} has nothing at ${req.webviewClickSelector}`);
      else await target.click({ modifiers: modifiers(req.webviewClickModifiers) });
    }
    if (req.webviewSelect) {
      // Choose an option of a native select, as a player's pick does (a change event).
      const target = frame.locator(req.webviewSelect.selector).first();
      const ok = await target.waitFor({ timeout: req.timeoutMs ?? 15_000 }).then(() => true, () => false);
      if (!ok) failures.push(`${which} has no select at ${req.webviewSelect.selector}`);
      else await target.selectOption(req.webviewSelect.value).catch((e) => failures.push(`${which} cannot select ${req.webviewSelect.value}: ${e.message}`));
    }
    if (req.webviewType) {
      // Focus a field, optionally select what it holds, and type as a player does (key by key).
      const target = frame.locator(req.webviewType.selector).first();
      const ok = await target.waitFor({ timeout: 15_000 }).then(() => true, () => false);
      if (!ok) failures.push(`${which} has no field at ${req.webviewType.selector}`);
      else {
        await target.click();
        // The field's own selection (Ctrl+A would reach VS Code, which selects the whole page).
        if (req.webviewType.selectAll) await target.selectText();
        await page.keyboard.type(req.webviewType.text, { delay: 20 });
      }
    }
    for (const key of req.webviewPress ?? []) {
      await page.keyboard.press(key);
      await page.waitForTimeout(150);
    }
    if (req.webviewValueOf) out.webviewValue = await frame.locator(req.webviewValueOf).first().inputValue({ timeout: 10_000 }).catch((e) => `(no value: ${e.message})`);
    if (req.webviewMeasure) {
      // How wide the tab's page is against what it shows: a page wider than its view scrolls sideways.
      out.measure = await frame.locator('body').evaluate((body, sel) => {
        const doc = body.ownerDocument.documentElement;
        const el = sel ? body.ownerDocument.querySelector(sel) : null;
        const widest = [...body.ownerDocument.querySelectorAll('table, section, select')].reduce((m, x) => Math.max(m, x.getBoundingClientRect().right), 0);
        return { viewWidth: doc.clientWidth, scrollWidth: doc.scrollWidth, widestRight: widest, element: el ? { width: el.getBoundingClientRect().width, scrollWidth: el.scrollWidth, clientWidth: el.clientWidth } : null };
      }, req.webviewMeasure === true ? null : req.webviewMeasure).catch((e) => ({ error: e.message }));
    }
    if (req.webviewRevealSelector) {
      const target = frame.locator(req.webviewRevealSelector).first();
      const ok = await target.waitFor({ timeout: 15_000 }).then(() => true, () => false);
      if (!ok) failures.push(`${which} has nothing at ${req.webviewRevealSelector} to scroll to`);
      else await target.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    }
    if (req.webviewDblClick) {
      // Any element showing this text (an SVG label too): the board opens a block on a double-click.
      const target = frame.getByText(req.webviewDblClick, { exact: true }).first();
      const ok = await target.waitFor({ timeout: 15_000 }).then(() => true, () => false);
      if (!ok) failures.push(`${which} shows no "${req.webviewDblClick}" to double-click`);
      else await target.dblclick();
    }
    if (req.webviewFocusPress) {
      // A key pressed with the webview focused (its body clicked first, where nothing reacts to a click).
      await frame.locator('body').click({ position: { x: 2, y: 2 } }).catch((e) => failures.push(`could not focus ${which}: ${e.message}`));
      await page.keyboard.press(req.webviewFocusPress);
    }
    if (req.webviewReveal) {
      // Scroll the webview until this text is in view (a screenshot of a long editor tab).
      const target = frame.getByText(req.webviewReveal, { exact: true }).first();
      const ok = await target.waitFor({ timeout: 15_000 }).then(() => true, () => false);
      if (!ok) failures.push(`${which} does not show "${req.webviewReveal}" to scroll to`);
      else await target.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    }
    out.webviewText = (await frame.locator('body').innerText().catch(() => '')).slice(0, 8000);
  }
  if (req.screenshot) {
    const targets = { statusbar: bar, page, sidebar, auxiliarybar: page.locator('#workbench\\.parts\\.auxiliarybar') };
    const target = targets[req.screenshot.element ?? 'page'] ?? page;
    await target.screenshot({ path: path.join(OUT, req.screenshot.file) }).catch((e) => failures.push(`screenshot failed: ${e.message}`));
  }
  out.ok = failures.length === 0;
  return out;
}
