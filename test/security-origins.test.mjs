// Issue 15 item 5: --allowed-origins holds for requests from every realm (shared, service and dedicated workers,
// <object>, <embed>), and a page that only embeds a refused object still loads: navigate fails only for the tab's own
// document.
import { expect } from 'chai';
import { startFixtureServer } from './helpers/fixtures.mjs';
import { startServer } from './helpers/mcp-client.mjs';

const page = (body) => (req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(body);
const script = (body) => (req, res) => res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' }).end(body);

describe('security: origin rules in every realm', function () {
  this.timeout(180_000);
  let allowed;
  let other;
  let server;
  before(async function () {
    other = await startFixtureServer({});
    const leak = (what) => `${other.origin}/${what}`;
    allowed = await startFixtureServer({
      '/dedicated.js': script(`fetch(${JSON.stringify(leak('from-dedicated-worker'))}).catch(() => {}).finally(() => fetch('/dedicated-done'));`),
      '/shared.js': script(`fetch(${JSON.stringify(leak('from-shared-worker'))}).catch(() => {}).finally(() => fetch('/shared-done'));`),
      '/sw.js': script(`self.addEventListener('install', (e) => e.waitUntil(fetch(${JSON.stringify(leak('from-service-worker'))}).catch(() => {}).finally(() => fetch('/sw-done'))));`),
      '/workers': page(`<title>workers</title><script>
        new SharedWorker('/shared.js');
        new Worker('/dedicated.js');
        navigator.serviceWorker.register('/sw.js').catch((e) => { document.title = 'no service worker: ' + e.message; });
      </script>`),
      '/embeds': page(`<title>embeds</title>
        <object data="${leak('object')}" type="text/html" width="200" height="100"></object>
        <embed src="${leak('embed')}" type="text/html" width="200" height="100">
        <script>addEventListener('load', () => fetch('/embeds-loaded'))</script>`),
      '/next': page('<title>next</title>next'),
    });
    server = await startServer({ args: ['--isolated', '--allowed-origins', `127.0.0.1:${allowed.port}`] });
  });
  after(async function () {
    await server?.close();
    await allowed?.close();
    await other?.close();
  });

  // Firefox ESR 153's BiDi reports no request of a shared or service worker (they have no browsing context), and an
  // <object>/<embed> load reaches the server while BiDi holds what it reported: the proxy auto-config stops them.
  it('lets no fetch of a shared, service or dedicated worker reach a refused origin', async function () {
    const tabId = (await server.ok('tabs_create_mcp', { url: allowed.url('/workers') })).structuredContent.tabId;
    // The workers ran: their request to the allowed origin went out after the refused one was tried.
    expect(await allowed.requested('/shared-done'), 'the shared worker ran').to.equal(true);
    expect(await allowed.requested('/sw-done'), 'the service worker ran').to.equal(true);
    expect(await allowed.requested('/dedicated-done'), 'the dedicated worker ran').to.equal(true);
    expect(other.requests).to.deep.equal([]);
    expect((await server.ok('tabs_context_mcp')).structuredContent.tabs.find((tab) => tab.tabId === tabId).title).to.equal('workers');
  });

  it('refuses <object> and <embed> of a refused origin, and navigate to the page that embeds them succeeds', async function () {
    const tabId = (await server.ok('tabs_create_mcp', {})).structuredContent.tabId;
    const loaded = await server.call('navigate', { tabId, url: allowed.url('/embeds') });
    expect(loaded.isError, server.text(loaded)).to.not.equal(true);
    expect(loaded.structuredContent.title).to.equal('embeds');
    expect(await allowed.requested('/embeds-loaded'), 'the page finished loading').to.equal(true);
    expect(other.requests).to.deep.equal([]);
    // The tab goes on working, and its own document is still refused where it should be.
    await server.ok('navigate', { tabId, url: allowed.url('/next') });
    const refused = await server.call('navigate', { tabId, url: other.url('/next') });
    expect(refused.structuredContent.error?.code).to.equal('origin_blocked');
    expect(other.requests).to.deep.equal([]);
  });
});
