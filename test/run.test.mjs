// firefox-use run: a scripted login flow against the fixture server, through the real CLI and a real Firefox.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFixtureServer } from './helpers/fixtures.mjs';
import { CLI } from './helpers/mcp-client.mjs';

function runCli(args, input, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'run', ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.stdin.end(input ?? '');
    child.on('exit', (code) => resolve({ code, stderr, lines: stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)) }));
  });
}

describe('firefox-use run', function () {
  this.timeout(180_000);
  let fixtures;
  let dir;
  const flags = () => ['--isolated', '--output-dir', join(dir, 'out')];
  const script = (url, lastExpect) => `# a login flow
- navigate: {url: "${url}"}
- find: {query: "Email textbox"}
  save: email
- computer: {action: left_click, ref: $email}
- computer: {action: type, text: ann@example.com}
- find: {query: "Sign in button"}
  save: signin
- computer: {action: left_click, ref: $signin}
  expect: ${JSON.stringify(lastExpect)}
- computer: {action: screenshot}
`;

  before(async () => {
    // The sign-in page the demo ships is the one these tests drive: one copy of it, not two.
    const demoPage = readFileSync(new URL('../examples/demo.html', import.meta.url));
    const html = (body, headers = {}) => (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
    fixtures = await startFixtureServer({
      '/run/login.html': html(demoPage),
      '/run/remember.html': html('<title>Remember</title><script>localStorage.setItem("k", "kept")</script><p>Remembered', { 'set-cookie': 'who=ann; Max-Age=3600' }),
      '/run/recall.html': html('<title>Recall</title><p id="p"></p><script>p.textContent = `cookie=[${document.cookie}] storage=[${localStorage.getItem("k") ?? ""}]`</script>'),
    });
    dir = mkdtempSync(join(tmpdir(), 'fu-run-'));
  });
  after(() => fixtures.close());

  it('runs a passing script: one JSON line per step, saves, a screenshot file, exit 0; --verbose prints the startup phases', async () => {
    const file = join(dir, 'login.yaml');
    writeFileSync(file, script(fixtures.url('/run/login.html'), 'Welcome, ann@example.com!'));
    const { code, lines, stderr } = await runCli([file, ...flags(), '--verbose']);
    expect(code, stderr).to.equal(0);
    // --verbose says where the cold start went.
    expect(stderr).to.match(/startup in ms since launch: spawn \d+, endpoint \d+, session \d+, ready \d+, first page \d+/);
    expect(lines.map((l) => l.tool)).to.deep.equal(['navigate', 'find', 'computer', 'computer', 'find', 'computer', 'computer']);
    expect(lines.every((l) => l.ok)).to.equal(true);
    expect(lines[2].args.ref).to.match(/^ref_\d+$/);
    expect(lines[6].images[0]).to.match(/\.jpg$/);
    expect(JSON.stringify(lines[6])).not.to.include('base64');
  });

  it('fails on an unmet expect with exit 1 and skips the rest, saying so; a URL pattern is checked too', async () => {
    const file = join(dir, 'failing.yaml');
    writeFileSync(file, script(fixtures.url('/run/login.html'), { url: '**/dashboard' }));
    const { code, lines } = await runCli([file, ...flags()]);
    expect(code).to.equal(1);
    expect(lines[5].ok).to.equal(false);
    expect(lines[5].error.code).to.equal('expectation_failed');
    expect(lines[5].line).to.equal(9);
    expect(lines[6]).to.include({ skipped: true, ok: false });
  });

  it('reports a script that does not parse with its line and exit 2, before starting Firefox', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, '- navigate: {url: "about:blank"}\n- computer: {action: jump}\n');
    const bad = await runCli([file, ...flags()]);
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.match(/bad\.yaml:2: computer: action/);
    expect(bad.lines[0].error).to.include({ code: 'script_invalid', line: 2 });
    const unknown = await runCli(['-', ...flags()], '- navigate: {url: "about:blank"}\n\n- clickk: {}\n');
    expect(unknown.code).to.equal(2);
    expect(unknown.stderr).to.match(/<stdin>:3: unknown tool "clickk"/);
    const syntax = await runCli(['-', ...flags()], '- navigate: {url: [\n');
    expect(syntax.code).to.equal(2);
  });

  it('reads a JSON script from stdin', async () => {
    const steps = JSON.stringify([{ navigate: { url: fixtures.url('/run/login.html') }, expect: 'Sign in' }, { get_page_text: {} }].slice(0, 1));
    const { code, lines } = await runCli(['-', ...flags()], steps);
    expect(code).to.equal(0);
    expect(lines[0]).to.include({ tool: 'navigate', ok: true, line: 1 });
    expect(lines[0].result.title).to.equal('firefox-use demo: sign in');
  });

  it('starts a throwaway profile from the first one\'s saved first run, with none of its cookies or storage', async () => {
    const env = { XDG_CACHE_HOME: join(dir, 'cache') };
    const first = join(dir, 'remember.yaml');
    writeFileSync(first, `- navigate: {url: "${fixtures.url('/run/remember.html')}"}\n  expect: Remembered\n`);
    const one = await runCli([first, ...flags(), '--verbose'], '', env);
    expect(one.code, one.stderr).to.equal(0);
    expect(one.stderr).to.include('a new profile on its first run');
    const second = join(dir, 'recall.yaml');
    writeFileSync(second, `- navigate: {url: "${fixtures.url('/run/recall.html')}"}\n  expect: "cookie=[] storage=[]"\n`);
    const two = await runCli([second, ...flags(), '--verbose'], '', env);
    expect(two.code, `${two.stderr}\n${JSON.stringify(two.lines)}`).to.equal(0);
    expect(two.stderr).to.include('a new profile, started from a saved first run');
  });
});
