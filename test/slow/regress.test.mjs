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

  it('an unstable page that also changed beyond the threshold fails under --ci, with the diff in the report; --flaky=warn only warns; --update does not accept it', async () => {
    const own = mkdtempSync(join(tmpdir(), 'fu-regress-flaky-'));
    // A ticker redrawn every 7 ms never gives two equal screenshots; its few hundred pixels are within the threshold.
    const page = (block) => `<!doctype html><meta charset="utf-8"><body style="margin:0;font:16px sans-serif"><div id="t" style="position:absolute;left:10px;top:10px"></div>${block ? '<div style="position:absolute;left:100px;top:100px;width:200px;height:200px;background:#f00"></div>' : ''}<script>const t = document.getElementById('t'); setInterval(() => (t.textContent = String(performance.now())), 7);</script>`;
    writeFileSync(join(own, 'ticker.html'), page(false));
    writeFileSync(join(own, 'suite.yaml'), 'viewports: [400x400]\nthreshold: 2000\npages:\n  - {name: ticker, file: ticker.html}\n');
    const go = (...extra) => cli(['regress', join(own, 'suite.yaml'), '--baseline-dir', join(own, 'baselines'), '--report-dir', join(own, 'report'), ...extra]);
    const result = () => JSON.parse(readFileSync(join(own, 'report', 'report.json'), 'utf8')).results[0];

    const first = await go();
    expect(first.code, first.stderr).to.equal(0);
    expect(result()).to.include({ status: 'new', unstable: true });
    expect(result().message).to.match(/never gave two equal screenshots/);
    const baseline = readFileSync(join(own, 'baselines', 'ticker@400x400.png'));

    const calm = await go('--ci');
    expect(calm.code, calm.stderr).to.equal(0);
    expect(result()).to.include({ status: 'flaky', failure: false });

    writeFileSync(join(own, 'ticker.html'), page(true));
    const ci = await go('--ci');
    expect(ci.code, 'the red block is not hidden by the ticker').to.equal(1);
    const failed = result();
    expect(failed).to.include({ status: 'flaky', failure: true, unstable: true });
    expect(failed.changedPixels).to.be.at.least(200 * 200);
    expect(failed.message).to.match(/beyond the threshold/);
    for (const path of Object.values(failed.images)) expect(readFileSync(join(own, 'report', path)).length, path).to.be.above(0);
    expect(Object.keys(failed.images).sort()).to.deep.equal(['actual', 'baseline', 'diff']);
    expect(readFileSync(join(own, 'report', 'junit.xml'), 'utf8')).to.match(/<failure type="screenshot_changed_unstable"/);
    expect(readFileSync(join(own, 'report', 'report.html'), 'utf8').match(/<img class="(baseline|actual|diff)"/g)).to.have.length(3);

    const warned = await go('--ci', '--flaky=warn');
    expect(warned.code, warned.stderr).to.equal(0);
    expect(result()).to.include({ status: 'flaky', failure: false });
    expect(readFileSync(join(own, 'report', 'junit.xml'), 'utf8')).to.match(/<skipped message=/);

    const update = await go('--update', '--ci');
    expect(update.code).to.equal(1);
    expect(result().message).to.match(/baseline not rewritten/);
    expect(readFileSync(join(own, 'baselines', 'ticker@400x400.png')).equals(baseline)).to.equal(true);

    const accepted = await go('--update', '--flaky=warn');
    expect(accepted.code, accepted.stderr).to.equal(0);
    expect(result()).to.include({ status: 'updated', unstable: true });
    expect(readFileSync(join(own, 'baselines', 'ticker@400x400.png')).equals(baseline)).to.equal(false);
  });
});
