// Issue 40 item 3, ask before acting: under --confirm-actions a matching click waits for a person's yes, asked
// through MCP elicitation, before anything is dispatched; a no (or nobody to ask) is not_confirmed with the page
// untouched, read back from the page itself.
import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { startFixtureServer } from './helpers/fixtures.mjs';
import { startServe } from './helpers/http-server.mjs';
import { CLI, startServer } from './helpers/mcp-client.mjs';
import { trackPid } from './helpers/processes.mjs';

const SHOP = `<!doctype html><meta charset="utf-8"><title>shop</title>
  <p id="status">nothing pressed</p>
  <button onclick="document.getElementById('status').textContent = 'bought'">Buy now</button>
  <button onclick="document.getElementById('status').textContent = 'details shown'">Show details</button>
  <form onsubmit="event.preventDefault(); document.getElementById('status').textContent = 'sent ' + this.q.value">
    <label>Search <input name="q"></label> <button>Send</button>
  </form>`;

/**
 * `firefox-use mcp` with a client that can be asked (elicitation): each question is answered by the next of
 * `answers` (a function of the request's params), and kept in `asked`.
 */
async function startAskingServer(args) {
  const outputDir = mkdtempSync(join(tmpdir(), 'fu-out-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--isolated', '--output-dir', outputDir, ...args],
    env: { ...process.env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => (stderr += chunk));
  const client = new Client({ name: 'confirm-tests', version: '0.0.0' }, { capabilities: { elicitation: { form: {} } } });
  const asked = [];
  const answers = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params);
    const answer = answers.shift();
    if (!answer) throw new Error('the test did not expect a question');
    return answer(request.params);
  });
  await client.connect(transport);
  if (transport.pid) trackPid(transport.pid);
  return {
    outputDir,
    asked,
    answers,
    call: (name, args2) => client.callTool({ name, arguments: args2 }),
    get stderr() {
      return stderr;
    },
    close: () => client.close().catch(() => undefined),
  };
}

const yes = () => ({ action: 'accept', content: { confirm: true } });
const no = () => ({ action: 'decline' });

/** The page's own text: what was pressed, read back. */
async function statusOf(server, tabId) {
  const page = await server.call('get_page_text', { tabId });
  expect(page.isError, JSON.stringify(page.content)).to.not.equal(true);
  return page.content[0].text;
}

async function refOf(server, tabId, query) {
  const found = await server.call('find', { tabId, query });
  expect(found.isError, JSON.stringify(found.content)).to.not.equal(true);
  return found.structuredContent.matches[0];
}

