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
    if (otherOrigin) context.other = await startFixtureServer(otherOrigin === true ? {} : otherOrigin);
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

/**
 * Something a `before` hook starts and an `after` hook closes, usable from the start: the handle's fields and
 * methods reach the live object once `before` has run.
 */
function lateBound(holder, what) {
  return new Proxy(
    {},
    {
      get(_target, key) {
        if (!holder.live) throw new Error(`${what} is not started yet: use it inside a test or a later hook`);
        const value = holder.live[key];
        return typeof value === 'function' ? value.bind(holder.live) : value;
      },
    },
  );
}

/** Registers a `before` that starts something and an `after` that closes it; returns its late-bound handle. */
function useStarted(start, what) {
  const holder = { live: null };
  before(async function () {
    holder.live = await start();
  });
  after(async function () {
    await holder.live?.close();
  });
  return lateBound(holder, what);
}

/**
 * A fixture server for the calling describe block (started before its tests, closed after them). `routes` may be
 * a function, called in the hook: routes that name another server's origin are built once that server is up.
 */
export function useSite(routes = {}) {
  return useStarted(() => startFixtureServer(typeof routes === 'function' ? routes() : routes), 'the fixture server');
}

/**
 * One firefox-use stdio server for the calling describe block. `options` ({args, env}) may be a function, called in
 * the hook (flags that name a fixture server's port).
 */
export function useServer(options = {}) {
  return useStarted(() => startServer(typeof options === 'function' ? options() : options), 'the firefox-use server');
}

/**
 * For tests that each start a server with flags of their own (startServer or startServe): `own(server)` returns it
 * and closes it after the test, failed or not.
 */
export function closeAfterEach() {
  const open = [];
  afterEach(async function () {
    while (open.length) {
      const server = open.pop();
      await (server.close ?? server.stop).call(server);
    }
  });
  return (server) => (open.push(server), server);
}

/** The ref on the first line of a snapshot, delta or find reply that matches `pattern`. */
export function refOf(text, pattern) {
  return /\[ref=(ref_\d+)\]/.exec(text.split('\n').find((line) => pattern.test(line)) ?? '')?.[1];
}
