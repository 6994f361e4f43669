// Logins that carry over: a session's cookies and localStorage saved as a Playwright storage-state file, loaded by
// a later server (and by `run`) so the app greets the user without a scripted login; cookie tools that never show an
// HttpOnly value; ${ENV} in run scripts.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, startServer, firstTab } from './helpers/mcp-client.mjs';
import { closeAfterEach } from './helpers/browser-suite.mjs';
import { trackPid } from './helpers/processes.mjs';

const SECRET = 'sess-7f3a9c-very-secret';

/** A tiny app: /login sets an HttpOnly session cookie, a plain cookie and a localStorage item; / greets by cookie. */
async function startApp() {
  const server = createServer((req, res) => {
    const cookies = Object.fromEntries((req.headers.cookie ?? '').split(/;\s*/).filter(Boolean).map((part) => part.split('=')));
    const html = (body) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>app</title><body>${body}</body>`);
    };
    if (req.url === '/login') {
      res.setHeader('set-cookie', [`session=${SECRET}; HttpOnly; Path=/`, 'theme=dark; Path=/']);
      return html(`<h1>Logged in</h1><script>localStorage.setItem('draft', 'hello from storage')</script>`);
    }
    if (req.url === '/') {
      const who = cookies.session === SECRET ? 'Welcome back, Ann' : 'Please log in';
      return html(`<h1>${who}</h1><p id="js"></p><script>document.getElementById('js').textContent = 'cookie=' + document.cookie + ' draft=' + localStorage.getItem('draft')</script>`);
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: (path) => `http://127.0.0.1:${server.address().port}${path}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

function runScript(args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'run', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    trackPid(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('storage: logins that carry over', function () {
  this.timeout(120_000);
  let app;
  before(async function () {
    app = await startApp();
  });
  after(async function () {
    await app?.close();
  });
  const own = closeAfterEach();

  it('lists the page\'s cookies without an HttpOnly value and saves the session as storage state', async function () {
    const server = own(await startServer({ args: ['--isolated', '--caps', 'storage'] }));
    const tabId = await firstTab(server);
    await server.ok('navigate', { tabId, url: app.url('/login') });
    const listed = await server.ok('cookies_list', { tabId });
    const byName = Object.fromEntries(listed.structuredContent.cookies.map((cookie) => [cookie.name, cookie]));
    expect(byName.theme).to.include({ value: 'dark', httpOnly: false });
    expect(byName.session).to.include({ httpOnly: true, value_hidden: true });
    expect(byName.session).to.not.have.property('value');
    expect(JSON.stringify(listed)).to.not.include(SECRET);

    const result = await server.ok('storage_state_save', { filename: 'ann' });
    expect(JSON.stringify(result)).to.not.include(SECRET);
    const saved = result.structuredContent.path;
    expect(saved).to.equal(join(server.outputDir, 'ann.json'));
    const state = JSON.parse(readFileSync(saved, 'utf8'));
    expect(state.cookies.find((cookie) => cookie.name === 'session')).to.include({ value: SECRET, httpOnly: true, domain: '127.0.0.1', path: '/' });
    expect(state.origins).to.deep.equal([{ origin: new URL(app.url('/')).origin, localStorage: [{ name: 'draft', value: 'hello from storage' }] }]);
  });

  it('loads a storage-state file at start: the app greets the user and the page reads its localStorage', async function () {
    const file = writeState();
    const server = own(await startServer({ args: ['--isolated', '--storage-state', file] }));
    const tabId = await firstTab(server);
    await server.ok('navigate', { tabId, url: app.url('/') });
    const text = server.text(await server.ok('get_page_text', { tabId }));
    expect(text).to.include('Welcome back, Ann');
    expect(text).to.include('draft=hello from storage');
    // The HttpOnly cookie went to the server but not to the page's script.
    expect(text).to.include('cookie=theme=dark');
    expect(text).to.not.include(SECRET);
  });

  it('sets and clears a cookie the page then sees', async function () {
    const server = own(await startServer({ args: ['--isolated', '--caps', 'storage'] }));
    const tabId = await firstTab(server);
    await server.ok('navigate', { tabId, url: app.url('/') });
    const set = await server.ok('cookies_set', { tabId, name: 'session', value: SECRET, httpOnly: true });
    expect(server.text(set)).to.include('HttpOnly: value hidden').and.not.include(SECRET);
    await server.ok('navigate', { tabId, url: app.url('/') });
    expect(server.text(await server.ok('get_page_text', { tabId }))).to.include('Welcome back, Ann');
    const cleared = await server.ok('cookies_clear', { tabId, name: 'session' });
    expect(cleared.structuredContent.deleted).to.deep.equal(['session']);
    await server.ok('navigate', { tabId, url: app.url('/') });
    expect(server.text(await server.ok('get_page_text', { tabId }))).to.include('Please log in');
    expect((await server.ok('cookies_list', { tabId })).structuredContent.cookies).to.deep.equal([]);
  });

  it('lists the storage tools only with --caps storage', async function () {
    const server = own(await startServer({ args: ['--isolated'] }));
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name)).to.not.include('cookies_list');
    const refused = await server.call('cookies_lst', { tabId: 1 });
    expect(server.text(refused)).to.match(/^invalid_arguments: No tool named "cookies_lst"/);
  });

  it('run: takes --storage-state, substitutes ${ENV} and never prints the secret', async function () {
    const dir = mkdtempSync(join(tmpdir(), 'fu-storage-'));
    const script = join(dir, 'script.yaml');
    writeFileSync(script, `- navigate: {url: "\${APP_URL}"}\n- cookies_set: {name: token, value: "\${APP_TOKEN}", httpOnly: true}\n- get_page_text: {}\n  expect: Welcome back\n`);
    const flags = ['--isolated', '--caps', 'storage', '--output-dir', dir, '--storage-state', writeState()];
    const ran = await runScript([script, ...flags], { APP_URL: app.url('/'), APP_TOKEN: 'tok-123456' });
    expect(ran.code, ran.stderr + ran.stdout).to.equal(0);
    expect(ran.stdout).to.include('"url":"${APP_URL}"').and.include('${APP_TOKEN}');
    expect(ran.stdout).to.not.include('tok-123456');

    const unset = await runScript([script, ...flags], { APP_URL: app.url('/') });
    expect(unset.code).to.equal(2);
    expect(unset.stderr).to.include('script.yaml:2:').and.include('no environment variable APP_TOKEN');
  });

  /** A storage-state file as storage_state_save writes it (the first test checks that shape), so no test needs another's. */
  function writeState() {
    const file = join(mkdtempSync(join(tmpdir(), 'fu-state-')), 'state.json');
    const origin = new URL(app.url('/')).origin;
    writeFileSync(
      file,
      JSON.stringify({
        cookies: [
          { name: 'session', value: SECRET, domain: '127.0.0.1', path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' },
          { name: 'theme', value: 'dark', domain: '127.0.0.1', path: '/', expires: -1, httpOnly: false, secure: false, sameSite: 'Lax' },
        ],
        origins: [{ origin, localStorage: [{ name: 'draft', value: 'hello from storage' }] }],
      }),
    );
    return file;
  }
});
