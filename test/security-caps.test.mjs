// Issue 15 item 13: serve sessions are bounded (count, tabs each, idle time) and a rejected initialize frees what it took.
import { expect } from 'chai';
import { startFixtureServer } from './helpers/fixtures.mjs';
import { startServe } from './helpers/http-server.mjs';
import { waitFor } from './helpers/processes.mjs';

const html = (body) => (req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(body);

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'caps-test', version: '0' } } };

describe('security: serve sessions are bounded', function () {
  this.timeout(180_000);
  let site;
  let serve;
  before(async function () {
    site = await startFixtureServer({
      '/opener': html('<title>opener</title><a href="/opener" target="_blank" style="display:block;width:300px;height:40px">another tab</a>'),
    });
  });
  afterEach(async function () {
    await serve?.stop();
    serve = null;
  });
  after(async function () {
    await site?.close();
  });

  it('caps sessions and tabs per session, and closes a page\'s tab past the cap', async function () {
    serve = await startServe({ args: ['--isolated', '--max-sessions', '2', '--max-tabs', '3'] });
    const alice = await serve.connect();
    const bob = await serve.connect();
    // Sessions that called a tool keep their slots; one more is refused.
    await alice.ok('tabs_context_mcp');
    await bob.ok('tabs_context_mcp');
    const third = await serve.connect().then(() => null, (error) => error);
    expect(third?.message).to.match(/already has 2 MCP sessions, its limit \(--max-sessions\)/);

    const tabs = [];
    for (let i = 0; i < 3; i++) tabs.push((await alice.ok('tabs_create_mcp', { url: site.url('/opener') })).structuredContent.tabId);
    const fourth = await alice.call('tabs_create_mcp', {});
    expect(fourth.isError).to.equal(true);
    expect(fourth.structuredContent.error).to.include({ code: 'limit_reached', limit: 'max-tabs' });
    expect(alice.text(fourth)).to.match(/already has 3 tabs, its limit \(--max-tabs\)/);

    // The page opens a tab past the cap: it is closed at once, and the click's own reply says so (or, when the
    // page opened it after that reply, the next one).
    const refused = /past this session's tab limit \(--max-tabs\); closed at once/;
    const clicked = await alice.ok('computer', { tabId: tabs[0], action: 'left_click', coordinate: [100, 20] });
    const notice = refused.test(alice.text(clicked))
      ? clicked
      : await waitFor(async () => {
          const listed = await alice.ok('tabs_context_mcp');
          return refused.test(alice.text(listed)) ? listed : null;
        }, 10_000, 200);
    expect(notice, 'a reply names the closed tab').to.not.equal(null);
    expect((await alice.ok('tabs_context_mcp')).structuredContent.tabs).to.have.length(3);

    // Closing one makes room again.
    await alice.ok('tabs_close_mcp', { tabId: tabs[2] });
    await alice.ok('tabs_create_mcp', {});
  });

  it('does not let bare initializes hold the slots: a new session takes the oldest bare one\'s, working ones keep theirs', async function () {
    serve = await startServe({ args: ['--isolated', '--max-sessions', '2'] });
    const worker = await serve.connect();
    await worker.ok('tabs_create_mcp', { url: site.url('/opener') });
    // A squatter fills the other slot, then keeps initializing.
    const squatter = await serve.connect();
    const late = await serve.connect();
    const stderr = serve.stderr;
    expect(stderr).to.match(/closed MCP session \S+: its slot went to a new session/);
    // The newcomer works; the worker's tab is still there; the squatter's session is gone.
    expect((await late.ok('tabs_context_mcp')).structuredContent.tabs).to.deep.equal([]);
    expect((await worker.ok('tabs_context_mcp')).structuredContent.tabs).to.have.length(1);
    const gone = await squatter.call('tabs_context_mcp').then(() => null, (error) => error);
    expect(gone, 'the evicted bare session is closed').to.not.equal(null);
    // Both remaining slots now hold sessions that called a tool: the next initialize is refused.
    const refused = await serve.connect().then(() => null, (error) => error);
    expect(refused?.message).to.match(/already has 2 MCP sessions/);
  });

  it('numbers tabs and refs within each session: one session\'s ids say nothing of another\'s activity', async function () {
    serve = await startServe({ args: ['--isolated'] });
    const alice = await serve.connect();
    const bob = await serve.connect();
    const first = (await bob.ok('tabs_create_mcp', { url: site.url('/opener') })).structuredContent.tabId;
    const bobRefs = async (tabId) => [...(await bob.ok('read_page', { tabId })).content[0].text.matchAll(/\[ref=(ref_\d+)\]/g)].map((m) => m[1]);
    const before = await bobRefs(first);
    for (let i = 0; i < 4; i++) {
      const tabId = (await alice.ok('tabs_create_mcp', { url: site.url('/opener') })).structuredContent.tabId;
      await alice.ok('read_page', { tabId });
    }
    const second = (await bob.ok('tabs_create_mcp', { url: site.url('/opener') })).structuredContent.tabId;
    expect(second, 'bob\'s next tab id follows his own last one').to.equal(first + 1);
    const after = await bobRefs(second);
    const numbers = [...before, ...after].map((ref) => Number(ref.slice(4)));
    expect(numbers[0]).to.equal(1);
    expect(Math.max(...numbers), 'bob\'s refs count only his own elements').to.equal(new Set(numbers).size);
    // Alice's tab ids are not bob's to use, nor are they near his.
    const aliceTabs = (await alice.ok('tabs_context_mcp')).structuredContent.tabs.map((tab) => tab.tabId);
    for (const id of aliceTabs) expect((await bob.call('read_page', { tabId: id })).structuredContent.error.code).to.equal('tab_not_in_group');
  });

  it('closes a session idle past --session-idle-seconds, with its tabs, and frees its place', async function () {
    serve = await startServe({ args: ['--isolated', '--max-sessions', '1', '--session-idle-seconds', '2'] });
    const idle = await serve.connect();
    await idle.ok('tabs_create_mcp', { url: site.url('/opener') });
    const closed = await waitFor(() => /closed MCP session \S+: idle for 2 s \(--session-idle-seconds\)/.test(serve.stderr), 20_000, 100);
    expect(closed, serve.stderr).to.equal(true);
    // The client's next request names a session the server no longer has.
    const after = await fetch(serve.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': idle.transport.sessionId, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(after.status).to.equal(404);
    expect(await after.text()).to.match(/Unknown or ended MCP session \(closed, or idle too long\)/);
    // Its place is free for a new client, which sees none of the old tabs.
    const next = await serve.connect();
    expect((await next.ok('tabs_context_mcp')).structuredContent.tabs).to.deep.equal([]);
  });

  it('frees what a rejected initialize allocated: no session is left open for it', async function () {
    this.timeout(300_000);
    serve = await startServe({ env: { FIREFOX_USE_TEST_TOOLS: '1' } });
    const client = await serve.connect();
    const open = async () => (await client.ok('test_server_state', {})).structuredContent.sessions;
    expect(await open(), 'the checking client alone').to.equal(1);
    const attempt = () =>
      // Accept without text/event-stream: the transport refuses the initialize (406) after the server made a session for it.
      fetch(serve.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(INITIALIZE) });
    const statuses = new Set();
    for (let i = 0; i < 1000; i++) {
      const response = await attempt();
      statuses.add(response.status);
      await response.arrayBuffer();
    }
    expect([...statuses]).to.deep.equal([406]);
    // Before the fix each of them kept its Session (and its listener on the browser manager): 1,001 here.
    expect(await open(), 'sessions open after 1,000 rejected initializes').to.equal(1);
    // And a real client still gets in, and counts.
    await serve.connect();
    expect(await open()).to.equal(2);
  });
});
