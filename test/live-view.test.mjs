// Issue 40 items 1 and 2, as people use them: an agent's session with --live-port, and a person's side that is a
// second headless Firefox driven through firefox-use's own tools. The person opens the live view, sees the agent's
// tab change frame by frame (and nothing sent once it is still), takes the hand-off request_human makes, clicks into
// the picture and types into the page, presses Done with a note; the agent's call returns with the change. Also the
// timeout, a call refused on a held tab, input refused while no hand-off holds the tab, and /live's token, Host and
// Origin rules under serve.
import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { startFixtureServer } from './helpers/fixtures.mjs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { CLI, firstTab, startServer } from './helpers/mcp-client.mjs';
import { closeAfterEach, refOf } from './helpers/browser-suite.mjs';
import { freePort, startServe } from './helpers/http-server.mjs';
import { firefoxPids, trackPid, waitFor } from './helpers/processes.mjs';

const COUNTER = `<!doctype html><title>Counter page</title>
<style>body{font:20px sans-serif;margin:0} #n{position:absolute;left:40px;top:30px;font-size:48px} #field{position:absolute;left:40px;top:200px;width:320px;height:40px;font-size:20px} #halt{position:absolute;left:40px;top:300px;font-size:20px}</style>
<div id="n">0</div><input id="field" aria-label="Person field"><button id="halt">Stop</button>
<script>let n = 0; const t = setInterval(() => { n++; document.getElementById('n').textContent = String(n); }, 100);
document.getElementById('halt').onclick = () => { clearInterval(t); document.title = 'Counter stopped'; };</script>`;

const ASKING = `<!doctype html><title>Asking page</title>
<button id="ask" style="position:absolute;left:20px;top:20px;width:200px;height:60px">Delete</button><p id="out" style="position:absolute;top:120px">untouched</p>
<script>document.getElementById('ask').onclick = () => { document.getElementById('out').textContent = confirm('Really delete?') ? 'deleted' : 'kept'; };</script>`;

