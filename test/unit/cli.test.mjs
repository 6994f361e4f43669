// The command line as a user meets it: help text, flag errors, and where each option's value comes from.
// No browser is started here: resolveOptions is called directly, and the CLI only for --help and bad flags.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { FLAGS, envName, resolveOptions } from '../../dist/config.js';
import { CLI } from '../helpers/mcp-client.mjs';

const run = promisify(execFile);

/** Runs the CLI and returns {code, stdout, stderr} whatever the exit status. */
async function cli(args, env = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, timeout: 20_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    if (typeof error.code !== 'number') throw error;
    return { code: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}

/** The command names `firefox-use --help` lists under "Commands:". */
function commandsOf(mainHelp) {
  const section = mainHelp.split('Commands:\n')[1].split('\n\n')[0];
  return section.split('\n').map((line) => line.trim().split(/\s+/)[0]).filter(Boolean);
}

/** Flag lines of a help text: "--name ..." rows under the "Flags" heading. */
function flagRows(help) {
  // The rows of the flags table; the common flags a command only accepts are listed after it, not as rows.
  return help.split('\nAccepted, not read here:')[0].split('\n').filter((line) => /^\s+--/.test(line));
}

describe('cli: help and flags', function () {
  let mainHelp;
  before(async function () {
    const result = await cli(['--help']);
    expect(result.code).to.equal(0);
    mainHelp = result.stdout;
  });

  it('--version prints the package version', async function () {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const result = await cli(['--version']);
    expect(result.code).to.equal(0);
    expect(result.stdout.trim()).to.equal(pkg.version);
  });

  it('--help names the commands and lists every flag of mcp (the default command) with its env var and default', function () {
    expect(commandsOf(mainHelp)).to.include.members(['mcp', 'serve', 'run', 'doctor']);
    expect(mainHelp).not.to.include('--max-sessions');
    for (const spec of FLAGS.filter((flag) => flag.commands.includes('mcp'))) {
      const row = flagRows(mainHelp).find((line) => line.trim().startsWith(`--${spec.flag} `) || line.trim() === `--${spec.flag}` || line.includes(`--${spec.flag}  `));
      expect(row, `--${spec.flag} in firefox-use --help`).to.be.a('string');
      expect(row).to.include(`[env ${envName(spec.flag)}]`);
      expect(row).to.include(`(default: ${spec.defaultText})`);
    }
    expect(mainHelp).to.match(/--config FILE .*\[env FIREFOX_USE_CONFIG\]/);
    expect(mainHelp).to.include('flag > environment > config file > default');
  });

  it('<command> --help lists every flag it takes, each with a default and the common ones with their env var', async function () {
    for (const command of commandsOf(mainHelp)) {
      const result = await cli([command, '--help']);
      expect(result.code, `${command} --help`).to.equal(0);
      const rows = flagRows(result.stdout);
      expect(rows.length, `${command} --help flag rows`).to.be.greaterThan(0);
      for (const row of rows) {
        if (row.trim().startsWith('--help')) continue;
        expect(row, `${command}: ${row.trim()}`).to.match(/\(default: [^)]+\)/);
      }
      // Each command lists exactly the common flags it reads.
      for (const spec of FLAGS) {
        const listed = rows.some((row) => row.includes(`[env ${envName(spec.flag)}]`));
        expect(listed, `${command} --help lists --${spec.flag}`).to.equal(spec.commands.includes(command));
      }
    }
  });

  it('a common flag a command has no use for is accepted and said to be implied or ignored, never an error', async function () {
    // A missing CONFIG still exits 2, but for the CONFIG: the flag itself is accepted.
    const isolated = await cli(['regress', 'no-such-suite.yaml', '--isolated']);
    expect(isolated.stderr).to.include('firefox-use regress: --isolated is implied: regress starts every browser on a throwaway profile');
    expect(isolated.stderr).not.to.include('invalid_arguments');
    const profile = await cli(['regress', 'no-such-suite.yaml', '--profile', 'work']);
    expect(profile.stderr).to.include('--profile is not used: regress starts every browser on a throwaway profile');
    expect(profile.stderr).not.to.include('invalid_arguments');
    const port = await cli(['doctor', '--port', '9000', '--json']);
    expect(port.stderr).to.include('--port means nothing to "firefox-use doctor" (only serve read it): accepted and ignored.');
    expect(JSON.parse(port.stdout)).to.have.property('firefox');
    const help = await cli(['regress', '--help']);
    expect(help.stdout).to.include('Accepted, not read here:\n').and.include('  --isolated is implied: ').and.match(/Other commands read: .*--port/);
  });

  it('an unknown flag is an error that names the closest valid one', async function () {
    const result = await cli(['doctor', '--profil', 'x']);
    expect(result.code).to.equal(2);
    expect(result.stderr).to.include('invalid_arguments');
    expect(result.stderr).to.include('--profil');
    expect(result.stderr).to.include('Did you mean --profile?');
    const onDefault = await cli(['--viewprot', '800x600']);
    expect(onDefault.code).to.equal(2);
    expect(onDefault.stderr).to.include('Did you mean --viewport?');
  });

  it('an unknown command names the closest one', async function () {
    const result = await cli(['doctr']);
    expect(result.code).to.equal(2);
    expect(result.stderr).to.include('Did you mean "doctor"?');
  });

  it('malformed flags are invalid_arguments with exit 2, not a stack trace', async function () {
    for (const args of [['-x'], ['doctor', '--isolated=yes'], ['doctor', '--profile']]) {
      const result = await cli(args);
      expect(result.code, args.join(' ')).to.equal(2);
      expect(result.stderr, args.join(' ')).to.match(/^firefox-use: invalid_arguments: /);
      expect(result.stderr, args.join(' ')).not.to.include('    at ');
    }
  });

  it('a bad value names the flag and where it came from', async function () {
    const result = await cli(['doctor', '--viewport', 'big']);
    expect(result.code).to.equal(2);
    expect(result.stderr).to.include('viewport');
    const fromEnv = await cli(['doctor'], { FIREFOX_USE_TIMEOUT_ACTION: 'soon' });
    expect(fromEnv.code).to.equal(2);
    expect(fromEnv.stderr).to.include('environment timeout-action');
  });
});

