// Issue 40 item 4, the trace: an MCP session with --save-trace on a page the test serves (its title and text hold
// `<script>` and quotes) writes one HTML file in the output dir, rewritten as the session goes: every call with its
// reply, the password typed nowhere in it, the page's strings escaped, one picture per acting call. Then the same
// Firefox opens the file through `firefox-use show-trace` and reads the calls back.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFixtureServer } from './helpers/fixtures.mjs';
import { CLI, cli, firstTab, startServer } from './helpers/mcp-client.mjs';
import { closeAfterEach, refOf } from './helpers/browser-suite.mjs';
import { startServe } from './helpers/http-server.mjs';
import { trackPid, waitFor } from './helpers/processes.mjs';

const PASSWORD = 'hunter2-trace-SECRET';
/** Typed at the focus (no ref) after a click into the password field. */
const PASSWORD_AT_FOCUS = 'second-SECRET-at-focus';
const CODE = 'visible-code-42';
const PAGE = `<!doctype html><title><script>alert("t")</script> Checkout & 'quotes'</title>
<style>body{font:16px/1.4 sans-serif;margin:24px} label{display:block;margin:10px 0} #lane{height:90px;background:#e8ecf4;border-radius:8px;margin-top:16px}</style>
<h1>Checkout</h1>
<p id="out">Press Go. The shop says: &lt;script&gt;steal("x")&lt;/script&gt;</p>
<label>Code <input id="code"></label>
<label>Password <input id="pw" type="password"></label>
<button id="go">Go</button>
<div id="lane">Drag lane</div>
<script>go.onclick = () => { out.textContent = 'Clicked <scr' + 'ipt>x</scr' + 'ipt> "ok"'; };</script>`;

function traceFile(dir) {
  const name = readdirSync(dir).find((entry) => /^trace-.*\.html$/.test(entry));
  return name ? join(dir, name) : null;
}

