// firefox-use regress end to end: baselines, a pass, a change caught where it happened, masks, shards, reports.
import { expect } from 'chai';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from '../helpers/mcp-client.mjs';

const FIXTURE = fileURLToPath(new URL('../fixtures/regress/page.html', import.meta.url));

describe('firefox-use regress', function () {
  this.timeout(240_000);
  let dir;
  let config;
  const run = (...extra) => cli(['regress', config, '--baseline-dir', join(dir, 'baselines'), '--report-dir', join(dir, 'report'), ...extra]);
  const report = () => JSON.parse(readFileSync(join(dir, 'report', 'report.json'), 'utf8'));

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'fu-regress-'));
    copyFileSync(FIXTURE, join(dir, 'page.html'));
    config = join(dir, 'suite.yaml');
    writeFileSync(config, 'viewports: [400x400, {name: small, width: 320, height: 360}]\npages:\n  - name: page\n    file: page.html\n    mask: ["#clock"]\n');
  });

  it('writes baselines on the first run, passes byte for byte on the second, fails a change where it happened', async () => {
    const first = await run('--workers', '2');
    expect(first.code, first.stderr).to.equal(0);
    expect(report().results.map((r) => r.status)).to.deep.equal(['new', 'new']);
    const baseline = readFileSync(join(dir, 'baselines', 'page@400x400.png'));

    const second = await run();
    expect(second.code, second.stderr).to.equal(0);
    expect(report().results.map((r) => [r.status, r.changedPixels])).to.deep.equal([['passed', 0], ['passed', 0]]);

    writeFileSync(join(dir, 'page.html'), readFileSync(FIXTURE, 'utf8').replace('background:#0a0', 'background:#00f'));
    const third = await run('--ci');
    expect(third.code).to.equal(1);
    const failed = report().results.find((r) => r.id === 'page@400x400');
    expect(failed.status).to.equal('failed');
    expect(failed.box).to.deep.equal({ x: 100, y: 100, width: 80, height: 60 });
    expect(failed.changedPixels).to.equal(80 * 60);
    expect(readFileSync(join(dir, 'baselines', 'page@400x400.png')).equals(baseline)).to.equal(true);

    const junit = readFileSync(join(dir, 'report', 'junit.xml'), 'utf8');
    expect(junit).to.match(/^<\?xml/);
    expect(junit).to.match(/<testsuites [^>]*tests="2" failures="2"/);
    expect(junit).to.match(/<testsuite [^>]*>/);
    expect(junit).to.match(/<testcase classname="regress.page" name="page@400x400" time="[\d.]+">\s*<failure type="screenshot_changed" message=/);
    const html = readFileSync(join(dir, 'report', 'report.html'), 'utf8');
    expect(html.match(/<img class="(baseline|actual|diff)"/g)).to.have.length(6);
  });

  it('--shard slices are disjoint and cover the suite', async () => {
    writeFileSync(join(dir, 'shards.yaml'), 'viewports: [300x300, 320x320, 340x340]\npages:\n  - {name: a, file: page.html, mask: ["#clock"]}\n  - {name: b, file: page.html, mask: ["#clock"]}\n');
    const { parseShard } = await import('../../dist/cli/regress/config.js');
    const { capturesOf, parseConfig, shardOf } = await import('../../dist/cli/regress/config.js');
    const pages = parseConfig(readFileSync(join(dir, 'shards.yaml'), 'utf8'), join(dir, 'shards.yaml'), [], { width: 800, height: 600 });
    const all = capturesOf(pages).map((c) => c.id).sort();
    const slices = [1, 2, 3, 4].map((i) => shardOf(capturesOf(pages), parseShard(`${i}/4`)).map((c) => c.id));
    expect(slices.flat().sort()).to.deep.equal(all);
    expect(new Set(slices.flat()).size).to.equal(all.length);
    expect(shardOf(capturesOf(pages), parseShard('2/4')).map((c) => c.id)).to.deep.equal(slices[1]);
  });
});