/** A raw HTTP GET with the headers given (fetch will not send another Host). */
function get(port, path, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The session's trace once it holds `text` (it is rewritten at most twice a second). */
async function traceHolding(dir, text) {
  return waitFor(() => {
    const name = readdirSync(dir).find((entry) => /^trace-.*\.html$/.test(entry));
    const html = name ? readFileSync(join(dir, name), 'utf8') : '';
    return html.includes(text) ? html : null;
  }, 10_000);
}

/** The live view's frame counter as the person's page shows it: "frames: 37 · 7.5/s". */
async function framesSeen(person, tabId) {
  const text = person.text(await person.ok('get_page_text', { tabId }));
  const match = /frames: (\d+) · ([\d.]+)\/s/.exec(text);
  return { count: match ? Number(match[1]) : 0, rate: match ? Number(match[2]) : 0, text };
}

describe('the live view and request_human (a second Firefox as the person)', function () {
  this.timeout(180_000);
  let site;
  before(async () => {
    site = await startFixtureServer({
      '/counter': (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(COUNTER),
      '/asking': (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ASKING),
    });
  });
  after(async () => site?.close());
  const own = closeAfterEach();

  it('shows the tab changing frame by frame, hands it to the person, and returns their change and note', async function () {
    const livePort = await freePort();
    const agent = own(await startServer({ args: ['--isolated', '--save-trace', '--live-port', String(livePort)] }));
    const liveUrl = await waitFor(() => /live view of this session at (http:\/\/127\.0\.0\.1:\d+\/live\/s\/[0-9a-f-]+)/.exec(agent.stderr)?.[1], 10_000);
    expect(liveUrl, agent.stderr).to.be.a('string');
    const tabId = await firstTab(agent);
    await agent.ok('navigate', { tabId, url: site.url('/counter') });

    const person = own(await startServer({ args: ['--isolated'] }));
    const personTab = await firstTab(person);
    await person.ok('navigate', { tabId: personTab, url: liveUrl });
    // The counter changes ten times a second: the view gets at least 5 frames a second.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const first = await framesSeen(person, personTab);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const second = await framesSeen(person, personTab);
    const perSecond = (second.count - first.count) / 2;
    console.log(`      frames seen while the page changes: ${perSecond.toFixed(1)} a second (the view says ${second.rate}/s)`);
    expect(perSecond).to.be.at.least(5);
    expect(second.text).to.include(site.url('/counter')).and.include('Counter page').and.include('navigate');

    // Still page: nothing sent. The agent's click shows in the calls list.
    const stop = refOf(agent.text(await agent.ok('find', { tabId, query: 'Stop button' })), /button "Stop"/);
    await agent.ok('computer', { tabId, action: 'left_click', ref: stop });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const still = await framesSeen(person, personTab);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const stillLater = await framesSeen(person, personTab);
    expect(stillLater.count, 'frames sent while the page is still').to.equal(still.count);
    expect(stillLater.text).to.include('computer left_click').and.include('Counter stopped');

    // Input is refused while no hand-off holds the tab.
    const viewId = liveUrl.split('/').pop();
    const refused = await fetch(`http://127.0.0.1:${livePort}/live/s/${viewId}/input`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tabId, input: { kind: 'text', text: 'sneaky' } }),
    });
    expect(refused.status).to.equal(409);

    // The hand-off.
    const handed = agent.call('request_human', { tabId, task: 'Type your name into the field, then press Done', timeoutSeconds: 90 });
    const shown = await waitFor(async () => {
      const text = person.text(await person.ok('get_page_text', { tabId: personTab }));
      return text.includes('The agent hands you this tab') && text.includes('Type your name into the field') ? text : null;
    }, 10_000);
    expect(shown).to.be.a('string');
    const held = await agent.call('read_page', { tabId });
    expect(held.isError).to.equal(true);
    expect(held.structuredContent.error.code).to.equal('held_by_person');
    expect(held.structuredContent.error.until).to.be.a('string');

    // The person clicks the field in the picture (its CSS point scaled to the picture's box), then types.
    const found = await person.ok('find', { tabId: personTab, query: 'The tab as it is now' });
    const picture = found.structuredContent.matches[0];
    expect(picture, person.text(found)).to.be.an('object');
    const { x, y, width } = picture.box;
    const k = width / 1280;
    await person.ok('computer', { tabId: personTab, action: 'left_click', coordinate: [Math.round(x + 200 * k), Math.round(y + 220 * k)] });
    await person.ok('computer', { tabId: personTab, action: 'type', text: 'Ada Lovelace' });
    await new Promise((resolve) => setTimeout(resolve, 800));
    const note = refOf(person.text(await person.ok('find', { tabId: personTab, query: 'note for the agent' })), /textbox/);
    await person.ok('computer', { tabId: personTab, action: 'type', ref: note, text: 'typed my name' });
    const done = refOf(person.text(await person.ok('find', { tabId: personTab, query: 'Done button' })), /button "Done"/);
    await person.ok('computer', { tabId: personTab, action: 'left_click', ref: done });

    const result = await handed;
    const text = agent.text(result);
    expect(result.isError, text).to.not.equal(true);
    expect(text).to.include('The person pressed Done in the live view').and.include('Their note: "typed my name"');
    expect(text).to.include('Ada Lovelace');
    expect(result.structuredContent).to.include({ done: true, via: 'live_view', note: 'typed my name' });
    expect(result.structuredContent.inputs).to.be.at.least(2);
    // The tab is the agent's again.
    const after = await agent.ok('read_page', { tabId, filter: 'interactive' });
    expect(agent.text(after)).to.include('Ada Lovelace');
    // The trace shows the hand-off like any call, with its outcome, the person's inputs and note.
    const trace = await traceHolding(agent.outputDir, 'Hand-off: done (in the live view)');
    expect(trace, 'the trace names the hand-off').to.be.a('string');
    expect(trace).to.match(/Hand-off: done \(in the live view\) · \d+ inputs by the person · their note: “typed my name”/);
  });

  it('times out with human_timeout and releases the hold; stdio without --live-port does not list request_human', async function () {
    const livePort = await freePort();
    const agent = own(await startServer({ args: ['--isolated', '--save-trace', '--live-port', String(livePort)] }));
    const tabId = await firstTab(agent);
    await agent.ok('navigate', { tabId, url: site.url('/counter') });
    const started = Date.now();
    const result = await agent.call('request_human', { tabId, task: 'Solve the puzzle', timeoutSeconds: 5 });
    expect(result.isError).to.equal(true);
    expect(result.structuredContent.error.code).to.equal('human_timeout');
    expect(Date.now() - started).to.be.within(4_500, 15_000);
    await agent.ok('read_page', { tabId });
    expect(await traceHolding(agent.outputDir, 'Hand-off: timed out (no Done in time) · 0 inputs by the person')).to.be.a('string');
    const bad = await agent.call('request_human', { tabId, task: '' });
    expect(bad.structuredContent.error).to.include({ code: 'invalid_arguments', field: 'task' });

    const plain = own(await startServer({ args: ['--isolated'] }));
    const { tools } = await plain.client.listTools();
    expect(tools.map((tool) => tool.name)).to.not.include('request_human');
  });

  it('lets the person answer a dialog their click opened during the hand-off', async function () {
    const livePort = await freePort();
    const agent = own(await startServer({ args: ['--isolated', '--live-port', String(livePort)] }));
    const viewId = await waitFor(() => /live view of this session at \S+\/live\/s\/(\S+)/.exec(agent.stderr)?.[1], 10_000);
    const tabId = await firstTab(agent);
    await agent.ok('navigate', { tabId, url: site.url('/asking') });
    const post = async (path, body) => (await fetch(`http://127.0.0.1:${livePort}/live/s/${viewId}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status;
    const handed = agent.call('request_human', { tabId, task: 'Delete it if you agree', timeoutSeconds: 60 });
    // Held once a dialog answer is refused for want of a dialog, not of a hand-off.
    const refusal = async () => (await (await fetch(`http://127.0.0.1:${livePort}/live/s/${viewId}/input`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tabId, input: { kind: 'dialog', accept: true } }) })).json()).message;
    expect(await waitFor(async () => /No dialog/.test(await refusal()), 10_000)).to.equal(true);
    expect(await post('input', { tabId, input: { kind: 'click', at: { x: 120, y: 50 }, button: 0, count: 1 } })).to.equal(200);
    expect(await waitFor(async () => (await post('input', { tabId, input: { kind: 'dialog', accept: true } })) === 200, 5_000)).to.equal(true);
    expect(await post('done', { tabId, note: null })).to.equal(200);
    const result = await handed;
    expect(result.isError, agent.text(result)).to.not.equal(true);
    expect(agent.text(result)).to.include('deleted');
    expect(result.structuredContent.inputs).to.equal(2);
    expect(await post('done', { tabId, note: null })).to.equal(409);
  });

  it('on a profile\'s shared browser, --live-port serves the daemon\'s view on loopback and the hand-off names it', async function () {
    const profile = mkdtempSync(join(tmpdir(), 'fu-live-profile-'));
    const env = { XDG_RUNTIME_DIR: mkdtempSync(join(tmpdir(), 'fu-live-run-')) };
    const livePort = await freePort();
    const agent = own(await startServer({ args: ['--profile', profile, '--live-port', String(livePort)], env }));
    const plain = own(await startServer({ args: ['--profile', profile], env }));
    const tabId = await firstTab(agent);
    expect(agent.stderr).to.include(`live view of the shared browser's sessions at http://127.0.0.1:${livePort}/live`);
    expect((await agent.client.listTools()).tools.map((tool) => tool.name)).to.include('request_human');
    expect((await plain.client.listTools()).tools.map((tool) => tool.name)).to.not.include('request_human');
    const sessions = await (await fetch(`http://127.0.0.1:${livePort}/live/sessions`)).json();
    const mine = sessions.find((session) => session.label === `mcp pid ${agent.pid()}` || session.tabs === 1);
    expect(mine, JSON.stringify(sessions)).to.be.an('object');
    const handed = agent.call('request_human', { tabId, task: 'Look', timeoutSeconds: 30 });
    const done = await waitFor(async () => {
      const answer = await fetch(`http://127.0.0.1:${livePort}/live/s/${mine.id}/done`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tabId, note: 'seen' }) });
      return answer.status === 200;
    }, 10_000);
    expect(done).to.equal(true);
    const result = await handed;
    expect(result.structuredContent).to.include({ done: true, note: 'seen' });
    // The daemon (and its Firefox) leaves a few seconds after its last agent.
    await agent.close();
    await plain.close();
    const onProfile = () => firefoxPids().filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(profile);
      } catch {
        return false;
      }
    });
    expect(await waitFor(() => onProfile().length === 0, 30_000, 200)).to.equal(true);
  });

  it('offers the hand-off through the client (elicitation) with the view\'s URL: accepting is Done, declining is human_declined', async function () {
    const livePort = await freePort();
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--isolated', '--output-dir', mkdtempSync(join(tmpdir(), 'fu-out-')), '--live-port', String(livePort)], stderr: 'pipe' });
    const client = new Client({ name: 'hand-off-tests', version: '0.0.0' }, { capabilities: { elicitation: { form: {} } } });
    const asked = [];
    const answers = [() => ({ action: 'accept', content: { note: 'did it in the client' } }), () => ({ action: 'decline' })];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      return answers.shift()(request.params);
    });
    await client.connect(transport);
    if (transport.pid) trackPid(transport.pid);
    own({ close: () => client.close().catch(() => undefined) });
    const tabId = (await client.callTool({ name: 'tabs_context_mcp', arguments: { createIfEmpty: true } })).structuredContent.tabs[0].tabId;
    const accepted = await client.callTool({ name: 'request_human', arguments: { tabId, task: 'Approve the payment', timeoutSeconds: 30 } });
    expect(accepted.structuredContent).to.include({ done: true, via: 'client', note: 'did it in the client' });
    expect(asked[0].message).to.include('Approve the payment').and.match(new RegExp(`http://127\\.0\\.0\\.1:${livePort}/live/s/[0-9a-f-]{36}`));
    const declined = await client.callTool({ name: 'request_human', arguments: { tabId, task: 'Approve again', timeoutSeconds: 30 } });
    expect(declined.structuredContent.error.code).to.equal('human_declined');
    // Released: the tab takes calls again.
    expect((await client.callTool({ name: 'read_page', arguments: { tabId } })).isError).to.not.equal(true);
  });

  it('serve: /live follows the token, Host and Origin rules of /mcp and lists the sessions', async function () {
    const token = 'live-token-0123456789';
    const serve = await startServe({ args: ['--isolated', '--token', token] });
    try {
      const client = await serve.connect({ requestInit: { headers: { authorization: `Bearer ${token}` } } });
      const tabId = (await client.ok('tabs_context_mcp', { createIfEmpty: true })).structuredContent.tabs[0].tabId;
      const { tools } = await client.client.listTools();
      expect(tools.map((tool) => tool.name)).to.include('request_human');
      expect((await get(serve.port, '/live')).status).to.equal(403);
      expect((await get(serve.port, '/live?token=wrong-token-0123456789')).status).to.equal(403);
      const page = await get(serve.port, `/live?token=${token}`);
      expect(page.status).to.equal(200);
      expect(page.headers['content-security-policy']).to.match(/default-src 'none'/).and.match(/script-src 'sha256-/);
      expect(page.body).to.include('live view');
      expect((await get(serve.port, `/live?token=${token}`, { host: 'evil.example:80' })).status).to.equal(403);
      expect((await get(serve.port, `/live?token=${token}`, { origin: 'http://evil.example' })).status).to.equal(403);
      const list = await get(serve.port, '/live/sessions', { authorization: `Bearer ${token}` });
      expect(list.status).to.equal(200);
      const sessions = JSON.parse(list.body);
      expect(sessions).to.have.length(1);
      expect(sessions[0]).to.include({ tabs: 1 });
      // Its view's stream starts with the calls so far and the tab.
      const events = await new Promise((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: serve.port, path: `/live/s/${sessions[0].id}/events?token=${token}` }, (res) => {
          let body = '';
          res.on('data', (chunk) => {
            body += chunk;
            if (body.includes('event: hello')) {
              req.destroy();
              resolve({ status: res.statusCode, body });
            }
          });
        });
        req.on('error', reject);
        req.end();
      });
      expect(events.status).to.equal(200);
      expect(events.body).to.include('tabs_context_mcp').and.include(`"tabId":${tabId}`);
    } finally {
      await serve.stop();
    }
  });
});
