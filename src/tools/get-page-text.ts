import { z } from 'zod';
import { cutText, readText } from '../browser/observe/index.js';
import { defineTool, tabIdField } from './tool.js';

/** Room kept for the closing `[truncated at …]` line. */
const TRAILER_ROOM = 90;

export const getPageTextTool = defineTool({
  name: 'get_page_text',
  title: 'Get page text',
  description: 'The page\'s visible text, main content first, with URL and title. Cut at max_chars: truncated, and nextOffset to pass as offset. Cheaper than a screenshot for reading.',
  details:
    'The visible text of the tab\'s page with its URL and title: the main content first, page chrome (navigation, header, ' +
    'footer, sidebars) after it under a marker line; hidden and screen-reader-only text left out; each iframe\'s text (any ' +
    'origin) where the frame is, under a "[frame: title — url]" line. Headings start with #, list items with -, table cells ' +
    'are separated by |. ref_id reads one element\'s text whole (a code block, a response body). The reply, header included, ' +
    'is at most max_chars: when cut, truncated is true and nextOffset is the offset to pass to read on. Cheaper than a ' +
    'screenshot for reading articles, results and messages; use read_page or find for refs.',
  scope: 'tab',
  errors: ['ref_stale'],
  input: z.strictObject({
    tabId: tabIdField,
    ref_id: z
      .string()
      .regex(/^ref_\d+$/, 'must look like "ref_12"')
      .optional()
      .describe('Only this element\'s text.'),
    max_chars: z.number().int().min(100).max(200_000).optional().describe('Default 8000, header included.'),
    offset: z.number().int().min(0).optional().describe('The nextOffset of a cut reply.'),
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
  script: 'looks',
  async handler({ tab }, args) {
    const maxChars = args.max_chars ?? 8000;
    const read = await readText(tab, args.ref_id);
    const offset = Math.min(args.offset ?? 0, read.text.length);
    let header = `${read.title || '(untitled)'} — ${read.url}${args.ref_id ? ` (text of ${args.ref_id})` : ''}`;
    if (header.length > maxChars / 4) header = `${header.slice(0, Math.floor(maxChars / 4) - 1)}…`;
    // The whole reply fits max_chars: header, a blank line, the text and, when cut, the closing line.
    const room = maxChars - header.length - 2;
    let cut = cutText(read.text, offset, room);
    if (cut.nextOffset !== undefined || offset > 0) cut = cutText(read.text, offset, room - TRAILER_ROOM);
    const truncated = cut.nextOffset !== undefined;
    const structured = {
      url: read.url,
      title: read.title,
      text: cut.slice,
      truncated,
      totalChars: read.text.length,
      offset,
      ...(truncated ? { nextOffset: cut.nextOffset } : {}),
    };
    const lines = [header, '', cut.slice || '(no visible text)'];
    if (truncated) lines.push('', `[truncated at ${cut.nextOffset} of ${read.text.length} chars; call again with offset: ${cut.nextOffset}]`);
    else if (offset > 0) lines.push('', `[end of text; started at offset ${offset} of ${read.text.length}]`);
    return { structured, text: lines.join('\n') };
  },
});
