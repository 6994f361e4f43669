// --connect: attach to a Firefox the user started with --remote-debugging-port. The server makes its BiDi session
// there, sees and touches only the tabs it opens, and on exit closes those and leaves Firefox running with the
// user's own tab. The test starts that Firefox itself (a temp profile) and kills it at the end.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { startFixtureServer } from './helpers/fixtures.mjs';
import { startServer } from './helpers/mcp-client.mjs';
import { alive, waitFor } from './helpers/processes.mjs';
import { bidiEndpoint } from './helpers/webdriver-endpoint.mjs';

const FIREFOX = process.env.FIREFOX_USE_FIREFOX ?? process.env.FIREFOX_BIN ?? '/usr/bin/firefox';

/** The user's Firefox: headless, a temp profile, the BiDi port open, one tab on `url`. */
function startUsersFirefox(url) {
  const profile = mkdtempSync(join(tmpdir(), 'fu-connect-profile-'));
  const child = spawn(FIREFOX, ['-headless', '--no-remote', '--profile', profile, '--remote-debugging-port=0', url], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, MOZ_CRASHREPORTER_DISABLE: '1' },
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const endpoint = bidiEndpoint(child);
  return {
    child,
    profile,
    endpoint,
    async kill() {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
      if (child.exitCode === null && child.signalCode === null) await exited;
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The top-level tabs of that Firefox, read through a BiDi session of the test's own (then ended). */
async function topLevelUrls(endpoint) {
  const socket = new WebSocket(`${endpoint}/session`);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let id = 0;
  const send = (method, params) =>
    new Promise((resolve, reject) => {
      const mine = ++id;
      const onMessage = (data) => {
        const message = JSON.parse(String(data));
        if (message.id !== mine) return;
        socket.off('message', onMessage);
        if (message.type === 'error') reject(new Error(`${message.error}: ${message.message}`));
        else resolve(message.result);
      };
      socket.on('message', onMessage);
      socket.send(JSON.stringify({ id: mine, method, params }));
    });
  try {
    await send('session.new', { capabilities: {} });
    const tree = await send('browsingContext.getTree', { maxDepth: 0 });
    await send('session.end', {});
    return tree.contexts.map((context) => context.url);
  } finally {
    socket.close();
  }
}

describe('--connect: a Firefox the user runs', function () {
  this.timeout(120_000);
  let site;
  let firefox;
  before(async () => {
    site = await startFixtureServer();
  });
  after(async () => site?.close());
  afterEach(async () => {
    await firefox?.kill();
    firefox = null;
  });

  it('attaches through the profile folder, works only in its own tabs, and leaves Firefox and the user\'s tab on exit', async function () {
    const usersPage = site.url('/second.html');
    firefox = startUsersFirefox(usersPage);
    const endpoint = await firefox.endpoint;
    expect(await waitFor(async () => (await topLevelUrls(endpoint)).includes(usersPage), 20_000)).to.equal(true);

    const server = await startServer({ args: ['--connect', firefox.profile] });
    let serverPid;
    try {
      serverPid = server.pid();
      const context = await server.ok('tabs_context_mcp', { createIfEmpty: true });
      // The user's tab is not in the session's group.
      expect(context.structuredContent.tabs).to.have.length(1);
      const tabId = context.structuredContent.tabs[0].tabId;
      const navigated = await server.ok('navigate', { tabId, url: site.url('/index.html') });
      expect(navigated.structuredContent.url).to.equal(site.url('/index.html'));
    } finally {
      await server.close();
    }
    expect(await waitFor(() => !alive(serverPid), 15_000)).to.equal(true);
    expect(alive(firefox.child.pid)).to.equal(true);
    // Our tab (and its window) closed, the session ended (a new one is accepted), the user's tab still there.
    expect(await topLevelUrls(endpoint)).to.deep.equal([usersPage]);
  });

  it('says what is wrong when nothing listens where --connect points', async function () {
    const server = await startServer({ args: ['--connect', '127.0.0.1:9'] });
    try {
      const result = await server.call('tabs_context_mcp', { createIfEmpty: true });
      expect(result.isError).to.equal(true);
      expect(server.text(result)).to.match(/^launch_failed: --connect: nothing answers at ws:\/\/127\.0\.0\.1:9\/session/);
    } finally {
      await server.close();
    }
  });
});
