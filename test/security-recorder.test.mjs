// Issue 35, the recorder and `run`: each test carries out an attack of the review and checks what the user (or the
// page's server) would see. An exported script replays recorded text literally and names its own secrets; run never
// prints an environment value it expanded; deep arguments are refused before they are recorded; the files that hold
// typed text are 0600 in 0700 folders; the crash watchdog holds none of the server's environment.
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFixtureServer } from './helpers/fixtures.mjs';
import { CLI, firstTab, startServer } from './helpers/mcp-client.mjs';
import { closeAfterEach } from './helpers/browser-suite.mjs';
import { trackPid, waitFor } from './helpers/processes.mjs';

const html = (body) => (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
/** A page whose server logs what its form sends: a code field that echoes what is typed, a password field the page labels "RT_SECRET". */
const FORM = `<title>Form</title>
<label>Code <input id="code"></label>
<input id="pw" type="password" aria-label="RT_SECRET">
<button id="go" onclick="fetch('/rec/log?' + new URLSearchParams({ code: code.value, pw: pw.value }))">Submit</button>
<p id="echo"></p>
<script>code.oninput = () => { echo.textContent = 'You typed: ' + code.value; };</script>`;

/** `firefox-use run FILE`: its exit code, stdout (raw and as JSON lines) and stderr. */
function runScript(file, outputDir, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'run', file, '--isolated', '--output-dir', outputDir], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    trackPid(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => resolve({ code, stderr, stdout, lines: stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line)) }));
  });
}

/** The ref on the snapshot line of `role "name"`. */
function refOf(text, role, name) {
  const line = text.split('\n').find((entry) => entry.includes(`${role} "${name}"`));
  return /\[ref=(ref_\d+)\]/.exec(line ?? '')?.[1];
}

const mode = (path) => statSync(path).mode & 0o777;

/**
 * The server over stdio with JSON-RPC lines written by hand: the SDK client's JSON.stringify cannot send what the
 * attack sends (10,000 levels overflow it), the server's JSON.parse reads it.
 */
