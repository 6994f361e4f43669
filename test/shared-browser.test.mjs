// Several agents on one machine (issue 39, item 1): plain `firefox-use` over stdio on one profile, five at once, each
// with a tab group of its own in one Firefox; the profile's cookies shared unless an agent asks for its own; one
// agent leaving leaves the others working, and the browser goes a few seconds after the last.
import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFixtureServer } from './helpers/fixtures.mjs';
import { startServer } from './helpers/mcp-client.mjs';
import { alive, firefoxPids, waitFor } from './helpers/processes.mjs';

/** Firefox main processes (the ones given --profile) running on `dir`. */
function firefoxOn(dir) {
  return firefoxPids().filter((pid) => {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      // (The daemon's node process names the profile too, and its files sit in a firefox-use folder.)
      return /firefox[^/]*$/.test(args[0]) && args[args.indexOf('--profile') + 1] === dir;
    } catch {
      return false;
    }
  });
}

describe('several agents on one profile share its browser', function () {
  this.timeout(180_000);
  let fixtures;
  let profile;
  let env;
  const agents = [];
  before(async function () {
    fixtures = await startFixtureServer({
      '/cookie-title': (req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>cookies=${req.headers.cookie ?? ''}</title>`),
      '/named': (req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${new URL(req.url, 'http://x').searchParams.get('n')}</title><button>Go</button>`),
    });
    profile = mkdtempSync(join(tmpdir(), 'fu-shared-profile-'));
    env = { XDG_RUNTIME_DIR: mkdtempSync(join(tmpdir(), 'fu-shared-run-')) };
  });
  after(async function () {
    await Promise.all(agents.map((agent) => agent.close()));
    await fixtures?.close();
    await waitFor(() => firefoxOn(profile).length === 0, 30_000, 100);
  });
  const start = async (extra = []) => {
    const agent = await startServer({ args: ['--profile', profile, ...extra], env });
    agents.push(agent);
    return agent;
  };

  it('five agents at once: one Firefox, each sees only its own tabs, the profile\'s cookies are each one\'s', async function () {
    const five = await Promise.all([0, 1, 2, 3, 4].map(() => start()));
    const tabs = await Promise.all(five.map(async (agent, i) => (await agent.ok('tabs_create_mcp', { url: fixtures.url(`/named?n=agent${i}`) })).structuredContent.tabId));
    for (const [i, agent] of five.entries()) {
      const listed = (await agent.ok('tabs_context_mcp')).structuredContent.tabs;
      expect(listed.map((tab) => tab.title)).to.deep.equal([`agent${i}`]);
      expect(listed[0].tabId).to.equal(tabs[i]);
    }
    expect(firefoxOn(profile)).to.have.length(1);
    // Another agent's tab id is refused, not reached.
    const foreign = await five[1].call('computer', { tabId: tabs[0], action: 'screenshot' });
    expect(foreign.structuredContent.error?.code).to.equal('tab_not_in_group');
    // A login one agent makes is there for the others (the profile's cookies), not for one that asked for its own.
    await five[0].ok('navigate', { tabId: tabs[0], url: fixtures.url('/set-cookie?name=login&value=alice') });
    const seen = await five[3].ok('navigate', { tabId: tabs[3], url: fixtures.url('/cookie-title') });
    expect(seen.structuredContent.title).to.include('login=alice');
    const loner = await start(['--own-storage']);
    const lonerTab = (await loner.ok('tabs_create_mcp', { url: fixtures.url('/cookie-title') })).structuredContent;
    expect(lonerTab.title).to.equal('cookies=');
    expect(firefoxOn(profile)).to.have.length(1);
  });

  it('one agent leaving, even killed, leaves the others working; the browser goes a few seconds after the last one', async function () {
    const [first, killed, ...rest] = agents.splice(0);
    const [firefox] = firefoxOn(profile);
    await first.close();
    // A bridge killed outright says goodbye to nobody: the daemon sees its pid gone and ends its session.
    process.kill(killed.pid(), 'SIGKILL');
    for (const agent of rest) {
      const tabId = (await agent.ok('tabs_context_mcp')).structuredContent.tabs[0].tabId;
      const nav = await agent.ok('navigate', { tabId, url: fixtures.url('/named?n=still') });
      expect(nav.structuredContent.title).to.equal('still');
    }
    await Promise.all(rest.map((agent) => agent.close()));
    expect(alive(firefox)).to.equal(true);
    expect(await waitFor(() => !alive(firefox), 40_000, 100)).to.equal(true);
    const left = readdirSync(join(env.XDG_RUNTIME_DIR, 'firefox-use'));
    expect(left.filter((name) => name.endsWith('.json') || name.endsWith('.lock'))).to.deep.equal([]);
  });

  it('a second agent started with other browser flags is told, and gets profile_locked rather than another browser', async function () {
    const first = await start();
    await first.ok('tabs_context_mcp', { createIfEmpty: true });
    const other = await start(['--headed']);
    const result = await other.call('tabs_context_mcp', { createIfEmpty: true });
    expect(result.structuredContent.error?.code).to.equal('profile_locked');
    expect(other.stderr).to.include('started with other flags');
    expect((await first.ok('tabs_context_mcp')).structuredContent.tabs).to.have.length(1);
  });
});
