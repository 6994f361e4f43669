// Files as MCP resources (issue 39, item 5): what a session saved (a screenshot, a PDF) comes back as a resource link
// in the reply, and resources/read gives its bytes to that session, and to no other.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { startFixtureServer } from './helpers/fixtures.mjs';
import { startServe } from './helpers/http-server.mjs';
import { firstTab, startServer } from './helpers/mcp-client.mjs';

const linksOf = (result) => result.content.filter((c) => c.type === 'resource_link');

describe('files as MCP resources', function () {
  this.timeout(120_000);
  let site;
  before(async () => {
    site = await startFixtureServer({
      '/page': (req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>page</title><h1>Invoice 42</h1>'),
    });
  });
  after(async () => site?.close());

  it('a saved screenshot and a PDF are links in the reply, listed, and read back byte for byte', async () => {
    const server = await startServer({ args: ['--isolated', '--caps', 'pdf'] });
    try {
      const tabId = await firstTab(server);
      await server.ok('navigate', { tabId, url: site.url('/page') });
      // Nothing saved, nothing linked.
      expect(linksOf(await server.ok('computer', { tabId, action: 'screenshot' }))).to.deep.equal([]);
      const shot = await server.ok('computer', { tabId, action: 'screenshot', save_to_disk: true });
      const [link] = linksOf(shot);
      expect(link).to.include({ mimeType: 'image/jpeg' });
      expect(link.uri).to.match(/^firefox-use:\/\/output\/tab\d+-screenshot.*\.jpg$/);
      const read = await server.client.readResource({ uri: link.uri });
      expect(read.contents[0]).to.include({ uri: link.uri, mimeType: 'image/jpeg' });
      expect(Buffer.from(read.contents[0].blob, 'base64').equals(readFileSync(shot.structuredContent.savedTo))).to.equal(true);

      const pdf = await server.ok('save_pdf', { tabId, filename: 'invoice' });
      const [pdfLink] = linksOf(pdf);
      expect(pdfLink).to.include({ uri: 'firefox-use://output/invoice.pdf', name: 'invoice.pdf', mimeType: 'application/pdf' });
      const bytes = Buffer.from((await server.client.readResource({ uri: pdfLink.uri })).contents[0].blob, 'base64');
      expect(bytes.subarray(0, 5).toString()).to.equal('%PDF-');
      const { resources } = await server.client.listResources();
      expect(resources.map((r) => r.uri)).to.have.members([link.uri, pdfLink.uri]);
      // A URI this session's calls did not name, a path out of the output dir among them, is not found.
      for (const uri of ['firefox-use://output/other.png', 'firefox-use://output/../../etc/passwd', 'file:///etc/passwd']) {
        const refused = await server.client.readResource({ uri }).then(() => null, (error) => error);
        expect(refused, uri).to.be.an('error');
        expect(refused.code).to.equal(-32002);
      }
    } finally {
      await server.close();
    }
  });

  it('under serve, a session reads its own files and not another session\'s', async () => {
    const serve = await startServe({ args: ['--isolated'] });
    try {
      const alice = await serve.connect();
      const bob = await serve.connect();
      const tabId = (await alice.ok('tabs_create_mcp', { url: site.url('/page') })).structuredContent.tabId;
      const [link] = linksOf(await alice.ok('computer', { tabId, action: 'screenshot', save_to_disk: true }));
      expect((await alice.client.readResource({ uri: link.uri })).contents[0].blob.length).to.be.greaterThan(100);
      const refused = await bob.client.readResource({ uri: link.uri }).then(() => null, (error) => error);
      expect(refused).to.be.an('error');
      expect(refused.code).to.equal(-32002);
      expect(refused.message).to.include('only the files its own calls saved');
      expect((await bob.client.listResources()).resources).to.deep.equal([]);
    } finally {
      await serve.stop();
    }
  });
});
