import type { Log } from 'webdriver-bidi-protocol';
import { Ring } from './ring.js';
import { defangRefs } from '../text-safety.js';

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
}

/** Entries kept per tab; older ones drop out (and are counted). */
export const CONSOLE_CAPACITY = 1000;
const MAX_TEXT = 2_000;

/** A tab's console messages (the Browser hands it each log.entryAdded of the tab's contexts), oldest first. */
export class ConsoleLog extends Ring<ConsoleEntry> {
  constructor() {
    super(CONSOLE_CAPACITY);
  }

  record(entry: Log.Entry): void {
    this.push(toEntry(entry));
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
