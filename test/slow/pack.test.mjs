// The package as a user gets it: `npm pack`, install the tarball into a throwaway global prefix, then run the
// installed `firefox-use` from an unrelated directory and drive it over stdio with the MCP SDK client.
// Part of `npm run test:slow` (alone: `npm run test:pack`, which builds first); `npm test` leaves it out: the install is slow.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startFixtureServer } from '../helpers/fixtures.mjs';
import { trackPid } from '../helpers/processes.mjs';

const exec = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Package names that would fetch a browser or a driver on install; the package must pull in none of them. */
const BROWSER_DOWNLOADERS = /^(puppeteer|playwright|playwright-core|geckodriver|chromedriver|selenium-webdriver|@puppeteer\/browsers)$/;

function installedPackages(nodeModules) {
  const names = [];
  if (!existsSync(nodeModules)) return names;
  for (const entry of readdirSync(nodeModules)) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@')) {
      for (const scoped of readdirSync(join(nodeModules, entry))) names.push(`${entry}/${scoped}`);
    } else {
      names.push(entry);
    }
  }
  return names;
}

describe('package: npm pack, install the tarball, run it', function () {
  this.timeout(300_000);
  let work;
  let prefix;
  let elsewhere;
  let bin;
  let packed;
  let env;

  before(async function () {
    work = mkdtempSync(join(tmpdir(), 'fu-pack-'));
    prefix = join(work, 'prefix');
    elsewhere = join(work, 'elsewhere');
    mkdirSync(elsewhere);
    // Scripts are skipped: `npm run test:pack` has just built dist/, and prepack would build it again.
    const { stdout } = await exec(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: ROOT, maxBuffer: 16 << 20 });
    packed = JSON.parse(stdout)[0];
    await exec(npm, ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '--prefer-offline', join(work, packed.filename)], {
      cwd: elsewhere,
      maxBuffer: 16 << 20,
    });
    bin = join(prefix, 'bin', 'firefox-use');
    // Its own data dir, so doctor and the server never look at the user's profiles.
    env = { ...process.env, XDG_DATA_HOME: join(work, 'data'), PATH: `${join(prefix, 'bin')}${delimiter}${process.env.PATH}` };
  });

  after(function () {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('packs dist, the page bundle, the profile template, README, LICENSE and server.json, and no sources or tests', function () {
    const files = packed.files.map((file) => file.path);
    expect(files).to.include.members([
      'package.json',
      'README.md',
      'LICENSE',
      'server.json',
      'dist/cli/main.js',
      'dist/page/bundle.js',
      'profiles/user.js',
    ]);
    expect(files.filter((path) => /^(src|test|bench)\//.test(path)), 'sources and tests').to.deep.equal([]);
    expect(files.filter((path) => path.endsWith('.map')), 'source maps').to.deep.equal([]);
  });

  it('installs without anything that downloads a browser', function () {
    const installed = join(prefix, 'lib', 'node_modules', 'firefox-use');
    expect(existsSync(join(installed, 'dist', 'page', 'bundle.js'))).to.equal(true);
    const names = [...installedPackages(join(installed, 'node_modules')), ...installedPackages(join(prefix, 'lib', 'node_modules'))];
    expect(names.filter((name) => BROWSER_DOWNLOADERS.test(name))).to.deep.equal([]);
  });

  it('firefox-use --version and doctor work from another directory', async function () {
    const version = await exec(bin, ['--version'], { cwd: elsewhere, env });
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(version.stdout.trim()).to.equal(pkg.version);
    const doctor = await exec(bin, ['doctor', '--json'], { cwd: elsewhere, env });
    const report = JSON.parse(doctor.stdout);
    expect(report.ok).to.equal(true);
    expect(report.firefoxUse).to.equal(pkg.version);
    expect(report.firefox.version).to.match(/Firefox/);
    expect(report.profile.dir.startsWith(join(work, 'data'))).to.equal(true);
  });

  it('doctor --launch starts Firefox from another directory, loads a page and reports each step', async function () {
    const { stdout } = await exec(bin, ['doctor', '--launch', '--isolated', '--json'], { cwd: elsewhere, env });
    const { launch, ok } = JSON.parse(stdout);
    expect(ok, stdout).to.equal(true);
    expect(launch.ok).to.equal(true);
    expect(launch.browser).to.match(/firefox/i);
    expect(launch.pageTitle).to.equal('firefox-use doctor page');
    expect(Object.keys(launch.phases)).to.include.members(['spawn', 'endpoint', 'session', 'ready', 'page']);
    // Each step after the one before it.
    const { spawn, endpoint, session, ready, page } = launch.phases;
    expect([spawn <= endpoint, endpoint <= session, session <= ready, ready <= page]).to.deep.equal([true, true, true, true]);
    const text = await exec(bin, ['doctor', '--launch', '--isolated'], { cwd: elsewhere, env });
    expect(text.stdout).to.match(/^Launch: OK \(firefox [\d.]+\): spawn \d+ ms, endpoint \d+ ms, session \d+ ms, ready \d+ ms, page \d+ ms$/m);
  });

  it('doctor --launch with a Firefox that cannot start says so and exits 1', async function () {
    const failed = await exec(bin, ['doctor', '--launch', '--isolated', '--firefox', '/bin/false'], { cwd: elsewhere, env }).catch((error) => error);
    expect(failed.code).to.equal(1);
    expect(failed.stdout).to.match(/^Launch: FAILED/m);
    expect(failed.stdout).to.match(/^Launch error: launch_failed: /m);
  });

  it('each command\'s --help lists only its own flags', async function () {
    const regress = await exec(bin, ['regress', '--help'], { cwd: elsewhere, env });
    // The flags table lists what regress reads; the common flags it only accepts follow it, said to be unused.
    const [table, accepted = ''] = regress.stdout.split('\nAccepted, not read here:');
    expect(table).to.include('--baseline-dir');
    expect(table).not.to.include('--profile');
    expect(table).not.to.include('--port');
    expect(accepted).to.include('--isolated is implied').and.include('--port');
    const serve = await exec(bin, ['serve', '--help'], { cwd: elsewhere, env });
    expect(serve.stdout).to.include('--port').and.include('--profile').and.not.include('--baseline-dir');
  });

  it('npx firefox-use finds the globally installed binary', async function () {
    // npx looks in the global prefix; point it at the temporary one.
    const { stdout } = await exec(npm, ['exec', '--no', '--', 'firefox-use', '--version'], { cwd: elsewhere, env: { ...env, npm_config_prefix: prefix } });
    expect(stdout.trim()).to.match(/^\d+\.\d+\.\d+/);
  });

  it('serves MCP over stdio: lists tools, opens a tab on a page, takes a screenshot', async function () {
    const fixtures = await startFixtureServer();
    const transport = new StdioClientTransport({
      command: bin,
      args: ['--isolated', '--output-dir', join(work, 'out')],
      cwd: elsewhere,
      env,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk) => (stderr += chunk));
    const client = new Client({ name: 'firefox-use-pack-test', version: '0.0.0' });
    try {
      await client.connect(transport);
      if (transport.pid) trackPid(transport.pid);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).to.include.members(['tabs_context_mcp', 'tabs_create_mcp', 'navigate', 'computer']);

      const created = await client.callTool({ name: 'tabs_create_mcp', arguments: { url: fixtures.url('/index.html') } });
      expect(created.isError, JSON.stringify(created.content)).to.not.equal(true);
      const tabId = created.structuredContent.tabId ?? created.structuredContent.tab?.tabId;
      expect(tabId).to.be.a('number');

      const shot = await client.callTool({ name: 'computer', arguments: { action: 'screenshot', tabId, image_format: 'png' } });
      expect(shot.isError, JSON.stringify(shot.content)).to.not.equal(true);
      const image = shot.content.find((block) => block.type === 'image');
      expect(image.mimeType).to.equal('image/png');
      const png = Buffer.from(image.data, 'base64');
      expect(png.subarray(1, 4).toString('latin1')).to.equal('PNG');
      // Width and height from the IHDR chunk: the default viewport.
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).to.deep.equal([1280, 800]);
    } catch (error) {
      error.message += `\nserver stderr:\n${stderr}`;
      throw error;
    } finally {
      await client.close().catch(() => undefined);
      await fixtures.close();
    }
  });
});
