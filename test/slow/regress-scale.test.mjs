// regress at --device-scale-factor 2: captures are twice the viewport, baselines are written at that size, a second
// run passes byte for byte, and a change is caught where it happened (in image pixels).
import { expect } from 'chai';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from '../helpers/mcp-client.mjs';

const FIXTURE = fileURLToPath(new URL('../fixtures/regress/page.html', import.meta.url));

/** Width and height from a PNG's IHDR chunk. */
function pngSize(path) {
  const png = readFileSync(path);
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('firefox-use regress at --device-scale-factor 2', function () {
  this.timeout(240_000);
  let dir;
  after(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('baselines at twice the viewport, passes on a second run, and fails a change where it happened', async () => {
    dir = mkdtempSync(join(tmpdir(), 'fu-regress-scale-'));
    copyFileSync(FIXTURE, join(dir, 'page.html'));
    const config = join(dir, 'suite.yaml');
    writeFileSync(config, 'viewports: [400x400]\npages:\n  - name: page\n    file: page.html\n    mask: ["#clock"]\n');
    const run = (...extra) => cli(['regress', config, '--device-scale-factor', '2', '--baseline-dir', join(dir, 'baselines'), '--report-dir', join(dir, 'report'), ...extra]);
    const report = () => JSON.parse(readFileSync(join(dir, 'report', 'report.json'), 'utf8'));

    const first = await run();
    expect(first.code, first.stderr).to.equal(0);
    expect(report().results.map((r) => r.status)).to.deep.equal(['new']);
    expect(pngSize(join(dir, 'baselines', 'page@400x400.png'))).to.deep.equal({ width: 800, height: 800 });

    const second = await run();
    expect(second.code, second.stderr).to.equal(0);
    // The ticking clock is masked at its scaled place: nothing else moves, so the pass is exact.
    expect(report().results.map((r) => [r.status, r.changedPixels])).to.deep.equal([['passed', 0]]);

    writeFileSync(join(dir, 'page.html'), readFileSync(FIXTURE, 'utf8').replace('background:#0a0', 'background:#00f'));
    const third = await run('--ci');
    expect(third.code).to.equal(1);
    const [failed] = report().results;
    // The box and the count are in image pixels: the 80x60 CSS-pixel box at (100,100) is 160x120 at (200,200).
    expect(failed.status).to.equal('failed');
    expect(failed.box).to.deep.equal({ x: 200, y: 200, width: 160, height: 120 });
    expect(failed.changedPixels).to.equal(160 * 120);
    expect(failed.message).to.equal('19200 pixels changed (3.000%) in 160x120 at 200,200');
  });
});
