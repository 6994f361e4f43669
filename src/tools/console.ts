import { z } from 'zod';
import { CONSOLE_CAPACITY, type ConsoleEntry } from '../browser/tab/index.js';
import { clock, filterByPattern, newest } from './log-filter.js';
import { defineTool, tabIdField } from './tool.js';

const entrySchema = z.object({
  level: z.string(),
  kind: z.string(),
  text: z.string(),
  source: z.string().optional(),
  timestamp: z.number(),
  page: z.string().optional().describe('Set when the entry came from a page the tab has since left (its URL then).'),
});

/** What a line says before the text: an uncaught exception, or which kind of request failed. */
const PREFIX: Record<string, string> = { exception: 'Uncaught: ', cors: 'CORS blocked: ', websocket: 'WebSocket failed: ', network: 'Network error: ' };

function line(entry: ConsoleEntry): string {
  return `${clock(entry.timestamp)} [${entry.level}] ${PREFIX[entry.kind] ?? ''}${entry.text}${entry.source ? `  (${entry.source})` : ''}`;
}

/** The lines, with a heading wherever the page that made them changes; none when they all are the current page's. */
function lines(shown: ConsoleEntry[], current: string): string[] {
  const out: string[] = [];
  let page: string | undefined;
  for (const entry of shown) {
    // A reload keeps the URL: say so, or the heading would seem to name the current page.
    const earlier = entry.page === current ? 'an earlier load of this page' : 'an earlier page';
    if (entry.page !== page) out.push(entry.page === undefined ? 'from this page:' : `from ${earlier}: ${entry.page}`);
    page = entry.page;
    out.push(line(entry));
  }
  return out;
}

export const readConsoleTool = defineTool({
  name: 'read_console_messages',
  title: 'Read console messages',
  description: 'Console messages and uncaught errors of the tab since it opened or the last clear, oldest first. pattern: case-insensitive regex; clear: empty after reading.',
  details:
    'Console output and uncaught errors of the tab (every frame, across navigations) since it opened or since the last clear, ' +
    'oldest first. Entries of a page the tab has since left (navigated away or reloaded) come under a heading with that page\'s URL ' +
    `and carry it as page. The tab keeps the latest ${CONSOLE_CAPACITY}; older ones are dropped and their number is reported. Filter with ` +
    'pattern (a regular expression, case-insensitive) and onlyErrors; clear empties the log after this read.',
  scope: 'tab',
  errors: [],
  input: z.strictObject({
    tabId: tabIdField,
    pattern: z.string().max(1_000).optional(),
    onlyErrors: z.boolean().optional().describe('Errors only, failed requests included.'),
    clear: z.boolean().optional(),
    limit: z.number().int().min(1).max(CONSOLE_CAPACITY).optional().describe('The newest N (default 100).'),
  }),
  output: z.object({
    messages: z.array(entrySchema),
    matched: z.number(),
    omitted: z.number(),
    dropped: z.number(),
    cleared: z.boolean(),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  script: 'looks',
  worksWithDialog: true,
  async handler({ tab }, args) {
    const ring = tab.console;
    const kept = ring.entries().filter((entry) => !args.onlyErrors || entry.level === 'error');
    const matching = await filterByPattern(kept, (entry) => entry.text, args.pattern, 'pattern');
    const { shown, omitted } = newest(matching, args.limit ?? 100);
    const dropped = ring.dropped;
    if (args.clear) ring.clear();
    const head =
      `${matching.length} message${matching.length === 1 ? '' : 's'}${args.pattern || args.onlyErrors ? ' matched' : ''}` +
      (omitted ? `, the newest ${shown.length} shown` : '') +
      (dropped ? `; ${dropped} older message${dropped === 1 ? ' was' : 's were'} dropped (the tab keeps ${CONSOLE_CAPACITY})` : '') +
      (args.clear ? '; log cleared' : '');
    const text = [head, ...lines(shown, ring.currentPage)].join('\n');
    return { structured: { messages: shown, matched: matching.length, omitted, dropped, cleared: Boolean(args.clear) }, text };
  },
});
