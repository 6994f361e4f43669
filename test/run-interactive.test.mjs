// `run --interactive` with steps piped in: one JSON line per step (or per line that does not parse), steps keep
// going after a failure, .exit ends the session, nothing is written to the history, exit 1 when anything failed.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI } from './helpers/mcp-client.mjs';
import { startFixtureServer } from './helpers/fixtures.mjs';

function repl(lines, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'run', '--interactive', '--isolated'], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.stdin.end(lines.join('\n') + '\n');
    child.on('exit', (code) => resolve({ code, stderr, lines: stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)) }));
  });
}

describe('firefox-use run --interactive (piped)', function () {
  this.timeout(90_000);
  let fixtures;
  before(async () => {
    fixtures = await startFixtureServer();
  });
  after(async () => {
    await fixtures?.close();
  });

  it('prints one JSON line per step, goes on after a failure, stops at .exit and keeps no history', async () => {
    const home = mkdtempSync(join(tmpdir(), 'fu-repl-home-'));
    const result = await repl(
      [
        `navigate: {url: "${fixtures.url('/index.html')}"}`,
        '# a comment is skipped',
        'navigate: {url: [unclosed',
        '{get_page_text: {}, expect: "no such text anywhere"}',
        '{read_page: {}}',
        '.saved',
        '.exit',
        `navigate: {url: "${fixtures.url('/second.html')}"}`,
      ],
      { XDG_DATA_HOME: home },
    );
    expect(result.code, result.stderr).to.equal(1);
    const [nav, parse, expectFail, js, saved, ...rest] = result.lines;
    expect(nav).to.include({ step: 1, line: 1, tool: 'navigate', ok: true });
    expect(parse).to.deep.include({ line: 3, ok: false });
    expect(parse.error).to.include({ code: 'script_invalid', line: 3 });
    expect(expectFail).to.include({ line: 4, tool: 'get_page_text', ok: false });
    expect(js).to.include({ line: 5, tool: 'read_page', ok: true });
    expect(saved).to.be.an('object').that.does.not.have.property('ok');
    expect(rest, 'nothing after .exit runs').to.deep.equal([]);
    expect(existsSync(join(home, 'firefox-use', 'repl_history')), 'piped steps are not history').to.equal(false);
  });

  it('exits 0 at the end of input when every step passed', async () => {
    const result = await repl([`navigate: {url: "${fixtures.url('/index.html')}"}`, '.tools']);
    expect(result.code, result.stderr).to.equal(0);
    expect(result.lines[0]).to.include({ tool: 'navigate', ok: true });
    expect(result.lines[1].tools).to.include('computer');
  });
});
