// The servers under test, each described by how to start it and which of its tools does each operation. Every
// operation returns [toolName, arguments]; the harness times the call and counts the reply. A server whose
// package or browser is missing says why, and is reported as skipped.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM, CHROMIUM_FLAGS, chromiumMissing } from './chromium.mjs';
import { textOf } from './mcp.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BENCH_MODULES = fileURLToPath(new URL('../node_modules/', import.meta.url));
export const FIREFOX_USE_CLI = join(ROOT, 'dist/cli/main.js');
const PLAYWRIGHT_CLI = join(BENCH_MODULES, '@playwright/mcp/cli.js');
const DEVTOOLS_CLI = join(BENCH_MODULES, 'chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js');
const VIEWPORT = { width: 1280, height: 800 };

export const firefoxUse = {
  id: 'firefox-use',
  label: 'firefox-use',
  format: 'firefox-use',
  browser: 'Firefox ESR (BiDi)',
  missing: () => (existsSync(FIREFOX_USE_CLI) ? null : 'dist/cli/main.js is not built (run npm run build)'),
  spec: () => ({
    command: process.execPath,
    args: [FIREFOX_USE_CLI, 'mcp', '--isolated', '--output-dir', mkdtempSync(join(tmpdir(), 'fu-bench-out-'))],
  }),
  async open(server) {
    const opened = await server.call('tabs_context_mcp', { createIfEmpty: true });
    if (opened.error) throw new Error(`tabs_context_mcp: ${opened.error}`);
    return { tabId: opened.result.structuredContent.tabs[0].tabId, calls: [opened] };
  },
  snapshotTool: 'read_page',
  ops: {
    navigate: (h, url) => ['navigate', { tabId: h.tabId, url }],
    snapshot: (h) => ['read_page', { tabId: h.tabId }],
    click: (h, ref) => ['computer', { action: 'left_click', tabId: h.tabId, ref }],
    dblclick: (h, ref) => ['computer', { action: 'double_click', tabId: h.tabId, ref }],
    type: (h, ref, text) => ['computer', { action: 'type', tabId: h.tabId, ref, text }],
    // Setting the value without keys: what Playwright MCP's browser_type (fill) does; judged against it.
    fill: (h, ref, text) => ['form_input', { tabId: h.tabId, ref, value: text }],
    key: (h, key) => ['computer', { action: 'key', tabId: h.tabId, text: key }],
    find: (h, query) => ['find', { tabId: h.tabId, query }],
    screenshot: (h) => ['computer', { action: 'screenshot', tabId: h.tabId }],
  },
};

export const playwright = {
  id: 'playwright',
  label: 'Playwright MCP',
  format: 'playwright',
  browser: 'Chromium (CDP)',
  packageName: '@playwright/mcp',
  missing: () => chromiumMissing() ?? (existsSync(PLAYWRIGHT_CLI) ? null : 'bench/node_modules/@playwright/mcp is not installed (cd bench && npm install)'),
  spec() {
    const dir = mkdtempSync(join(tmpdir(), 'pw-bench-'));
    const config = join(dir, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({
        browser: {
          browserName: 'chromium',
          isolated: true,
          launchOptions: { executablePath: CHROMIUM, headless: true, chromiumSandbox: false, args: CHROMIUM_FLAGS },
          contextOptions: { viewport: VIEWPORT },
        },
      }),
    );
    return { command: process.execPath, args: [PLAYWRIGHT_CLI, '--config', config, '--output-dir', join(dir, 'out')], cwd: dir };
  },
  // The browser starts with the first tool call; nothing to open.
  open: async () => ({ calls: [] }),
  snapshotTool: 'browser_snapshot',
  ops: {
    navigate: (h, url) => ['browser_navigate', { url }],
    snapshot: () => ['browser_snapshot', {}],
    click: (h, ref, label) => ['browser_click', { element: label, target: ref }],
    dblclick: (h, ref, label) => ['browser_click', { element: label, target: ref, doubleClick: true }],
    type: (h, ref, text, label) => ['browser_type', { element: label, target: ref, text }],
    key: (h, key) => ['browser_press_key', { key }],
    screenshot: () => ['browser_take_screenshot', { type: 'png', scale: 'css' }],
  },
};

export const chromeDevtools = {
  id: 'chrome-devtools',
  label: 'Chrome DevTools MCP',
  format: 'chrome-devtools',
  browser: 'Chromium (CDP)',
  packageName: 'chrome-devtools-mcp',
  missing: () => chromiumMissing() ?? (existsSync(DEVTOOLS_CLI) ? null : 'bench/node_modules/chrome-devtools-mcp is not installed (cd bench && npm install)'),
  spec: () => ({
    command: process.execPath,
    args: [
      DEVTOOLS_CLI,
      '--headless',
      '--isolated',
      '--executablePath',
      CHROMIUM,
      '--viewport',
      `${VIEWPORT.width}x${VIEWPORT.height}`,
      '--no-usage-statistics',
      '--no-performance-crux',
      ...[...CHROMIUM_FLAGS, '--no-sandbox'].map((flag) => `--chromeArg=${flag}`),
    ],
    env: { CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1' },
  }),
  async open(server) {
    // Page-scoped tools want a pageId; list_pages names the selected one.
    const listed = await server.call('list_pages', {});
    if (listed.error) throw new Error(`list_pages: ${listed.error}`);
    const pageId = Number(/^(\d+):.*\[selected\]/m.exec(textOf(listed.result))?.[1] ?? 1);
    return { pageId, calls: [listed] };
  },
  snapshotTool: 'take_snapshot',
  ops: {
    navigate: (h, url) => ['navigate_page', { pageId: h.pageId, type: 'url', url }],
    snapshot: (h) => ['take_snapshot', { pageId: h.pageId }],
    click: (h, ref, label, { withSnapshot = false } = {}) => ['click', { pageId: h.pageId, uid: ref, ...(withSnapshot ? { includeSnapshot: true } : {}) }],
    type: (h, ref, text, label, { withSnapshot = false } = {}) => ['fill', { pageId: h.pageId, uid: ref, value: text, ...(withSnapshot ? { includeSnapshot: true } : {}) }],
    screenshot: (h) => ['take_screenshot', { pageId: h.pageId, format: 'png' }],
  },
};

export const ALL_SERVERS = [firefoxUse, playwright, chromeDevtools];
