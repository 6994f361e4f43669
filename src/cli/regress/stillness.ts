import type { Browser } from '../../browser/browser.js';
import { appearedInPage, makePageStill, type Tab } from '../../browser/tab/index.js';
import { ToolError } from '../../errors.js';

const QUIET_MS = 50;
const NETWORK_CAP_MS = 3_000;

/** In-flight requests per browsing context, from the BiDi network events the Browser subscribes to. */
export class NetworkWatch {
  private readonly inflight = new Map<string, Set<string>>();
  private readonly lastActivity = new Map<string, number>();
  private readonly unsubscribe: () => void;

  constructor(browser: Browser) {
    const touch = (context: string | null, id: string, open: boolean, url: string) => {
      // Only http(s) requests settle with responseCompleted; file:, data: and about: ones need no wait.
      if (!context || !/^https?:/i.test(url)) return;
      const set = this.inflight.get(context) ?? new Set<string>();
      if (open) set.add(id);
      else set.delete(id);
      this.inflight.set(context, set);
      this.lastActivity.set(context, Date.now());
    };
    this.unsubscribe = browser.onNetworkActivity((activity) => touch(activity.context, activity.request, !activity.done, activity.url));
  }

  /** Resolves once the context had no request in flight for QUIET_MS (or after a cap, for pages that never settle). */
  async idle(context: string): Promise<boolean> {
    const deadline = Date.now() + NETWORK_CAP_MS;
    for (;;) {
      const busy = (this.inflight.get(context)?.size ?? 0) > 0;
      const quietFor = Date.now() - (this.lastActivity.get(context) ?? 0);
      if (!busy && quietFor >= QUIET_MS) return true;
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, busy ? 20 : QUIET_MS - quietFor));
    }
  }

  close(): void {
    this.unsubscribe();
  }
}

export async function waitFor(tab: Tab, target: { selector?: string; text?: string }, timeout: number): Promise<void> {
  // The page polls (src/page/still.ts `appeared`); the call is given 2 s more than that to answer.
  const { found } = await appearedInPage(tab, target, timeout);
  if (!found) throw new ToolError('timeout', `wait_for: ${target.selector ? `selector ${target.selector}` : `text "${target.text}"`} did not appear within ${timeout} ms.`);
}

/** Makes the page still (src/page/still.ts); returns mask selectors that matched nothing. */
export async function makeStill(tab: Tab, network: NetworkWatch, mask: string[], timeout: number, framesSinceShot = 0): Promise<string[]> {
  const [{ missing }] = await Promise.all([makePageStill(tab, mask, framesSinceShot, timeout + 2_000), network.idle(tab.context)]);
  return missing;
}
