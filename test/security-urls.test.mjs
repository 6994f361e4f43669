// Issue 15, items 1-2: file: and javascript: URLs are refused unless a flag opens them, however they are reached.
import { expect } from 'chai';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startFixtureServer } from './helpers/fixtures.mjs';
import { startServer } from './helpers/mcp-client.mjs';

const MARKER = 'SECRET-FILE-CONTENT-7f3a';
const secretDir = mkdtempSync(join(tmpdir(), 'fu-secret-'));
const secretFile = join(secretDir, 'secret.txt');
writeFileSync(secretFile, `${MARKER}\n`);
const secretUrl = pathToFileURL(secretFile).href;

const html = (body) => (req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(body);

describe('security: file: and javascript: URLs are refused by default', function () {
  this.timeout(180_000);
  let site;
  let server;

  before(async function () {
    site = await startFixtureServer({
      '/to-file': (req, res) => res.writeHead(302, { location: secretUrl }).end(),
      '/embeds-file': html(`<title>embeds</title><iframe src="${secretUrl}"></iframe><object data="${secretUrl}"></object><a id="link" href="${secretUrl}">open the file</a>`),
      '/opens-file': html(`<title>opener</title><script>window.open(${JSON.stringify(secretUrl)})</script>`),
      '/cookie': html('<title>has a cookie</title><script>document.cookie = "session=s3cr3t; path=/"; localStorage.setItem("k", "v")</script>'),
      '/to-data': html('<title>data navigator</title><script>setTimeout(() => { location.href = "data:text/html,<title>data page</title>" }, 0)</script>'),
    });
    server = await startServer();
  });
  after(async function () {
    await server?.close();
    await site?.close();
  });

  async function freshTab() {
    return (await server.ok('tabs_create_mcp', {})).structuredContent.tabId;
  }

  /** Every text the session can read from its tabs: nothing of the local file may be in it. */
  async function everythingVisible() {
    const tabs = (await server.ok('tabs_context_mcp')).structuredContent.tabs;
    let all = JSON.stringify(tabs);
    for (const tab of tabs) all += server.text(await server.call('get_page_text', { tabId: tab.tabId }));
    return all;
  }

  for (const url of [secretUrl, secretUrl.replace('file:', 'FILE:'), ` ${secretUrl}`, `view-source:${secretUrl}`, `jar:${secretUrl}!/x`, 'file:///etc/', 'file:///proc/self/environ']) {
    it(`refuses navigate to ${JSON.stringify(url).slice(0, 60)} with origin_blocked`, async function () {
      const tabId = await freshTab();
      const result = await server.call('navigate', { tabId, url });
      expect(result.structuredContent.error?.code, server.text(result)).to.equal('origin_blocked');
      expect(result.structuredContent.error.field).to.equal('url');
      expect(server.text(result)).to.match(/--allow-unrestricted-file-access/);
      expect(await everythingVisible()).to.not.include(MARKER);
      expect(readdirSync(server.outputDir)).to.deep.equal([]);
    });
  }

  it('refuses tabs_create_mcp with a file: URL and opens no tab', async function () {
    const before = (await server.ok('tabs_context_mcp')).structuredContent.tabs.length;
    const result = await server.call('tabs_create_mcp', { url: secretUrl });
    expect(result.structuredContent.error?.code).to.equal('origin_blocked');
    expect((await server.ok('tabs_context_mcp')).structuredContent.tabs.length).to.equal(before);
  });

  it('lets no redirect, frame, object, link or popup of a web page reach a local file', async function () {
    const tabId = await freshTab();
    const redirected = await server.call('navigate', { tabId, url: site.url('/to-file') });
    expect(redirected.isError).to.equal(true);
    await server.ok('navigate', { tabId, url: site.url('/embeds-file') });
    const link = (await server.ok('find', { tabId, query: 'open the file link' })).structuredContent.matches[0].ref;
    await server.call('computer', { tabId, action: 'left_click', ref: link });
    await server.ok('navigate', { tabId, url: site.url('/opens-file') });
    const text = await everythingVisible();
    expect(text).to.not.include(MARKER);
    expect(text).to.not.include(secretUrl);
    expect(readdirSync(server.outputDir)).to.deep.equal([]);
  });

  it('refuses a javascript: URL: the code does not run and the cookie stays put', async function () {
    const tabId = await freshTab();
    await server.ok('navigate', { tabId, url: site.url('/cookie') });
    for (const url of ['javascript:document.title=document.cookie', 'JavaScript:void(document.title=1)', ' javascript:void(document.title=2)', 'view-source:javascript:1']) {
      const result = await server.call('navigate', { tabId, url });
      expect(result.structuredContent.error?.code, url).to.equal('origin_blocked');
      expect(server.text(result)).to.match(/--allow-javascript/);
    }
    // A tab inside the scheme is no URL at all for the server (Firefox would drop it and run the code).
    const spaced = await server.call('navigate', { tabId, url: 'java\tscript:void(document.title=3)' });
    expect(spaced.structuredContent.error?.code).to.equal('invalid_arguments');
    const created = await server.call('tabs_create_mcp', { url: 'javascript:document.title=document.cookie' });
    expect(created.structuredContent.error?.code).to.equal('origin_blocked');
    const tabs = (await server.ok('tabs_context_mcp')).structuredContent.tabs;
    expect(tabs.find((tab) => tab.tabId === tabId).title).to.equal('has a cookie');
  });

  it('runs a data: URL in an opaque origin, where the previous page\'s cookie and storage are out of reach', async function () {
    const tabId = await freshTab();
    await server.ok('navigate', { tabId, url: site.url('/cookie') });
    const probe = '<title>probe</title><script>let s; try { s = localStorage.getItem("k") } catch (e) { s = e.name } document.title = `origin=${location.origin} cookie=${document.cookie} storage=${s}`</script>';
    const result = await server.ok('navigate', { tabId, url: `data:text/html,${encodeURIComponent(probe)}` });
    expect(result.structuredContent.title).to.match(/^origin=null cookie= storage=SecurityError$/);
  });

  it('does not let a page navigate itself to a data: URL (Firefox blocks top-level data: navigations from pages)', async function () {
    const tabId = await freshTab();
    // Its load, stopped by the refused navigation, never fires a load event: the page still counts as settled.
    const reply = server.text(await server.ok('navigate', { tabId, url: site.url('/to-data') }));
    expect(reply).to.not.include('Still changing');
    await server.ok('computer', { tabId, action: 'wait', duration: 0.5 });
    const tabs = (await server.ok('tabs_context_mcp')).structuredContent.tabs;
    expect(tabs.find((tab) => tab.tabId === tabId).url).to.equal(site.url('/to-data'));
  });
});

describe('security: the flags that open file: and javascript: URLs', function () {
  this.timeout(180_000);
  let server;
  before(async function () {
    server = await startServer({ args: ['--isolated', '--allow-unrestricted-file-access', '--allow-javascript'] });
  });
  after(async function () {
    await server?.close();
  });

  it('loads a local file with --allow-unrestricted-file-access and runs a javascript: URL with --allow-javascript', async function () {
    const tabId = (await server.ok('tabs_create_mcp', { url: secretUrl })).structuredContent.tabId;
    expect(server.text(await server.ok('get_page_text', { tabId }))).to.include(MARKER);
    const other = (await server.ok('tabs_create_mcp', { url: 'data:text/html,<title>before</title>' })).structuredContent.tabId;
    // Firefox ESR never answers the navigate of a javascript: URL: the reply must not wait for it, nor call it a timeout.
    const ran = await server.ok('navigate', { tabId: other, url: 'javascript:void(document.title="ran")' });
    expect(server.text(ran)).to.match(/^ran — data:/);
    const tabs = (await server.ok('tabs_context_mcp')).structuredContent.tabs;
    expect(tabs.find((tab) => tab.tabId === other).title).to.equal('ran');
  });
});

describe('security: --blocked-origins under other spellings of the host', function () {
  this.timeout(180_000);
  let site;
  let server;
  const hits = [];
  before(async function () {
    site = await startFixtureServer({ '/hit': (req, res) => (hits.push(req.headers.host), res.writeHead(200, { 'content-type': 'text/html' }).end('<title>hit</title>')) });
    server = await startServer({ args: ['--isolated', '--blocked-origins', 'localhost,127.0.0.1'] });
  });
  after(async function () {
    await server?.close();
    await site?.close();
  });

  it('refuses Localhost, localhost. and [::ffff:127.0.0.1] like localhost and 127.0.0.1', async function () {
    const tabId = (await server.ok('tabs_create_mcp', {})).structuredContent.tabId;
    for (const host of ['Localhost', 'localhost.', '[::ffff:127.0.0.1]', '127.0.0.1.', '0x7f.0.0.1']) {
      const result = await server.call('navigate', { tabId, url: `http://${host}:${site.port}/hit` });
      expect(result.structuredContent.error?.code, host).to.equal('origin_blocked');
    }
    expect(hits).to.deep.equal([]);
  });
});