describe('--confirm-actions: ask before acting, through MCP elicitation', function () {
  this.timeout(120_000);
  let site;
  let server;
  before(async () => {
    site = await startFixtureServer({ '/shop': (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(SHOP) });
    server = await startAskingServer(['--confirm-actions', 'submit,purchase', '--confirm-timeout', '2']);
  });
  after(async () => {
    await server?.close();
    await site?.close();
  });

  async function shop() {
    const created = await server.call('tabs_create_mcp', { url: site.url('/shop') });
    expect(created.isError, JSON.stringify(created.content)).to.not.equal(true);
    return created.structuredContent.tabId;
  }

  it('a click on "Buy now" answered no is not_confirmed, and the button was not pressed', async function () {
    const tabId = await shop();
    const buy = await refOf(server, tabId, 'Buy now button');
    server.answers.push(no);
    const result = await server.call('computer', { tabId, action: 'left_click', ref: buy.ref });
    expect(result.isError).to.equal(true);
    expect(result.structuredContent.error).to.include({ code: 'not_confirmed', answer: 'no' });
    expect(result.structuredContent.error.kinds).to.deep.equal(['purchase']);
    expect(server.asked).to.have.length(1);
    const message = server.asked[0].message;
    expect(message).to.match(/left_click on button "Buy now"/).and.to.include(new URL(site.url('/')).origin).and.to.match(/purchase/);
    expect(message).to.not.include('\n');
    expect(await statusOf(server, tabId)).to.include('nothing pressed').and.not.include('bought');
  });

  it('answered yes, the click goes on and presses it; by coordinate too', async function () {
    const tabId = await shop();
    const buy = await refOf(server, tabId, 'Buy now button');
    server.answers.push(yes);
    const result = await server.call('computer', { tabId, action: 'left_click', ref: buy.ref });
    expect(result.isError, JSON.stringify(result.content)).to.not.equal(true);
    expect(await statusOf(server, tabId)).to.include('bought');

    const again = await shop();
    const { box } = await refOf(server, again, 'Buy now button');
    const before = server.asked.length;
    server.answers.push(no);
    const refused = await server.call('computer', { tabId: again, action: 'left_click', coordinate: [box.x + box.width / 2, box.y + box.height / 2] });
    expect(refused.structuredContent.error).to.include({ code: 'not_confirmed' });
    expect(server.asked.length).to.equal(before + 1);
    expect(server.asked.at(-1).message).to.match(/left_click on button "Buy now" at \(\d+, \d+\)/);
    expect(await statusOf(server, again)).to.include('nothing pressed');
  });

  it('a click on a harmless button asks nothing', async function () {
    const tabId = await shop();
    const before = server.asked.length;
    const details = await refOf(server, tabId, 'Show details button');
    const result = await server.call('computer', { tabId, action: 'left_click', ref: details.ref });
    expect(result.isError, JSON.stringify(result.content)).to.not.equal(true);
    expect(server.asked.length).to.equal(before);
    expect(await statusOf(server, tabId)).to.include('details shown');
  });

  it('submit: Enter in a field of a form is asked about; no answer in time (--confirm-timeout) is not_confirmed', async function () {
    const tabId = await shop();
    const field = await refOf(server, tabId, 'Search textbox');
    const typed = await server.call('computer', { tabId, action: 'type', ref: field.ref, text: 'socks' });
    expect(typed.isError, JSON.stringify(typed.content)).to.not.equal(true);
    // The person never answers: the server gives up after 2 s.
    server.answers.push(() => new Promise((resolve) => setTimeout(() => resolve(no()), 4_000)));
    const started = Date.now();
    const result = await server.call('computer', { tabId, action: 'key', text: 'Enter' });
    expect(result.structuredContent?.error, JSON.stringify(result.content)).to.include({ code: 'not_confirmed', answer: 'timeout' });
    expect(Date.now() - started).to.be.within(1_500, 3_900);
    expect(server.asked.at(-1).message).to.match(/key "Enter" in textbox "Search"/).and.to.match(/submit/);
    expect(await statusOf(server, tabId)).to.include('nothing pressed').and.not.include('sent');
    // Answered yes, the same Enter submits the form.
    server.answers.push(yes);
    const sent = await server.call('computer', { tabId, action: 'key', text: 'Enter' });
    expect(sent.isError, JSON.stringify(sent.content)).to.not.equal(true);
    expect(await statusOf(server, tabId)).to.include('sent socks');
  });

  it('a stale ref is refused by the normal checks before anyone is asked', async function () {
    const tabId = await shop();
    const before = server.asked.length;
    const result = await server.call('computer', { tabId, action: 'left_click', ref: 'ref_99999' });
    expect(result.structuredContent.error.code).to.equal('ref_stale');
    expect(server.asked.length).to.equal(before);
  });
});

describe('--confirm-actions upload,navigate-away on one origin (--confirm-origins)', function () {
  this.timeout(120_000);
  let site;
  let server;
  const UPLOAD = `<!doctype html><meta charset="utf-8"><title>upload</title><p id="status">nothing chosen</p>
    <label>Receipt <input type="file" onchange="document.getElementById('status').textContent = 'chose ' + this.files.length"></label>`;
  before(async () => {
    site = await startFixtureServer({ '/upload': (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(UPLOAD) });
    server = await startAskingServer(['--confirm-actions', 'upload,navigate-away', '--confirm-origins', new URL(site.url('/')).origin]);
  });
  after(async () => {
    await server?.close();
    await site?.close();
  });

  it('file_upload answered no sets no file; a navigation to another site answered no stays; one on the same site asks nothing', async function () {
    const file = join(server.outputDir, 'receipt.txt');
    writeFileSync(file, 'paid');
    const tabId = (await server.call('tabs_create_mcp', { url: site.url('/upload') })).structuredContent.tabId;
    server.answers.push(no);
    const upload = await server.call('file_upload', { tabId, paths: [file] });
    expect(upload.structuredContent?.error, JSON.stringify(upload.content)).to.include({ code: 'not_confirmed', answer: 'no' });
    expect(server.asked.at(-1).message).to.match(/file_upload into textbox "Receipt"|file_upload into .*Receipt/).and.to.match(/upload\)$/);
    expect(await statusOf(server, tabId)).to.include('nothing chosen');
    server.answers.push(yes);
    await server.call('file_upload', { tabId, paths: [file] });
    expect(await statusOf(server, tabId)).to.include('chose 1');

    // 127.0.0.1 and localhost are two sites.
    const away = site.url('/upload').replace('127.0.0.1', 'localhost');
    server.answers.push(no);
    const left = await server.call('navigate', { tabId, url: away });
    expect(left.structuredContent?.error, JSON.stringify(left.content)).to.include({ code: 'not_confirmed' });
    expect(server.asked.at(-1).message).to.include(`loading ${away}`).and.to.match(/navigate-away\)$/);
    const { tabs } = (await server.call('tabs_context_mcp', {})).structuredContent;
    expect(tabs.find((tab) => tab.tabId === tabId).url).to.equal(site.url('/upload'));
    const asked = server.asked.length;
    const stayed = await server.call('navigate', { tabId, url: site.url('/upload?again') });
    expect(stayed.isError, JSON.stringify(stayed.content)).to.not.equal(true);
    expect(server.asked.length).to.equal(asked);
  });
});

