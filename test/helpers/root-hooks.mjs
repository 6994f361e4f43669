// Suite-wide: after everything, no Firefox started by this run may remain.
import { readFileSync } from 'node:fs';
import { firefoxPids, waitFor } from './processes.mjs';

export const mochaHooks = {
  async afterAll() {
    this.timeout(20_000);
    // Servers close their Firefox asynchronously; give them a grace period (shorter in the hook's own test).
    const grace = Number(process.env.FIREFOX_USE_LEAK_GRACE_MS ?? 15_000);
    let clean = await waitFor(() => firefoxPids().length === 0, grace);
    // A Firefox starting on a fresh profile may restart itself: none for a moment is not none. Look once more.
    if (clean) {
      await new Promise((resolve) => setTimeout(resolve, 750));
      clean = firefoxPids().length === 0 || (await waitFor(() => firefoxPids().length === 0, grace));
    }
    if (!clean) {
      const pids = firefoxPids();
      const left = pids.map((pid) => `${pid} (${describe(pid)})`);
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {}
      }
      throw new Error(`Firefox processes left behind by the tests: ${left.join(', ')}`);
    }
  },
};

/** What a leftover process is (its command line and parent), so a leak names its source. */
function describe(pid) {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim().slice(0, 160);
    const [, ppid, pgid] = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return `parent ${ppid}, group ${pgid}: ${cmdline}`;
  } catch {
    return 'gone';
  }
}
