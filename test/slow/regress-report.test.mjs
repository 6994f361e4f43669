// regress beyond the first pass: screenshots reproducible to the byte, --update rewriting only what changed,
// merge-reports joining shards with the right totals, and the HTML report opened in Firefox through the project's
// own MCP server, showing baseline, actual and diff.
import { expect } from 'chai';
import { copyFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { cli, firstTab, startServer } from '../helpers/mcp-client.mjs';

const FIXTURE = fileURLToPath(new URL('../fixtures/regress/page.html', import.meta.url));
const BOX = (color) => readFileSync(FIXTURE, 'utf8').replace('background:#0a0', `background:${color}`);

describe('firefox-use regress: update, merge, reproducibility, the report in Firefox', function () {
  this.timeout(240_000);
  let dir;
  let config;
  const baselines = () => join(dir, 'baselines');
  const run = (report, ...extra) => cli(['regress', config, '--baseline-dir', baselines(), '--report-dir', join(dir, report), ...extra]);
  const reportOf = (report) => JSON.parse(readFileSync(join(dir, report, 'report.json'), 'utf8'));
  const statuses = (report) => Object.fromEntries(reportOf(report).results.map((r) => [r.id, r.status]));

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'fu-regress-more-'));
    copyFileSync(FIXTURE, join(dir, 'page.html'));
    copyFileSync(FIXTURE, join(dir, 'still.html'));
    config = join(dir, 'suite.yaml');
    writeFileSync(config, 'viewports: [400x400, 320x360]\npages:\n  - {name: page, file: page.html, mask: ["#clock"]}\n  - {name: still, file: still.html, mask: ["#clock"]}\n');
  });

  it('gives the same bytes for the same page at the same viewport, run after run and whatever the worker count', async () => {
    const first = await run('r1', '--workers', '1');
    expect(first.code, first.stderr).to.equal(0);
    const again = await cli(['regress', config, '--baseline-dir', join(dir, 'baselines-again'), '--report-dir', join(dir, 'r2'), '--workers', '2']);
    expect(again.code, again.stderr).to.equal(0);
    for (const id of ['page@400x400', 'page@320x360', 'still@400x400', 'still@320x360']) {
      expect(readFileSync(join(dir, 'baselines-again', `${id}.png`)).equals(readFileSync(join(baselines(), `${id}.png`))), id).to.equal(true);
    }
    // page and still are the same document: the same bytes under two names.
    expect(readFileSync(join(baselines(), 'page@400x400.png')).equals(readFileSync(join(baselines(), 'still@400x400.png')))).to.equal(true);
  });

  it('loading the next pages while one is shot gives the same bytes as one page at a time', async () => {
    const own = mkdtempSync(join(tmpdir(), 'fu-regress-prefetch-'));
    // Pages whose pixels could depend on what else the browser does: a focused input (caret, focus ring), form
    // controls, a scrollbar, a stopped animation, a masked ticker, web fonts from a data: URL.
    const pages = {
      focus: '<input autofocus value="caret here"><textarea>notes</textarea><select><option>A</option></select><button>Send</button>',
      long: Array.from({ length: 80 }, (_, i) => `<p>Line ${i} of a long page</p>`).join(''),
      animated: '<style>.s{width:40px;height:40px;background:#c33;animation:r 1s linear infinite}@keyframes r{to{transform:rotate(360deg)}}</style><div class="s"></div>',
      clock: '<div id="clock"></div><script>setInterval(() => (clock.textContent = Date.now()), 10)</script><p>masked clock</p>',
      svg: `<svg width="300" height="200">${Array.from({ length: 20 }, (_, i) => `<circle cx="${i * 15}" cy="${100 + Math.sin(i) * 60}" r="10" fill="hsl(${i * 18},70%,50%)"/>`).join('')}</svg>`,
    };
    for (const [name, body] of Object.entries(pages)) writeFileSync(join(own, `${name}.html`), `<!doctype html><meta charset="utf-8"><body style="font:15px sans-serif">${body}</body>`);
    writeFileSync(join(own, 'suite.yaml'), `viewports: [640x480, 390x600]\npages:\n${Object.keys(pages).map((name) => `  - {name: ${name}, file: ${name}.html${name === 'clock' ? ', mask: ["#clock"]' : ''}}`).join('\n')}\n`);
    const go = (label, prefetch) => cli(['regress', join(own, 'suite.yaml'), '--baseline-dir', join(own, label), '--report-dir', join(own, `report-${label}`), '--workers', '1', '--prefetch', prefetch]);
    const serial = await go('serial', '0');
    expect(serial.code, serial.stderr).to.equal(0);
    const ahead = await go('ahead', '3');
    expect(ahead.code, ahead.stderr).to.equal(0);
    const ids = Object.keys(pages).flatMap((name) => [`${name}@640x480`, `${name}@390x600`]);
    for (const id of ids) expect(readFileSync(join(own, 'ahead', `${id}.png`)).equals(readFileSync(join(own, 'serial', `${id}.png`))), id).to.equal(true);
  });

  it('--update rewrites the changed baselines and leaves the unchanged ones untouched', async () => {
    const before = Object.fromEntries(['still@400x400', 'still@320x360'].map((id) => [id, { bytes: readFileSync(join(baselines(), `${id}.png`)), mtime: statSync(join(baselines(), `${id}.png`)).mtimeMs }]));
    const old = readFileSync(join(baselines(), 'page@400x400.png'));
    writeFileSync(join(dir, 'page.html'), BOX('#00f'));
    const updated = await run('r3', '--update');
    expect(updated.code, updated.stderr).to.equal(0);
    expect(statuses('r3')).to.deep.equal({ 'page@320x360': 'updated', 'page@400x400': 'updated', 'still@320x360': 'passed', 'still@400x400': 'passed' });
    const now = readFileSync(join(baselines(), 'page@400x400.png'));
    expect(now.equals(old)).to.equal(false);
    expect(now.equals(readFileSync(join(dir, 'r3', 'images', 'page@400x400.actual.png')))).to.equal(true);
    for (const [id, was] of Object.entries(before)) {
      expect(readFileSync(join(baselines(), `${id}.png`)).equals(was.bytes), id).to.equal(true);
      expect(statSync(join(baselines(), `${id}.png`)).mtimeMs, `${id} not rewritten`).to.equal(was.mtime);
    }
    const after = await run('r4', '--ci');
    expect(after.code, after.stderr).to.equal(0);
    expect(Object.values(statuses('r4'))).to.deep.equal(['passed', 'passed', 'passed', 'passed']);
  });

  it('merge-reports joins the shards into one report with the right totals, and says when a shard is missing', async () => {
    writeFileSync(join(dir, 'page.html'), BOX('#c0c'));
    const shards = await Promise.all([run('s1', '--shard', '1/2'), run('s2', '--shard', '2/2')]);
    for (const shard of shards) expect(shard.code).to.be.oneOf([0, 1]);
    const ids = [...reportOf('s1').results, ...reportOf('s2').results].map((r) => r.id);
    expect(ids.sort()).to.deep.equal(['page@320x360', 'page@400x400', 'still@320x360', 'still@400x400']);

    const merged = await cli(['merge-reports', join(dir, 's1'), join(dir, 's2'), '--report-dir', join(dir, 'merged')]);
    expect(merged.code, 'a failure in a shard fails the merge').to.equal(1);
    const line = JSON.parse(merged.stdout.trim().split('\n').pop());
    expect(line).to.deep.include({ merged: 2, missingShards: [] });
    const report = reportOf('merged');
    expect(report.summary).to.include({ total: 4, passed: 2, failed: 2, failures: 2, new: 0 });
    expect(report.results.map((r) => r.id)).to.deep.equal(['page@320x360', 'page@400x400', 'still@320x360', 'still@400x400']);
    for (const r of report.results.filter((r) => r.status === 'failed')) {
      for (const path of Object.values(r.images)) expect(statSync(join(dir, 'merged', path)).size, path).to.be.above(0);
    }
    expect(readFileSync(join(dir, 'merged', 'junit.xml'), 'utf8')).to.match(/<testsuites [^>]*tests="4" failures="2"/);

    const partial = await cli(['merge-reports', join(dir, 's1', 'report.json'), '--report-dir', join(dir, 'partial')]);
    expect(partial.code).to.equal(1);
    expect(JSON.parse(partial.stdout.trim().split('\n').pop()).missingShards).to.deep.equal([2]);
  });

  it('the HTML report, opened in Firefox through the MCP server, shows the baseline, actual and diff images', async () => {
    // A local report file: the user opens it knowingly, as --allow-unrestricted-file-access says.
    const server = await startServer({ args: ['--isolated', '--viewport', '1400x1000', '--allow-unrestricted-file-access'] });
    try {
      const tabId = await firstTab(server);
      await server.ok('navigate', { url: pathToFileURL(join(dir, 'merged', 'report.html')).href, tabId });
      const boxes = {};
      for (const label of ['baseline', 'actual', 'diff']) {
        const found = await server.ok('find', { query: `${label} image`, tabId });
        const imgs = found.structuredContent.matches.filter((m) => m.role === 'img' && m.name === label && m.visible);
        expect(imgs.length, `${label} img found`).to.be.above(0);
        boxes[label] = imgs.sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x)[0].box;
      }
      // Side by side: one row, left to right.
      expect(boxes.baseline.x).to.be.below(boxes.actual.x);
      expect(boxes.actual.x).to.be.below(boxes.diff.x);
      expect(Math.abs(boxes.baseline.y - boxes.diff.y)).to.be.below(2);

      const shot = await server.ok('computer', { action: 'screenshot', tabId });
      const png = Buffer.from(shot.content.find((c) => c.type === 'image').data, 'base64');
      const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
      const count = (box, match) => {
        let n = 0;
        for (let y = Math.ceil(box.y); y < Math.floor(box.y + box.height); y++) {
          for (let x = Math.ceil(box.x); x < Math.floor(box.x + box.width); x++) {
            const i = (y * info.width + x) * info.channels;
            if (match(data[i], data[i + 1], data[i + 2])) n++;
          }
        }
        return n;
      };
      const near = (r, g, b) => (R, G, B) => Math.abs(R - r) < 12 && Math.abs(G - g) < 12 && Math.abs(B - b) < 12;
      // The 80x60 box: blue in the baseline, magenta in the actual, pixelmatch's red in the diff.
      expect(count(boxes.baseline, near(0, 0, 255)), 'blue box in the baseline').to.be.above(4000);
      expect(count(boxes.baseline, near(0xcc, 0, 0xcc)), 'no magenta in the baseline').to.equal(0);
      expect(count(boxes.actual, near(0xcc, 0, 0xcc)), 'magenta box in the actual').to.be.above(4000);
      expect(count(boxes.diff, near(255, 0, 0)), 'red change in the diff').to.be.above(4000);
    } finally {
      await server.close();
    }
  });
});
