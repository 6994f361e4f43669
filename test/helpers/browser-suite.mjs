// One fixture server and one firefox-use server (one Firefox) for a describe block, and a fresh tab for each test:
// the setup the end-to-end files share, and why no test can lean on what an earlier one left in its tab.
import { startFixtureServer } from './fixtures.mjs';
import { startServer } from './mcp-client.mjs';

/**
 * Registers the hooks in the calling describe block and returns the live context {fixtures, other, server, tabId}:
 * `other` is a second origin when `otherOrigin` is set; `page` (a fixture path) is loaded in each fresh tab. The
 * tabs of the previous test (popups included) are closed once the new one is open, so the browser is never tabless.
 */
export function useBrowser({ args = ['--isolated'], env = {}, routes = {}, otherOrigin = false, page } = {}) {
  const context = { fixtures: null, other: null, server: null, tabId: null };
  before(async function () {
    context.fixtures = await startFixtureServer(routes);
    if (otherOrigin) context.other = await startFixtureServer();
    context.server = await startServer({ args, env });
  });
  beforeEach(async function () {
    const { server, fixtures } = context;
    context.tabId = (await server.ok('tabs_create_mcp', page ? { url: fixtures.url(page) } : {})).structuredContent.tabId;
    const { tabs } = (await server.ok('tabs_context_mcp', {})).structuredContent;
    for (const tab of tabs) if (tab.tabId !== context.tabId) await server.call('tabs_close_mcp', { tabId: tab.tabId });
  });
  after(async function () {
    await context.server?.close();
    await context.fixtures?.close();
    await context.other?.close();
  });
  return context;
}
