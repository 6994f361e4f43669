// Secrets the model never sees (issue 39, item 3): with --secrets FILE, `${NAME}` in a tool's arguments is the value
// for the page, and the value never comes back: not in a reply, a snapshot, a delta, a console or network read, an
// error, a recorded or exported script, nor what `run` prints.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFixtureServer } from './helpers/fixtures.mjs';
import { CLI, startServer } from './helpers/mcp-client.mjs';
import { closeAfterEach } from './helpers/browser-suite.mjs';
import { trackPid, waitFor } from './helpers/processes.mjs';

const SECRET = 'p@ss word+"quoted"/ü';
const html = (body) => (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><meta charset="utf-8">${body}`);
const routes = {
  '/login': html(`<title>login</title>
    <label>Token <input id="token" type="text"></label>
    <button id="go">Sign in</button>
    <p id="out"></p>
    <script>
      document.getElementById('go').onclick = () => {
        const value = document.getElementById('token').value;
        console.log('signing in with ' + value);
        fetch('/echo?token=' + encodeURIComponent(value));
        document.getElementById('out').textContent = 'Welcome, ' + value;
      };
    </script>`),
  '/echo': (req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'),
};

function secretsFile() {
  const dir = mkdtempSync(join(tmpdir(), 'fu-secrets-'));
  const file = join(dir, 'secrets.env');
  writeFileSync(file, `TOKEN='${SECRET}'\n`);
  return file;
}

describe('--secrets: values the model never sees', function () {
  this.timeout(180_000);
  let site;
  const seen = [];
  before(async () => {
    site = await startFixtureServer({ ...routes, '/echo': (req, res) => (seen.push(req.url), routes['/echo'](req, res)) });
  });
  after(async () => site?.close());
  const own = closeAfterEach();

  it('types the value into the page, and every reply, read and script shows ${TOKEN} instead', async function () {
    const file = secretsFile();
    const server = own(await startServer({ args: ['--isolated', '--secrets', file, '--caps', 'script', '--save-script'] }));
    const replies = [];
    const call = async (name, args) => {
      const result = await server.call(name, args);
      replies.push(JSON.stringify(result));
      return result;
    };
    const tabId = (await call('tabs_create_mcp', { url: site.url('/login') })).structuredContent.tabId;
    const [field] = (await call('find', { tabId, query: 'Token textbox' })).structuredContent.matches;
    const typed = await call('computer', { tabId, action: 'type', ref: field.ref, text: '${TOKEN}' });
    expect(typed.isError, server.text(typed)).to.not.equal(true);
    expect(server.text(typed)).to.include('${TOKEN}');
    const [button] = (await call('find', { tabId, query: 'Sign in button' })).structuredContent.matches;
    const clicked = await call('computer', { tabId, action: 'left_click', ref: button.ref });
    expect(server.text(clicked)).to.include('Welcome, ${TOKEN}');
    await waitFor(() => seen.length > 0);
    // The page got the value itself.
    expect(decodeURIComponent(seen[0].split('token=')[1])).to.equal(SECRET);
    expect(server.text(await call('read_page', { tabId }))).to.include('${TOKEN}');
    await call('get_page_text', { tabId });
    expect(server.text(await call('read_console_messages', { tabId }))).to.include('signing in with ${TOKEN}');
    expect(server.text(await call('read_network_requests', { tabId, urlPattern: 'echo' }))).to.include('token=${TOKEN}');
    // An error that echoes the argument.
    await call('form_input', { tabId, ref: 'ref_999999', value: '${TOKEN}' });
    await call('find', { tabId, query: '${TOKEN}' });
    const exported = await call('script_export', {});
    for (const reply of replies) for (const form of [SECRET, JSON.stringify(SECRET).slice(1, -1), encodeURIComponent(SECRET)]) expect(reply).to.not.include(form);
    // The exported script keeps the reference (a replay with the same --secrets types the value), not the value.
    const script = readFileSync(exported.structuredContent.path, 'utf8');
    expect(script).to.include('"text":"${TOKEN}"');
    expect(script).to.not.include('p@ss');
    const saved = () => readdirSync(server.outputDir).find((name) => /^session-.*\.yaml$/.test(name));
    expect(await waitFor(() => saved() && readFileSync(join(server.outputDir, saved()), 'utf8').includes('${TOKEN}'))).to.equal(true);
    expect(readFileSync(join(server.outputDir, saved()), 'utf8')).to.not.include('p@ss');
  });

  it('fills ${TOKEN} in a run script and prints it masked', async function () {
    const file = secretsFile();
    const dir = mkdtempSync(join(tmpdir(), 'fu-secrets-run-'));
    const script = join(dir, 'login.yaml');
    writeFileSync(script, [
      `- navigate: {url: "${site.url('/login')}"}`,
      '- find: {query: "Token textbox"}',
      '  save: field',
      '- computer: {action: type, ref: $field, text: "${TOKEN}"}',
      '- get_page_text: {}',
    ].join('\n') + '\n');
    seen.length = 0;
    const child = spawn(process.execPath, [CLI, 'run', script, '--isolated', '--secrets', file, '--output-dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    trackPid(child.pid);
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code, out).to.equal(0);
    expect(out).to.include('${TOKEN}');
    expect(out).to.not.include('p@ss');
  });

  it('refuses at start a value too short to keep out of replies, and a file it cannot read', async function () {
    const dir = mkdtempSync(join(tmpdir(), 'fu-secrets-bad-'));
    writeFileSync(join(dir, 'short.env'), 'PIN=12\n');
    for (const [file, says] of [[join(dir, 'short.env'), 'shorter than 4 characters'], [join(dir, 'missing.env'), 'cannot read']]) {
      const child = spawn(process.execPath, [CLI, 'mcp', '--isolated', '--secrets', file], { stdio: ['ignore', 'pipe', 'pipe'] });
      trackPid(child.pid);
      let err = '';
      child.stderr.on('data', (chunk) => (err += chunk));
      const code = await new Promise((resolve) => child.on('exit', resolve));
      expect(code).to.equal(2);
      expect(err).to.include(says);
    }
  });
});
