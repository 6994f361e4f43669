// firefox-use regress end to end: baselines, a pass, a change caught where it happened, masks, shards, reports.
import { expect } from 'chai';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:http';
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
    writeFileSync(join(own, 'suite.yaml'), 'viewports: [400x400]\nmax_diff_pixels: 2000\npages:\n  - {name: ticker, file: ticker.html}\n');
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

  it('each capture starts with empty cookies, storage and history: a page that sets them, captured first, changes nothing', async () => {
    const own = mkdtempSync(join(tmpdir(), 'fu-regress-fresh-'));
    // show.html paints a red block if it finds anything an earlier page stored, a green one otherwise; below it, a link
    // to set.html is green until visited, red once Firefox's history has it (no script can read :visited).
    const pages = {
      '/set.html': `<!doctype html><body><p>setting</p><script>localStorage.setItem('seen', '1'); sessionStorage.setItem('seen', '1'); document.cookie = 'seen=1; path=/';</script>`,
      '/show.html': `<!doctype html><body style="margin:0"><div id="b" style="width:200px;height:200px"></div><script>const dirty = localStorage.getItem('seen') || sessionStorage.getItem('seen') || document.cookie.includes('seen'); document.getElementById('b').style.background = dirty ? '#f00' : '#0a0'; document.title = dirty ? 'dirty' : 'clean';</script><style>a{display:block;width:200px;height:100px;background-color:#0a0}a:visited{background-color:#f00}</style><a href="/set.html"></a>`,
    };
    const server = createServer((req, res) => {
      const body = pages[req.url];
      res.writeHead(body ? 200 : 404, { 'content-type': 'text/html' }).end(body ?? 'not found');
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${server.address().port}`;
      writeFileSync(join(own, 'show.yaml'), `base_url: ${base}\nviewports: [300x300]\npages:\n  - {name: show, url: /show.html}\n`);
      // One worker, set before show in the queue (and a second viewport of each, so the same tab would be reused).
      writeFileSync(join(own, 'both.yaml'), `base_url: ${base}\nviewports: [300x300, 320x320]\npages:\n  - {name: a-set, url: /set.html}\n  - {name: show, url: /show.html}\n`);
      const go = (config, report) => cli(['regress', join(own, config), '--baseline-dir', join(own, 'baselines'), '--report-dir', join(own, report), '--workers', '1']);
      const alone = await go('show.yaml', 'r1');
      expect(alone.code, alone.stderr).to.equal(0);
      const both = await go('both.yaml', 'r2');
      expect(both.code, both.stderr).to.equal(0);
      const results = JSON.parse(readFileSync(join(own, 'r2', 'report.json'), 'utf8')).results;
      expect(results.map((r) => [r.id, r.status])).to.deep.equal([['a-set@300x300', 'new'], ['a-set@320x320', 'new'], ['show@300x300', 'passed'], ['show@320x320', 'new']]);
      const { data, info } = await (await import('sharp')).default(readFileSync(join(own, 'baselines', 'show@320x320.png'))).raw().toBuffer({ resolveWithObject: true });
      expect([data[0], data[1], data[2]], 'the block is green: no storage from set.html').to.deep.equal([0, 0xaa, 0]);
      const link = 250 * info.width * info.channels;
      expect([data[link], data[link + 1], data[link + 2]], 'the link is green: set.html is not in the history').to.deep.equal([0, 0xaa, 0]);
    } finally {
      server.close();
    }
  });

  it('an HTTP error page, a mask that matches nothing and a page that cannot load are errors: exit 3, not "screenshots changed"', async () => {
    const own = mkdtempSync(join(tmpdir(), 'fu-regress-errors-'));
    const server = createServer((req, res) => {
      if (req.url === '/ok.html') res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p id="here">fine</p>');
      else res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><h1>Not Found</h1>');
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${server.address().port}`;
      const go = async (yaml, ...extra) => {
        writeFileSync(join(own, 'suite.yaml'), `base_url: ${base}\nviewports: [300x300]\n${yaml}`);
        const out = await cli(['regress', join(own, 'suite.yaml'), '--baseline-dir', join(own, 'baselines'), '--report-dir', join(own, 'report'), ...extra]);
        return { ...out, results: out.code === 2 ? [] : JSON.parse(readFileSync(join(own, 'report', 'report.json'), 'utf8')).results };
      };
      const gone = await go('pages:\n  - {name: gone, url: /gone.html}\n');
      expect(gone.code, gone.stderr).to.equal(3);
      expect(gone.results[0]).to.include({ status: 'error', failure: true });
      expect(gone.results[0].message).to.match(/HTTP 404.*expected_status: 404/);

      const meant = await go('pages:\n  - {name: gone, url: /gone.html, expected_status: 404}\n');
      expect(meant.code, meant.stderr).to.equal(0);
      expect(meant.results[0].status).to.equal('new');

      const notMeant = await go('pages:\n  - {name: ok, url: /ok.html, expected_status: 404}\n');
      expect(notMeant.code).to.equal(3);
      expect(notMeant.results[0].message).to.match(/HTTP 200 \(expected 404\)/);

      const mask = await go('pages:\n  - {name: ok, url: /ok.html, mask: ["#here", "#nowhere"]}\n');
      expect(mask.code).to.equal(3);
      expect(mask.results[0]).to.include({ status: 'error' });
      expect(mask.results[0].message).to.match(/mask "#nowhere" matched nothing/);

      // Nothing listens on port 1: the page cannot load.
      const refused = await go('pages:\n  - {name: ok, url: "http://127.0.0.1:1/"}\n');
      expect(refused.code, refused.stderr).to.equal(3);
      expect(refused.results[0].status).to.equal('error');
    } finally {
      server.close();
    }
  });
});
