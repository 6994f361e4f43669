// Issue 35 item 8: an HTTP auth challenge must not hang navigate behind a prompt nobody sees.
import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeAfterEach, useSite } from './helpers/browser-suite.mjs';
import { startServer } from './helpers/mcp-client.mjs';

const GOOD = `Basic ${Buffer.from('ann:s3cret:with:colons').toString('base64')}`;

describe('HTTP authentication (issue 35)', function () {
  this.timeout(120_000);
  let challenges = 0;
  const site = useSite({
    '/secret': (req, res) => {
      if (req.headers.authorization === GOOD) return res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Members</title><h1>Welcome ann</h1>');
      challenges++;
      res.writeHead(401, { 'content-type': 'text/html', 'www-authenticate': 'Basic realm="members"' }).end('<title>Denied</title><p>Authorization required</p>');
    },
  });
  const own = closeAfterEach();

  it('cancels the challenge by default: navigate answers at once with the 401 page, and says so', async function () {
    const server = own(await startServer());
    const tabId = (await server.ok('tabs_create_mcp', {})).structuredContent.tabId;
    const started = Date.now();
    const result = await server.ok('navigate', { tabId, url: site.url('/secret') });
    expect(Date.now() - started).to.be.below(10_000);
    expect(result.structuredContent.title).to.equal('Denied');
    expect(result.structuredContent.http_auth).to.deep.include({ status: 401, answer: 'cancelled' });
    const text = server.text(result);
    expect(text).to.include('asked for HTTP authentication (status 401)');
    expect(text).to.include('cancelled');
    expect(text).to.include('Authorization required');
    // The tab is still usable: no prompt left behind.
    expect((await server.ok('get_page_text', { tabId })).structuredContent.text).to.include('Authorization required');
  });

  it('signs in with --http-credentials for its origin, and not on another origin', async function () {
    const server = own(await startServer({ args: ['--isolated', '--http-credentials', `${site.url('/').replace(/\/$/, '')}=ann:s3cret:with:colons`] }));
    const tabId = (await server.ok('tabs_create_mcp', {})).structuredContent.tabId;
    const result = await server.ok('navigate', { tabId, url: site.url('/secret') });
    expect(result.structuredContent.title).to.equal('Members');
    expect(result.structuredContent.http_auth).to.deep.include({ answer: 'credentials' });
    expect(server.text(result)).to.include('Welcome ann');
    // The same server as localhost is another origin: no credentials sent there.
    const other = await server.ok('navigate', { tabId, url: site.url('/secret').replace('127.0.0.1', 'localhost') });
    expect(other.structuredContent.title).to.equal('Denied');
    expect(other.structuredContent.http_auth).to.deep.include({ answer: 'cancelled' });
  });

  it('reads the credentials from --http-credentials-file; wrong ones are tried once, then cancelled', async function () {
    const dir = mkdtempSync(join(tmpdir(), 'fu-cred-'));
    writeFileSync(join(dir, 'good'), 'ann:s3cret:with:colons\n');
    writeFileSync(join(dir, 'bad'), 'ann:wrong\n');
    const good = own(await startServer({ args: ['--isolated', '--http-credentials-file', join(dir, 'good')] }));
    const tab = (await good.ok('tabs_create_mcp', {})).structuredContent.tabId;
    expect((await good.ok('navigate', { tabId: tab, url: site.url('/secret') })).structuredContent.title).to.equal('Members');
    const bad = own(await startServer({ args: ['--isolated', '--http-credentials-file', join(dir, 'bad')] }));
    const badTab = (await bad.ok('tabs_create_mcp', {})).structuredContent.tabId;
    challenges = 0;
    const started = Date.now();
    const result = await bad.ok('navigate', { tabId: badTab, url: site.url('/secret') });
    expect(Date.now() - started).to.be.below(10_000);
    expect(result.structuredContent.title).to.equal('Denied');
    expect(result.structuredContent.http_auth).to.deep.include({ status: 401, answer: 'cancelled' });
    expect(challenges).to.be.at.most(3);
  });
});
