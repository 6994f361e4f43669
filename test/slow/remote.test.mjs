// --webdriver-url end to end: mcp, run and regress create their session on a WebDriver endpoint that launches the
// real Firefox the way geckodriver does (and, in grid mode, relays BiDi like Selenium Grid 4), drive it over the
// returned socket without session.new, and DELETE the session at the end, leaving no Firefox behind.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFixtureServer } from '../helpers/fixtures.mjs';
import { CLI, firstTab, startServer } from '../helpers/mcp-client.mjs';
import { alive, waitFor } from '../helpers/processes.mjs';
import { startWebDriverEndpoint } from '../helpers/webdriver-endpoint.mjs';

function cli(args, input) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.stdin.end(input ?? '');
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The one session the endpoint made: created with webSocketUrl, deleted, its Firefox gone. */
async function expectSessionEnded(endpoint) {
  const created = endpoint.requests.filter((r) => r.method === 'POST' && r.path === '/session');
  expect(created).to.have.length(1);
  const caps = created[0].body.capabilities.alwaysMatch;
  expect(caps).to.include({ browserName: 'firefox', webSocketUrl: true });
  expect(caps['moz:firefoxOptions'].args).to.include('-headless');
  const deleted = await waitFor(() => endpoint.requests.find((r) => r.method === 'DELETE'), 15_000);
  expect(deleted, 'DELETE /session/<id> was sent').to.not.equal(undefined);
  const id = deleted.path.split('/')[2];
  expect(endpoint.sessions.size).to.equal(0);
  return id;
}

