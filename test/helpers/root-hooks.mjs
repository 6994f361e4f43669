// Suite-wide: after everything, no Firefox started by this run may remain.
import { firefoxPids, waitFor } from './processes.mjs';

export const mochaHooks = {
  async afterAll() {
    this.timeout(20_000);
    // Servers close their Firefox asynchronously; give them a grace period (shorter in the hook's own test).
    const clean = await waitFor(() => firefoxPids().length === 0, Number(process.env.FIREFOX_USE_LEAK_GRACE_MS ?? 15_000));
    if (!clean) {
      const left = firefoxPids();
      for (const pid of left) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {}
      }
      throw new Error(`Firefox processes left behind by the tests: ${left.join(', ')}`);
    }
  },
};
