// The tab an agent works on is a shown page: Firefox runs a hidden tab's timers once a second and gives it no
// animation frames, so apps there stall and every wait on the page takes a second per step.
import { expect } from 'chai';
import { useBrowser } from './helpers/browser-suite.mjs';

const html = (body) => (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);

describe('shown tabs and settled pages', function () {
  this.timeout(60_000);
  const browser = useBrowser({
    args: ['--isolated', '--allow-javascript'],
    routes: {
      '/plain': html('<title>plain</title><p>Nothing moves here.</p>'),
      // Renders in two steps once parsed, with no request in between: the snapshot must show the second. A page
      // that scripts have changed gets the longer quiet window, and the page's timers run in its own order with ours.
      '/late': html(
        '<title>late</title><main id="app">Loading…</main><script>addEventListener("DOMContentLoaded", () => { app.textContent = "Step one"; ' +
          'setTimeout(() => { app.innerHTML = "<h1>Dashboard ready</h1><button>Refresh</button>"; }, 150); });</script>',
      ),
    },
  });
  const state = (tabId) => browser.server.ok('javascript_tool', { tabId, text: 'document.visibilityState' }).then((r) => browser.server.text(r));

  it('opens tabs as shown pages and brings a tab to the front when the agent uses it again', async function () {
    const { server, fixtures, tabId } = browser;
    await server.ok('navigate', { tabId, url: fixtures.url('/plain') });
    expect(await state(tabId)).to.contain('visible');
    const second = (await server.ok('tabs_create_mcp', { url: fixtures.url('/plain') })).structuredContent.tabId;
    expect(await state(second)).to.contain('visible');
    // A timer in the first tab runs at its own pace once that tab is used again (a hidden tab waits ~1 s).
    const timer = await server.ok('javascript_tool', { tabId, text: 'new Promise((r) => { const t = performance.now(); setTimeout(() => r(document.visibilityState + " " + Math.round(performance.now() - t)), 20); })' });
    const [visibility, ms] = server.text(timer).trim().replace(/"/g, '').split(/\s+/);
    expect(visibility).to.equal('visible');
    expect(Number(ms), server.text(timer)).to.be.below(900);
  });

  it("gives the session's first tab a document with focus, as in a person's browser (Firefox's own launch tab never gets it)", async function () {
    const { server, fixtures, tabId } = browser;
    await server.ok('navigate', { tabId, url: fixtures.url('/plain') });
    const focused = await server.ok('javascript_tool', { tabId, text: 'document.hasFocus()' });
    expect(server.text(focused)).to.contain('true');
  });

  it('describes a new blank tab as about:blank without asking its page, and asks again once a script of the agent ran there', async function () {
    const { server } = browser;
    const created = await server.ok('tabs_create_mcp', {});
    expect(created.structuredContent).to.include({ url: 'about:blank', title: '' });
    const tabId = created.structuredContent.tabId;
    await server.ok('javascript_tool', { tabId, text: 'document.title = "Written by the agent"' });
    const listed = (await server.ok('tabs_context_mcp', {})).structuredContent.tabs.find((tab) => tab.tabId === tabId);
    expect(listed).to.include({ url: 'about:blank', title: 'Written by the agent' });
    await server.ok('tabs_close_mcp', { tabId });
  });

  it('waits for a page that keeps rendering after load before it answers', async function () {
    const { server, fixtures, tabId } = browser;
    const reply = await server.ok('navigate', { tabId, url: fixtures.url('/late') });
    expect(server.text(reply)).to.contain('Dashboard ready').and.to.contain('button "Refresh"');
    expect(reply.structuredContent.note ?? '').to.equal('');
  });
});

describe('tabs open at the server viewport', function () {
  this.timeout(60_000);
  const browser = useBrowser({
    args: ['--isolated', '--allow-javascript', '--viewport', '900x600', '--device-scale-factor', '2'],
    routes: { '/plain': html('<title>plain</title><p>Nothing moves here.</p>') },
  });
  const size = (tabId) => browser.server.ok('javascript_tool', { tabId, text: '[innerWidth, innerHeight, devicePixelRatio].join("x")' }).then((r) => browser.server.text(r));

  it('the first tab, a second one and a screenshot all have --viewport at --device-scale-factor', async function () {
    const { server, fixtures, tabId } = browser;
    await server.ok('navigate', { tabId, url: fixtures.url('/plain') });
    expect(await size(tabId)).to.contain('900x600x2');
    const second = (await server.ok('tabs_create_mcp', { url: fixtures.url('/plain') })).structuredContent.tabId;
    expect(await size(second)).to.contain('900x600x2');
    const shot = await server.ok('computer', { tabId: second, action: 'screenshot' });
    expect(shot.structuredContent).to.include({ width: 900, height: 600 });
  });
});
