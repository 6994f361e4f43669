// Launch and context options, each shown by what a local page sees: --locale, --timezone, --user-agent,
// --geolocation, --init-script, --pref, --headless (accepted), --ignore-https-errors (a self-signed server made
// here with openssl) and --proxy-server / --proxy-bypass (a loopback proxy that counts what it is sent).
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServe } from './helpers/http-server.mjs';
import { firstTab, startServer } from './helpers/mcp-client.mjs';
import { waitFor } from './helpers/processes.mjs';

const PROBE = `<!doctype html><title>probe</title><a href="/popup" target="_blank" style="display:block;width:200px;height:30px">popup</a><pre id="out"></pre><script>
  const out = document.getElementById('out');
  const say = (line) => (out.textContent += line + '\\n');
  say('language=' + navigator.language);
  say('timezone=' + Intl.DateTimeFormat().resolvedOptions().timeZone);
  say('ua=' + navigator.userAgent);
  say('platform=' + navigator.platform);
  say('init=' + window.__initRan);
  navigator.geolocation.getCurrentPosition(
    (p) => say('geo=' + p.coords.latitude.toFixed(3) + ',' + p.coords.longitude.toFixed(3)),
    (e) => say('geo-error=' + e.code),
  );
</script>`;

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

describe('launch and context options', function () {
  this.timeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), 'fu-launch-'));
  let app;
  let appPort;
  let seenHeaders;
  let https;
  let httpsPort;
  before(async function () {
    app = createServer((req, res) => {
      seenHeaders = req.headers;
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(PROBE);
    });
    appPort = await listen(app);
    // A self-signed certificate for 127.0.0.1, made for this run.
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    https = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>secure</title><h1>Behind a self-signed certificate</h1>');
    });
    httpsPort = await listen(https);
  });
  after(async function () {
    await new Promise((resolve) => app?.close(resolve));
    await new Promise((resolve) => https?.close(resolve));
  });

  it('gives pages the locale, time zone, user agent, position, init script and prefs asked for', async function () {
    writeFileSync(join(dir, 'init.js'), 'window.__initRan = "yes, before the page";');
    const server = await startServer({
      args: ['--isolated', '--headless', '--locale', 'de-DE', '--timezone', 'Asia/Tokyo', '--user-agent', 'FirefoxUseTest/1.0',
        '--geolocation', '52.52,13.405', '--init-script', join(dir, 'init.js'), '--pref', 'general.platform.override=FuOS'],
    });
    try {
      const tabId = await firstTab(server);
      await server.ok('navigate', { tabId, url: `http://127.0.0.1:${appPort}/` });
      await server.ok('wait_for', { tabId, text: 'geo' });
      const text = server.text(await server.ok('get_page_text', { tabId }));
      expect(text).to.include('language=de-DE');
      expect(text).to.include('timezone=Asia/Tokyo');
      expect(text).to.include('ua=FirefoxUseTest/1.0');
      expect(text).to.include('platform=FuOS');
      expect(text).to.include('init=yes, before the page');
      expect(text).to.include('geo=52.520,13.405');
      expect(seenHeaders['user-agent']).to.equal('FirefoxUseTest/1.0');
      expect(seenHeaders['accept-language']).to.match(/^de-DE/);

      // A tab the agent opens and a popup the page opens get the same position.
      const opened = (await server.ok('tabs_create_mcp', { url: `http://127.0.0.1:${appPort}/second` })).structuredContent.tabId;
      await server.ok('wait_for', { tabId: opened, text: 'geo' });
      expect(server.text(await server.ok('get_page_text', { tabId: opened }))).to.include('geo=52.520,13.405');
      await server.ok('computer', { tabId, action: 'left_click', coordinate: [50, 15] });
      const popup = await waitFor(async () => {
        const tabs = (await server.ok('tabs_context_mcp')).structuredContent.tabs;
        return tabs.find((tab) => tab.url.endsWith('/popup'))?.tabId;
      }, 10_000, 200);
      expect(popup, 'the page opened its popup').to.be.a('number');
      await server.ok('wait_for', { tabId: popup, text: 'geo' });
      expect(server.text(await server.ok('get_page_text', { tabId: popup }))).to.include('geo=52.520,13.405');
    } finally {
      await server.close();
    }
  });

  it('gives each serve session (a user context of its own) the --geolocation position', async function () {
    const serve = await startServe({ args: ['--isolated', '--geolocation=-33.8688,151.2093'] });
    try {
      for (const session of [await serve.connect(), await serve.connect()]) {
        const tabId = (await session.ok('tabs_create_mcp', { url: `http://127.0.0.1:${appPort}/` })).structuredContent.tabId;
        await session.ok('wait_for', { tabId, text: 'geo' });
        expect(session.text(await session.ok('get_page_text', { tabId }))).to.include('geo=-33.869,151.209');
      }
    } finally {
      await serve.stop();
    }
  });

  it('loads a self-signed HTTPS page only with --ignore-https-errors', async function () {
    const url = `https://127.0.0.1:${httpsPort}/`;
    const strict = await startServer({ args: ['--isolated'] });
    try {
      const tabId = await firstTab(strict);
      const refused = await strict.call('navigate', { tabId, url });
      expect(strict.text(refused)).to.not.include('Behind a self-signed certificate');
    } finally {
      await strict.close();
    }
    const lenient = await startServer({ args: ['--isolated', '--ignore-https-errors'] });
    try {
      const tabId = await firstTab(lenient);
      const loaded = await lenient.ok('navigate', { tabId, url });
      expect(lenient.text(loaded)).to.include('Behind a self-signed certificate');
    } finally {
      await lenient.close();
    }
  });

  it('sends requests through --proxy-server, except hosts in --proxy-bypass', async function () {
    const proxied = [];
    const proxy = createServer((req, res) => {
      proxied.push(req.url);
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>via proxy</title><h1>Answered by the proxy</h1>');
    });
    const proxyPort = await listen(proxy);
    const server = await startServer({ args: ['--isolated', '--proxy-server', `127.0.0.1:${proxyPort}`, '--proxy-bypass', 'localhost'] });
    try {
      const tabId = await firstTab(server);
      const viaProxy = await server.ok('navigate', { tabId, url: 'http://shop.example.test/cart' });
      expect(server.text(viaProxy)).to.include('Answered by the proxy');
      expect(proxied).to.include('http://shop.example.test/cart');
      const before = proxied.length;
      const direct = await server.ok('navigate', { tabId, url: `http://localhost:${appPort}/` });
      expect(server.text(direct)).to.include('language=');
      expect(proxied.length).to.equal(before);
    } finally {
      await server.close();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
