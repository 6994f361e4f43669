// navigate's arrival as the agent sees it: the reply describes the page once it has loaded, after back and forward
// too, and a same-document navigation answers without waiting for anything. The wait wakes on BiDi's events.
import { expect } from 'chai';
import { startFixtureServer } from './helpers/fixtures.mjs';
import { firstTab, startServer } from './helpers/mcp-client.mjs';

const IMAGE_MS = 800;

describe('navigate: arrival after a load, back, forward and an anchor', function () {
  let fixtures;
  let server;
  let tabId;
  before(async function () {
    fixtures = await startFixtureServer({
      // A page whose load event waits for a slow image; its title says whether that event came.
      '/held': (req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end(
          `<!doctype html><title>held: loading</title><h1 id="part">Held</h1><img src="/slow-image" width="10" height="10">` +
            `<script>addEventListener('load', () => { document.title = 'held: loaded'; });</script>`,
        );
      },
      '/slow-image': (req, res) => {
        setTimeout(() => res.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'no-store' }).end('<svg xmlns="http://www.w3.org/2000/svg"/>'), IMAGE_MS);
      },
    });
    server = await startServer();
    tabId = await firstTab(server);
  });
  after(async function () {
    await server?.close();
    await fixtures?.close();
  });

  it('answers with the page once its load event has run', async function () {
    const started = Date.now();
    const reply = await server.ok('navigate', { tabId, url: fixtures.url('/held') });
    expect(Date.now() - started).to.be.at.least(IMAGE_MS - 50);
    expect(reply.structuredContent).to.include({ url: fixtures.url('/held'), title: 'held: loaded' });
  });

  it('back and forward answer with the page they arrive at, loaded', async function () {
    await server.ok('navigate', { tabId, url: fixtures.url('/second.html') });
    const back = await server.ok('navigate', { tabId, url: 'back' });
    expect(back.structuredContent).to.include({ url: fixtures.url('/held'), title: 'held: loaded' });
    const forward = await server.ok('navigate', { tabId, url: 'forward' });
    expect(forward.structuredContent).to.include({ url: fixtures.url('/second.html'), title: 'Second page' });
  });

  it('a navigation to an anchor of the same page answers at once, on the same document', async function () {
    await server.ok('navigate', { tabId, url: fixtures.url('/held') });
    const started = Date.now();
    const reply = await server.ok('navigate', { tabId, url: fixtures.url('/held#part') });
    expect(reply.structuredContent).to.include({ url: fixtures.url('/held#part'), title: 'held: loaded' });
    // No new load (its image alone takes IMAGE_MS).
    expect(Date.now() - started).to.be.below(IMAGE_MS);
  });
});