async function rawServer(args, outputDir) {
  const child = spawn(process.execPath, [CLI, 'mcp', '--output-dir', outputDir, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  trackPid(child.pid);
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const waiting = new Map();
  let buffer = '';
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      if (!line.trim()) continue;
      const message = JSON.parse(line);
      waiting.get(message.id)?.(message);
    }
  });
  child.stderr.resume();
  let id = 0;
  const send = (method, params) =>
    new Promise((resolve) => {
      const n = ++id;
      waiting.set(n, resolve);
      child.stdin.write(`{"jsonrpc":"2.0","id":${n},"method":"${method}","params":${params}}\n`);
    });
  await send('initialize', JSON.stringify({ protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } }));
  child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  return {
    /** tools/call with the arguments' JSON text as given. */
    call: async (name, argsJson) => (await send('tools/call', `{"name":"${name}","arguments":${argsJson}}`)).result,
    close: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

describe('security: recorded sessions and run (issue 35)', function () {
  this.timeout(180_000);
  let site;
  before(async () => {
    site = await startFixtureServer({ '/rec/form.html': html(FORM), '/rec/visit': html('<title>Visited</title><p>visited'), '/rec/log': html('logged') });
  });
  after(async () => site?.close());
  const own = closeAfterEach();

  it('an exported script types and visits ${SECRET} literally, and the page cannot name the variable its password field gets (item 1)', async function () {
    const server = own(await startServer({ args: ['--isolated', '--caps', 'script', '--save-script'] }));
    const tabId = await firstTab(server);
    // The page got the agent to visit a URL and type text that name the user's environment.
    await server.ok('navigate', { tabId, url: site.url('/rec/visit?k=${SECRET}') });
    await server.ok('navigate', { tabId, url: site.url('/rec/form.html') });
    const tree = server.text(await server.ok('read_page', { tabId, filter: 'interactive' }));
    expect(tree).to.include('[password]');
    await server.ok('computer', { tabId, action: 'type', ref: refOf(tree, 'textbox', 'Code'), text: 'code ${SECRET}' });
    await server.ok('computer', { tabId, action: 'type', ref: refOf(tree, 'textbox', 'RT_SECRET'), text: 'recorded-password' });
    await server.ok('computer', { tabId, action: 'left_click', ref: refOf(tree, 'button', 'Submit') });
    expect(await site.requested('/rec/log?')).to.equal(true);

    const exported = (await server.ok('script_export', { filename: 'replay' })).structuredContent;
    expect(exported.secrets).to.deep.equal(['FIREFOX_USE_SECRET_1']);
    const script = readFileSync(exported.path, 'utf8');
    if (process.env.SHOW_SCRIPT) console.log(script);
    expect(script).not.to.include('${RT_SECRET}').and.not.to.include('recorded-password');
    expect(script).to.include('"text":"code $${SECRET}"').and.include('/rec/visit?k=$${SECRET}');
    expect(script).to.match(/^# Replay: FIREFOX_USE_SECRET_1=\.\.\. firefox-use run/m);
    await server.close();

    site.requests.length = 0;
    const replay = await runScript(exported.path, join(server.outputDir, 'replay-out'), { SECRET: 'LEAKED-env-secret', RT_SECRET: 'LEAKED-rt-secret', FIREFOX_USE_SECRET_1: 'replayed-password' });
    expect(replay.code, replay.stderr + replay.stdout).to.equal(0);
    expect(await site.requested('/rec/log?')).to.equal(true);
    const sent = new URLSearchParams(site.requests.find((path) => path.startsWith('/rec/log?')).slice('/rec/log?'.length));
    expect(sent.get('code')).to.equal('code ${SECRET}');
    expect(sent.get('pw')).to.equal('replayed-password');
    expect(site.requests).to.include('/rec/visit?k=${SECRET}');
    expect(site.requests.join('\n')).not.to.include('LEAKED');
    expect(replay.stdout).not.to.include('LEAKED').and.not.to.include('replayed-password');
  });

  it('run prints ${NAME}, never the expanded value, in a result\'s URL, a field\'s value and a delta (item 6)', async function () {
    const secret = 's3cr3t-Value 42';
    const dir = mkdtempSync(join(tmpdir(), 'fu-rec-run-'));
    const file = join(dir, 'login.yaml');
    writeFileSync(
      file,
      `- navigate: {url: "${site.url('/rec/form.html')}?k=\${FU_TEST_SECRET}"}
- find: {query: "Code textbox"}
  save: code
- form_input: {ref: $code, value: "\${FU_TEST_SECRET}"}
- computer: {action: type, ref: $code, text: " and \${FU_TEST_SECRET}"}
- find: {query: "Submit button"}
  save: go
- computer: {action: left_click, ref: $go}
`,
    );
    site.requests.length = 0;
    const run = await runScript(file, join(dir, 'out'), { FU_TEST_SECRET: secret });
    expect(run.code, run.stderr + run.stdout).to.equal(0);
    // The secret went where the user sent it...
    expect(await site.requested('/rec/log?')).to.equal(true);
    const sent = new URLSearchParams(site.requests.find((path) => path.startsWith('/rec/log?')).slice('/rec/log?'.length));
    expect(sent.get('code')).to.equal(`${secret} and ${secret}`);
    // ...and no printed line shows it, in any spelling.
    for (const spelling of [secret, encodeURIComponent(secret), 's3cr3t-Value+42']) expect(run.stdout).not.to.include(spelling);
    const [navigate, , formInput, typed] = run.lines;
    expect(navigate.result.url).to.match(/\?k=\$\{FU_TEST_SECRET\}$/);
    expect(formInput.result.value).to.equal('${FU_TEST_SECRET}');
    expect(JSON.stringify(typed.result)).to.include('You typed: ${FU_TEST_SECRET} and ${FU_TEST_SECRET}');
  });

  it('refuses 10,000-deep arguments with invalid_arguments over stdio; later calls, the export and --save-script keep working (item 10)', async function () {
    const outputDir = mkdtempSync(join(tmpdir(), 'fu-rec-deep-'));
    const server = await rawServer(['--isolated', '--caps', 'script', '--save-script'], outputDir);
    try {
      const deep = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
      const refused = await server.call('navigate', `{"tabId":1,"url":${deep}}`);
      expect(refused.isError).to.equal(true);
      expect(refused.structuredContent.error).to.include({ code: 'invalid_arguments', field: 'url' });
      expect(refused.content[0].text).to.match(/^invalid_arguments: url: nested deeper than 32 levels/);
      const array = await server.call('computer', `{"tabId":1,"action":"left_click","coordinate":${'['.repeat(40)}${']'.repeat(40)}}`);
      expect(array.structuredContent.error).to.include({ code: 'invalid_arguments', field: 'coordinate' });

      const tabs = await server.call('tabs_context_mcp', '{"createIfEmpty":true}');
      expect(tabs.isError).to.not.equal(true);
      const tabId = tabs.structuredContent.tabs[0].tabId;
      const navigated = await server.call('navigate', JSON.stringify({ tabId, url: site.url('/rec/visit?after=1') }));
      expect(navigated.isError, JSON.stringify(navigated.content)).to.not.equal(true);
      const exported = await server.call('script_export', '{"filename":"after-deep"}');
      expect(exported.isError, JSON.stringify(exported.content)).to.not.equal(true);
      const script = readFileSync(exported.structuredContent.path, 'utf8');
      expect(script).to.include('/rec/visit?after=1').and.match(/# left out, failed: navigate \{"url":"<nested deeper than 32 levels>"\} -> invalid_arguments/);
      const autosaved = () => readdirSync(outputDir).find((name) => /^session-.*\.yaml$/.test(name));
      expect(await waitFor(() => autosaved() && readFileSync(join(outputDir, autosaved()), 'utf8').includes('/rec/visit?after=1'))).to.equal(true);
    } finally {
      await server.close();
    }
  });

  it('writes the exported and saved scripts and the storage state 0600, also over an older 0644 file (item 11)', async function () {
    const server = own(await startServer({ args: ['--isolated', '--caps', 'script,storage', '--save-script'] }));
    const tabId = await firstTab(server);
    await server.ok('navigate', { tabId, url: site.url('/rec/form.html') });
    for (const name of ['old.yaml', 'old-state.json']) {
      writeFileSync(join(server.outputDir, name), 'readable by all\n');
      chmodSync(join(server.outputDir, name), 0o644);
    }
    const script = (await server.ok('script_export', { filename: 'old' })).structuredContent.path;
    const state = (await server.ok('storage_state_save', { filename: 'old-state' })).structuredContent.path;
    expect(mode(script).toString(8)).to.equal('600');
    expect(mode(state).toString(8)).to.equal('600');
    expect(readFileSync(script, 'utf8')).to.include('/rec/form.html');
    const autosaved = () => readdirSync(server.outputDir).find((name) => /^session-.*\.yaml$/.test(name));
    expect(await waitFor(() => autosaved())).to.be.ok;
    expect(mode(join(server.outputDir, autosaved())).toString(8)).to.equal('600');
    expect(mode(server.outputDir).toString(8)).to.equal('700');
  });

  it('keeps the REPL history 0600 in a 0700 folder, tightening ones that were 0644 and 0755 (item 11)', async function () {
    if (spawnSync('script', ['--version']).status !== 0) this.skip(); // util-linux script gives the REPL a terminal
    const home = mkdtempSync(join(tmpdir(), 'fu-rec-home-'));
    const folder = join(home, 'firefox-use');
    const history = join(folder, 'repl_history');
    mkdirSync(folder, { mode: 0o755 });
    chmodSync(folder, 0o755);
    writeFileSync(history, 'form_input: {ref: ref_1, value: "typed-secret"}\n', { mode: 0o644 });
    chmodSync(history, 0o644);
    const fresh = mkdtempSync(join(tmpdir(), 'fu-rec-fresh-'));
    for (const dataHome of [home, fresh]) {
      const child = spawn('script', ['-qec', `'${process.execPath}' '${CLI}' run --interactive --isolated`, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, XDG_DATA_HOME: dataHome } });
      trackPid(child.pid);
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      const exited = new Promise((resolve) => child.on('exit', resolve));
      expect(await waitFor(() => output.includes('firefox-use>'), 30_000)).to.equal(true);
      child.stdin.write('.tools\n.exit\n');
      await exited;
    }
    expect(mode(folder).toString(8)).to.equal('700');
    expect(mode(history).toString(8)).to.equal('600');
    expect(readFileSync(history, 'utf8')).to.include('.tools\n.exit\n');
    expect(mode(join(fresh, 'firefox-use')).toString(8)).to.equal('700');
    expect(mode(join(fresh, 'firefox-use', 'repl_history')).toString(8)).to.equal('600');
  });

  it('gives the crash watchdog none of the server\'s environment (item 13)', async function () {
    const marker = 'FU_TEST_WATCHDOG_MARKER=do-not-inherit';
    const server = own(await startServer({ args: ['--isolated'], env: { FU_TEST_WATCHDOG_MARKER: 'do-not-inherit' } }));
    await firstTab(server);
    const parentOf = (pid) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
    const watchdogs = () =>
      readdirSync('/proc')
        .filter((entry) => /^\d+$/.test(entry))
        .filter((entry) => {
          try {
            return parentOf(entry) === server.pid() && readFileSync(`/proc/${entry}/cmdline`, 'utf8').startsWith('/bin/sh\0-c\0alive()');
          } catch {
            return false;
          }
        });
    expect(await waitFor(() => watchdogs().length > 0)).to.equal(true);
    expect(readFileSync(`/proc/${server.pid()}/environ`, 'utf8').split('\0')).to.include(marker);
    for (const pid of watchdogs()) {
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
      expect(environ).not.to.include(marker);
      expect(environ.map((entry) => entry.split('=')[0])).to.deep.equal(['PATH']);
    }
    expect(existsSync(`/proc/${server.pid()}`)).to.equal(true);
  });
});
