import { z } from 'zod';
import { DEFAULT_MAX_CHARS } from '../browser/observe/index.js';
import { snapshotReply } from '../browser/observe/index.js';
import { defineTool, tabIdField } from './tool.js';

export const readPageTool = defineTool({
  name: 'read_page',
  title: 'Read page (accessibility snapshot)',
  description: 'The page as an accessibility tree with refs, one element a line. Default: near the viewport; filter "all": whole page, "interactive": controls. When cut at max_chars, hint names refs to read on with ref_id.',
  details:
    'Returns the page as a compact accessibility-style tree, one element a line ("- button \\"Log in\\" [ref=ref_4]"), with refs ' +
    'for computer, form_input and find. Refs name elements, not positions: they stay valid until the element is removed or the ' +
    'page navigates. By default only what is in or near the viewport is read (a closing line counts what lies above/below); ' +
    'filter "all" reads the whole document, "interactive" only controls and the landmarks around them. Frames and open shadow ' +
    'roots are included. Output is capped at max_chars; when cut, `hint` names refs to read next with ref_id (for a row or list ' +
    'item, ref_id reads it and the items after it, so long tables can be paged).',
  scope: 'tab',
  errors: ['ref_stale'],
  input: z.strictObject({
    tabId: tabIdField,
    filter: z
      .enum(['interactive', 'all'])
      .optional(),
    depth: z.number().int().min(0).max(100).optional().describe('Deepest level shown (0: top level only).'),
    ref_id: z
      .string()
      .regex(/^ref_\d+$/, 'must look like "ref_12"')
      .optional()
      .describe('Only this element\'s subtree (a row or list item: and the items after it).'),
    max_chars: z.number().int().min(200).max(200_000).optional().describe(`Default ${DEFAULT_MAX_CHARS}.`),
  }),
  output: z.object({
    url: z.string(),
    title: z.string(),
    snapshot: z.string(),
    truncated: z.boolean(),
    omitted: z.number().optional(),
    hint: z.string().optional(),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  script: 'looks',
  async handler(context, args) {
    const { snap, text } = await snapshotReply(context.tab, (page) => `${page.title || '(untitled)'} — ${page.url}`, {
      filter: args.filter === undefined && args.ref_id === undefined ? 'visible' : (args.filter ?? 'all'),
      depth: args.depth,
      refId: args.ref_id,
      maxChars: args.max_chars ?? DEFAULT_MAX_CHARS,
    });
    const structured = {
      url: snap.url,
      title: snap.title,
      snapshot: snap.snapshot,
      truncated: snap.truncated,
      ...(snap.truncated ? { omitted: snap.omitted } : {}),
      ...(snap.hint ? { hint: snap.hint } : {}),
    };
    return { structured, text };
  },
});
