// Tracks the processes the tests start, so the suite can prove no Firefox outlived it. Every server the tests
// start carries RUN_MARKER in its environment, and Firefox inherits it: that tells our browsers from any other.
import { readdirSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';

// Under `mocha --parallel` the workers inherit the main process's marker: each worker makes it its own (once), so
// its suite-end check counts only the Firefox its own tests started.
let runId = process.env.FIREFOX_USE_TEST_RUN ?? randomUUID();
const worker = process.env.MOCHA_WORKER_ID;
if (worker !== undefined && process.env.FIREFOX_USE_TEST_RUN_WORKER !== worker) {
  runId = `${runId}-worker${worker}`;
  process.env.FIREFOX_USE_TEST_RUN_WORKER = worker;
}
export const RUN_MARKER = `FIREFOX_USE_TEST_RUN=${runId}`;
process.env.FIREFOX_USE_TEST_RUN = runId;

const serverPids = new Set();

export function trackPid(pid) {
  serverPids.add(pid);
}

/** Pids of live Firefox processes started under this test run. */
export function firefoxPids() {
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!/firefox/.test(cmdline)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (/\) Z /.test(stat)) continue;
      const environ = readFileSync(`/proc/${entry}/environ`, 'utf8');
      if (environ.split('\0').includes(RUN_MARKER)) pids.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}

export function alive(pid) {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/\) Z /.test(stat);
  } catch {
    return false;
  }
}

export async function waitFor(predicate, timeoutMs = 10_000, intervalMs = 50) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await predicate();
    if (value) return value;
    if (Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
