import { z } from 'zod';
import type { PageText } from '../browser/page-types.js';
import { defineTool, tabIdField } from './tool.js';

export const getPageTextTool = defineTool({
  name: 'get_page_text',
  title: 'Get page text',
  description:
    'The visible text of the tab\'s page with its URL and title: the main content first, page chrome (navigation, header, ' +
    'footer, sidebars) after it under a marker line; hidden and screen-reader-only text left out. Headings start with #, list ' +
    'items with -, table cells are separated by |. Cut at max_chars: then truncated is true and nextOffset is the offset to pass ' +
    'to read on. Cheaper than a screenshot for reading articles, results and messages; use read_page or find for refs.',
  scope: 'tab',
  errors: [],
  input: z.strictObject({
    tabId: tabIdField,
    max_chars: z.number().int().min(100).max(200_000).optional().describe('Most characters to return (100-200000, default 8000).'),
    offset: z.number().int().min(0).optional().describe('Character offset to start from: the nextOffset of a truncated earlier call (default 0).'),
  }),
  output: z.object({
    url: z.string(),
    title: z.string(),
    text: z.string(),
    truncated: z.boolean(),
    totalChars: z.number(),
    offset: z.number(),
    nextOffset: z.number().optional(),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  async handler({ tab }, args) {
    const page = await tab.callPage<PageText>('pageText', { maxChars: args.max_chars ?? 8000, offset: args.offset ?? 0 });
    const truncated = page.nextOffset !== undefined;
    const structured = { ...page, truncated };
    const lines = [`${page.title || '(untitled)'} — ${page.url}`, '', page.text || '(no visible text)'];
    if (truncated) lines.push('', `[truncated at ${page.nextOffset} of ${page.totalChars} chars; call again with offset: ${page.nextOffset}]`);
    else if (page.offset > 0) lines.push('', `[end of text; started at offset ${page.offset} of ${page.totalChars}]`);
    return { structured, text: lines.join('\n') };
  },
});
