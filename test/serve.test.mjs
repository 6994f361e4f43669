import { expect } from 'chai';
import { startFixtureServer } from './helpers/fixtures.mjs';
import { startServe } from './helpers/http-server.mjs';
import { waitFor } from './helpers/processes.mjs';

// Valid arguments (besides tabId) for every tab tool, so the call reaches the group check, not zod.
const TAB_TOOL_ARGS = {
  navigate: (url) => ({ url }),
  computer: () => ({ action: 'screenshot' }),
  tabs_close_mcp: () => ({}),
  firefox_dialog: () => ({ action: 'accept' }),
  read_page: () => ({}),
  find: () => ({ query: 'link' }),
  get_page_text: () => ({}),
  form_input: () => ({ ref: 'ref_1', value: 'x' }),
  file_upload: () => ({ ref: 'ref_1', paths: ['/etc/hostname'] }),
  javascript_tool: () => ({ text: 'document.title' }),
  read_console_messages: () => ({}),
  read_network_requests: () => ({}),
  resize_window: () => ({ width: 640, height: 480 }),
  wait_for: () => ({ text: 'anything', timeout: 0.1 }),
  request_human: () => ({ task: 'anything', timeoutSeconds: 5 }),
};

describe('serve: sessions on one browser, each confined to its tab group', function () {
  // Real Firefox on a shared 2-core machine: launches can take tens of seconds under load.
  this.timeout(180_000);
  let fixtures;
  let serve;
  let alice;
  let bob;
  const held = new Map();

  before(async function () {
    fixtures = await startFixtureServer({
      // A request that never ends until the tab that made it goes away.
      '/hold': (req, res, url) => {
        const tag = url.searchParams.get('tag');
        held.set(tag, 'open');
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('.');
        req.socket.once('close', () => held.set(tag, 'closed'));
      },
    });
    serve = await startServe({ args: ['--isolated', '--allow-javascript'] });
    alice = await serve.connect();
    bob = await serve.connect();
  });
  after(async function () {
    await serve?.stop();
    await fixtures?.close();
  });

  it('keeps each session to its own tabs: every tab tool refuses the other\'s id and reads nothing', async function () {
    const aliceTab = (await alice.ok('tabs_create_mcp', { url: fixtures.url('/index.html') })).structuredContent.tabId;
    const bobTab = (await bob.ok('tabs_create_mcp', { url: fixtures.url('/second.html') })).structuredContent.tabId;
    expect((await alice.ok('tabs_context_mcp')).structuredContent.tabs.map((t) => t.tabId)).to.deep.equal([aliceTab]);
    expect((await bob.ok('tabs_context_mcp')).structuredContent.tabs.map((t) => t.tabId)).to.deep.equal([bobTab]);

    const { tools } = await bob.client.listTools();
    const tabTools = tools.filter((tool) => tool.inputSchema.required?.includes('tabId'));
    expect(tabTools.length).to.be.greaterThan(3);
    for (const tool of tabTools) {
      const extra = TAB_TOOL_ARGS[tool.name];
      expect(extra, `add valid arguments for ${tool.name} to TAB_TOOL_ARGS`).to.be.a('function');
      const result = await bob.call(tool.name, { tabId: aliceTab, ...extra(fixtures.url('/second.html')) });
      expect(result.isError, tool.name).to.equal(true);
      expect(result.structuredContent.error.code, tool.name).to.equal('tab_not_in_group');
      const text = bob.text(result);
      expect(text, `${tool.name} must not leak the page`).to.not.include('index.html');
      expect(text).to.not.include('firefox-use fixture');
    }
    // Alice's tab is untouched: still open, still on its page.
    const after = (await alice.ok('tabs_context_mcp')).structuredContent.tabs;
    expect(after.map((t) => [t.tabId, t.url])).to.deep.equal([[aliceTab, fixtures.url('/index.html')]]);
  });

  it('runs calls on different tabs in parallel and calls on one tab in order', async function () {
    const a = (await alice.ok('tabs_create_mcp')).structuredContent.tabId;
    const b = (await bob.ok('tabs_create_mcp')).structuredContent.tabId;
    const a2 = (await alice.ok('tabs_create_mcp')).structuredContent.tabId;
    const finished = [];
    const track = (label, promise) => promise.then((result) => (finished.push(label), result));
    const slow = track('alice slow', alice.ok('navigate', { tabId: a, url: fixtures.url('/slow?ms=2500') }));
    // Queued behind the slow navigate on the same tab, so it must finish after it.
    const queued = track('alice same tab', alice.ok('navigate', { tabId: a, url: fixtures.url('/second.html') }));
    expect(await fixtures.requested('/slow?ms=2500'), 'the slow navigation is under way').to.equal(true);
    // Other tabs (another session's, and another of Alice's) do not wait for it.
    await Promise.all([
      track('bob other tab', bob.ok('navigate', { tabId: b, url: fixtures.url('/index.html') })),
      track('alice other tab', alice.ok('computer', { tabId: a2, action: 'screenshot' })),
    ]);
    await Promise.all([slow, queued]);
    expect(finished.slice(0, 2)).to.have.members(['bob other tab', 'alice other tab']);
    expect(finished.slice(2)).to.deep.equal(['alice slow', 'alice same tab']);
    expect((await queued).structuredContent.url).to.equal(fixtures.url('/second.html'));
  });

  it('closes a session\'s tabs when the session ends (DELETE), and leaves the others\' tabs alone', async function () {
    const carol = await serve.connect();
    await carol.ok('tabs_create_mcp', { url: fixtures.url('/groups/held.html#carol') });
    await bob.ok('tabs_create_mcp', { url: fixtures.url('/groups/held.html#bob') });
    await waitFor(() => held.get('carol') === 'open' && held.get('bob') === 'open', 5_000);
    expect(held.get('carol')).to.equal('open');
    await carol.end();
    expect(await waitFor(() => held.get('carol') === 'closed', 5_000), "carol's tab should close").to.equal(true);
    expect(held.get('bob')).to.equal('open');
    expect((await bob.ok('tabs_context_mcp')).structuredContent.tabs.some((t) => t.url.includes('held.html'))).to.equal(true);
  });
});
