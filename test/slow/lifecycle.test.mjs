import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFixtureServer } from '../helpers/fixtures.mjs';
import { startServer, firstTab } from '../helpers/mcp-client.mjs';
import { firefoxChildren } from '../helpers/http-server.mjs';
import { alive, waitFor } from '../helpers/processes.mjs';

function profileArg(pid) {
  const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  return args[args.indexOf('--profile') + 1];
}

describe('lifecycle: profiles, locks and shutdown', function () {
  // Each test starts one or two Firefoxes; on a busy 2-core machine that alone can take tens of seconds.
  this.timeout(180_000);
  let fixtures;
  let profileDir;

  before(async function () {
    fixtures = await startFixtureServer({
      '/cookie-title': (req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>cookies=${req.headers.cookie ?? ''}</title>`),
    });
    profileDir = mkdtempSync(join(tmpdir(), 'fu-profile-'));
  });
  after(async function () {
    await fixtures?.close();
    rmSync(profileDir, { recursive: true, force: true });
  });

  it('keeps a cookie in a profile given by path across a server restart', async function () {
    const first = await startServer({ args: ['--profile', profileDir, '--exclusive'] });
    try {
      const tabId = await firstTab(first);
      await first.ok('navigate', { tabId, url: fixtures.url('/set-cookie?name=kept&value=yes') });
    } finally {
      await first.close();
    }
    await waitFor(() => !existsSync(join(profileDir, 'firefox-use.lock')), 10_000);
    const second = await startServer({ args: ['--profile', profileDir, '--exclusive'] });
    try {
      const tabId = await firstTab(second);
      const nav = await second.ok('navigate', { tabId, url: fixtures.url('/cookie-title') });
      expect(nav.structuredContent.title).to.include('kept=yes');
    } finally {
      await second.close();
    }
  });

  it('closes an idle Firefox after --idle-timeout; the next call starts it again with the cookies kept and says the tabs went', async function () {
    const server = await startServer({ args: ['--profile', profileDir, '--exclusive', '--idle-timeout', '1500'] });
    try {
      const tabId = await firstTab(server);
      await server.ok('navigate', { tabId, url: fixtures.url('/set-cookie?name=idle&value=kept') });
      const [firefox] = firefoxChildren(server.pid());
      expect(firefox, 'a Firefox child of the server').to.be.a('number');
      await waitFor(() => !alive(firefox), 60_000, 200);
      const context = await server.ok('tabs_context_mcp', { createIfEmpty: true });
      expect(server.text(context)).to.include(`closed after --idle-timeout`).and.include(`(${tabId})`);
      const newTab = context.structuredContent.tabs[0].tabId;
      expect(newTab).to.not.equal(tabId);
      const nav = await server.ok('navigate', { tabId: newTab, url: fixtures.url('/cookie-title') });
      expect(nav.structuredContent.title).to.include('idle=kept');
      const old = await server.call('computer', { action: 'screenshot', tabId });
      expect(old.isError).to.equal(true);
    } finally {
      await server.close();
    }
  });

  it('answers profile_locked at once to a second server on the same profile, naming the pid and the ways out', async function () {
    const first = await startServer({ args: ['--profile', profileDir, '--exclusive'] });
    const second = await startServer({ args: ['--profile', profileDir, '--exclusive'] });
    try {
      await firstTab(first);
      const result = await second.call('tabs_context_mcp', { createIfEmpty: true });
      const error = result.structuredContent.error;
      expect(error?.code, second.text(result)).to.equal('profile_locked');
      expect(error.pid).to.equal(first.pid());
      expect(error.message).to.include(String(first.pid()));
      expect(error.message).to.include('--isolated');
      expect(error.message).to.include('serve');
      // The first server is unharmed.
      await first.ok('tabs_context_mcp');
    } finally {
      await second.close();
      await first.close();
    }
  });

  it('leaves nothing behind with --isolated', async function () {
    const server = await startServer({ args: ['--isolated'] });
    const serverPid = server.pid();
    await firstTab(server);
    const firefox = await waitFor(() => firefoxChildren(serverPid)[0], 10_000);
    const dir = profileArg(firefox);
    expect(existsSync(dir)).to.equal(true);
    await server.close();
    expect(await waitFor(() => !alive(serverPid) && !alive(firefox), 15_000)).to.equal(true);
    expect(existsSync(dir), `${dir} should be deleted`).to.equal(false);
  });

  it('leaves no Firefox process after SIGTERM to the server', async function () {
    const server = await startServer({ args: ['--isolated'] });
    const serverPid = server.pid();
    await firstTab(server);
    const firefox = await waitFor(() => firefoxChildren(serverPid)[0], 10_000);
    expect(alive(firefox)).to.equal(true);
    process.kill(serverPid, 'SIGTERM');
    expect(await waitFor(() => !alive(serverPid), 15_000), 'server exits').to.equal(true);
    expect(await waitFor(() => !alive(firefox), 5_000), 'Firefox is gone').to.equal(true);
    await server.close();
  });
});
