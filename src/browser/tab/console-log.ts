import type { Log } from 'webdriver-bidi-protocol';
import { Ring } from './ring.js';
import { defangRefs, pageUrl } from '../../text-safety.js';

export interface ConsoleEntry {
  /** debug | info | warn | error, as BiDi reports it. */
  level: Log.Level;
  /**
   * `console.<method>` for console calls; `exception` for an uncaught error; `cors`, `websocket` or `network` for
   * the browser's own reports of a blocked or failed request (Firefox files those as script errors).
   */
  kind: string;
  text: string;
  /** Where it came from (script URL and line), when Firefox says. */
  source?: string;
  timestamp: number;
  /**
   * The URL of the tab's top document when the entry came, given only when that document is no longer the tab's
   * current one (the tab navigated or reloaded since): the entry is then not the current page's doing.
   */
  page?: string;
}

/** An entry as kept: which top document of the tab it came in (a count of committed navigations) and its URL. */
interface Kept {
  entry: ConsoleEntry;
  doc: number;
  url: string;
}

/** Entries kept per tab; older ones drop out (and are counted). */
export const CONSOLE_CAPACITY = 1000;
const MAX_TEXT = 2_000;

/**
 * A tab's console messages (the Browser hands it each log.entryAdded of the tab's contexts), oldest first. It follows
 * the tab's top document too, so an entry of a page the tab has since left says which page made it.
 */
export class ConsoleLog {
  private readonly ring = new Ring<Kept>(CONSOLE_CAPACITY);
  private doc = 0;
  private url = '';

  record(entry: Log.Entry): void {
    this.ring.push({ entry: toEntry(entry), doc: this.doc, url: this.url });
  }

  /**
   * A new top document committed (not a same-document URL change). Its first entries may come before the commit
   * event (they travel from the content process, the event from the parent): those stamped at or after the commit
   * move to it.
   */
  documentCommitted(url: string, timestamp: number): void {
    const previous = this.doc++;
    url = pageUrl(url);
    this.url = url;
    const kept = this.ring.entries();
    for (let i = kept.length - 1; i >= 0; i--) {
      const item = kept[i]!;
      if (item.doc !== previous || item.entry.timestamp < timestamp) break;
      item.doc = this.doc;
      item.url = url;
    }
  }

  /** Oldest first; entries of an earlier top document carry its URL as `page`. */
  entries(): ConsoleEntry[] {
    return this.ring.entries().map(({ entry, doc, url }) => (doc === this.doc ? entry : { ...entry, page: url || 'about:blank' }));
  }

  /** The URL of the tab's current top document, as entries' `page` would give it. */
  get currentPage(): string {
    return this.url || 'about:blank';
  }

  /** Entries dropped for room since the last clear. */
  get dropped(): number {
    return this.ring.dropped;
  }

  clear(): void {
    this.ring.clear();
  }
}

function toEntry(entry: Log.Entry): ConsoleEntry {
  // A page's console line may pose as a ref line of ours.
  let text = defangRefs(entry.text ?? '');
  if (text.length > MAX_TEXT) text = `${text.slice(0, MAX_TEXT)}… (${text.length} chars)`;
  const frame = entry.stackTrace?.callFrames[0];
  const result: ConsoleEntry = {
    level: entry.level,
    kind: entry.type === 'console' ? `console.${(entry as Log.ConsoleLogEntry).method}` : entry.type === 'javascript' ? (requestFailure(text) ?? 'exception') : entry.type,
    text,
    timestamp: entry.timestamp,
  };
  if (frame?.url) result.source = `${frame.url}:${frame.lineNumber + 1}`;
  return result;
}

/** Firefox's messages for requests that failed or were blocked, which reach BiDi as script errors. */
const REQUEST_FAILURES: Array<[RegExp, string]> = [
  [/^Cross-Origin Request Blocked|\bCORS\b/, 'cors'],
  [/\bwss?:\/\/\S+|WebSocket/, 'websocket'],
  [/^(Loading failed for|NetworkError|Firefox can.t establish a connection|The connection to .* was interrupted)/, 'network'],
];

function requestFailure(text: string): string | undefined {
  // An uncaught exception's text names its class first ("TypeError: ..."); those stay exceptions.
  if (/^[A-Z][A-Za-z]*Error: /.test(text)) return undefined;
  return REQUEST_FAILURES.find(([pattern]) => pattern.test(text))?.[1];
}
