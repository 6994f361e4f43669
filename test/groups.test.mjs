import { expect } from 'chai';
import { startFixtureServer } from './helpers/fixtures.mjs';
import { startServer, firstTab } from './helpers/mcp-client.mjs';
import { waitFor } from './helpers/processes.mjs';

describe('tab groups: popups join their opener, closed tabs say so', function () {
  // Real Firefox on a shared 2-core machine: launches can take tens of seconds under load.
  this.timeout(180_000);
  let fixtures;
  let server;

  before(async function () {
    fixtures = await startFixtureServer();
    server = await startServer();
  });
  after(async function () {
    await server?.close();
    await fixtures?.close();
  });

  const listed = async () => (await server.ok('tabs_context_mcp')).structuredContent.tabs;

  it('lists no tab the session did not open (not the browser\'s own first tab)', async function () {
    expect(await listed()).to.deep.equal([]);
  });

  for (const how of ['open', 'link', 'form']) {
    it(`adds a popup opened by ${how === 'open' ? 'window.open' : how === 'link' ? 'a target=_blank link' : "a form's target"} to the group`, async function () {
      const opener = (await server.ok('tabs_create_mcp', { url: fixtures.url(`/groups/opener.html?how=${how}`) })).structuredContent.tabId;
      const popup = await waitFor(async () => (await listed()).find((tab) => tab.url.includes(`by=${how}`)), 5_000);
      expect(popup, `the ${how} popup should be listed`).to.exist;
      expect(popup.tabId).to.not.equal(opener);
      // It is a usable tab of this group.
      const shot = await server.ok('computer', { tabId: popup.tabId, action: 'screenshot' });
      expect(shot.content.some((c) => c.type === 'image')).to.equal(true);
      const nav = await server.ok('navigate', { tabId: popup.tabId, url: fixtures.url('/second.html') });
      expect(nav.structuredContent.url).to.equal(fixtures.url('/second.html'));
      await server.ok('tabs_close_mcp', { tabId: popup.tabId });
      await server.ok('tabs_close_mcp', { tabId: opener });
    });
  }

  it('reports tab_closed for a popup the page closed with window.close', async function () {
    const opener = (await server.ok('tabs_create_mcp', { url: fixtures.url('/groups/opener.html?how=self-closing') })).structuredContent.tabId;
    const popup = await waitFor(async () => (await listed()).find((tab) => tab.tabId !== opener), 5_000);
    expect(popup).to.exist;
    await waitFor(async () => !(await listed()).some((tab) => tab.tabId === popup.tabId), 5_000);
    const result = await server.call('computer', { tabId: popup.tabId, action: 'screenshot' });
    expect(result.structuredContent.error.code).to.equal('tab_closed');
    expect(result.structuredContent.error.reason).to.equal('closed_by_page');
    await server.ok('tabs_close_mcp', { tabId: opener });
  });

  it('refuses an id no session ever had with tab_not_in_group', async function () {
    const result = await server.call('navigate', { tabId: 9999, url: fixtures.url('/second.html') });
    expect(result.structuredContent.error.code).to.equal('tab_not_in_group');
  });

  it('reports tab_closed for a tab the session closed itself', async function () {
    const tabId = await firstTab(server);
    await server.ok('tabs_close_mcp', { tabId });
    const result = await server.call('computer', { tabId, action: 'screenshot' });
    expect(result.structuredContent.error.code).to.equal('tab_closed');
  });

  it("closes the session's last tab and the browser goes on (Firefox's own first tab stays, unlisted)", async function () {
    // A fresh server, whose one tab is its first.
    const own = await startServer();
    try {
      const tabId = await firstTab(own);
      await own.ok('navigate', { tabId, url: fixtures.url('/second.html') });
      await own.ok('tabs_close_mcp', { tabId });
      expect((await own.ok('tabs_context_mcp')).structuredContent.tabs).to.deep.equal([]);
      const next = (await own.ok('tabs_create_mcp', { url: fixtures.url('/second.html') })).structuredContent;
      expect(next.url).to.equal(fixtures.url('/second.html'));
    } finally {
      await own.close();
    }
  });
});