describe('cli: option precedence (flag > env > config > default)', function () {
  let dir;
  let config;
  before(function () {
    dir = mkdtempSync(join(tmpdir(), 'fu-config-'));
    config = join(dir, 'firefox-use.json');
    writeFileSync(
      config,
      JSON.stringify({ profile: 'from-config', viewport: '1024x768', timeoutAction: 3000, 'timeout-navigation': 4000, headed: true, allowedOrigins: ['https://a.example'] }),
    );
  });
  after(function () {
    rmSync(dir, { recursive: true, force: true });
  });

  it('defaults apply when nothing is set', function () {
    const options = resolveOptions({}, {});
    expect(options).to.include({ profile: 'default', isolated: false, headed: false, timeoutAction: 10_000, timeoutNavigation: 30_000, allowJavascript: false, host: '127.0.0.1' });
    expect(options.viewport).to.deep.equal({ width: 1280, height: 800 });
    expect(options.outputDir).to.equal(resolve('firefox-use-output'));
    expect(options.allowedOrigins).to.deep.equal([]);
    expect(options.uploadRoots).to.deep.equal([options.outputDir]);
    expect(options).to.include({ allowUnrestrictedFileAccess: false, sharedBrowserContext: false });
  });

  it('the config file beats the defaults (camelCase and flag-style keys both work)', function () {
    const options = resolveOptions({ config }, {});
    expect(options).to.include({ profile: 'from-config', timeoutAction: 3000, timeoutNavigation: 4000, headed: true });
    expect(options.viewport).to.deep.equal({ width: 1024, height: 768 });
    expect(options.allowedOrigins).to.deep.equal(['https://a.example']);
  });

  it('the environment beats the config file', function () {
    const env = { FIREFOX_USE_PROFILE: 'from-env', FIREFOX_USE_VIEWPORT: '800x600', FIREFOX_USE_HEADED: 'false', FIREFOX_USE_ALLOWED_ORIGINS: 'https://b.example, https://c.example' };
    const options = resolveOptions({ config }, env);
    expect(options).to.include({ profile: 'from-env', headed: false, timeoutAction: 3000 });
    expect(options.viewport).to.deep.equal({ width: 800, height: 600 });
    expect(options.allowedOrigins).to.deep.equal(['https://b.example', 'https://c.example']);
  });

  it('a flag beats the environment and the config file', function () {
    const env = { FIREFOX_USE_PROFILE: 'from-env', FIREFOX_USE_TIMEOUT_ACTION: '5000' };
    const options = resolveOptions({ config, profile: 'from-flag', 'timeout-action': '7000', headed: false }, env);
    expect(options).to.include({ profile: 'from-flag', timeoutAction: 7000, headed: false, timeoutNavigation: 4000 });
  });

  it('FIREFOX_USE_CONFIG names the config file; --config beats it', function () {
    const other = join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ profile: 'from-other' }));
    expect(resolveOptions({}, { FIREFOX_USE_CONFIG: config }).profile).to.equal('from-config');
    expect(resolveOptions({ config: other }, { FIREFOX_USE_CONFIG: config }).profile).to.equal('from-other');
  });

  it('every flag is read from FIREFOX_USE_<FLAG>', function () {
    const samples = { string: 'x', boolean: 'true', number: '1234', list: 'a,b', viewport: '640x480', imageFormat: 'png', percent: '55', quota: '5,7', prefs: 'a.b=1', scale: '2' };
    for (const spec of FLAGS) {
      const options = resolveOptions({}, { [envName(spec.flag)]: samples[spec.kind] });
      const defaults = resolveOptions({}, {});
      expect(options[spec.key], `${envName(spec.flag)} sets ${spec.key}`).not.to.deep.equal(defaults[spec.key]);
    }
  });

  it('--download-quota takes FILES or FILES,MB and refuses anything else (issue 15 item 21)', async function () {
    expect(resolveOptions({}, {}).downloadQuota).to.deep.equal({ files: 20, bytes: 100 * 1024 * 1024 });
    expect(resolveOptions({ 'download-quota': '5' }, {}).downloadQuota).to.deep.equal({ files: 5, bytes: 100 * 1024 * 1024 });
    expect(resolveOptions({ 'download-quota': '3, 1' }, {}).downloadQuota).to.deep.equal({ files: 3, bytes: 1024 * 1024 });
    for (const bad of ['0', '5,0', 'lots', '-1,5', '5,5,5']) {
      expect(() => resolveOptions({ 'download-quota': bad }, {}), bad).to.throw(/download-quota: expected FILES or FILES,MB/);
    }
    const result = await cli(['doctor', '--download-quota', 'none']);
    expect(result.code).to.equal(2);
    expect(result.stderr).to.include('download-quota');
  });

  it('an unknown config key or unreadable config file is invalid_arguments', function () {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ profle: 'x' }));
    expect(() => resolveOptions({ config: bad }, {})).to.throw(/unknown key "profle"/);
    expect(() => resolveOptions({ config: join(dir, 'missing.json') }, {})).to.throw(/--config/);
    writeFileSync(bad, '{ not json');
    expect(() => resolveOptions({ config: bad }, {})).to.throw(/--config/);
  });
});

describe('server.json (MCP registry entry)', function () {
  it('matches package.json and documents every stdio env var', function () {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const server = JSON.parse(readFileSync(new URL('../../server.json', import.meta.url), 'utf8'));
    expect(server.name).to.equal(pkg.mcpName);
    expect(server.version).to.equal(pkg.version);
    expect(server.description.length).to.be.at.most(100);
    const [npm] = server.packages;
    expect(npm).to.include({ registryType: 'npm', identifier: pkg.name, version: pkg.version });
    expect(npm.transport).to.deep.equal({ type: 'stdio' });
    const documented = npm.environmentVariables.map((variable) => variable.name);
    const serveOnly = new Set(['port', 'host', 'token', 'token-file', 'shared-browser-context', 'max-sessions', 'session-idle-seconds', 'daemon-file', 'daemon-options']);
    const expected = FLAGS.filter((spec) => !serveOnly.has(spec.flag)).map((spec) => envName(spec.flag));
    expect(documented).to.have.members([...expected, 'FIREFOX_BIN', 'FIREFOX_USE_CONFIG']);
  });
});
