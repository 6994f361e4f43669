// Installs the peers (bench/package.json's dev dependencies) when they are missing: `npm install` in bench/.
// Playwright is told not to fetch a browser: the peers use Debian's Chromium.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BENCH_DIR = fileURLToPath(new URL('../', import.meta.url));

export function installPeers(log) {
  log('peers missing: running npm install in bench/ (PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1)');
  const run = spawnSync('npm', ['install', '--no-audit', '--no-fund'], {
    cwd: BENCH_DIR,
    encoding: 'utf8',
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
    timeout: 180_000,
  });
  if (run.status === 0) return null;
  return `npm install in bench/ failed (${run.error?.message ?? `exit ${run.status}`}): ${(run.stderr ?? '').trim().split('\n').slice(-3).join(' ')}`;
}
