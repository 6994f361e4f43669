// Issue 35 items 4 and 13: a local page a run script or a regress config names cannot reach other local files, and
// what regress's pages download goes to the output dir, not the working directory.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI } from '../helpers/mcp-client.mjs';

const SECRET = 'TOP-SECRET-FROM-OUTSIDE';
const BINARY_MARK = 'BINARY-OUTSIDE-MARK';

function cliIn(cwd, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** All files under `dir`, recursively. */
function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]));
}

describe('local pages of run scripts and regress configs (issue 35)', function () {
  this.timeout(300_000);
  let root;
  let site;
  before(function () {
    root = mkdtempSync(join(tmpdir(), 'fu-local-'));
    const outside = join(root, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.txt'), SECRET);
    writeFileSync(join(outside, 'tool.bin'), Buffer.concat([Buffer.from([0, 1, 2, 0xff]), Buffer.from(BINARY_MARK)]));
    site = join(root, 'site');
    mkdirSync(site);
    symlinkSync(join(outside, 'secret.txt'), join(site, 'linked.txt'));
    writeFileSync(join(site, '.env'), `${SECRET}-dotfile`);
    const frame = (src) => `<iframe src="${src}" style="width:380px;height:60px"></iframe>`;
    writeFileSync(
      join(site, 'page.html'),
      `<!doctype html><title>local page</title><h1>Local page</h1>
${frame('../outside/secret.txt')}${frame(`file://${join(outside, 'secret.txt')}`)}${frame('../outside/')}${frame('/etc/')}
${frame('../outside/tool.bin')}${frame('linked.txt')}${frame('.env')}
<object data="../outside/secret.txt" width="300" height="40"></object>
<a href="../outside/tool.bin" download id="dl">tool</a><a href="download.bin" download id="dl2">ok</a>
<button id="go">Get the files</button>
<script>
  const fetchAll = () => { document.getElementById('dl').click(); document.getElementById('dl2').click(); };
  document.getElementById('go').addEventListener('click', fetchAll);
  // regress loads the page as it is; run clicks the button (a download during navigate would be its whole reply).
  if (!location.search.includes('manual')) fetchAll();
</script>`,
    );
    writeFileSync(join(site, 'download.bin'), Buffer.from([9, 9, 9]));
  });

  function assertNothingLeaked(text, where) {
    expect(text, where).to.not.include(SECRET);
    expect(text, where).to.not.include(BINARY_MARK);
    expect(text, where).to.not.include('root:x:0');
    expect(text, where).to.not.include('Index of');
  }

  it('run: the page loads over loopback HTTP and none of its frames shows a file from outside its folder', async function () {
    const script = join(site, 'script.yaml');
    writeFileSync(script, '- navigate: {url: "${SCRIPT_DIR}/page.html?manual=1"}\n  expect: Local page\n- find: {query: Get the files button}\n  save: go\n- computer: {action: left_click, ref: $go}\n- computer: {action: wait, duration: 2}\n- read_page: {}\n- get_page_text: {}\n');
    const cwd = mkdtempSync(join(tmpdir(), 'fu-local-cwd-'));
    const out = join(root, 'run-out');
    const result = await cliIn(cwd, ['run', script, '--isolated', '--output-dir', out], { XDG_DATA_HOME: mkdtempSync(join(tmpdir(), 'fu-data-')) });
    expect(result.code, result.stderr + result.stdout).to.equal(0);
    assertNothingLeaked(result.stdout, 'run output');
    expect(result.stdout).to.match(/http:\/\/127\.0\.0\.1:\d+\/page\.html/);
    // No file from outside was downloaded; the page's own file may be.
    for (const file of filesUnder(out)) assertNothingLeaked(readFileSync(file, 'latin1'), file);
    expect(readdirSync(cwd)).to.deep.equal([]);
  });

  it('regress: nothing from outside the page\'s folder in the screenshots or the report; downloads go to the output dir', async function () {
    const config = join(site, 'suite.yaml');
    writeFileSync(config, 'viewports: [400x700]\npages:\n  - name: local\n    file: page.html\n');
    const cwd = mkdtempSync(join(tmpdir(), 'fu-local-cwd-'));
    const out = join(root, 'regress-out');
    const report = join(root, 'report');
    const result = await cliIn(cwd, ['regress', config, '--baseline-dir', join(root, 'baselines'), '--report-dir', report, '--output-dir', out], {
      XDG_DATA_HOME: mkdtempSync(join(tmpdir(), 'fu-data-')),
    });
    expect(result.code, result.stderr + result.stdout).to.equal(0);
    for (const file of [...filesUnder(report), ...filesUnder(join(root, 'baselines'))]) assertNothingLeaked(readFileSync(file, 'latin1'), file);
    // Screenshots hold no text to search: the page's frames are blank or error pages, not the secret. Its own
    // download landed in the output dir, none in the working directory.
    expect(readdirSync(cwd)).to.deep.equal([]);
    for (const file of filesUnder(out)) assertNothingLeaked(readFileSync(file, 'latin1'), file);
  });
});
