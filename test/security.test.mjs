import { expect } from 'chai';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { request } from 'node:http';
import { startFixtureServer } from './helpers/fixtures.mjs';
import { startServer, firstTab } from './helpers/mcp-client.mjs';
import { startServe, firefoxChildren } from './helpers/http-server.mjs';
import { waitFor } from './helpers/processes.mjs';

/** A raw POST to the MCP endpoint with chosen headers; resolves with the status code. */
function post(port, headers) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '0' } } }));
  });
}

/** Local addresses of the TCP sockets a process listens on, as "ip:port" ("127.0.0.1:1234"). */
function listeningAddresses(pid) {
  const inodes = new Set();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]);
    } catch {}
  }
  const found = [];
  for (const file of ['tcp', 'tcp6']) {
    for (const line of readFileSync(`/proc/net/${file}`, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10 || cols[3] !== '0A' || !inodes.has(cols[9])) continue;
      const [hex, portHex] = cols[1].split(':');
      const ip = file === 'tcp' ? hex.match(/../g).reverse().map((b) => parseInt(b, 16)).join('.') : hex;
      found.push(`${ip}:${parseInt(portHex, 16)}`);
    }
  }
  return found;
}

describe('security: origins, loopback, Host/Origin checks, output dir', function () {
  // Real Firefox on a shared 2-core machine: launches can take tens of seconds under load.
  this.timeout(180_000);
  let site;
  let other;

  before(async function () {
    site = await startFixtureServer();
    other = await startFixtureServer();
  });
  after(async function () {
    await site?.close();
    await other?.close();
  });

  describe('--blocked-origins, enforced by network interception', function () {
    let server;
    let blocked;
    const hits = [];
    before(async function () {
      blocked = await startFixtureServer({
        '/second.html': (req, res, url) => (hits.push(url.search), res.writeHead(200, { 'content-type': 'text/html' }).end('<title>reached</title>')),
        '/index.html': (req, res, url) => (hits.push(url.search), res.writeHead(200, { 'content-type': 'text/html' }).end('<title>reached</title>')),
      });
      server = await startServer({ args: ['--isolated', '--blocked-origins', blocked.origin] });
    });
    after(async function () {
      await server?.close();
      await blocked?.close();
    });

    it('refuses navigate to a blocked origin with origin_blocked', async function () {
      const tabId = await firstTab(server);
      const result = await server.call('navigate', { tabId, url: blocked.url('/second.html?by=navigate') });
      expect(result.structuredContent.error.code).to.equal('origin_blocked');
      expect(hits).to.deep.equal([]);
    });

    it('stops a redirect into a blocked origin and says origin_blocked', async function () {
      const tabId = await firstTab(server);
      const result = await server.call('navigate', { tabId, url: site.url(`/redirect?to=${encodeURIComponent(blocked.url('/second.html?by=redirect'))}`) });
      expect(result.structuredContent.error?.code, server.text(result)).to.equal('origin_blocked');
      expect(result.structuredContent.error.url).to.equal(blocked.url('/second.html?by=redirect'));
      expect(hits).to.deep.equal([]);
    });

    it('arrives at a page that tries to leave for the blocked origin while it loads, and says the tab stayed', async function () {
      const leaving = await startFixtureServer({
        '/leaves.html': (req, res) =>
          res
            .writeHead(200, { 'content-type': 'text/html' })
            .end(`<title>stays</title><p>here</p><img src="/slow?ms=1500"><script>addEventListener('DOMContentLoaded', () => { location.href = ${JSON.stringify(blocked.url('/second.html?by=page'))}; });</script>`),
      });
      try {
        const tabId = await firstTab(server);
        const result = await server.call('navigate', { tabId, url: leaving.url('/leaves.html') });
        expect(result.isError, server.text(result)).to.not.equal(true);
        expect(result.structuredContent.url).to.equal(leaving.url('/leaves.html'));
        expect(server.text(result)).to.include(`the page then tried to go to ${blocked.url('/second.html?by=page')}, which the origin rules refuse, and the tab stayed at ${leaving.url('/leaves.html')}`);
        expect(hits).to.deep.equal([]);
      } finally {
        await leaving.close();
      }
    });

    it('lets no link click, image or fetch of the page reach the blocked origin', async function () {
      const tabId = await firstTab(server);
      await server.ok('navigate', { tabId, url: site.url(`/security/leak.html?to=${encodeURIComponent(blocked.origin)}`) });
      // The page has tried once all three attempts (image, fetch, link click) have ended in its network log.
      const attempts = await waitFor(async () => {
        const { requests } = (await server.ok('read_network_requests', { tabId, urlPattern: 'by=(img|fetch|link)' })).structuredContent;
        const ended = requests.filter((r) => r.error !== undefined || r.status !== undefined);
        return new Set(ended.map((r) => /by=(\w+)/.exec(r.url)[1])).size === 3 ? ended : null;
      }, 20_000);
      expect(attempts, 'the page tried an image, a fetch and a link').to.not.equal(null);
      for (const attempt of attempts) expect(attempt.status, attempt.url).to.equal(undefined);
      expect(hits).to.deep.equal([]);
      const tabs = (await server.ok('tabs_context_mcp')).structuredContent.tabs;
      for (const tab of tabs) expect(tab.url).to.not.include(blocked.origin);
      // The page itself still works.
      await server.ok('computer', { tabId, action: 'screenshot' });
    });
  });

  describe('--allowed-origins', function () {
    let server;
    before(async function () {
      server = await startServer({ args: ['--isolated', '--allowed-origins', site.origin] });
    });
    after(async function () {
      await server?.close();
    });

    it('loads the allowed origin and refuses any other', async function () {
      const tabId = await firstTab(server);
      await server.ok('navigate', { tabId, url: site.url('/index.html') });
      const result = await server.call('navigate', { tabId, url: other.url('/index.html') });
      expect(result.structuredContent.error.code).to.equal('origin_blocked');
      const redirected = await server.call('navigate', { tabId, url: site.url(`/redirect?to=${encodeURIComponent(other.url('/second.html'))}`) });
      expect(redirected.structuredContent.error?.code).to.equal('origin_blocked');
    });

    it('keeps Firefox\'s BiDi endpoint on loopback only', async function () {
      const ff = await waitFor(() => firefoxChildren(server.pid())[0], 10_000);
      expect(ff).to.be.a('number');
      const cmdline = readFileSync(`/proc/${ff}/cmdline`, 'utf8').split('\0');
      expect(cmdline).to.include('--remote-allow-hosts');
      const addresses = listeningAddresses(ff);
      expect(addresses.length).to.be.greaterThan(0);
      for (const address of addresses) expect(address).to.match(/^127\.0\.0\.1:|^0{24}10{7}:/);
    });
  });

  describe('serve: Host/Origin checks and tokens', function () {
    it('binds 127.0.0.1 and refuses a forged Host or a foreign Origin (DNS rebinding)', async function () {
      const serve = await startServe();
      try {
        expect(await post(serve.port, { host: 'evil.example:' + serve.port })).to.equal(403);
        expect(await post(serve.port, { host: `127.0.0.1:${serve.port}`, origin: 'http://evil.example' })).to.equal(403);
        expect(await post(serve.port, { host: `127.0.0.1:${serve.port}` })).to.equal(200);
        expect(await post(serve.port, { host: `localhost:${serve.port}`, origin: `http://localhost:${serve.port}` })).to.equal(200);
      } finally {
        await serve.stop();
      }
    });

    it('refuses a non-loopback --host without --token', async function () {
      let failure;
      try {
        await startServe({ host: '0.0.0.0' });
      } catch (error) {
        failure = error;
      }
      expect(failure?.message).to.match(/--token/);
    });

    it('with --token, answers only clients that send it', async function () {
      const serve = await startServe({ host: '0.0.0.0', args: ['--isolated', '--token', 'sesame-123'] });
      try {
        expect(await post(serve.port, { host: `127.0.0.1:${serve.port}` })).to.equal(403);
        expect(await post(serve.port, { host: `127.0.0.1:${serve.port}`, authorization: 'Bearer wrong' })).to.equal(403);
        const client = await serve.connect({ requestInit: { headers: { authorization: 'Bearer sesame-123' } } });
        const result = await client.ok('tabs_context_mcp');
        expect(result.structuredContent.tabs).to.deep.equal([]);
      } finally {
        await serve.stop();
      }
    });
  });

  describe('files stay inside the output dir', function () {
    it('saves screenshots inside the output dir', async function () {
      const server = await startServer();
      try {
        const tabId = await firstTab(server);
        const shot = await server.ok('computer', { tabId, action: 'screenshot', save_to_disk: true });
        const saved = shot.structuredContent.savedTo;
        expect(saved.startsWith(server.outputDir + '/')).to.equal(true);
        // JPEG by default: the file starts with the SOI marker.
        expect(readFileSync(saved).subarray(0, 2).toString('hex')).to.equal('ffd8');
      } finally {
        await server.close();
      }
    });

    it('never lets a name from a page or an agent escape it', async function () {
      const { insideDir, safeFileName } = await import('../dist/browser/group/output.js');
      for (const name of ['../../etc/passwd', '/etc/passwd', '..\\..\\win.ini', '....//x', '.bashrc', 'a/../../b', '\u0000evil', '..']) {
        const safe = safeFileName(name);
        expect(safe, name).to.not.match(/[\\/]/);
        expect(safe.startsWith('.'), name).to.equal(false);
        expect(insideDir('/tmp/out', safe).startsWith('/tmp/out/'), name).to.equal(true);
      }
      for (const name of ['../x', '/etc/passwd', 'a/../../b', '', '.']) {
        expect(() => insideDir('/tmp/out', name), name).to.throw(/outside the output dir/);
      }
    });
  });
});
