// The suite-end check (test/helpers/root-hooks.mjs) must catch a Firefox a test leaves behind: run a tiny suite
// that leaks one, under its own run marker, and expect it to fail, name the leftover, and kill it.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '../helpers/processes.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MOCHA = createRequire(import.meta.url).resolve('mocha/bin/mocha.js');

/** Live processes whose environment carries this exact marker. */
function pidsWithMarker(marker) {
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (/\) Z /.test(readFileSync(`/proc/${entry}/stat`, 'utf8'))) continue;
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(marker)) pids.push(Number(entry));
    } catch {}
  }
  return pids;
}

describe('suite-end check: no Firefox left behind', function () {
  it('fails a run that leaves a Firefox running, and kills it', async function () {
    this.timeout(90_000);
    const profile = mkdtempSync(join(tmpdir(), 'fu-leak-'));
    const runId = `leak-check-${process.pid}-${Date.now()}`;
    try {
      const outcome = await new Promise((resolve) => {
        execFile(
          process.execPath,
          [MOCHA, '--no-config', '--require', 'test/helpers/root-hooks.mjs', '--timeout', '60000', 'test/helpers/leak-fixture.mjs'],
          { cwd: ROOT, env: { ...process.env, FIREFOX_USE_TEST_RUN: runId, LEAK_PROFILE: profile, FIREFOX_USE_LEAK_GRACE_MS: '1000' }, timeout: 80_000 },
          (error, stdout, stderr) => resolve({ code: error ? error.code : 0, output: stdout + stderr }),
        );
      });
      expect(outcome.code, outcome.output).to.not.equal(0);
      expect(outcome.output).to.include('Firefox processes left behind by the tests');
      expect(await waitFor(() => pidsWithMarker(`FIREFOX_USE_TEST_RUN=${runId}`).length === 0, 10_000)).to.equal(true);
    } finally {
      for (const pid of pidsWithMarker(`FIREFOX_USE_TEST_RUN=${runId}`)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {}
      }
      rmSync(profile, { recursive: true, force: true });
    }
  });
});
