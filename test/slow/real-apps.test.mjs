// The real third-party apps the reply-quality tests run on are installed and served, and render through the tools.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { missingApps, startRealAppServer } from '../helpers/real-apps.mjs';
import { firstTab, startServer } from '../helpers/mcp-client.mjs';

describe('real apps: installed, served from 127.0.0.1 and readable through the tools', function () {
  let apps;
  let server;
  let tabId;
  let savedPdf;

  /** Page text once it contains `expected`: apps render after load, so poll the page text (bounded). */
  async function textOnceRendered(expected) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const text = server.text(await server.ok('get_page_text', { tabId }));
      if (text.includes(expected) || Date.now() > deadline) return text;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  before(async function () {
    expect(missingApps(), 'run scripts/install-test-apps.sh and npm ci').to.deep.equal([]);
    apps = await startRealAppServer({
      '/invoice': (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Invoice 42</title><h1>Invoice 42</h1><p>Total: 99 EUR</p>'),
      '/saved.pdf': (req, res) => res.writeHead(200, { 'content-type': 'application/pdf' }).end(readFileSync(savedPdf)),
    });
    server = await startServer();
    tabId = await firstTab(server);
  });
  after(async function () {
    await server?.close();
    await apps?.close();
  });

  const cases = [
    ['Shoelace web components', '/apps/shoelace.html', 'I agree to the terms'],
    ['ag-grid-community data grid', '/apps/grid.html', 'Vandelay 1'],
    ['Swagger UI', '/apps/swagger.html', 'Find an order by id'],
    ['the Python 3.11 docs (Debian python3.11-doc)', '/pydocs/library/json.html', 'json.dumps'],
    ['CodeMirror', '/apps/codemirror.html', 'const answer = 41;'],
    ['Monaco', '/apps/monaco.html', 'function greet(name)'],
    ['the pdf.js viewer (Debian libjs-pdf)', '/pdfjs/web/viewer.html?file=/apps/sample.pdf', 'Quarterly report, page 1 of 3'],
  ];
  for (const [name, path, expected] of cases) {
    it(`renders ${name}`, async function () {
      await server.ok('navigate', { tabId, url: apps.url(path) });
      expect(await textOnceRendered(expected)).to.include(expected);
    });
  }

  it('lists ag-grid column headers with refs, and a click on one sorts the grid', async function () {
    await server.ok('navigate', { tabId, url: apps.url('/apps/grid.html') });
    await textOnceRendered('Vandelay 1');
    const snapshot = server.text(await server.ok('read_page', { tabId }));
    const amount = /columnheader "Amount" \[ref=(ref_\d+)\]/.exec(snapshot);
    expect(amount, snapshot.slice(0, 600)).to.not.equal(null);
    const clicked = server.text(await server.ok('computer', { tabId, action: 'left_click', ref: amount[1] }));
    expect(clicked).to.include('Sorted by amount asc');
  });

  it('save_pdf writes a PDF that reads back as the page in the pdf.js viewer', async function () {
    const pdf = await startServer({ args: ['--isolated', '--caps', 'pdf'] });
    try {
      const pdfTab = await firstTab(pdf);
      await pdf.ok('navigate', { tabId: pdfTab, url: apps.url('/invoice') });
      savedPdf = (await pdf.ok('save_pdf', { tabId: pdfTab, filename: 'invoice' })).structuredContent.path;
      // What a user opening the file sees: Debian's pdf.js viewer shows the invoice's text.
      await pdf.ok('navigate', { tabId: pdfTab, url: apps.url('/pdfjs/web/viewer.html?file=/saved.pdf') });
      await pdf.ok('wait_for', { tabId: pdfTab, text: 'Total: 99 EUR' });
      expect(pdf.text(await pdf.ok('get_page_text', { tabId: pdfTab }))).to.include('Invoice 42');
    } finally {
      await pdf.close();
    }
  });
});
