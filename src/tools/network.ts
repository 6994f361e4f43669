import { z } from 'zod';
import { NETWORK_CAPACITY, type NetworkEntry } from '../browser/tab/index.js';
import { filterByPattern, newest } from './log-filter.js';
import { defineTool, tabIdField } from './tool.js';

const entrySchema = z.object({
  method: z.string(),
  url: z.string(),
  status: z.number().optional(),
  type: z.string(),
  mimeType: z.string().optional(),
  size: z.number().optional(),
  fromCache: z.boolean().optional(),
  durationMs: z.number().optional(),
  error: z.string().optional(),
  startedAt: z.number(),
});

function size(bytes: number | undefined): string {
  if (bytes === undefined) return '';
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)}MB`;
}

function line(entry: NetworkEntry): string {
  const status = entry.error ? `failed (${entry.error})` : entry.status !== undefined ? String(entry.status) : 'pending';
  const extras = [entry.type, size(entry.size), entry.fromCache ? 'cache' : '', entry.durationMs !== undefined ? `${entry.durationMs}ms` : ''].filter(Boolean);
  // A data: URL is mostly payload; its head says enough in the text (the structured entry keeps more).
  const url = entry.url.startsWith('data:') ? `${entry.url.slice(0, 40)}…` : entry.url;
  return `${entry.method} ${status} ${url}  [${extras.join(' ')}]`;
}

export const readNetworkTool = defineTool({
  name: 'read_network_requests',
  title: 'Read network requests',
  description: 'Requests of the tab since it opened or the last clear: method, URL, status or failure, type, size, duration. urlPattern: case-insensitive regex; clear: empty after reading.',
  details:
    'Requests the tab made (documents, scripts, images, fetch/XHR, in every frame, across navigations) since it opened or the ' +
    'last clear, oldest first: method, URL, status (or the failure), resource type, size and duration; each redirect hop is its ' +
    `own entry. The latest ${NETWORK_CAPACITY} are kept, and the number dropped is reported. urlPattern filters by a regular ` +
    'expression on the URL (case-insensitive); clear empties the list after this read.',
  scope: 'tab',
  errors: [],
  input: z.strictObject({
    tabId: tabIdField,
    urlPattern: z.string().max(1_000).optional(),
    clear: z.boolean().optional(),
    limit: z.number().int().min(1).max(NETWORK_CAPACITY).optional().describe('The newest N (default 100).'),
  }),
  output: z.object({
    requests: z.array(entrySchema),
    matched: z.number(),
    omitted: z.number(),
    dropped: z.number(),
    cleared: z.boolean(),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  script: 'looks',
  worksWithDialog: true,
  async handler({ tab }, args) {
    const log = tab.network;
    const matching = await filterByPattern(log.ring.entries(), (entry) => entry.url, args.urlPattern, 'urlPattern');
    const { shown, omitted } = newest(matching, args.limit ?? 100);
    const dropped = log.ring.dropped;
    const requests = shown.map(({ key: _key, ...rest }) => ({ ...rest }));
    if (args.clear) log.clear();
    const head =
      `${matching.length} request${matching.length === 1 ? '' : 's'}${args.urlPattern ? ' matched' : ''}` +
      (omitted ? `, the newest ${shown.length} shown` : '') +
      (dropped ? `; ${dropped} older request${dropped === 1 ? ' was' : 's were'} dropped (the tab keeps ${NETWORK_CAPACITY})` : '') +
      (args.clear ? '; list cleared' : '');
    return { structured: { requests, matched: matching.length, omitted, dropped, cleared: Boolean(args.clear) }, text: [head, ...shown.map(line)].join('\n') };
  },
});
