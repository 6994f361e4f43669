// The short soak: scripts/soak.mjs for about a minute under `serve` (3 sessions, 5 tabs, re-rendering pages),
// held to the same pass conditions as the full 10,000-call run, scaled down (memory growth from call 400). Memory is
// the server's live memory after a full GC, less the ref registry's bounded share (see scripts/soak.mjs). Its RSS,
// judged before, follows the garbage collector's pace over one minute: it once failed this test with no leak behind.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const SOAK = fileURLToPath(new URL('../../scripts/soak.mjs', import.meta.url));

describe('soak (short)', function () {
  this.timeout(180_000);

  it('answers every call with a result or an expected code, stays flat in memory and leaves no Firefox', function () {
    const json = join(mkdtempSync(join(tmpdir(), 'fu-soak-report-')), 'soak.json');
    const run = spawnSync(process.execPath, [SOAK, '--seconds', '60', '--sample-every', '200', '--baseline', '400', '--quiet', '--json', json], {
      encoding: 'utf8',
      timeout: 170_000,
      // Its own process marker: the script counts what is left of its Firefox, not other tests' browsers.
      env: { ...process.env, FIREFOX_USE_TEST_RUN: randomUUID() },
    });
    expect(existsSync(json), `soak.mjs wrote no report: ${run.stderr}`).to.equal(true);
    const report = JSON.parse(readFileSync(json, 'utf8'));
    const summary = `${report.calls} calls, errors ${JSON.stringify(report.errorsByCode)}, ${report.unexpectedSamples.join(' | ')}`;
    expect(report.unexpectedErrors, summary).to.equal(0);
    expect(report.unanswered, summary).to.equal(0);
    expect(report.calls, 'enough calls to mean something').to.be.above(400);
    expect(report.serverLiveGrowthPercent, JSON.stringify(report.memory)).to.be.below(10);
    expect(report.firefoxLeft).to.equal(0);
    expect(report.failures).to.deep.equal([]);
    expect(run.status).to.equal(0);
  });
});
