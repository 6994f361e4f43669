// Issue 15: one caller cannot stall the server for everyone (item 10).
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { startFixtureServer } from './helpers/fixtures.mjs';
import { startServer } from './helpers/mcp-client.mjs';

describe('security: limits one call cannot break', function () {
  this.timeout(180_000);
  let site;
  let server;
  before(async function () {
    site = await startFixtureServer({
      '/log': (req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>log</title><script>console.log(${JSON.stringify('a'.repeat(40) + 'b')}); console.log('plain line')</script>`),
    });
    server = await startServer();
  });
  after(async function () {
    await server?.close();
    await site?.close();
  });

  it('answers a catastrophic read_console_messages pattern with invalid_arguments while other calls go on', async function () {
    const tabId = (await server.ok('tabs_create_mcp', { url: site.url('/log') })).structuredContent.tabId;
    const order = [];
    const evil = server.call('read_console_messages', { tabId, pattern: '^(a+)+$' }).then((result) => (order.push('pattern'), result));
    const other = server.call('tabs_context_mcp', {}).then((result) => (order.push('other'), result));
    const [result, context] = await Promise.all([evil, other]);
    expect(result.structuredContent.error).to.include({ code: 'invalid_arguments', field: 'pattern' });
    expect(context.isError).to.not.equal(true);
    expect(order).to.deep.equal(['other', 'pattern']);
    // Ordinary patterns still work.
    const plain = await server.ok('read_console_messages', { tabId, pattern: 'plain' });
    expect(plain.structuredContent.matched).to.equal(1);
    const regex = await server.ok('read_console_messages', { tabId, pattern: '^a+b$' });
    expect(regex.structuredContent.matched).to.equal(1);
  });

  it('never echoes control characters of a URL back raw (item 23)', async function () {
    const tabId = (await server.ok('tabs_create_mcp', {})).structuredContent.tabId;
    for (const url of ['\u001b]0;pwned\u0007', 'file:///tmp/\u001b[2Jx', 'javascript:\u0007']) {
      const result = await server.call('navigate', { tabId, url });
      expect(result.isError, JSON.stringify(url)).to.equal(true);
      // eslint-disable-next-line no-control-regex
      expect(server.text(result)).to.not.match(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    }
  });

  it('does not document the test-only tools as available (item 23)', function () {
    const docs = readFileSync(new URL('../docs/tools.md', import.meta.url), 'utf8');
    expect(docs).to.not.include('test_ref_for_selector');
    expect(docs).to.not.include('test_text_of_selector');
  });

  it('answers a request over 10 MiB with an error and stays up (item 14)', async function () {
    const huge = `https://example.com/${'x'.repeat(11 * 1024 * 1024)}`;
    const error = await server.call('navigate', { tabId: 1, url: huge }).then(() => null, (failure) => failure);
    expect(error?.code).to.equal(-32600);
    expect(error.message).to.match(/too large/);
    await server.ok('tabs_context_mcp');
  });
});
