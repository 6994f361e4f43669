import { z } from 'zod';
import { defineTool, tabIdField } from './tool.js';

export const resizeWindowTool = defineTool({
  name: 'resize_window',
  title: 'Resize the viewport',
  description: 'Sets this tab\'s viewport size in CSS pixels; a phone is about 390x844.',
  details:
    'Sets the tab\'s viewport to width x height CSS pixels (device pixel ratio 1), e.g. 390x844 to see a phone layout. ' +
    'Later screenshots have this size and coordinates refer to it. Applies to this tab only, until changed again.',
  scope: 'tab',
  errors: [],
  input: z.strictObject({
    tabId: tabIdField,
    width: z.number().int().min(200).max(7680),
    height: z.number().int().min(200).max(4320),
  }),
  output: z.object({ width: z.number(), height: z.number() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler({ tab }, args) {
    await tab.setViewport(args.width, args.height);
    // What the page now sees: the layout viewport may differ (e.g. a scrollbar) from the size asked for.
    const info = await tab.callPage('pageInfo').catch(() => null);
    const structured = { width: args.width, height: args.height };
    const seen = info && (info.viewport.width !== args.width || info.viewport.height !== args.height) ? ` (the page reports ${info.viewport.width}x${info.viewport.height})` : '';
    return { structured, text: `Viewport of tab ${tab.id} is now ${args.width}x${args.height}${seen}.` };
  },
});
