import type { BrowsingContext } from 'webdriver-bidi-protocol';
import { z } from 'zod';
import type { ServerOptions } from '../../config.js';
import { ToolError, isToolError } from '../../errors.js';
import { isNavigationAborted, mapNavigationError } from '../bidi-errors.js';
import { assertOriginAllowed } from '../launch/origins.js';
import { assertSchemeAllowed, printableUrl } from '../launch/schemes.js';
import type { PageInfo } from '../../contract/index.js';
import type { RequestEnd } from './network-log.js';
import { TabChange } from './tab-change.js';
import type { NavigationEvent, Tab } from './tab.js';
import { tabOf, type TabHandle } from './handle.js';

export const navigationTargetSchema = z.string().min(1).max(16_384);

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const LOCAL_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?(\/|$)/i;

/** What a user typed into an address bar, made into a URL. */
export function normalizeUrl(input: string): string {
  const trimmed = input.trim();
  const candidate = SCHEME.test(trimmed) && !/^localhost:\d/i.test(trimmed) ? trimmed : `${LOCAL_HOST.test(trimmed) ? 'http' : 'https'}://${trimmed}`;
  try {
    return new URL(candidate).href;
  } catch {
    throw new ToolError('invalid_arguments', `url: "${printableUrl(input)}" is not a URL (nor "back" / "forward").`, { field: 'url' });
  }
}

/**
 * The URL `target` would load, after the checks every navigation passes: refused schemes (file:, javascript:) and the
 * origin lists. Throws origin_blocked before anything is touched.
 */
export function checkedUrl(target: string, options: ServerOptions): string {
  const url = normalizeUrl(target);
  assertSchemeAllowed(url, options);
  assertOriginAllowed(url, options);
  return url;
}

export interface Arrival {
  url: string;
  title: string;
  /** Set when another navigation replaced the agent's: re-issued and arrived, superseded twice, or arrived and moved on. */
  outcome?: 'reissued' | 'superseded' | 'navigated_on';
  /** What happened, in words, when `outcome` is set. */
  note?: string;
}

/** Loads `target` (a URL, "back" or "forward") and waits for the document to be complete. */
export async function navigateTab(handle: TabHandle, target: string, options: ServerOptions): Promise<Arrival> {
  const tab = tabOf(handle);
  const timeout = tab.timeouts.navigation;
  const started = Date.now();
  if (target === 'back' || target === 'forward') {
    try {
      await tab.traverseHistory(target === 'back' ? -1 : 1, timeout);
    } catch (error) {
      throw navigationError(error, tab, timeout, target);
    }
    return waitForLoad(tab, started + timeout);
  }
  const url = checkedUrl(target, options);
  const deadline = started + timeout;
  const watch = new NavigationWatch(tab);
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        const remaining = Math.max(1_000, deadline - Date.now());
        if (url.startsWith('javascript:')) await runJavascriptUrl(tab, url, remaining);
        else await tab.navigateTo(url, 'complete', remaining);
        break;
      } catch (error) {
        const refusedAfter = await refusalAfterArrival(tab, watch, url, started);
        if (refusedAfter) return leftForRefused(await waitForLoad(tab, deadline), url, refusedAfter);
        if (!isNavigationAborted(error)) throw navigationError(error, tab, timeout, url);
        // Another navigation (the page's own, most often) replaced ours: an outcome, not a failure.
        watch.abortedOnce = true;
        if (watch.committed(url)) {
          await watch.settled(url, deadline);
          return navigatedOn(url, await waitForLoad(tab, deadline));
        }
        if (attempt === 1) continue;
        await watch.settled(url, deadline);
        const arrival = await waitForLoad(tab, deadline);
        // Firefox can answer "aborted" for a load that goes on and arrives (the page's stopped navigation is
        // reported to ours, seen once in CI on a busy machine): the tab's URL, not that answer, says who won.
        if (withoutHash(arrival.url) === withoutHash(url)) return reissued(url, arrival);
        return {
          ...arrival,
          outcome: 'superseded',
          note: `The page's own navigation replaced the one to ${url} twice (it was re-issued once); the tab is at ${arrival.url}.`,
        };
      }
    }
    // The navigate command can answer before the new document is complete (a second load of the URL the tab is
    // at, on pdf.js: an empty, untitled page was snapshotted): wait for it to be.
    let arrival = await waitForLoad(tab, deadline);
    // The page may be leaving the document ours loaded (a script that sets location as it loads: the events of its
    // navigation come after navigate's answer, and before that page call's): the reply waits for that navigation
    // rather than describe a page that is going away.
    const movedOn = watch.startedAfter(url);
    if (movedOn) {
      await watch.settled(url, deadline);
      arrival = await waitForLoad(tab, deadline);
    }
    const refusedAfter = await refusalAfterArrival(tab, watch, url, started);
    if (refusedAfter) return leftForRefused(arrival, url, refusedAfter);
    if (movedOn && withoutHash(arrival.url) !== withoutHash(url)) return navigatedOn(url, arrival);
    // Ours was answered as loaded, yet the tab shows a page the page itself started loading (a page that sets
    // location every 100 ms): its navigation won. A redirect of ours is one navigation and does not count.
    if (withoutHash(arrival.url) !== withoutHash(url) && watch.startedTo(arrival.url)) {
      return { ...arrival, outcome: 'superseded', note: `The page's own navigation replaced the one to ${url}; the tab is at ${arrival.url}.` };
    }
    return watch.abortedOnce ? reissued(url, arrival) : arrival;
  } finally {
    watch.dispose();
  }
}

