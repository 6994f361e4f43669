// A successful agent session written out as a `run` script: an MCP session fills a form (typing a password,
// ticking a box, deleting the second of three "Delete" rows, visiting a second tab), exports, and `firefox-use run`
// of the exported file leaves the page in the same state (the page reports its state to the fixture server).
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFixtureServer } from './helpers/fixtures.mjs';
import { CLI, firstTab, startServer } from './helpers/mcp-client.mjs';
import { closeAfterEach } from './helpers/browser-suite.mjs';
import { trackPid, waitFor } from './helpers/processes.mjs';

const PASSWORD = 'hunter2-not-in-the-file';

function runScript(file, outputDir, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'run', file, '--isolated', '--output-dir', outputDir], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    trackPid(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => resolve({ code, stderr, lines: stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line)) }));
  });
}

/** The ref on the snapshot line of `role "name"`. */
function refOf(text, role, name) {
  const line = text.split('\n').find((entry) => entry.includes(`${role} "${name}"`));
  return /\[ref=(ref_\d+)\]/.exec(line ?? '')?.[1];
}

describe('script_export: a session becomes a run script', function () {
  this.timeout(180_000);
  let site;
  before(async () => {
    site = await startFixtureServer();
  });
  after(async () => site?.close());
  const own = closeAfterEach();

  it('replays to the same end state, with the password as ${FIREFOX_USE_SECRET_1} and failed calls as comments', async function () {
    const server = own(await startServer({ args: ['--isolated', '--caps', 'script', '--save-script'] }));
    const tabId = await firstTab(server);
    await server.ok('navigate', { tabId, url: site.url('/export.html') });
    const email = (await server.ok('find', { tabId, query: 'Email' })).structuredContent.matches[0].ref;
    await server.ok('computer', { tabId, action: 'left_click', ref: email });
    await server.ok('computer', { tabId, action: 'type', text: 'ann@example.com' });
    const tree = server.text(await server.ok('read_page', { tabId, filter: 'interactive' }));
    const password = refOf(tree, 'textbox', 'Password');
    expect(tree).to.include('[password]');
    await server.ok('computer', { tabId, action: 'type', ref: password, text: PASSWORD });
    await server.ok('form_input', { tabId, ref: refOf(tree, 'checkbox', 'Remember me'), value: true });
    // A second tab, then back to the first by its id.
    const second = (await server.ok('tabs_create_mcp', { url: site.url('/second.html') })).structuredContent.tabId;
    await server.ok('computer', { tabId: second, action: 'screenshot' });
    const deletes = (await server.ok('find', { tabId, query: 'Delete button' })).structuredContent.matches;
    expect(deletes).to.have.length(3);
    await server.ok('computer', { tabId, action: 'left_click', ref: deletes[1].ref });
    await server.ok('tabs_close_mcp', { tabId: second });
    const refused = await server.call('computer', { tabId, action: 'left_click', ref: 'ref_99999' });
    expect(refused.isError).to.equal(true);
    const signIn = (await server.ok('find', { tabId, query: 'Sign in button' })).structuredContent.matches[0].ref;
    await server.ok('computer', { tabId, action: 'left_click', ref: signIn });
    expect(await site.requested('/done?')).to.equal(true);
    const recorded = site.requests.find((path) => path.startsWith('/done?'));
    expect(recorded).to.include('items=Alpha%2BGamma').and.include('remember=yes').and.include('email=ann%40example.com');

    const exported = await server.ok('script_export', { filename: 'login' });
    const { path, secrets, left_out: leftOut, steps } = exported.structuredContent;
    expect(path).to.equal(join(server.outputDir, 'login.yaml'));
    expect(secrets).to.deep.equal(['FIREFOX_USE_SECRET_1']);
    expect(leftOut.failed).to.equal(1);
    expect(leftOut.looked).to.be.at.least(4);
    const script = readFileSync(path, 'utf8');
    expect(script).not.to.include(PASSWORD);
    expect(script).to.include('"text":"${FIREFOX_USE_SECRET_1}"');
    expect(script).to.match(/# left out, failed: computer .*ref_99999.* -> ref_stale/);
    expect(script).to.include('match: 2');
    expect(script).not.to.match(/^- computer: .*screenshot/m);
    if (process.env.SHOW_SCRIPT) console.log(script);
    // Every ref of a step is one a find of the script saved.
    const stepLines = script.split('\n').filter((line) => line.startsWith('- ')).join('\n');
    for (const ref of stepLines.matchAll(/"ref":"([^"]+)"/g)) expect(ref[1]).to.match(/^\$ref_\d+$/);
    expect(steps).to.be.at.least(12);
    // --save-script keeps the same script, rewritten after every call.
    const autosaved = () => readdirSync(server.outputDir).find((name) => /^session-.*\.yaml$/.test(name));
    expect(await waitFor(() => autosaved() && readFileSync(join(server.outputDir, autosaved()), 'utf8').includes('"text":"${FIREFOX_USE_SECRET_1}"'))).to.equal(true);
    await server.close();

    site.requests.length = 0;
    const replay = await runScript(path, join(server.outputDir, 'replay'), { FIREFOX_USE_SECRET_1: PASSWORD });
    expect(replay.code, replay.stderr + JSON.stringify(replay.lines.filter((line) => !line.ok))).to.equal(0);
    expect(replay.lines.every((line) => line.ok)).to.equal(true);
    expect(await site.requested('/done?')).to.equal(true);
    expect(site.requests.find((entry) => entry.startsWith('/done?'))).to.equal(recorded);
    // Printed arguments keep the placeholder, not the secret.
    expect(JSON.stringify(replay.lines)).not.to.include(PASSWORD);
  });
});
