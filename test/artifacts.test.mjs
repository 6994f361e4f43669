// Artifacts: the page saved as a PDF into the output dir (--caps pdf), never outside it.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { firstTab, startServer } from './helpers/mcp-client.mjs';

describe('artifacts: save_pdf', function () {
  this.timeout(120_000);
  let app;
  let port;
  before(async function () {
    app = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Invoice 42</title><h1>Invoice 42</h1><p>Total: 99 EUR</p>');
    });
    await new Promise((resolve) => app.listen(0, '127.0.0.1', resolve));
    port = app.address().port;
  });
  after(async function () {
    await new Promise((resolve) => app?.close(resolve));
  });

  it('writes a PDF of the page into the output dir and says where', async function () {
    const server = await startServer({ args: ['--isolated', '--caps', 'pdf'] });
    try {
      const tabId = await firstTab(server);
      await server.ok('navigate', { tabId, url: `http://127.0.0.1:${port}/` });
      const saved = await server.ok('save_pdf', { tabId, filename: 'invoice' });
      const { path, bytes } = saved.structuredContent;
      expect(dirname(path)).to.equal(server.outputDir);
      expect(path.endsWith('invoice.pdf')).to.equal(true);
      const file = readFileSync(path);
      expect(file.subarray(0, 5).toString()).to.equal('%PDF-');
      expect(file.length).to.equal(bytes).and.be.greaterThan(1000);
      expect(server.text(saved)).to.include(path);
      // A name is kept to one segment inside the output dir.
      const outside = await server.ok('save_pdf', { tabId, filename: '../escape' });
      expect(outside.structuredContent.path).to.equal(join(server.outputDir, 'escape.pdf'));
    } finally {
      await server.close();
    }
  });
});
