import { EventEmitter } from 'node:events';
import type { Network } from 'webdriver-bidi-protocol';
import { Ring } from './ring.js';

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

/** A request's end: its response completed, or it failed. */
export type RequestEnd = Network.ResponseCompletedParameters | Network.FetchErrorParameters;

/**
 * A tab's requests (the Browser hands it each network event of the tab's contexts, once): the log network_requests
 * reads, the requests still in flight, and `started` / `ended` for watchers (a download link's document load).
 */
export class NetworkLog extends EventEmitter<{ started: [Network.BeforeRequestSentParameters]; ended: [RequestEnd] }> {
  readonly ring = new Ring<NetworkEntry>(NETWORK_CAPACITY);
  /** Entries still waiting for their response, by key. */
  private readonly pending = new Map<string, NetworkEntry>();

  /** Empties the log and forgets pending requests. */
  clear(): void {
    this.ring.clear();
    this.pending.clear();
  }

  requestStarted(event: Network.BeforeRequestSentParameters): void {
    const entry: NetworkEntry = {
      key: keyOf(event),
      method: event.request.method,
      url: shortUrl(event.request.url),
      type: typeOf(event.request),
      startedAt: event.timestamp,
    };
    this.ring.push(entry);
    this.pending.set(entry.key, entry);
    // A request that never completes must not pin memory forever.
    if (this.pending.size > NETWORK_CAPACITY) this.pending.delete(this.pending.keys().next().value as string);
    this.emit('started', event);
  }

  responseCompleted(event: Network.ResponseCompletedParameters): void {
    const entry = this.finish(event);
    if (entry) {
      const { response } = event;
      entry.status = response.status;
      entry.mimeType = response.mimeType || undefined;
      entry.size = response.bytesReceived || response.content.size || 0;
      entry.fromCache = response.fromCache || undefined;
      const timings = event.request.timings;
      const start = timings.requestTime || timings.fetchStart;
      if (timings.responseEnd && start) entry.durationMs = Math.max(0, Math.round(timings.responseEnd - start));
      else entry.durationMs = Math.max(0, event.timestamp - entry.startedAt);
    }
    this.emit('ended', event);
  }

  fetchFailed(event: Network.FetchErrorParameters): void {
    const entry = this.finish(event);
    if (entry) {
      entry.error = event.errorText;
      entry.durationMs = Math.max(0, event.timestamp - entry.startedAt);
    }
    this.emit('ended', event);
  }

  private finish(event: Network.BaseParameters): NetworkEntry | undefined {
    const key = keyOf(event);
    const entry = this.pending.get(key);
    this.pending.delete(key);
    if (entry) entry.endedAt = event.timestamp;
    return entry;
  }

  /**
   * Requests still waiting for their response that started within `maxAgeMs` (older ones are long polls or streams
   * that never end, and say nothing about whether the page is still loading).
   */
  inFlight(maxAgeMs = 10_000): number {
    const since = Date.now() - maxAgeMs;
    let count = 0;
    for (const entry of this.pending.values()) if (entry.startedAt >= since && entry.type !== 'websocket') count++;
    return count;
  }

  /**
   * Requests that started at or after `since` (an action's start) and are still loading, or answered after
   * `answeredAfter` (when the page's read of the action began: the page may not have used the answer yet).
   */
  startedSince(since: number, answeredAfter: number): { loading: number; answered: number } {
    const counts = { loading: 0, answered: 0 };
    const entries = this.ring.entries();
    for (let i = entries.length - 1; i >= 0; i--) {
      const entry = entries[i]!;
      if (entry.startedAt < since) break;
      if (entry.type === 'websocket') continue;
      if (entry.endedAt === undefined) counts.loading++;
      else if (entry.endedAt >= answeredAfter) counts.answered++;
    }
    return counts;
  }
}
