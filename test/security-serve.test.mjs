// Issue 15, serve sessions kept apart: cookies and storage (item 3).
import { expect } from 'chai';
import { startFixtureServer } from './helpers/fixtures.mjs';
import { startServe } from './helpers/http-server.mjs';

const html = (body) => (req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(body);

/** The page's cookie header and localStorage entry, as its title. */
const PROBE = '<script>document.title = `cookie=${document.cookie} storage=${localStorage.getItem("k")}`</script>';

describe('security: each serve session has its own cookies and storage', function () {
  this.timeout(180_000);
  let site;
  before(async function () {
    site = await startFixtureServer({
      '/store': html('<title>stored</title><script>document.cookie = "who=alice; path=/; max-age=3600"; localStorage.setItem("k", "alice")</script>'),
      '/probe': html(PROBE),
      '/opener': html('<title>opener</title><a href="/probe" target="_blank">probe in a popup</a>'),
    });
  });
  after(async function () {
    await site?.close();
  });

  async function titleOf(client, url, tabId) {
    const id = tabId ?? (await client.ok('tabs_create_mcp', {})).structuredContent.tabId;
    return (await client.ok('navigate', { tabId: id, url })).structuredContent.title;
  }

  describe('by default', function () {
    let serve;
    before(async function () {
      serve = await startServe();
    });
    after(async function () {
      await serve?.stop();
    });

    it('does not show one session\'s cookie or localStorage to another; popups keep their opener\'s', async function () {
      const alice = await serve.connect();
      const bob = await serve.connect();
      const aliceTab = (await alice.ok('tabs_create_mcp', { url: site.url('/store') })).structuredContent.tabId;
      expect(await titleOf(alice, site.url('/probe'), aliceTab)).to.equal('cookie=who=alice storage=alice');
      expect(await titleOf(bob, site.url('/probe'))).to.equal('cookie= storage=null');

      // A tab Alice's page opens is hers, with her cookie.
      await alice.ok('navigate', { tabId: aliceTab, url: site.url('/opener') });
      const link = (await alice.ok('find', { tabId: aliceTab, query: 'probe in a popup' })).structuredContent.matches[0].ref;
      const click = await alice.ok('computer', { tabId: aliceTab, action: 'left_click', ref: link });
      const popup = (await alice.ok('tabs_context_mcp')).structuredContent.tabs.find((tab) => tab.tabId !== aliceTab);
      expect(popup, alice.text(click)).to.not.equal(undefined);
      expect((await alice.ok('get_page_text', { tabId: popup.tabId })).structuredContent.title).to.equal('cookie=who=alice storage=alice');

      // A session that starts after Alice's ended finds nothing of hers.
      await alice.end();
      const carol = await serve.connect();
      expect(await titleOf(carol, site.url('/probe'))).to.equal('cookie= storage=null');
    });
  });

  describe('with --shared-browser-context', function () {
    let serve;
    before(async function () {
      serve = await startServe({ args: ['--isolated', '--shared-browser-context'] });
    });
    after(async function () {
      await serve?.stop();
    });

    it('shares the profile\'s cookies and storage between sessions', async function () {
      const alice = await serve.connect();
      const bob = await serve.connect();
      await titleOf(alice, site.url('/store'));
      expect(await titleOf(bob, site.url('/probe'))).to.equal('cookie=who=alice storage=alice');
    });
  });
});
