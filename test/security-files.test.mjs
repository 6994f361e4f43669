// Issue 15: what file tools can read and how private the files the server writes are (items 4, 11).
import { expect } from 'chai';
import { linkSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFixtureServer } from './helpers/fixtures.mjs';
import { startServer } from './helpers/mcp-client.mjs';

describe('security: file_upload roots and private files', function () {
  this.timeout(180_000);
  let site;
  let server;
  let dataHome;
  let outputDir;

  before(async function () {
    site = await startFixtureServer();
    dataHome = mkdtempSync(join(tmpdir(), 'fu-data-'));
    outputDir = join(mkdtempSync(join(tmpdir(), 'fu-parent-')), 'made-by-server');
    // Started from / with a named profile and an output dir the server has to create.
    server = await startServer({ args: ['--profile', 'perms', '--output-dir', outputDir], env: { XDG_DATA_HOME: dataHome }, cwd: '/' });
  });
  after(async function () {
    await server?.close();
    await site?.close();
  });

  async function uploadPage() {
    const tabId = (await server.ok('tabs_create_mcp', { url: site.url('/toolbox/upload.html') })).structuredContent.tabId;
    return tabId;
  }

  it('does not let file_upload read the working directory by default (started from /)', async function () {
    const tabId = await uploadPage();
    for (const path of ['/etc/hostname', 'etc/hostname']) {
      const result = await server.call('file_upload', { tabId, paths: [path] });
      expect(result.structuredContent.error, path).to.include({ code: 'invalid_arguments', field: 'paths.0' });
      expect(result.structuredContent.error.message).to.include('outside the upload roots');
    }
  });

  it('refuses a hard link in the output dir to a file from outside it', async function () {
    const tabId = await uploadPage();
    const outside = join(mkdtempSync(join(tmpdir(), 'fu-outside-')), 'secret.txt');
    writeFileSync(outside, 'secret');
    mkdirSync(outputDir, { recursive: true });
    const link = join(outputDir, 'looks-local.txt');
    linkSync(outside, link);
    const result = await server.call('file_upload', { tabId, paths: [link] });
    expect(result.structuredContent.error).to.include({ code: 'invalid_arguments', field: 'paths.0' });
    expect(result.structuredContent.error.message).to.include('hard link');
    const plain = join(outputDir, 'plain.txt');
    writeFileSync(plain, 'mine');
    expect((await server.ok('file_upload', { tabId, paths: [plain] })).structuredContent.files).to.deep.equal(['plain.txt']);
  });

  it('keeps the named profile and the output dir to this user (0700), saved screenshots 0600', async function () {
    const tabId = await uploadPage();
    const shot = await server.ok('computer', { tabId, action: 'screenshot', save_to_disk: true });
    const profile = join(dataHome, 'firefox-use', 'profiles', 'perms');
    expect(statSync(profile).mode & 0o777).to.equal(0o700);
    expect(statSync(join(dataHome, 'firefox-use', 'profiles')).mode & 0o777).to.equal(0o700);
    expect(statSync(outputDir).mode & 0o777).to.equal(0o700);
    const saved = readdirSync(outputDir).filter((name) => name.endsWith('.jpg'));
    expect(saved, server.text(shot)).to.have.length(1);
    expect(statSync(join(outputDir, saved[0])).mode & 0o777).to.equal(0o600);
  });
});
