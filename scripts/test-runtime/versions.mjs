// Pinned versions of the VS Code test runtime (see ../../README.md, "Tests"). code-server follows
// VS Code monthly and its chat UI changes often, so it is pinned; engines.vscode must not exceed it.
export const CODE_SERVER = '4.139.1'; // VS Code 1.139.1
export const NODE24 = '24.22.3'; // code-server needs Node 24; the project itself stays on Node 20
export const PLAYWRIGHT_CORE = '1.65.1';
export const CHROMIUM = '/usr/bin/chromium';
/** Headless Chromium on this kind of machine: no sandbox as root, and no background calls to hosts it cannot reach. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'];
