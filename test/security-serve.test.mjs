// Issue 15, serve sessions kept apart: cookies and storage (item 3).
import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFixtureServer } from './helpers/fixtures.mjs';
import { startServe } from './helpers/http-server.mjs';
import { waitFor } from './helpers/processes.mjs';

const html = (body) => (req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(body);

/** The page's cookie header and localStorage entry, as its title. */
const PROBE = '<script>document.title = `cookie=${document.cookie} storage=${localStorage.getItem("k")}`</script>';

describe('security: each serve session has its own cookies and storage', function () {
  this.timeout(180_000);
  let site;
  before(async function () {
    site = await startFixtureServer({
      '/store': html('<title>stored</title><script>document.cookie = "who=alice; path=/; max-age=3600"; localStorage.setItem("k", "alice")</script>'),
      '/probe': html(PROBE),
      '/opener': html('<title>opener</title><a href="/probe" target="_blank">probe in a popup</a>'),
      '/download': (req, res) => res.writeHead(200, { 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="alice-secret.txt"' }).end('alice only'),
      '/files': html('<title>files</title><a href="/download">get the file</a><input type="file" id="up">'),
    });
  });
  after(async function () {
    await site?.close();
  });

  async function titleOf(client, url, tabId) {
    const id = tabId ?? (await client.ok('tabs_create_mcp', {})).structuredContent.tabId;
    return (await client.ok('navigate', { tabId: id, url })).structuredContent.title;
  }

  describe('by default', function () {
    let serve;
    before(async function () {
      serve = await startServe();
    });
    after(async function () {
      await serve?.stop();
    });

    it('does not show one session\'s cookie or localStorage to another; popups keep their opener\'s', async function () {
      const alice = await serve.connect();
      const bob = await serve.connect();
      const aliceTab = (await alice.ok('tabs_create_mcp', { url: site.url('/store') })).structuredContent.tabId;
      expect(await titleOf(alice, site.url('/probe'), aliceTab)).to.equal('cookie=who=alice storage=alice');
      expect(await titleOf(bob, site.url('/probe'))).to.equal('cookie= storage=null');

      // A tab Alice's page opens is hers, with her cookie.
      await alice.ok('navigate', { tabId: aliceTab, url: site.url('/opener') });
      const link = (await alice.ok('find', { tabId: aliceTab, query: 'probe in a popup' })).structuredContent.matches[0].ref;
      const click = await alice.ok('computer', { tabId: aliceTab, action: 'left_click', ref: link });
      const popup = (await alice.ok('tabs_context_mcp')).structuredContent.tabs.find((tab) => tab.tabId !== aliceTab);
      expect(popup, alice.text(click)).to.not.equal(undefined);
      expect((await alice.ok('get_page_text', { tabId: popup.tabId })).structuredContent.title).to.equal('cookie=who=alice storage=alice');

      // A session that starts after Alice's ended finds nothing of hers.
      await alice.end();
      const carol = await serve.connect();
      expect(await titleOf(carol, site.url('/probe'))).to.equal('cookie= storage=null');
    });
  });

  describe('files and refs', function () {
    let serve;
    before(async function () {
      serve = await startServe();
    });
    after(async function () {
      await serve?.stop();
    });

    it('gives each session its own folder: another session cannot upload its download or see its screenshots', async function () {
      const alice = await serve.connect();
      const bob = await serve.connect();
      const aliceTab = (await alice.ok('tabs_create_mcp', { url: site.url('/files') })).structuredContent.tabId;
      const link = (await alice.ok('find', { tabId: aliceTab, query: 'get the file link' })).structuredContent.matches[0].ref;
      const click = await alice.ok('computer', { tabId: aliceTab, action: 'left_click', ref: link });
      // On a loaded machine the click may answer while the download is still running: the file itself is the signal.
      const sessions = join(serve.outputDir, 'sessions');
      const downloaded = await waitFor(() => {
        for (const folder of existsSync(sessions) ? readdirSync(sessions) : []) {
          const file = join(sessions, folder, 'alice-secret.txt');
          if (existsSync(file) && readFileSync(file, 'utf8') === 'alice only') return file;
        }
        return null;
      }, 30_000);
      expect(downloaded, alice.text(click)).to.be.a('string');
      expect(downloaded.startsWith(`${serve.outputDir}/sessions/`)).to.equal(true);
      const aliceShot = (await alice.ok('computer', { tabId: aliceTab, action: 'screenshot', save_to_disk: true })).structuredContent.savedTo;
      expect(aliceShot.startsWith(downloaded.slice(0, downloaded.lastIndexOf('/') + 1))).to.equal(true);

      const bobTab = (await bob.ok('tabs_create_mcp', { url: site.url('/files') })).structuredContent.tabId;
      for (const path of [downloaded, aliceShot]) {
        const upload = await bob.call('file_upload', { tabId: bobTab, paths: [path] });
        expect(upload.structuredContent.error).to.include({ code: 'invalid_arguments', field: 'paths.0' });
      }
      // Alice can upload her own download.
      expect((await alice.ok('file_upload', { tabId: aliceTab, paths: [downloaded] })).structuredContent.files).to.deep.equal(['alice-secret.txt']);
    });

    it('does not reveal another session\'s tab in ref_stale', async function () {
      const alice = await serve.connect();
      const bob = await serve.connect();
      const aliceTab = (await alice.ok('tabs_create_mcp', { url: site.url('/files') })).structuredContent.tabId;
      const ref = (await alice.ok('find', { tabId: aliceTab, query: 'get the file link' })).structuredContent.matches[0].ref;
      const bobTab = (await bob.ok('tabs_create_mcp', { url: site.url('/files') })).structuredContent.tabId;
      const result = await bob.call('computer', { tabId: bobTab, action: 'left_click', ref });
      expect(result.structuredContent.error.code).to.equal('ref_stale');
      expect(bob.text(result)).to.not.include(`tab ${aliceTab}`);
      expect(bob.text(result)).to.not.include('another tab');
    });
  });

  describe('tokens and what Firefox inherits', function () {
    it('reads the token from --token-file, takes a lowercase scheme, and passes Firefox none of the server\'s secrets', async function () {
      const dir = mkdtempSync(join(tmpdir(), 'fu-token-'));
      writeFileSync(join(dir, 'token'), 'open-sesame-42\n');
      const serve = await startServe({ args: ['--isolated', '--token-file', join(dir, 'token')], env: { MY_API_KEY: 'sk-do-not-leak' } });
      try {
        expect(readFileSync(`/proc/${serve.child.pid}/cmdline`, 'utf8')).to.not.include('open-sesame-42');
        const refused = await serve.connect().then(() => null, (error) => error);
        expect(refused, 'a client without the token').to.be.instanceOf(Error);
        const client = await serve.connect({ requestInit: { headers: { authorization: 'bearer open-sesame-42' } } });
        await client.ok('tabs_context_mcp', { createIfEmpty: true });
        const firefox = await serve.firefoxPid();
        const environ = readFileSync(`/proc/${firefox}/environ`, 'utf8');
        expect(environ).to.not.include('sk-do-not-leak');
        expect(environ).to.include('PATH=');
      } finally {
        await serve.stop();
      }
    });
  });

  describe('with --shared-browser-context', function () {
    let serve;
    before(async function () {
      serve = await startServe({ args: ['--isolated', '--shared-browser-context'] });
    });
    after(async function () {
      await serve?.stop();
    });

    it('shares the profile\'s cookies and storage between sessions', async function () {
      const alice = await serve.connect();
      const bob = await serve.connect();
      await titleOf(alice, site.url('/store'));
      expect(await titleOf(bob, site.url('/probe'))).to.equal('cookie=who=alice storage=alice');
    });
  });
});