/** `firefox-use show-trace FILE`: resolves with its URL once it listens, and the process to stop. */
async function showTrace(file, outputDir) {
  const cwd = mkdtempSync(join(tmpdir(), 'fu-show-'));
  const child = spawn(process.execPath, [CLI, 'show-trace', file, '--output-dir', outputDir], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  trackPid(child.pid);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = await waitFor(() => /^http:\/\/127\.0\.0\.1:\d+\/$/m.exec(stdout)?.[0], 10_000);
  if (!url) throw new Error(`show-trace did not start: ${stderr}`);
  return {
    url,
    async close() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

describe('--save-trace: the session as one HTML file, and show-trace', function () {
  this.timeout(120_000);
  let site;
  before(async () => {
    site = await startFixtureServer({ '/checkout': (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE) });
  });
  after(async () => site?.close());
  const own = closeAfterEach();

  it('lists every call with its reply, escapes the page, hides the password, and pictures each action; show-trace serves it to Firefox', async function () {
    const server = own(await startServer({ args: ['--isolated', '--save-trace'] }));
    const tabId = await firstTab(server);
    await server.ok('navigate', { tabId, url: site.url('/checkout') });
    const tree = server.text(await server.ok('read_page', { tabId, filter: 'interactive' }));
    const go = refOf(tree, /button "Go"/);
    const code = refOf(tree, /textbox "Code"/);
    const password = refOf(tree, /textbox "Password"/);
    expect(tree).to.include('[password]');
    await server.ok('computer', { tabId, action: 'left_click', ref: go });
    await server.ok('computer', { tabId, action: 'type', ref: code, text: CODE });
    await server.ok('computer', { tabId, action: 'type', ref: password, text: PASSWORD });
    await server.ok('computer', { tabId, action: 'left_click', ref: password });
    await server.ok('computer', { tabId, action: 'type', text: PASSWORD_AT_FOCUS });
    await server.ok('computer', { tabId, action: 'left_click_drag', start_coordinate: [80, 330], coordinate: [420, 350] });
    const failed = await server.call('computer', { tabId, action: 'left_click', ref: 'ref_99999' });
    expect(failed.isError).to.equal(true);
    const failedCode = failed.structuredContent.error.code;
    const calls = 10;
    const acting = 8; // navigate, two clicks, three types, the drag, the failed click

    // Rewritten as the session goes: it holds the last call and all its pictures a moment later.
    let html = '';
    const written = await waitFor(() => {
      const path = traceFile(server.outputDir);
      if (!path) return null;
      html = readFileSync(path, 'utf8');
      return html.includes(`id="call-${calls}"`) && !html.includes('Taking the picture') ? path : null;
    }, 20_000);
    expect(written, 'the trace file in the output dir').to.be.a('string');
    expect(statSync(written).size).to.be.below(3 * 1024 * 1024);
    expect(statSync(written).mode & 0o777).to.equal(0o600);

    // Every call, its reply, its outcome.
    for (let id = 1; id <= calls; id++) expect(html, `call ${id}`).to.include(`id="call-${id}"`);
    for (const tool of ['tabs_context_mcp', 'navigate', 'read_page', 'left_click', 'type', 'left_click_drag']) expect(html).to.include(tool);
    expect(html).to.include(`class="call bad" id="call-${calls}"`);
    expect(html).to.include(failedCode);
    expect(html).to.include('delivered');
    expect(html).to.include(`${calls} calls</b> (1 failed)`);
    // The text typed into the code field is shown; the password is not, only its length.
    expect(html).to.include(CODE);
    expect(html).not.to.include(PASSWORD);
    expect(html).not.to.include(PASSWORD_AT_FOCUS);
    expect(html).to.include(`${PASSWORD_AT_FOCUS.length} characters, hidden`);
    expect(html).to.include(`${PASSWORD.length} characters, hidden`);
    // What the page wrote is text in the file, never markup: no script tag at all, the quotes as entities.
    expect(html).not.to.match(/<script/i);
    expect(html).to.include('&lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt;');
    expect(html).to.include('&#39;quotes&#39;');
    expect(html).to.match(/Clicked &lt;script&gt;x&lt;\/script&gt;/);
    // One picture per acting call, none for the looks; the click point and the drag are drawn and captioned.
    expect(html.match(/<img src="data:image\/jpeg;base64,/g)).to.have.length(acting);
    expect(html).to.include(`${acting} pictures</b> (budget 200)`);
    expect(html).to.include('drag from (80, 330) to (420, 350)');
    expect(html).to.match(/left_click at \(\d+, \d+\)/);

    // show-trace serves only files in the working directory or the output dir.
    const refused = await cli(['show-trace', '/etc/hostname']);
    expect(refused.code).to.equal(2);
    expect(refused.stderr).to.include('outside the working directory');

    // The same Firefox reads it back through show-trace's server (file: URLs are refused by default).
    const shown = await showTrace(written, server.outputDir);
    try {
      await server.ok('navigate', { tabId, url: shown.url });
      const text = server.text(await server.ok('get_page_text', { tabId }));
      expect(text).to.include('firefox-use trace');
      for (const tool of ['tabs_context_mcp', 'navigate', 'read_page', 'left_click_drag', failedCode]) expect(text).to.include(tool);
      expect(text).to.include('<script>alert("t")</script>');
      expect(text).not.to.include(PASSWORD);
      const headings = server.text(await server.ok('find', { tabId, query: 'heading computer' }));
      expect(headings).to.include('heading');
      const shot = await server.ok('computer', { tabId, action: 'screenshot', save_to_disk: true });
      // For the docs' picture: FIREFOX_USE_TRACE_SHOT=path keeps a copy of the screenshot of the opened trace.
      if (process.env.FIREFOX_USE_TRACE_SHOT) copyFileSync(shot.structuredContent.savedTo, process.env.FIREFOX_USE_TRACE_SHOT);
    } finally {
      await shown.close();
    }
  });

  it('serve: each MCP session writes its own trace, in its own output folder, and the last write survives the session', async function () {
    const serve = own(await startServe({ args: ['--isolated', '--save-trace'] }));
    const [a, b] = [await serve.connect(), await serve.connect()];
    const tabA = (await a.ok('tabs_create_mcp', { url: site.url('/checkout') })).structuredContent.tabId;
    await b.ok('tabs_context_mcp', { createIfEmpty: true });
    await a.ok('computer', { tabId: tabA, action: 'left_click', coordinate: [40, 200] });
    await a.end();
    await b.end();
    const traces = () => {
      const sessions = join(serve.outputDir, 'sessions');
      return readdirSync(sessions).map((dir) => traceFile(join(sessions, dir))).filter(Boolean);
    };
    const files = await waitFor(() => {
      const found = traces();
      const done = (text) => text.includes('id="call-2"') && !text.includes('chip run') && !text.includes('Taking the picture');
      return found.length === 2 && found.some((path) => done(readFileSync(path, 'utf8'))) ? found : null;
    }, 15_000);
    expect(files, serve.stderr).to.have.length(2);
    const texts = files.map((path) => readFileSync(path, 'utf8'));
    const first = texts.find((text) => text.includes('tabs_create_mcp'));
    expect(first).to.include('left_click at (40, 200)');
    expect(first.match(/<img src="data:image\/jpeg;base64,/g)).to.have.length(2);
    expect(texts.find((text) => text !== first)).to.include('tabs_context_mcp').and.not.include('tabs_create_mcp');
  });
});
