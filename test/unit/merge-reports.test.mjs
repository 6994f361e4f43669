// Issue 15 item 9: merge-reports reads shard reports that may come from anywhere (a CI artifact): it must not write
// outside its output dir, read a file outside a shard dir, or copy a field into the HTML unescaped. No browser here.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CLI } from '../helpers/mcp-client.mjs';

const run = promisify(execFile);

async function merge(args) {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, 'merge-reports', ...args], { timeout: 20_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    if (typeof error.code !== 'number') throw error;
    return { code: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

function result(overrides) {
  return { id: 'home@desktop', page: 'home', viewport: 'desktop', status: 'passed', failure: false, ms: 10, ...overrides };
}

function shard(root, name, report) {
  const dir = join(root, name);
  mkdirSync(join(dir, 'images'), { recursive: true });
  writeFileSync(join(dir, 'report.json'), JSON.stringify({ tool: 'firefox-use regress', config: 'regress.yaml', startedAt: '2026-12-03T12:00:00.000Z', ms: 5, summary: {}, ...report }));
  return dir;
}

describe('merge-reports with hostile shard reports', function () {
  let root;
  let out;
  beforeEach(function () {
    root = mkdtempSync(join(tmpdir(), 'fu-merge-'));
    out = join(root, 'work', 'merged');
    mkdirSync(join(root, 'work'), { recursive: true });
    // What ../package.json from the output dir would overwrite.
    writeFileSync(join(root, 'work', 'package.json'), '{"name":"victim"}');
  });

  it('refuses an image path that leaves the shard or output dir, and writes nothing', async function () {
    for (const path of ['../package.json', '../../package.json', '/etc/passwd', 'images/../../package.json', 'images\\..\\x.png']) {
      const dir = shard(root, 'evil', { results: [result({ status: 'new', images: { actual: path } })] });
      writeFileSync(join(root, 'package.json'), '{"name":"shard side"}');
      const merged = await merge([dir, '--report-dir', out]);
      expect(merged.code, path).to.equal(2);
      expect(merged.stderr, path).to.match(/images\.actual: must be images\/NAME\.png/);
      expect(existsSync(out), path).to.equal(false);
      expect(readFileSync(join(root, 'work', 'package.json'), 'utf8')).to.equal('{"name":"victim"}');
    }
  });

  it('does not inline a file a shard image links to (/etc/passwd)', async function () {
    const dir = shard(root, 's1', { results: [result({ status: 'failed', failure: true, images: { actual: 'images/home@desktop.actual.png', baseline: 'images/home@desktop.baseline.png' } })] });
    symlinkSync('/etc/passwd', join(dir, 'images', 'home@desktop.actual.png'));
    writeFileSync(join(dir, 'images', 'home@desktop.baseline.png'), PNG);
    const merged = await merge([dir, '--report-dir', out]);
    expect(merged.code).to.equal(1);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    const passwd = readFileSync('/etc/passwd');
    expect(html).to.not.include(passwd.toString('base64').slice(0, 40));
    expect(html).to.include(PNG.toString('base64'));
    expect(readdirSync(join(out, 'images'))).to.deep.equal(['home@desktop.baseline.png']);
    // Merging in place (the output dir is the shard dir) does not read through the link either.
    await merge([dir, '--report-dir', dir]);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).to.not.include(passwd.toString('base64').slice(0, 40));
  });

  it('does not follow a symlinked images folder, in a shard or in the output (issue 35 item 13)', async function () {
    // A shard whose images/ is a link to a folder outside it, holding a "png" that is someone's secret.
    const outside = join(root, 'outside');
    mkdirSync(outside);
    const secret = Buffer.concat([PNG, Buffer.from('SECRET-KEY-MATERIAL')]);
    writeFileSync(join(outside, 'home@desktop.actual.png'), secret);
    const dir = join(root, 's1');
    mkdirSync(dir);
    symlinkSync(outside, join(dir, 'images'));
    writeFileSync(join(dir, 'report.json'), JSON.stringify({ tool: 'firefox-use regress', config: 'r.yaml', startedAt: '2026-12-03T12:00:00.000Z', ms: 5, summary: {},
      results: [result({ status: 'failed', failure: true, images: { actual: 'images/home@desktop.actual.png' } })] }));
    const merged = await merge([dir, '--report-dir', out]);
    expect(merged.code).to.equal(1);
    expect(readdirSync(join(out, 'images'))).to.deep.equal([]);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).to.not.include(secret.toString('base64').slice(-24));
    // Merged in place, the output's images/ is that link: refused, no report inlines through it.
    expect((await merge([dir, '--report-dir', dir])).code).to.equal(2);
    expect(existsSync(join(dir, 'report.html'))).to.equal(false);

    // An output whose images/ links elsewhere: refused before anything is written, nothing copied there.
    const good = shard(root, 's2', { results: [result({ status: 'new', images: { actual: 'images/home@desktop.actual.png' } })] });
    writeFileSync(join(good, 'images', 'home@desktop.actual.png'), PNG);
    const target = join(root, 'target');
    mkdirSync(target);
    const linkedOut = join(root, 'linked-out');
    mkdirSync(linkedOut);
    symlinkSync(target, join(linkedOut, 'images'));
    const refused = await merge([good, '--report-dir', linkedOut]);
    expect(refused.code).to.equal(2);
    expect(refused.stderr).to.include('symlink');
    expect(readdirSync(target)).to.deep.equal([]);
    expect(existsSync(join(linkedOut, 'report.json'))).to.equal(false);
  });

  it('escapes every field in the HTML and the JUnit XML', async function () {
    const evil = '<script>alert(1)</script>"\'&';
    const dir = shard(root, 's1', {
      config: evil,
      startedAt: `2026-12-03${evil}`,
      results: [result({ id: `a${evil}`, page: evil, viewport: evil, status: 'error', failure: true, message: evil, missingMasks: [evil] })],
    });
    const merged = await merge([dir, '--report-dir', out]);
    expect(merged.code).to.equal(1);
    for (const file of ['report.html', 'junit.xml']) {
      const text = readFileSync(join(out, file), 'utf8');
      expect(text, file).to.not.include('<script>alert');
      expect(text, file).to.include('&lt;script&gt;alert(1)&lt;/script&gt;');
    }
  });

  it('refuses a field of the wrong type or an unknown status (it would reach the HTML as markup)', async function () {
    for (const bad of [{ status: '<img src=x onerror=alert(1)>' }, { ms: '<b>1</b>' }, { threshold: '0 <script>' }, { images: { actual: 'images/a.png', extra: 'images/b.png' } }]) {
      const dir = shard(root, 'bad', { results: [result(bad)] });
      const merged = await merge([dir, '--report-dir', out]);
      expect(merged.code, JSON.stringify(bad)).to.equal(2);
      expect(merged.stderr).to.match(/not a firefox-use regress report/);
      expect(existsSync(out)).to.equal(false);
    }
    const notJson = join(root, 'x.json');
    writeFileSync(notJson, '{');
    expect((await merge([notJson, '--report-dir', out])).code).to.equal(2);
  });
});
