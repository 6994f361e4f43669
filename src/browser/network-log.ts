import type { Network } from 'webdriver-bidi-protocol';
import type { Browser } from './browser.js';
import { Ring } from './ring.js';
import type { Tab } from './tab.js';

export interface NetworkEntry {
  /** BiDi request id plus redirect hop, so each hop of a redirect chain is its own entry. */
  key: string;
  method: string;
  url: string;
  /** HTTP status once the response completed; absent while pending or after a failure. */
  status?: number;
  /** What the request fetches (document, script, style, image, fetch, xmlhttprequest, …). */
  type: string;
  mimeType?: string;
  /** Bytes received over the network (0 from cache). */
  size?: number;
  fromCache?: boolean;
  /** Milliseconds from the request's start to the end of its response. */
  durationMs?: number;
  /** Why it failed (network.fetchError), e.g. NS_ERROR_CONNECTION_REFUSED or a blocked origin. */
  error?: string;
  startedAt: number;
  /** When the response completed or the request failed (the event's timestamp). */
  endedAt?: number;
}

export const NETWORK_CAPACITY = 1000;
const MAX_URL = 500;

interface TabNetwork {
  ring: Ring<NetworkEntry>;
  /** Entries still waiting for their response, by key. */
  pending: Map<string, NetworkEntry>;
}

const logs = new WeakMap<Tab, TabNetwork>();

function networkState(tab: Tab): TabNetwork {
  let state = logs.get(tab);
  if (!state) {
    state = { ring: new Ring<NetworkEntry>(NETWORK_CAPACITY), pending: new Map() };
    logs.set(tab, state);
  }
  return state;
}

/** The network ring of a tab (oldest first); `clear()` on it also forgets pending requests. */
export function networkOf(tab: Tab): { ring: Ring<NetworkEntry>; clear(): void } {
  const state = networkState(tab);
  return {
    ring: state.ring,
    clear() {
      state.ring.clear();
      state.pending.clear();
    },
  };
}

function keyOf(event: Network.BaseParameters): string {
  return `${event.request.request}#${event.redirectCount}`;
}

function shortUrl(url: string): string {
  return url.length > MAX_URL ? `${url.slice(0, MAX_URL)}… (${url.length} chars)` : url;
}

function typeOf(request: Network.RequestData): string {
  if (request.destination) return request.destination;
  return request.initiatorType ?? 'other';
}

/** Feeds every tab's ring from network.beforeRequestSent / responseCompleted / fetchError. */
export function attachNetworkLog(browser: Browser): void {
  const tabOf = (event: Network.BaseParameters): Tab | undefined => (event.context ? browser.tabForContext(event.context) : undefined);

  browser.bidi.on('network.beforeRequestSent', (event) => {
    const tab = tabOf(event);
    if (!tab) return;
    const state = networkState(tab);
    const entry: NetworkEntry = {
      key: keyOf(event),
      method: event.request.method,
      url: shortUrl(event.request.url),
      type: typeOf(event.request),
      startedAt: event.timestamp,
    };
    state.ring.push(entry);
    state.pending.set(entry.key, entry);
    // A request that never completes must not pin memory forever.
    if (state.pending.size > NETWORK_CAPACITY) state.pending.delete(state.pending.keys().next().value as string);
  });

  const finish = (event: Network.BaseParameters): NetworkEntry | undefined => {
    const tab = tabOf(event);
    if (!tab) return undefined;
    const state = networkState(tab);
    const key = keyOf(event);
    const entry = state.pending.get(key);
    state.pending.delete(key);
    if (entry) entry.endedAt = event.timestamp;
    return entry;
  };

  browser.bidi.on('network.responseCompleted', (event) => {
    const entry = finish(event);
    if (!entry) return;
    const { response } = event;
    entry.status = response.status;
    entry.mimeType = response.mimeType || undefined;
    entry.size = response.bytesReceived || response.content.size || 0;
    entry.fromCache = response.fromCache || undefined;
    const timings = event.request.timings;
    const start = timings.requestTime || timings.fetchStart;
    if (timings.responseEnd && start) entry.durationMs = Math.max(0, Math.round(timings.responseEnd - start));
    else entry.durationMs = Math.max(0, event.timestamp - entry.startedAt);
  });

  browser.bidi.on('network.fetchError', (event) => {
    const entry = finish(event);
    if (!entry) return;
    entry.error = event.errorText;
    entry.durationMs = Math.max(0, event.timestamp - entry.startedAt);
  });
}

/**
 * Requests of the tab still waiting for their response that started within `maxAgeMs` (older ones are long polls
 * or streams that never end, and say nothing about whether the page is still loading).
 */
export function requestsInFlight(tab: Tab, maxAgeMs = 10_000): number {
  const state = logs.get(tab);
  if (!state) return 0;
  const since = Date.now() - maxAgeMs;
  let count = 0;
  for (const entry of state.pending.values()) if (entry.startedAt >= since && entry.type !== 'websocket') count++;
  return count;
}

/**
 * Requests of the tab that started at or after `since` (an action's start) and are still loading, or answered
 * after `answeredAfter` (when the page's read of the action began: the page may not have used the answer yet).
 */
export function requestsStartedSince(tab: Tab, since: number, answeredAfter: number): { loading: number; answered: number } {
  const state = logs.get(tab);
  const counts = { loading: 0, answered: 0 };
  if (!state) return counts;
  const entries = state.ring.entries();
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry.startedAt < since) break;
    if (entry.type === 'websocket') continue;
    if (entry.endedAt === undefined) counts.loading++;
    else if (entry.endedAt >= answeredAfter) counts.answered++;
  }
  return counts;
}
