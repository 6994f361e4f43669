import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { startFixtureServer } from '../helpers/fixtures.mjs';
import { startServe } from '../helpers/http-server.mjs';
import { alive, waitFor } from '../helpers/processes.mjs';

const FAULTS = fileURLToPath(new URL('../../scripts/faults.mjs', import.meta.url));

describe('faults: a killed Firefox, a hung page', function () {
  // Real Firefox on a shared 2-core machine: launches can take tens of seconds under load.
  this.timeout(180_000);
  let fixtures;
  let serve;
  let client;

  before(async function () {
    fixtures = await startFixtureServer();
    serve = await startServe({ args: ['--isolated', '--timeout-action', '1500', '--timeout-navigation', '8000'] });
    client = await serve.connect();
  });
  after(async function () {
    await serve?.stop();
    await fixtures?.close();
  });

  it('fails a call with browser_crashed when Firefox is killed mid-call, then relaunches and says the tabs are gone', async function () {
    const tabId = (await client.ok('tabs_create_mcp', { url: fixtures.url('/index.html') })).structuredContent.tabId;
    const firefox = await serve.firefoxPid();
    expect(firefox).to.be.a('number');
    const pending = client.call('navigate', { tabId, url: fixtures.url('/slow?ms=20000') });
    // Kill while the navigation is in flight: once its request reached the server.
    expect(await fixtures.requested('/slow?ms=20000')).to.equal(true);
    process.kill(firefox, 'SIGKILL');
    const killedAt = Date.now();
    const result = await pending;
    const elapsed = Date.now() - killedAt;
    expect(result.structuredContent.error?.code, client.text(result)).to.equal('browser_crashed');
    expect(elapsed, 'the call must not hang').to.be.below(2_000);
    expect(alive(serve.child.pid), 'the server survives').to.equal(true);

    const next = await client.ok('tabs_context_mcp', { createIfEmpty: true });
    expect(client.text(next)).to.match(/restarted on the same profile; earlier tabs \(.*\b\d+\b.*\) are gone/);
    expect(next.structuredContent.notice).to.be.a('string');
    const fresh = next.structuredContent.tabs;
    expect(fresh).to.have.length(1);
    expect(fresh[0].tabId).to.not.equal(tabId);
    const relaunched = await serve.firefoxPid();
    expect(relaunched).to.not.equal(firefox);

    const old = await client.call('computer', { tabId, action: 'screenshot' });
    expect(old.structuredContent.error.code).to.equal('browser_crashed');
    await client.ok('navigate', { tabId: fresh[0].tabId, url: fixtures.url('/second.html') });
  });

  it('times out calls on a tab whose main thread hangs, while other tabs keep working', async function () {
    // Another site (localhost, not 127.0.0.1), so Firefox gives it another content process. Opened first: creating a
    // tab while the busy page hangs once took longer than the 1.5 s action timeout in CI.
    const other = (await client.ok('tabs_create_mcp', { url: fixtures.url('/second.html').replace('127.0.0.1', 'localhost') })).structuredContent.tabId;
    const busy = (await client.ok('tabs_create_mcp', { url: fixtures.url('/groups/busy.html?after=2000') })).structuredContent.tabId;
    // The page hangs 2 s after load (time enough to answer tabs_create_mcp on a loaded machine; a shown tab runs its
    // timers on time): wait until a read on it times out, the sign it is hung.
    const stuck = await waitFor(async () => (await client.call('get_page_text', { tabId: busy })).structuredContent?.error?.code === 'timeout', 30_000);
    expect(stuck, 'the busy page hung').to.equal(true);

    const hung = await client.call('navigate', { tabId: busy, url: fixtures.url('/index.html') });
    const code = hung.structuredContent.error?.code;
    expect(['timeout', 'navigation_timeout'], client.text(hung)).to.include(code);
    const shot = await client.call('computer', { tabId: busy, action: 'screenshot' });
    expect(shot.structuredContent.error?.code, client.text(shot)).to.equal('timeout');

    const fine = await client.ok('navigate', { tabId: other, url: fixtures.url('/index.html').replace('127.0.0.1', 'localhost') });
    expect(fine.structuredContent.title).to.equal('firefox-use fixture');
    await client.ok('computer', { tabId: other, action: 'screenshot' });
    expect(alive(serve.child.pid)).to.equal(true);
  });
});

describe('faults: Firefox killed at random moments during calls (scripts/faults.mjs)', function () {
  // Each kill costs a Firefox relaunch (several seconds on a loaded machine).
  this.timeout(240_000);

  it('answers every call within 2 s of the kill, relaunches, and keeps the named profile\'s cookie', async function () {
    const json = join(mkdtempSync(join(tmpdir(), 'fu-faults-report-')), 'faults.json');
    const run = spawnSync(process.execPath, [FAULTS, '--trials', '4', '--quiet', '--json', json], {
      encoding: 'utf8',
      timeout: 220_000,
      // Its own process marker: the script counts what is left of its Firefox, not other tests' browsers.
      env: { ...process.env, FIREFOX_USE_TEST_RUN: randomUUID() },
    });
    expect(existsSync(json), `faults.mjs wrote no report: ${run.stderr}`).to.equal(true);
    const report = JSON.parse(readFileSync(json, 'utf8'));
    expect(report.problems, `seed ${report.seed}`).to.deep.equal([]);
    expect(report.trials).to.equal(4);
    expect(report.cookieKept).to.equal(4);
    expect(report.firefoxLeft).to.equal(0);
    expect(run.status).to.equal(0);
  });
});