describe('--webdriver-url against a geckodriver-like endpoint', function () {
  this.timeout(120_000);
  let fixtures;
  before(async () => {
    fixtures = await startFixtureServer();
  });
  after(async () => {
    await fixtures?.close();
  });

  it('dials a remote geckodriver\'s loopback socket URL at the endpoint\'s host; Grid and local URLs stay as given', async () => {
    const { reachableSocketUrl } = await import('../../dist/browser/launch/remote.js');
    expect(reachableSocketUrl('ws://127.0.0.1:9222/session/abc', 'http://ci-box:4444')).to.equal('ws://ci-box:9222/session/abc');
    expect(reachableSocketUrl('ws://127.0.0.1:9222/session/abc', 'http://127.0.0.1:4444')).to.equal('ws://127.0.0.1:9222/session/abc');
    expect(reachableSocketUrl('ws://grid:4444/session/abc/se/bidi', 'http://grid:4444/wd/hub')).to.equal('ws://grid:4444/session/abc/se/bidi');
  });

  it('mcp: tools work over the Grid-relayed socket, no session.new is sent on it, the session is deleted on exit', async () => {
    const endpoint = await startWebDriverEndpoint({ grid: true });
    let server;
    let firefoxPid;
    try {
      server = await startServer({ args: ['--webdriver-url', endpoint.url] });
      const tabId = await firstTab(server);
      const nav = await server.ok('navigate', { url: fixtures.url('/index.html'), tabId });
      expect(nav.structuredContent.url).to.equal(fixtures.url('/index.html'));
      firefoxPid = [...endpoint.sessions.values()][0].pid;
      const shot = await server.ok('computer', { action: 'screenshot', tabId });
      expect(shot.content.some((c) => c.type === 'image')).to.equal(true);
      await server.ok('read_page', { tabId });
      const serverPid = server.pid();
      await server.close();
      await waitFor(() => !alive(serverPid), 15_000);
      const id = await expectSessionEnded(endpoint);
      const methods = endpoint.bidiMethods(id);
      expect(methods).to.include('browsingContext.navigate');
      expect(methods).to.not.include('session.new');
      expect(methods).to.not.include('browser.close');
      expect(await waitFor(() => !alive(firefoxPid), 10_000), 'the remote Firefox exited').to.equal(true);
    } finally {
      await server?.close();
      await endpoint.close();
    }
  });

  it('mcp: --allowed-origins holds for a remote Firefox\'s shared worker too (the PAC goes in with the session\'s prefs)', async () => {
    const other = await startFixtureServer({});
    const allowed = await startFixtureServer({
      '/shared.js': (req, res) => res.writeHead(200, { 'content-type': 'text/javascript' }).end(`fetch(${JSON.stringify(other.url('/from-shared-worker'))}).catch(() => {}).finally(() => fetch('/shared-done'));`),
      '/workers': (req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end("<title>workers</title><script>new SharedWorker('/shared.js')</script>"),
    });
    const endpoint = await startWebDriverEndpoint();
    let server;
    try {
      server = await startServer({ args: ['--webdriver-url', endpoint.url, '--allowed-origins', `127.0.0.1:${allowed.port}`] });
      await server.ok('navigate', { url: allowed.url('/workers'), tabId: await firstTab(server) });
      expect(await allowed.requested('/shared-done'), 'the shared worker ran').to.equal(true);
      expect(other.requests).to.deep.equal([]);
      const prefs = endpoint.requests.find((r) => r.path === '/session').body.capabilities.alwaysMatch['moz:firefoxOptions'].prefs;
      expect(prefs['network.proxy.type']).to.equal(2);
    } finally {
      await server?.close();
      await endpoint.close();
      await allowed.close();
      await other.close();
    }
  });

  it('mcp: --geolocation, --locale, --timezone and --pref reach a remote Firefox (prefs and TZ in moz:firefoxOptions)', async () => {
    const app = await startFixtureServer({
      '/probe': (req, res) =>
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>probe</title><pre id="out"></pre><script>
          const say = (line) => (document.getElementById('out').textContent += line + '\\n');
          say('language=' + navigator.language);
          say('timezone=' + Intl.DateTimeFormat().resolvedOptions().timeZone);
          say('platform=' + navigator.platform);
          navigator.geolocation.getCurrentPosition((p) => say('geo=' + p.coords.latitude.toFixed(3) + ',' + p.coords.longitude.toFixed(3)), (e) => say('geo-error=' + e.code));
        </script>`),
    });
    const endpoint = await startWebDriverEndpoint();
    let server;
    try {
      server = await startServer({
        args: ['--webdriver-url', endpoint.url, '--geolocation', '52.52,13.405', '--locale', 'de-DE', '--timezone', 'Asia/Tokyo', '--pref', 'general.platform.override=FuOS'],
      });
      const tabId = await firstTab(server);
      await server.ok('navigate', { tabId, url: app.url('/probe') });
      await server.ok('wait_for', { tabId, text: 'geo' });
      const text = server.text(await server.ok('get_page_text', { tabId }));
      expect(text).to.include('geo=52.520,13.405').and.include('language=de-DE').and.include('timezone=Asia/Tokyo').and.include('platform=FuOS');
      const options = endpoint.requests.find((r) => r.path === '/session').body.capabilities.alwaysMatch['moz:firefoxOptions'];
      expect(options.prefs['permissions.default.geo']).to.equal(1);
      expect(options.env).to.deep.equal({ TZ: 'Asia/Tokyo' });
    } finally {
      await server?.close();
      await endpoint.close();
      await app.close();
    }
  });

  it('run: a script passes through a geckodriver-style direct socket and the session is deleted', async () => {
    const endpoint = await startWebDriverEndpoint();
    try {
      const script = JSON.stringify([{ navigate: { url: fixtures.url('/index.html') } }, { get_page_text: {} }]);
      const result = await cli(['run', '-', '--webdriver-url', endpoint.url], script);
      expect(result.code, result.stderr).to.equal(0);
      const lines = result.stdout.trim().split('\n').map((l) => JSON.parse(l));
      expect(lines.map((l) => l.ok)).to.deep.equal([true, true]);
      await expectSessionEnded(endpoint);
    } finally {
      await endpoint.close();
    }
  });

  it('regress: captures through the Grid-relayed socket match a local run byte for byte', async () => {
    const endpoint = await startWebDriverEndpoint({ grid: true });
    const dir = mkdtempSync(join(tmpdir(), 'fu-remote-regress-'));
    try {
      copyFileSync(fileURLToPath(new URL('../fixtures/regress/page.html', import.meta.url)), join(dir, 'page.html'));
      const config = join(dir, 'suite.yaml');
      writeFileSync(config, 'viewports: [400x400]\npages:\n  - {name: page, file: page.html, mask: ["#clock"]}\n');
      const local = await cli(['regress', config, '--baseline-dir', join(dir, 'baselines'), '--report-dir', join(dir, 'local')]);
      expect(local.code, local.stderr).to.equal(0);
      const remote = await cli(['regress', config, '--baseline-dir', join(dir, 'baselines'), '--report-dir', join(dir, 'remote'), '--webdriver-url', endpoint.url, '--ci']);
      expect(remote.code, remote.stderr).to.equal(0);
      const report = JSON.parse(readFileSync(join(dir, 'remote', 'report.json'), 'utf8'));
      expect(report.results.map((r) => [r.status, r.changedPixels])).to.deep.equal([['passed', 0]]);
      const id = await expectSessionEnded(endpoint);
      expect(endpoint.bidiMethods(id)).to.include('browsingContext.captureScreenshot').and.not.include('session.new');
    } finally {
      await endpoint.close();
    }
  });
});
