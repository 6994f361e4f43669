// Pages that fight back: lying DOM APIs, globals named like ours, floods, popups, a hung main thread, and a page
// that navigates itself every 100 ms. The page scripts run in the sandbox realm, so they still tell the truth.
import { expect } from 'chai';
import { useBrowser } from './helpers/browser-suite.mjs';
import { waitFor } from './helpers/processes.mjs';

const KNOWN = new Set(['ref_stale', 'timeout', 'navigation_timeout', 'navigation_failed', 'tab_closed', 'target_occluded', 'out_of_viewport']);

async function refOf(server, tabId, query) {
  const found = await server.ok('find', { tabId, query });
  const match = found.structuredContent.matches[0];
  expect(match, `find "${query}"`).to.exist;
  return match.ref;
}

async function pageText(server, tabId) {
  return server.text(await server.ok('get_page_text', { tabId }));
}

describe('hostile pages', function () {
  this.timeout(120_000);
  let fixtures;
  let server;
  let tabId;
  const browser = useBrowser({ args: ['--isolated', '--timeout-action', '5000', '--timeout-navigation', '6000'] });
  beforeEach(function () {
    ({ fixtures, server, tabId } = browser);
  });

  it('reads, finds and clicks truthfully on a page that overrides the DOM APIs the scripts use', async function () {
    await server.ok('navigate', { tabId, url: fixtures.url('/hostile/liar.html') });
    const snapshot = server.text(await server.ok('read_page', { tabId, filter: 'all' }));
    expect(snapshot).to.include('button "Real button"');
    expect(snapshot).to.include('button "Covered button"');
    const real = await refOf(server, tabId, 'Real button');
    const click = await server.ok('computer', { tabId, action: 'left_click', ref: real });
    expect(click.structuredContent.delivered).to.equal(true);
    expect(await pageText(server, tabId)).to.include('real clicked');
  });

  it('still refuses a covered target on that page instead of clicking the cover', async function () {
    await server.ok('navigate', { tabId, url: fixtures.url('/hostile/liar.html') });
    const covered = await refOf(server, tabId, 'Covered button');
    const result = await server.call('computer', { tabId, action: 'left_click', ref: covered });
    expect(result.isError).to.equal(true);
    expect(result.structuredContent.error.code).to.equal('target_occluded');
    // Nothing was clicked: neither the covered button nor the cover.
    expect(await pageText(server, tabId)).to.include('nothing yet');
  });

  it('keeps the console and network rings bounded under a flood', async function () {
    await server.ok('navigate', { tabId, url: fixtures.url('/hostile/flood.html') });
    // The flood is on once both rings hold its entries.
    let consoleResult;
    let network;
    const flooding = await waitFor(async () => {
      consoleResult = await server.ok('read_console_messages', { tabId });
      network = await server.ok('read_network_requests', { tabId, urlPattern: 'flood-' });
      return /flood \d+/.test(JSON.stringify(consoleResult.structuredContent)) && network.structuredContent.requests.length > 0;
    }, 20_000);
    expect(flooding, 'console and network show the flood').to.equal(true);
    // A bounded answer, not the whole flood.
    expect(server.text(consoleResult).length).to.be.lessThan(200_000);
    await server.ok('navigate', { tabId, url: fixtures.url('/index.html') });
  });

  it('keeps 50 popups inside the session and stays responsive', async function () {
    const opener = (await server.ok('tabs_create_mcp', { url: fixtures.url('/second.html') })).structuredContent.tabId;
    await server.call('navigate', { tabId: opener, url: fixtures.url('/hostile/flood.html#popups') });
    const tabs = await waitFor(async () => {
      const now = (await server.ok('tabs_context_mcp', {})).structuredContent.tabs;
      return now.length > 10 ? now : null;
    }, 20_000);
    expect(tabs, 'popups opened').to.not.equal(null);
    expect(tabs.length).to.be.greaterThan(10);
    expect(tabs.length).to.be.at.most(53);
    await server.ok('navigate', { tabId, url: fixtures.url('/index.html') });
    for (const tab of tabs) if (tab.tabId !== tabId) await server.call('tabs_close_mcp', { tabId: tab.tabId });
  });

  it('times out on a hung main thread while other tabs keep working', async function () {
    await server.ok('navigate', { tabId, url: fixtures.url('/index.html') });
    const hung = (await server.ok('tabs_create_mcp', { url: fixtures.url('/hostile/spin.html') })).structuredContent.tabId;
    await server.call('navigate', { tabId: hung, url: fixtures.url('/hostile/spin.html?now') });
    const started = Date.now();
    const stuck = await server.call('read_page', { tabId: hung });
    expect(stuck.isError).to.equal(true);
    expect(stuck.structuredContent.error.code).to.equal('timeout');
    expect(Date.now() - started).to.be.lessThan(20_000);
    const other = await server.ok('read_page', { tabId });
    expect(server.text(other)).to.include('Welcome to the fixture');
    await server.call('tabs_close_mcp', { tabId: hung });
  });

  it('says where a click went when the new page hangs in its own script, instead of failing the click', async function () {
    const hung = (await server.ok('tabs_create_mcp', { url: fixtures.url('/hostile/spin.html') })).structuredContent.tabId;
    const link = await refOf(server, hung, 'Open the page that hangs once loaded');
    const result = await server.call('computer', { tabId: hung, action: 'left_click', ref: link });
    const text = server.text(result);
    expect(result.isError ?? false, text).to.equal(false);
    expect(text).not.to.include('this is what it showed then');
    expect(text).to.include(`New page: (untitled) — ${fixtures.url('/hostile/spin.html?now')}`);
    expect(text).to.match(/the new page did not answer for \d+\.\d s: its own script kept it busy/);
    expect(result.structuredContent.unknown_effects).to.equal(undefined);
    await server.call('tabs_close_mcp', { tabId: hung });
  });

  it('answers every call on a page that navigates itself every 100 ms', async function () {
    await server.call('navigate', { tabId, url: fixtures.url('/hostile/flood.html#renav') });
    for (let i = 0; i < 5; i++) {
      for (const [name, args] of [
        ['read_page', { tabId }],
        ['find', { tabId, query: 'Flood' }],
        ['computer', { tabId, action: 'screenshot' }],
      ]) {
        const result = await server.call(name, args);
        if (result.isError) expect(KNOWN.has(result.structuredContent.error.code), server.text(result)).to.equal(true);
      }
    }
    // Leaving it: ours arrives (maybe re-issued once), or the page won twice and the reply says so.
    const left = await server.ok('navigate', { tabId, url: fixtures.url('/index.html') });
    const { url, outcome, note } = left.structuredContent;
    if (outcome === 'superseded') expect(note).to.include('/index.html');
    else expect(url).to.equal(fixtures.url('/index.html'));
  });

  it('waits for the navigation a page starts as it loads, and says where the tab went', async function () {
    const result = await server.ok('navigate', { tabId, url: fixtures.url('/hostile/moves-on.html') });
    expect(result.structuredContent).to.include({ url: fixtures.url('/index.html?moved'), outcome: 'navigated_on' });
    const [head, note] = server.text(result).split('\n');
    expect(head).to.include(fixtures.url('/index.html?moved'));
    expect(note).to.equal(`${fixtures.url('/hostile/moves-on.html')} loaded and then navigated itself to ${fixtures.url('/index.html?moved')}.`);
  });

  it("re-issues a navigation that the page's own navigation superseded, and says so", async function () {
    await server.ok('navigate', { tabId, url: fixtures.url('/hostile/renav-on-leave.html') });
    const target = fixtures.url('/slow?ms=1000&from=agent');
    const result = await server.ok('navigate', { tabId, url: target });
    expect(result.structuredContent.url).to.equal(target);
    expect(result.structuredContent.outcome).to.equal('reissued');
    expect(server.text(result)).to.include('re-issued');
  });

  it('answers with where the tab ended up when the page supersedes the navigation twice', async function () {
    await server.ok('navigate', { tabId, url: fixtures.url('/hostile/renav-on-leave.html?always') });
    const result = await server.ok('navigate', { tabId, url: fixtures.url('/slow?ms=1000&from=agent') });
    // Which navigation wins the second race depends on timing (under load the re-issued one can arrive first, or the
    // page's own may still be loading when the reply is made); the reply must say which happened and never claim
    // the agent's page arrived when it did not.
    const { outcome, url } = result.structuredContent;
    expect(outcome).to.be.oneOf(['superseded', 'reissued']);
    if (outcome === 'reissued') expect(url).to.equal(fixtures.url('/slow?ms=1000&from=agent'));
    else expect(url).to.be.oneOf([fixtures.url('/slow?ms=600&from=page'), fixtures.url('/hostile/renav-on-leave.html?always')]);
    expect(server.text(result)).to.include('replaced the one to');
  });

  it('get_page_text leaves out text a person cannot see, as the snapshot does (injected instructions)', async function () {
    await server.ok('navigate', { tabId, url: fixtures.url('/hostile/hidden-text.html') });
    const text = await pageText(server, tabId);
    expect(text).to.not.include('INJECTED');
    for (const shown of ['Visible heading', 'Visible paragraph.', 'Light text on a dark panel.', 'Closed details summary', 'Open details summary', 'Inside open details.', 'Caption on its own dark box', 'child sized back']) {
      expect(text).to.include(shown);
    }
    const snapshot = server.text(await server.ok('read_page', { tabId, filter: 'all' }));
    expect(snapshot).to.not.match(/INJECTED (aria-hidden|inside closed details)/);
  });
});