describe('--confirm-actions with a client that cannot be asked', function () {
  this.timeout(120_000);
  let site;
  let server;
  before(async () => {
    site = await startFixtureServer({ '/shop': (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(SHOP) });
    server = await startServer({ args: ['--isolated', '--confirm-actions', 'purchase'] });
  });
  after(async () => {
    await server?.close();
    await site?.close();
  });

  it('refuses the matching click with not_confirmed, saying nobody could be asked; the page is untouched', async function () {
    const tabId = (await server.ok('tabs_create_mcp', { url: site.url('/shop') })).structuredContent.tabId;
    const buy = (await server.ok('find', { tabId, query: 'Buy now button' })).structuredContent.matches[0];
    const result = await server.call('computer', { tabId, action: 'left_click', ref: buy.ref });
    expect(result.structuredContent.error).to.include({ code: 'not_confirmed', answer: 'unavailable' });
    expect(server.text(result)).to.match(/does not support elicitation/);
    expect((await server.ok('get_page_text', { tabId })).content[0].text).to.include('nothing pressed');
    const harmless = (await server.ok('find', { tabId, query: 'Show details button' })).structuredContent.matches[0];
    await server.ok('computer', { tabId, action: 'left_click', ref: harmless.ref });
  });
});

describe('--confirm-actions under serve: each HTTP session asks its own client', function () {
  this.timeout(120_000);
  let site;
  let serve;
  before(async () => {
    site = await startFixtureServer({ '/shop': (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(SHOP) });
    serve = await startServe({ args: ['--isolated', '--confirm-actions', 'purchase'] });
  });
  after(async () => {
    await serve?.stop();
    await site?.close();
  });

  it('the question reaches the client that made the call, and its no leaves the page untouched', async function () {
    const client = new Client({ name: 'confirm-tests', version: '0.0.0' }, { capabilities: { elicitation: { form: {} } } });
    const asked = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => (asked.push(request.params.message), { action: 'decline' }));
    await client.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
    try {
      const call = (name, args) => client.callTool({ name, arguments: args });
      const tabId = (await call('tabs_create_mcp', { url: site.url('/shop') })).structuredContent.tabId;
      const buy = (await call('find', { tabId, query: 'Buy now button' })).structuredContent.matches[0];
      const result = await call('computer', { tabId, action: 'left_click', ref: buy.ref });
      expect(result.structuredContent?.error, JSON.stringify(result.content)).to.include({ code: 'not_confirmed', answer: 'no' });
      expect(asked).to.have.length(1);
      expect(asked[0]).to.match(/left_click on button "Buy now"/);
      expect((await call('get_page_text', { tabId })).content[0].text).to.include('nothing pressed');
    } finally {
      await client.close().catch(() => undefined);
    }
  });
});
