import { z } from 'zod';
import { ToolError } from '../errors.js';
import { captureHandlers } from './computer/capture.js';
import { keyboardHandlers } from './computer/keyboard.js';
import { pointerHandlers } from './computer/pointer.js';
import { scrollHandlers } from './computer/scroll.js';
import { defineTool, tabIdField, type TabToolContext, type ToolResponse } from './tool.js';

const point = z.tuple([z.number().finite(), z.number().finite()]);

export const computerActions = [
  'left_click',
  'right_click',
  'double_click',
  'triple_click',
  'hover',
  'left_click_drag',
  'scroll',
  'type',
  'key',
  'wait',
  'screenshot',
  'zoom',
  'scroll_to',
] as const;

export const computerInput = z.strictObject({
  action: z
    .enum(computerActions)
    .describe(
      'The one operation this call performs; the other fields are read according to it. left_click, right_click, double_click, ' +
        'triple_click, hover: pointer at coordinate or ref. left_click_drag: press at start_coordinate (or where the pointer is), ' +
        'release at coordinate/ref. scroll: scroll_amount wheel notches in scroll_direction over the point. type: text to the ' +
        'focused element (ref: click it first). key: keys or chords in text, repeat times. wait: duration seconds. screenshot: ' +
        'the viewport as PNG. zoom: region at full resolution. scroll_to: bring ref into view.',
    ),
  tabId: tabIdField,
  coordinate: point
    .optional()
    .describe('[x, y] in viewport CSS pixels from the top-left, taken from your latest screenshot (device pixel ratio 1). Target of pointer actions; end of a drag.'),
  ref: z
    .string()
    .regex(/^ref_\d+$/, 'must look like "ref_12"')
    .optional()
    .describe('Element ref from read_page or find ("ref_12"), the sturdier aim: looked up, scrolled into view and hit-tested when the call runs. Required by scroll_to; with type, the field to click first.'),
  text: z
    .string()
    .max(100_000)
    .optional()
    .describe('type: the literal text (a newline presses Enter). key: keys or chords separated by spaces, e.g. "Enter", "ctrl+a", "ArrowDown ArrowDown Enter".'),
  region: z
    .tuple([z.number().finite(), z.number().finite(), z.number().finite(), z.number().finite()])
    .optional()
    .describe('zoom: [x0, y0, x1, y1] in viewport pixels, x1 > x0 and y1 > y0, inside the viewport.'),
  paste: z
    .boolean()
    .optional()
    .describe(
      'type: put text in as one paste instead of key by key: real ctrl+v (cmd+v on macOS) with the text on the browser clipboard, ' +
        'emptied right after. Code editors (Monaco, CodeMirror) then insert it as it is: no auto-closed brackets or quotes, no re-indent.',
    ),
  repeat: z.number().int().min(1).max(100).optional().describe('key: how many times to replay the whole sequence (1-100, default 1).'),
  duration: z.number().finite().min(0).max(10).optional().describe('wait: seconds to wait, 0-10.'),
  modifiers: z
    .string()
    .regex(/^(ctrl|shift|alt|cmd|meta|win|windows)(\+(ctrl|shift|alt|cmd|meta|win|windows))*$/i, 'must be ctrl, shift, alt, cmd/meta or win/windows, joined with "+"')
    .optional()
    .describe('Keys held during a click, hover or drag: ctrl, shift, alt, cmd (meta), win (windows), joined with "+", e.g. "ctrl+shift".'),
  save_to_disk: z.boolean().optional().describe('screenshot / zoom: also write the PNG into the output dir and give its path.'),
  scroll_amount: z.number().int().min(1).max(10).optional().describe('scroll: wheel notches of about 100 px, 1-10 (default 3).'),
  scroll_direction: z.enum(['up', 'down', 'left', 'right']).optional().describe('scroll: which way the wheel turns (required by scroll).'),
  start_coordinate: point.optional().describe('left_click_drag: where the button goes down; the pointer\'s last position when left out.'),
  scale: z.number().min(1).max(4).optional().describe('zoom: render the region at this device pixel ratio (1-4) so fine print is legible.'),
});

export type ComputerArgs = z.infer<typeof computerInput>;

export const computerOutput = z.object({
  action: z.string(),
  ok: z.boolean(),
  width: z.number().optional(),
  height: z.number().optional(),
  savedTo: z.string().optional(),
  target: z
    .object({
      ref: z.string().optional(),
      role: z.string().optional(),
      name: z.string().optional(),
      /** tag#id.class of what a coordinate hit. */
      selector: z.string().optional(),
      /** Percent of the viewport it covers, when most; overlay: laid over the page (a mask or backdrop). */
      covers: z.number().optional(),
      overlay: z.boolean().optional(),
    })
    .optional(),
  delivered: z.boolean().optional(),
  /** Where the pointer went (top-level viewport CSS pixels); the text says it only for coordinate actions. */
  point: z.object({ x: z.number(), y: z.number() }).optional(),
  url: z.string().optional(),
  title: z.string().optional(),
  delta: z.string().optional(),
  opened_popup: z
    .object({ ref: z.string(), role: z.string(), name: z.string(), opened_by: z.string().optional(), items: z.array(z.string()), item_lines: z.array(z.string()).optional() })
    .optional(),
  scrolled: z.object({ x: z.number(), y: z.number() }).optional(),
  note: z.string().optional(),
  downloads: z.array(z.object({ url: z.string(), file: z.string(), status: z.string(), path: z.string().optional() })).optional(),
});

export type ComputerResult = z.infer<typeof computerOutput>;

export type ActionHandler = (context: TabToolContext, args: ComputerArgs) => Promise<ToolResponse<ComputerResult>>;

/** Every action, by family (one module each under ./computer/). */
export const actionHandlers: Record<ComputerArgs['action'], ActionHandler> = {
  ...pointerHandlers,
  ...scrollHandlers,
  ...keyboardHandlers,
  ...captureHandlers,
};

export const computerTool = defineTool({
  name: 'computer',
  title: 'Computer (pointer, keyboard, screenshots)',
  description:
    'Drives one Firefox tab with real (trusted) pointer, wheel and keyboard input and captures what it looks like: one action per call. ' +
    'Aim with ref (from read_page or find; preferred: resolved, scrolled into view and hit-tested at call time, and refused rather than ' +
    'mis-clicked if hidden, removed or covered) or with coordinate from your latest screenshot. Actions report whether the events ' +
    'reached the target and what changed on the page. A native dialog blocks the tab until firefox_dialog handles it.',
  scope: 'tab',
  errors: ['ref_stale', 'ref_hidden', 'target_occluded', 'out_of_viewport'],
  input: computerInput,
  output: computerOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  async handler(context, args) {
    const handler = actionHandlers[args.action];
    if (!handler) throw new ToolError('invalid_arguments', `action: "${args.action}" is not available in this build.`, { field: 'action' });
    return handler(context, args);
  },
});
