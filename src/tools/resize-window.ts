import { z } from 'zod';
import { pageInfo } from '../browser/tab/index.js';
import { ToolError } from '../errors.js';
import { fitFactor } from './computer/capture.js';
import { defineTool, tabIdField } from './tool.js';

/** How far a viewport may be larger than --screenshot-max-size: its screenshots are then shown at half size at least. */
const MAX_SHRINK = 2;

export const resizeWindowTool = defineTool({
  name: 'resize_window',
  title: 'Resize the viewport',
  description: 'Sets this tab\'s viewport size in CSS pixels; a phone is about 390x844.',
  details:
    'Sets the tab\'s viewport to width x height CSS pixels (device pixel ratio 1), e.g. 390x844 to see a phone layout. ' +
    'Later screenshots have this size and coordinates refer to it (scaled down to fit --screenshot-max-size, 2000x2000 by ' +
    'default, and saying so). A size over twice that max is refused. Applies to this tab only, until changed again.',
  scope: 'tab',
  errors: [],
  input: z.strictObject({
    tabId: tabIdField,
    width: z.number().int().min(200).max(7680),
    height: z.number().int().min(200).max(4320),
  }),
  output: z.object({ width: z.number(), height: z.number() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  script: { step: true, secret: null },
  async handler({ tab, options }, args) {
    // A screenshot of it would be scaled to under half its size to fit what a model accepts: too small to read.
    const max = options.screenshotMaxSize;
    for (const side of ['width', 'height'] as const) {
      if (args[side] > max[side] * MAX_SHRINK) {
        throw new ToolError(
          'invalid_arguments',
          `${side}: ${args[side]} px is more than ${MAX_SHRINK}x the ${max[side]} px a screenshot may be (--screenshot-max-size ${max.width}x${max.height}); ` +
            `its screenshots would be too small to read. Nothing was changed.`,
          { field: side },
        );
      }
    }
    await tab.setViewport(args.width, args.height);
    // What the page now sees: the layout viewport may differ (e.g. a scrollbar) from the size asked for.
    const info = await pageInfo(tab).catch(() => null);
    const structured = { width: args.width, height: args.height };
    const seen = info && (info.viewport.width !== args.width || info.viewport.height !== args.height) ? ` (the page reports ${info.viewport.width}x${info.viewport.height})` : '';
    const fit = fitFactor(args, max);
    const scaled = fit < 1 ? ` Its screenshots are scaled down to ${Math.round(fit * 100)}% to fit --screenshot-max-size ${max.width}x${max.height}, and say so.` : '';
    return { structured, text: `Viewport of tab ${tab.id} is now ${args.width}x${args.height}${seen}.${scaled}` };
  },
});
