// --webdriver-url against a real Selenium Grid 4: the Selenium Server jar from the npm package
// @nightwatch/selenium-server, started by the test as a hub and a node (Java 17). The node's Firefox driver is the
// repo's geckodriver-like endpoint (test/helpers/fake-geckodriver.mjs, which launches the real Firefox per session),
// since geckodriver cannot be downloaded here. regress spreads its workers over two Grid slots, run and mcp go
// through the Grid's own BiDi proxy (ws://GRID/session/ID/se/bidi), every session is deleted and nothing is left.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFixtureServer } from '../helpers/fixtures.mjs';
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

describe('--webdriver-url against a real Selenium Grid 4 (hub + node)', function () {
  this.timeout(300_000);
  let dir, hub, node, grid, fixtures;
  const status = async () => (await (await fetch(`${grid}/status`)).json()).value;
  /** Sessions the node created and stopped, from its own log lines. */
  const nodeSessions = () => ({
    created: node.lines.filter((l) => l.includes('Session created by the Node')).map((l) => /Id: ([\w-]+)/.exec(l)[1]),
    stopped: node.lines.filter((l) => l.includes('Stopping session')).map((l) => /session ([\w-]+)/.exec(l)[1]),
  });
  const busySlots = async () => (await status()).nodes.flatMap((n) => n.slots).filter((s) => s.session).length;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fu-grid-'));
    fixtures = await startFixtureServer();
    const [hubPort, pub, sub, nodePort] = [await freePort(), await freePort(), await freePort(), await freePort()];
    grid = `http://127.0.0.1:${hubPort}`;
    const bus = ['--publish-events', `tcp://127.0.0.1:${pub}`, '--subscribe-events', `tcp://127.0.0.1:${sub}`];
    writeFileSync(
      join(dir, 'node.toml'),
      ['[node]', 'detect-drivers = false', 'max-sessions = 2', 'override-max-sessions = true', '', '[[node.driver-configuration]]', 'display-name = "firefox"', 'max-sessions = 2',
        `webdriver-executable = ${JSON.stringify(DRIVER)}`, `stereotype = '{"browserName": "firefox", "platformName": "linux"}'`, ''].join('\n'),
    );
    hub = java(['hub', '--host', '127.0.0.1', '--port', String(hubPort), ...bus], join(dir, 'hub.log'));
    node = java(['node', '--config', join(dir, 'node.toml'), '--host', '127.0.0.1', '--port', String(nodePort), '--grid-url', grid, ...bus], join(dir, 'node.log'));
    // The hub's own readiness: a registered node with its two Firefox slots.
    const ready = await waitFor(async () => {
      try {
        const value = await status();
        return value.ready && value.nodes.some((n) => n.slots.length === 2);
      } catch {
        return false;
      }
    }, 120_000, 500);
    expect(ready, `the Grid came up (hub: ${hub.lines.slice(-3).join(' | ')}; node: ${node.lines.slice(-3).join(' | ')})`).to.equal(true);
  });

  after(async () => {
    await stop(node);
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
});
