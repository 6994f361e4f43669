// Cancellation reaches the handlers (issue 39, item 6): a call the client cancels (notifications/cancelled) stops
// where it waits, frees the tab for the next call at once, and the next reply says how the cancelled call ended.
import { expect } from 'chai';
import { startFixtureServer } from './helpers/fixtures.mjs';
import { firstTab, startServer } from './helpers/mcp-client.mjs';

/** Calls a tool and cancels the request after `ms`; resolves once the client has given up on it. */
async function cancelAfter(server, name, args, ms) {
  const controller = new AbortController();
  const call = server.client.callTool({ name, arguments: args }, undefined, { signal: controller.signal, timeout: 60_000 });
  setTimeout(() => controller.abort('the user pressed Esc'), ms);
  const outcome = await call.then(() => 'answered', (error) => error);
  expect(outcome, 'the client stopped waiting').to.be.an('error');
}

describe('cancellation: a cancelled call stops, and the next reply says so', function () {
  this.timeout(120_000);
  let site, server, tabId;
  before(async () => {
    site = await startFixtureServer({
      '/page': (req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>page</title><h1>Here</h1>'),
    });
    server = await startServer();
    tabId = await firstTab(server);
    await server.ok('navigate', { tabId, url: site.url('/page') });
  });
  after(async () => {
    await server?.close();
    await site?.close();
  });

  it('wait_for: the page stops watching, the tab answers the next call at once, which names the cancelled one', async () => {
    await cancelAfter(server, 'wait_for', { tabId, text: 'never shown', timeout: 30 }, 400);
    const started = Date.now();
    const next = await server.ok('get_page_text', { tabId });
    expect(Date.now() - started, 'not queued behind a 30 s wait').to.be.below(5_000);
    expect(server.text(next)).to.match(/^Your cancelled wait_for call stopped while it waited; nothing is left running\.\n/);
    expect(server.text(next)).to.include('Here');
    // Told once.
    expect(server.text(await server.ok('get_page_text', { tabId }))).not.to.include('cancelled');
  });

  it('navigate to a page that takes 20 s: stops waiting, says the load may have gone on', async () => {
    await cancelAfter(server, 'navigate', { tabId, url: site.url('/slow?ms=20000') }, 500);
    const started = Date.now();
    const next = await server.ok('tabs_context_mcp');
    expect(Date.now() - started).to.be.below(5_000);
    expect(server.text(next)).to.include('Your cancelled navigate call stopped while it waited: the page it started loading may have gone on');
    // The tab is usable: a navigation replaces the one left loading.
    const back = await server.ok('navigate', { tabId, url: site.url('/page') });
    expect(back.structuredContent.url).to.equal(site.url('/page'));
  });

  it("computer wait: stops, and the next call says so", async () => {
    await cancelAfter(server, 'computer', { tabId, action: 'wait', duration: 10 }, 300);
    const started = Date.now();
    const next = await server.ok('computer', { tabId, action: 'screenshot' });
    expect(Date.now() - started).to.be.below(5_000);
    expect(server.text(next)).to.include('Your cancelled computer call stopped while it waited');
  });
});
