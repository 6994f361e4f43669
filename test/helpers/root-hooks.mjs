// Suite-wide: after everything, no Firefox started by this run may remain.
import { firefoxPids, waitFor } from './processes.mjs';

export const mochaHooks = {
  async afterAll() {
    this.timeout(20_000);
    const clean = await waitFor(() => firefoxPids().length === 0, 15_000);
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
