// Waiting for a page to settle after it loaded: single-page apps and viewers (pdf.js) fetch and render after the
// load event, so a snapshot taken at load shows an empty shell. Settled means the DOM has been quiet for a moment
// with no transition running and no request of the tab in flight; the wait is bounded and says when it ran out.
import { tabOf, type TabHandle } from '../tab/handle.js';

/** How long navigate (and an action that loaded a new page) waits at most for the page to settle, ms. */
export const SETTLE_MAX_MS = 3_000;
/**
 * How long the DOM must stay unchanged to count as quiet once scripts have changed it, ms. No page signal tells of a
 * timer about to draw (a page that draws 150 ms after its last change, Grid.js starting its request 90 ms after its
 * last change): a shorter window answered such pages half-drawn, so this one stays (docs/benchmark.md, session 22).
 */
const QUIET_MS = 200;
/** The same for a document no script has changed since it was parsed: a static page need not wait long, ms. */
const PARSED_QUIET_MS = 40;
/**
 * The same for a page with nothing scheduled that could change it within QUIET_MS: no timer due, no frame or idle
 * callback waiting, no fetch unanswered (counted in the page's realm, src/page/main-realm.ts), ms.
 */
const FAST_QUIET_MS = 50;

export interface SettleOutcome {
  settled: boolean;
  waitedMs: number;
  /** What was still going on when the bound ran out. */
  busy?: string;
}


function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits (at most maxMs) for the tab's page to be quiet: DOM, animations and network. */
export async function settleTab(handle: TabHandle, maxMs: number): Promise<SettleOutcome> {
  const tab = tabOf(handle);
  const started = Date.now();
  const deadline = started + maxMs;
  let busy = 'the page kept changing';
  // Once requests were waited for, their responses may still be rendering: quiet is counted from then too.
  let fromNow = false;
  while (Date.now() < deadline) {
    const remaining = deadline - Date.now();
    const args = { quietMs: QUIET_MS, parsedQuietMs: PARSED_QUIET_MS, fastQuietMs: FAST_QUIET_MS, maxMs: remaining, ...(fromNow ? { fromNow } : {}) };
    const report = await tab
      .callPage('waitQuiet', args, { timeout: remaining + 2_000 })
      .catch((error: unknown) => {
        if (tab.isFatal(error)) throw error;
        return null;
      });
    if (!report) {
      // The document was being replaced (a redirect by script): look again shortly.
      await sleep(25);
      continue;
    }
    if (!report.quiet) {
      busy =
        report.busy === 'loading'
          ? `the page still showed a loading indicator, ${report.indicator ?? 'unnamed'}`
          : report.busy === 'animations'
            ? 'animations were still running'
            : report.busy === 'fonts'
              ? 'web fonts were still loading'
              : 'the page kept changing';
      break;
    }
    const loading = tab.network.inFlight();
    if (loading === 0) return { settled: true, waitedMs: Date.now() - started };
    busy = `${loading} request${loading === 1 ? ' was' : 's were'} still loading`;
    while (tab.network.inFlight() > 0 && Date.now() < deadline) await sleep(25);
    fromNow = true;
  }
  return { settled: false, waitedMs: Date.now() - started, busy };
}
