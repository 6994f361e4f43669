// --webdriver-url against a real Selenium Grid 4: the Selenium Server jar from the npm package
// @nightwatch/selenium-server, started by the test as a hub and two nodes (Java 17). The node's Firefox driver is the
// repo's geckodriver-like endpoint (test/helpers/fake-geckodriver.mjs, which launches the real Firefox per session),
// since geckodriver cannot be downloaded here. regress spreads its workers over two Grid slots, run and mcp go
// through the Grid's own BiDi proxy (ws://GRID/session/ID/se/bidi), serve gives each MCP session a Grid session of its
// own, spread over both nodes; every session is deleted and nothing is left.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFixtureServer } from '../helpers/fixtures.mjs';
import { startServe } from '../helpers/http-server.mjs';
import { cli, firstTab, startServer } from '../helpers/mcp-client.mjs';
import { alive, waitFor } from '../helpers/processes.mjs';

const JAR = createRequire(import.meta.url)('@nightwatch/selenium-server').path;
const DRIVER = fileURLToPath(new URL('../helpers/fake-geckodriver.mjs', import.meta.url));

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function java(args, log) {
  const child = spawn('java', ['-jar', JAR, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = [];
  const take = (chunk) => lines.push(...String(chunk).split('\n').filter(Boolean));
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  child.on('exit', () => writeFileSync(log, lines.join('\n')));
  return { child, lines, exited: new Promise((resolve) => child.once('exit', resolve)) };
}

async function stop(proc) {
  if (!proc || proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  proc.child.kill('SIGTERM');
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), 10_000);
  await proc.exited;
  clearTimeout(timer);
}

const SLOTS_PER_NODE = 4;

describe('--webdriver-url against a real Selenium Grid 4 (hub + two nodes)', function () {
  this.timeout(300_000);
  let dir, hub, nodes, grid, fixtures;
  const status = async () => (await (await fetch(`${grid}/status`)).json()).value;
  /** Sessions the node created and stopped, from its own log lines. */
  const nodeSessions = () => {
    const lines = nodes.flatMap((node) => node.lines);
    return {
      created: lines.filter((l) => l.includes('Session created by the Node')).map((l) => /Id: ([\w-]+)/.exec(l)[1]),
      stopped: lines.filter((l) => l.includes('Stopping session')).map((l) => /session ([\w-]+)/.exec(l)[1]),
    };
  };
  const busySlots = async () => (await status()).nodes.flatMap((n) => n.slots).filter((s) => s.session).length;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fu-grid-'));
    fixtures = await startFixtureServer({
      // One agent's page: a field, and a button that greets by it.
      '/agent': (req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(
          '<!doctype html><title>agent</title><label>Name <input id="name"></label>' +
            '<button onclick="document.getElementById(\'out\').textContent = \'hello \' + document.getElementById(\'name\').value">Greet</button><p id="out"></p>',
        );
      },
    });
    const [hubPort, pub, sub] = [await freePort(), await freePort(), await freePort()];
    grid = `http://127.0.0.1:${hubPort}`;
    const bus = ['--publish-events', `tcp://127.0.0.1:${pub}`, '--subscribe-events', `tcp://127.0.0.1:${sub}`];
    writeFileSync(
      join(dir, 'node.toml'),
      ['[node]', 'detect-drivers = false', `max-sessions = ${SLOTS_PER_NODE}`, 'override-max-sessions = true', '', '[[node.driver-configuration]]', 'display-name = "firefox"', `max-sessions = ${SLOTS_PER_NODE}`,
        `webdriver-executable = ${JSON.stringify(DRIVER)}`, `stereotype = '{"browserName": "firefox", "platformName": "linux"}'`, ''].join('\n'),
    );
    hub = java(['hub', '--host', '127.0.0.1', '--port', String(hubPort), ...bus], join(dir, 'hub.log'));
    nodes = [];
    for (const name of ['node-a', 'node-b']) {
      const nodePort = await freePort();
      nodes.push(java(['node', '--config', join(dir, 'node.toml'), '--host', '127.0.0.1', '--port', String(nodePort), '--grid-url', grid, ...bus], join(dir, `${name}.log`)));
    }
    // The hub's own readiness: both nodes registered with their Firefox slots.
    const ready = await waitFor(async () => {
      try {
        const value = await status();
        return value.ready && value.nodes.filter((n) => n.slots.length === SLOTS_PER_NODE).length === 2;
      } catch {
        return false;
      }
    }, 120_000, 500);
    expect(ready, `the Grid came up (hub: ${hub.lines.slice(-3).join(' | ')}; nodes: ${nodes.map((n) => n.lines.slice(-2).join(' | ')).join(' ; ')})`).to.equal(true);
  });

  after(async () => {
    for (const node of nodes ?? []) await stop(node);
    await stop(hub);
    await fixtures?.close();
  });

  it('regress --workers 2 uses two Grid slots, matches a local run, and deletes both sessions', async () => {
    writeFileSync(join(dir, 'suite.yaml'), `base_url: ${fixtures.url('/')}\nviewports: [400x300, 320x480]\npages:\n  - {name: index, url: /index.html}\n  - {name: second, url: /second.html}\n`);
    const args = (report) => ['regress', join(dir, 'suite.yaml'), '--baseline-dir', join(dir, 'baselines'), '--report-dir', join(dir, report)];
    const local = await cli(args('local'));
    expect(local.code, local.stderr).to.equal(0);
    const before = nodeSessions().created.length;
    const remote = await cli([...args('grid'), '--webdriver-url', grid, '--workers', '2', '--ci']);
    expect(remote.code, remote.stderr).to.equal(0);
    const report = JSON.parse(readFileSync(join(dir, 'grid', 'report.json'), 'utf8'));
    expect(report.results.map((r) => [r.id, r.status, r.changedPixels])).to.deep.equal([
      ['index@320x480', 'passed', 0], ['index@400x300', 'passed', 0], ['second@320x480', 'passed', 0], ['second@400x300', 'passed', 0],
    ]);
    const { created, stopped } = nodeSessions();
    const ours = created.slice(before);
    expect(ours, 'one Grid session per worker').to.have.length(2);
    expect(await waitFor(() => ours.every((id) => nodeSessions().stopped.includes(id)), 20_000), `stopped: ${stopped}`).to.equal(true);
    expect(await waitFor(async () => (await busySlots()) === 0, 20_000), 'no Grid slot still busy').to.equal(true);
  });

  it('run: a script through the Grid, the session deleted at the end', async () => {
    const before = nodeSessions().created.length;
    writeFileSync(join(dir, 'script.json'), JSON.stringify([{ navigate: { url: fixtures.url('/index.html') } }, { get_page_text: {} }]));
    const result = await cli(['run', join(dir, 'script.json'), '--webdriver-url', grid]);
    expect(result.code, result.stderr).to.equal(0);
    const lines = result.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.ok)).to.deep.equal([true, true]);
    const id = nodeSessions().created[before];
    expect(await waitFor(() => nodeSessions().stopped.includes(id), 20_000)).to.equal(true);
  });

  it('mcp: tools over the Grid\'s BiDi proxy (se/bidi), the session deleted when the server exits', async () => {
    const before = nodeSessions().created.length;
    const server = await startServer({ args: ['--webdriver-url', grid] });
    try {
      const tabId = await firstTab(server);
      // What the Grid handed out for the session: its own relay, not the node's Firefox.
      const slot = (await status()).nodes.flatMap((n) => n.slots).find((s) => s.session);
      expect(slot.session.capabilities.webSocketUrl).to.equal(`${grid.replace('http:', 'ws:')}/session/${slot.session.sessionId}/se/bidi`);
      const nav = await server.ok('navigate', { url: fixtures.url('/index.html'), tabId });
      expect(nav.structuredContent.url).to.equal(fixtures.url('/index.html'));
      const shot = await server.ok('computer', { action: 'screenshot', tabId });
      expect(shot.content.some((c) => c.type === 'image')).to.equal(true);
      const pid = server.pid();
      await server.close();
      await waitFor(() => !alive(pid), 15_000);
    } finally {
      await server.close();
    }
    const id = nodeSessions().created[before];
    expect(id).to.be.a('string');
    expect(await waitFor(() => nodeSessions().stopped.includes(id), 20_000)).to.equal(true);
    expect(await waitFor(async () => (await busySlots()) === 0, 20_000)).to.equal(true);
  });
  it("serve: 8 MCP sessions at once, each on a Grid session of its own over both nodes, none seeing another's tabs or cookies", async () => {
    const before = nodeSessions().created.length;
    const serve = await startServe({ args: ['--webdriver-url', grid, '--caps', 'storage'] });
    let agents = [];
    try {
      agents = await Promise.all(Array.from({ length: 8 }, () => serve.connect()));
      // Eight Firefoxes starting at once on a 2-core machine: a first call may wait more than the SDK's 60 s default.
      for (const agent of agents) {
        agent.ok = async (name, args = {}) => {
          const result = await agent.client.callTool({ name, arguments: args }, undefined, { timeout: 240_000 });
          if (result.isError) throw new Error(`${name} failed: ${agent.text(result)}`);
          return result;
        };
      }
      // A session that has not called a tool holds no Grid slot: its browser session is made at its first call.
      expect(await busySlots()).to.equal(0);
      const tabs = await Promise.all(
        agents.map(async (agent, i) => {
          const tabId = (await agent.ok('tabs_create_mcp', { url: fixtures.url('/agent') })).structuredContent.tabId;
          const refOf = async (query) => /\[ref=(ref_\d+)\]/.exec(agent.text(await agent.ok('find', { tabId, query })))[1];
          const typed = await agent.ok('computer', { tabId, action: 'type', ref: await refOf('Name textbox'), text: `agent ${i}` });
          const clicked = await agent.ok('computer', { tabId, action: 'left_click', ref: await refOf('Greet button') });
          const shown = agent.text(await agent.ok('get_page_text', { tabId }));
          expect(shown, `${agent.text(typed)}\n${agent.text(clicked)}`).to.include(`hello agent ${i}`);
          const shot = await agent.ok('computer', { tabId, action: 'screenshot' });
          expect(shot.content.some((c) => c.type === 'image')).to.equal(true);
          await agent.ok('cookies_set', { tabId, name: 'agent', value: String(i) });
          return tabId;
        }),
      );
      // Eight Grid sessions, four on each node: the Grid spread them.
      const slots = (await status()).nodes.map((n) => n.slots.filter((slot) => slot.session).length);
      expect(slots).to.deep.equal([SLOTS_PER_NODE, SLOTS_PER_NODE]);
      expect(nodeSessions().created.length - before).to.equal(8);
      for (const [i, agent] of agents.entries()) {
        const own = (await agent.ok('tabs_context_mcp')).structuredContent.tabs;
        expect(own.map((t) => t.tabId), `agent ${i} sees its one tab`).to.deep.equal([tabs[i]]);
        const cookies = (await agent.ok('cookies_list', { tabId: tabs[i] })).structuredContent.cookies;
        expect(cookies.map((c) => `${c.name}=${c.value}`), `agent ${i} sees its own cookie only`).to.deep.equal([`agent=${i}`]);
      }
      // A session that ends (DELETE /mcp) has its Grid session deleted at once; the others keep theirs.
      await agents[0].end();
      expect(await waitFor(async () => (await busySlots()) === 7, 20_000), 'the ended session gave its slot back').to.equal(true);
      expect(agents[1].text(await agents[1].ok('get_page_text', { tabId: tabs[1] }))).to.include('hello agent 1');
    } finally {
      // Each session ended, its Grid session deleted, before the server goes: nothing is left on the nodes.
      await Promise.all(agents.map((agent) => agent.end()));
      await waitFor(async () => (await busySlots()) === 0, 60_000);
      await serve.stop();
    }
    const ours = nodeSessions().created.slice(before);
    expect(await waitFor(() => ours.every((id) => nodeSessions().stopped.includes(id)), 30_000), 'every Grid session deleted').to.equal(true);
    expect(await waitFor(async () => (await busySlots()) === 0, 20_000)).to.equal(true);
  });
});
