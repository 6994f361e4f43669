import { expect } from 'chai';
import { startFixtureServer } from './helpers/fixtures.mjs';
import { startServer } from './helpers/mcp-client.mjs';
import { waitFor } from './helpers/processes.mjs';

describe('computer: a write that times out', function () {
  this.timeout(120_000);
  let fixtures;
  let server;

  before(async function () {
    fixtures = await startFixtureServer();
    server = await startServer({ args: ['--isolated', '--timeout-action', '3000'], env: { FIREFOX_USE_TEST_TOOLS: '1' } });
  });
  after(async function () {
    await server?.close();
    await fixtures?.close();
  });

  it('answers timeout with unknown_effects, never re-sends the click, and other tabs keep working', async function () {
    const stalled = (await server.ok('tabs_create_mcp', { url: fixtures.url('/computer/stall.html?ms=8000') })).structuredContent.tabId;
    // Another site (localhost), so Firefox runs it in another content process.
    const other = (await server.ok('tabs_create_mcp', { url: fixtures.url('/computer/actions.html').replace('127.0.0.1', 'localhost') })).structuredContent.tabId;

    const click = await server.call('computer', { tabId: stalled, action: 'left_click', coordinate: [100, 40] });
    expect(click.isError, server.text(click)).to.equal(true);
    expect(click.structuredContent.error).to.include({ code: 'timeout', unknown_effects: true });

    // The other tab answers while the first one's main thread is still stuck.
    const elsewhere = await server.ok('computer', { tabId: other, action: 'left_click', coordinate: [80, 40] });
    expect(elsewhere.structuredContent.delivered).to.equal(true);

    // Once the page runs again it has seen the one click that was sent, and no second one.
    let count = null;
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const read = await server.call('test_text_of_selector', { tabId: stalled, selector: '#count' });
      if (!read.isError) {
        count = read.structuredContent.text;
        if (count !== '0') break;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(count).to.equal('1');
    // A key pressed now reaches the page after anything sent before it: once the page saw it, a re-sent click would show.
    await server.ok('computer', { tabId: stalled, action: 'key', text: 'm' });
    const seen = await waitFor(async () => (await server.ok('test_text_of_selector', { tabId: stalled, selector: '#last-key' })).structuredContent.text === 'm', 10_000);
    expect(seen, 'the page saw the key').to.equal(true);
    expect((await server.ok('test_text_of_selector', { tabId: stalled, selector: '#count' })).structuredContent.text).to.equal('1');
  });
});
