import { z } from 'zod';
import { ToolError } from '../errors.js';
import { captureHandlers } from './computer/capture.js';
import { keyboardHandlers } from './computer/keyboard.js';
import { pointerHandlers } from './computer/pointer.js';
import { scrollHandlers } from './computer/scroll.js';
import { actionReplyFields } from './reply/index.js';
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
      'Also needed: left_click_drag: start_coordinate; scroll: scroll_direction; type, key: text; wait: duration; zoom: region; scroll_to: ref. A field the action does not read is refused.',
    ),
  tabId: tabIdField,
  coordinate: point
    .optional()
    .describe('[x, y] from your latest screenshot.'),
  ref: z
    .string()
    .regex(/^ref_\d+$/, 'must look like "ref_12"')
    .optional()
    .describe('"ref_12", from read_page or find.'),
  text: z
    .string()
    .max(100_000)
    .optional()
    .describe('type: literal text. key: e.g. "ctrl+a Enter".'),
  region: z
    .tuple([z.number().finite(), z.number().finite(), z.number().finite(), z.number().finite()])
    .optional()
    .describe('[x0, y0, x1, y1]'),
  paste: z.boolean().optional().describe('type: as one trusted paste (ctrl+v; clipboard emptied after): editors add no closing brackets.'),
  repeat: z.number().int().min(1).max(100).optional().describe('key: times (default 1).'),
  duration: z.number().finite().min(0).max(10).optional().describe('wait: seconds.'),
  modifiers: z
    .string()
    // A refinement, not a regex: the pattern would cost the tool list 90 characters the description already says.
    .refine((value) => /^(ctrl|shift|alt|cmd|meta|win|windows)(\+(ctrl|shift|alt|cmd|meta|win|windows))*$/i.test(value), 'must be ctrl, shift, alt, cmd/meta or win/windows, joined with "+"')
    .optional()
    .describe('Held keys, e.g. "ctrl+shift".'),
  save_to_disk: z.boolean().optional().describe('Also save the image in the output dir.'),
  scroll_amount: z.number().int().min(1).max(10).optional().describe('100 px notches (default 3).'),
  scroll_direction: z.enum(['up', 'down', 'left', 'right']).optional().describe('Required by scroll.'),
  start_coordinate: point.optional().describe('Default: where the pointer is.'),
  scale: z.number().min(1).max(4).optional().describe('zoom: pixel ratio.'),
  image_format: z.enum(['png', 'jpeg']).optional().describe('screenshot: jpeg or png (lossless); default from the server.'),
  full_page: z.boolean().optional().describe('screenshot: the whole page (or ref: one element).'),
});

export type ComputerArgs = z.infer<typeof computerInput>;

type ArgName = Exclude<keyof ComputerArgs, 'action' | 'tabId'>;

const POINTER: ArgName[] = ['coordinate', 'ref', 'modifiers'];

/**
 * The fields each action reads (besides action and tabId). Any other field is refused rather than ignored: an agent
 * that sends `type` with a coordinate expects a click there first, and would type into whatever has focus instead.
 */
export const ACTION_FIELDS: Record<ComputerArgs['action'], readonly ArgName[]> = {
  left_click: POINTER,
  right_click: POINTER,
  double_click: POINTER,
  triple_click: POINTER,
  hover: POINTER,
  left_click_drag: [...POINTER, 'start_coordinate'],
  scroll: [...POINTER, 'scroll_amount', 'scroll_direction'],
  type: ['text', 'ref', 'paste'],
  key: ['text', 'repeat'],
  wait: ['duration'],
  screenshot: ['save_to_disk', 'image_format', 'full_page', 'ref'],
  zoom: ['region', 'save_to_disk', 'scale'],
  scroll_to: ['ref'],
};

/** What to do instead, for the mistakes an agent is likely to make. */
const INSTEAD: Partial<Record<string, string>> = {
  'type.coordinate': 'type does not click: it goes to the focused element. Pass the field\'s ref, or left_click the field first',
  'type.modifiers': 'for a chord use key (e.g. text "ctrl+a")',
  'key.modifiers': 'name the chord in text instead (e.g. "ctrl+a")',
  'key.coordinate': 'key goes to the focused element; left_click the target first',
  'key.ref': 'key goes to the focused element; left_click the target first',
  'scroll_to.coordinate': 'scroll_to takes a ref only; to scroll at a point use scroll',
};

/** Refuses a field the action does not read, naming it (invalid_arguments, before anything is done). */
export function checkComputerArgs(args: ComputerArgs): void {
  const allowed = ACTION_FIELDS[args.action];
  const extra = (Object.keys(args) as (keyof ComputerArgs)[]).find(
    (name) => name !== 'action' && name !== 'tabId' && args[name] !== undefined && !allowed.includes(name as ArgName),
  );
  if (extra === undefined) return;
  const takes = allowed.length ? `it takes ${allowed.join(', ')}` : 'it takes no other field';
  const instead = INSTEAD[`${args.action}.${extra}`];
  throw new ToolError('invalid_arguments', `${extra}: not read by ${args.action} (${takes})${instead ? `; ${instead}` : ''}. Nothing was done.`, { field: extra });
}

export const computerOutput = z.object({
  action: z.string(),
  ok: z.boolean(),
  width: z.number().optional(),
  height: z.number().optional(),
  /** Image pixels per CSS pixel when a screenshot or zoom was scaled down to fit --screenshot-max-size. */
  imageScale: z.number().optional(),
  savedTo: z.string().optional(),
  ...actionReplyFields,
  scrolled: z.object({ x: z.number(), y: z.number() }).optional(),
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
  description: 'Real mouse, wheel and keyboard input, and screenshots. Aim with ref (preferred: hit-tested, refused rather than misclicked) or coordinate. Replies say whether the input landed and what changed.',
  details:
    'Drives one Firefox tab with real (trusted) pointer, wheel and keyboard input and captures what it looks like: one action per call. ' +
    'Aim with ref (from read_page or find; preferred: resolved, scrolled into view and hit-tested at call time, and refused rather than ' +
    'mis-clicked if hidden, removed or covered) or with coordinate from your latest screenshot. Actions report whether the events ' +
    'reached the target and what changed on the page. A native dialog blocks the tab until firefox_dialog handles it. ' +
    'type with paste: true puts the text in as one paste: real ctrl+v (cmd+v on macOS) with the text on the browser clipboard, ' +
    'emptied right after (one paste at a time per browser); code editors (Monaco, CodeMirror) insert it as it is, with no ' +
    'auto-closed brackets or quotes and no re-indent. ' +
    'screenshot shows the viewport; with full_page: true the whole document (its y is viewport y plus the scroll offset), ' +
    'with ref one element, whole even where it is scrolled out of view. Screenshots are in CSS pixels whatever ' +
    '--device-scale-factor is (rendered at that ratio, scaled back), so a point read off a viewport screenshot is the ' +
    'coordinate to pass; zoom shows the detail, by default at that ratio.',
  scope: 'tab',
  errors: ['ref_stale', 'ref_hidden', 'target_occluded', 'focus_moved', 'out_of_viewport'],
  input: computerInput,
  output: computerOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  script: { step: true, looksWhen: { action: ['screenshot', 'zoom'] }, secret: { arg: 'text', when: { action: ['type'] } } },
  checkArgs: checkComputerArgs,
  async handler(context, args) {
    const handler = actionHandlers[args.action];
    if (!handler) throw new ToolError('invalid_arguments', `action: "${args.action}" is not available in this build.`, { field: 'action' });
    return handler(context, args);
  },
});