const NO_DOCUMENT_AFTER_ANSWER_MS = 2_000;
/** How long the answer to a javascript: URL's navigate is waited for: Firefox ESR runs the code and never answers. */
const JAVASCRIPT_URL_ANSWER_MS = 500;

/**
 * A javascript: URL (with --allow-javascript) runs in the page and loads nothing unless its value is a page: no load
 * to wait for, and no answer either from Firefox ESR, which would hold the reply for the whole timeout and then say
 * it timed out, though the code ran.
 */
async function runJavascriptUrl(tab: Tab, url: string, timeout: number): Promise<void> {
  const command = tab.navigateTo(url, 'none', timeout);
  command.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const unanswered = new Promise<void>((resolve) => (timer = setTimeout(resolve, JAVASCRIPT_URL_ANSWER_MS)));
  try {
    await Promise.race([command, unanswered]);
  } finally {
    clearTimeout(timer);
  }
}

const withoutHash = (url: string): string => url.replace(/#.*$/, '');

function reissued(url: string, arrival: Arrival): Arrival {
  return { ...arrival, outcome: 'reissued', note: `The page's own navigation replaced the one to ${url} before it loaded; it was re-issued and arrived.` };
}

function navigatedOn(url: string, arrival: Arrival): Arrival {
  return { ...arrival, outcome: 'navigated_on', note: `${url} loaded and then navigated itself to ${arrival.url}.` };
}

/** The tab's navigations seen while one navigate call runs: which started, and which committed a document. */
class NavigationWatch {
  private readonly started: { id: string; url: string; at: number }[] = [];
  /** Navigations that got their own document. */
  private readonly committedIds = new Set<string>();
  /** Navigations that ended without one (aborted, failed). */
  private readonly endedIds = new Set<string>();
  /** When the request of a navigation got its whole answer, by navigation id. */
  private readonly answeredAt = new Map<string, number>();
  private readonly stop: () => void;
  /** A navigation of this call was replaced by another one. */
  abortedOnce = false;

  constructor(private readonly tab: Tab) {
    const seen = (kind: NavigationEvent[0], event: BrowsingContext.NavigationInfo): void => {
      if (!event.navigation) return;
      if (kind === 'started') this.started.push({ id: event.navigation, url: event.url, at: Date.now() });
      else if (kind === 'committed') this.committedIds.add(event.navigation);
      else if (kind === 'failed') this.endedIds.add(event.navigation);
    };
    const answered = (event: RequestEnd): void => {
      if (event.navigation && !this.answeredAt.has(event.navigation)) this.answeredAt.set(event.navigation, Date.now());
    };
    tab.on('navigation', seen);
    tab.network.on('ended', answered);
    this.stop = () => {
      tab.off('navigation', seen);
      tab.network.off('ended', answered);
    };
  }

  /** Whether a navigation to `url` started during this call and got as far as its own document. */
  committed(url: string): boolean {
    const target = withoutHash(url);
    return this.started.some((navigation) => withoutHash(navigation.url) === target && this.committedIds.has(navigation.id));
  }

  /** Whether a navigation to `url` (without its hash) started during this call. */
  startedTo(url: string): boolean {
    const target = withoutHash(url);
    return this.started.some((navigation) => withoutHash(navigation.url) === target);
  }

  /** Whether another navigation started after the newest one to `url`. */
  startedAfter(url: string): boolean {
    const target = withoutHash(url);
    const newest = this.started.at(-1);
    return newest !== undefined && withoutHash(newest.url) !== target && this.started.some((navigation) => withoutHash(navigation.url) === target);
  }

  /**
   * Waits for the navigation that replaced ours to `url` (one that started after it; its event may come after our
   * answer) to commit or end, so the tab shows whichever won. Gives up on a replacement that never shows after 2 s.
   * Looks again at each of the tab's navigation events (and refused requests), not on a timer.
   */
  async settled(url: string, deadline: number): Promise<void> {
    const target = withoutHash(url);
    const noReplacementBy = Math.min(deadline, Date.now() + 2_000);
    for (;;) {
      // Armed before the look, so an event that comes in between is not missed.
      const change = new TabChange(this.tab);
      const limit = this.replaced(target) ? Math.min(deadline, this.noDocumentBy()) : noReplacementBy;
      if (this.decided(target) || Date.now() > limit) {
        change.dispose();
        return;
      }
      await change.wait(limit - Date.now() + 1);
    }
  }

  /** The newest navigation to `target` (without its hash) among those started, -1 if none. */
  private newestTo(target: string): number {
    let mine = -1;
    this.started.forEach((navigation, index) => {
      if (withoutHash(navigation.url) === target) mine = index;
    });
    return mine;
  }

  /** Whether a navigation started after the newest one to `target`. */
  private replaced(target: string): boolean {
    return this.started.length > 0 && this.started.length - 1 > this.newestTo(target);
  }

  /**
   * When the newest navigation, answered but without a document of its own, counts as ended: Firefox starts a page's
   * own navigation to a data: URL, answers its request and then shows nothing (it refuses top-level data: pages a page
   * opens), and sends no event of its end; a download or a 204 leaves the tab where it was too. A document commits
   * well within this after its answer, even on a busy machine.
   */
  private noDocumentBy(): number {
    const newest = this.started.at(-1);
    const answered = newest && this.answeredAt.get(newest.id);
    return answered ? answered + NO_DOCUMENT_AFTER_ANSWER_MS : Infinity;
  }

  /** Whether the tab shows whichever navigation won: the one that replaced ours committed or ended, or ours committed. */
  private decided(target: string): boolean {
    const mine = this.newestTo(target);
    const newest = this.started.at(-1);
    if (newest === undefined) return false;
    if (this.replaced(target)) return this.committedIds.has(newest.id) || this.endedIds.has(newest.id) || this.refusedSince(newest.at);
    // Nothing replaced ours and it has its document: the answer that it was aborted was wrong.
    return mine >= 0 && this.committedIds.has(newest.id);
  }

  /** The origin rules refused a navigation (which then has no event of its end) since `at`. */
  private refusedSince(at: number): boolean {
    const blocked = this.tab.lastBlocked;
    return blocked !== null && blocked.at >= at;
  }

  dispose(): void {
    this.stop();
  }
}

/** A navigation the origin rules refused: the URL it led to. */
interface Refusal {
  url: string;
  origin: string;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/**
 * A refusal by the origin rules while this call ran (a redirect, or the page itself leaving) ends it with
 * origin_blocked, unless the agent's page had loaded and the tab is still off the refused origin (a refused redirect
 * leaves it on an error page there): then the refusal came after the arrival and is returned, for the reply's note.
 */
async function refusalAfterArrival(tab: Tab, watch: NavigationWatch, url: string, started: number): Promise<Refusal | null> {
  const blocked = tab.lastBlocked;
  if (!blocked || blocked.at < started) return null;
  const refusal = { url: blocked.url, origin: originOf(blocked.url) };
  if (watch.committed(url)) {
    const at = await tab.currentUrl(5_000).catch(() => '');
    if (at !== '' && originOf(at) !== refusal.origin) return refusal;
  }
  throw new ToolError('origin_blocked', `The navigation was stopped: it led to ${refusal.origin}, which this server's --allowed-origins / --blocked-origins refuse.`, {
    tabId: tab.id,
    url: refusal.url,
  });
}

/** The agent's page loaded, and then the page itself tried to leave for a refused origin: the navigate arrived. */
function leftForRefused(arrival: Arrival, url: string, refusal: Refusal): Arrival {
  return { ...arrival, note: `${url} loaded; the page then tried to go to ${refusal.url}, which the origin rules refuse, and the tab stayed at ${arrival.url}.` };
}

/**
 * Longest wait between two looks at the page when no event comes: a safety net only. The load of the tab's document,
 * a commit, a same-document or failed navigation, a dialog and the tab's closing each wake the wait at once.
 */
const RECHECK_MS = 1_000;
/** After a look that failed (the document swapped during the call), the next one comes sooner. */
const RETRY_MS = 100;

/**
 * Looks at the tab's document until `done` holds for it, and again after each of the tab's navigation events (load
 * above all), its dialog or its closing, rather than on a timer; `info` is the last look (null if it failed) and
 * `done` false once the deadline passed. A dialog or a closed tab ends the wait with their error; a document swapped
 * during a look is looked at again.
 */
export async function untilPage(
  tab: Tab,
  deadline: number,
  done: (info: PageInfo) => boolean,
  callTimeout?: () => number,
): Promise<{ info: PageInfo | null; done: boolean }> {
  for (;;) {
    // Armed before the look: the load event may come while the page is being asked.
    const change = new TabChange(tab);
    let failed = false;
    let info: PageInfo | null;
    try {
      info = await tab.callPage('pageInfo', {}, callTimeout ? { timeout: callTimeout() } : {});
    } catch (error) {
      if (tab.isFatal(error)) {
        change.dispose();
        throw error;
      }
      failed = true;
      info = null;
    }
    if (info && done(info)) {
      change.dispose();
      return { info, done: true };
    }
    if (Date.now() > deadline) {
      change.dispose();
      return { info, done: false };
    }
    await change.wait(Math.min(deadline - Date.now() + 1, failed ? RETRY_MS : RECHECK_MS));
  }
}

async function waitForLoad(tab: Tab, deadline: number): Promise<Arrival> {
  const { info, done } = await untilPage(tab, deadline, (page) => page.readyState === 'complete');
  if (done && info) return { url: info.url, title: info.title };
  throw new ToolError('navigation_timeout', `Tab ${tab.id} did not finish loading in time${info ? ` (at ${info.url})` : ''}.`, { tabId: tab.id });
}

function navigationError(error: unknown, tab: Tab, timeout: number, target: string): unknown {
  if (isToolError(error, 'timeout')) {
    return new ToolError(
      'navigation_timeout',
      `Tab ${tab.id} did not finish loading within ${timeout} ms. The page may still be loading: take a screenshot or read_page to see where it got to.`,
      { tabId: tab.id, timeout_ms: timeout },
    );
  }
  return mapNavigationError(error, tab.id, target);
}
