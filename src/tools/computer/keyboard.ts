// type and key: keyboard input to whatever holds focus (type with a ref clicks that field first, unless it already
// has focus, and types after its text only once focus is there). The engine (browser/engine/typing.ts) does the
// sequence and judges it; this says it in words.
import { PASTE_CHORD, clickThenType, parseKeySequence, textKeys, typeAtFocus, type ActionReport, type Keys } from '../../browser/engine/index.js';
import { ToolError } from '../../errors.js';
import type { ActionHandler } from '../computer.js';
import type { TabToolContext } from '../tool.js';
import { actionReply, summaryText } from '../reply/index.js';

type Reply = Awaited<ReturnType<ActionHandler>>;

const type: ActionHandler = async (context, args) => {
  if (args.text === undefined || args.text === '') throw new ToolError('invalid_arguments', 'text: type needs the text to enter.', { field: 'text' });
  if (args.paste) return paste(context, args.text, args.ref);
  const keys = textKeys(args.text);
  // The field's value line shows what was typed; the count matters only when keys and characters differ.
  const typed = keys.length === [...args.text].length ? [] : [`Typed ${[...args.text].length} characters (${keys.length} key presses).`];
  // By ref: the click and the keys in one pass, the press check before the button goes down, the focus check before the keys.
  const report = args.ref ? await clickThenType(context, args.ref, { presses: keys }) : await typeAtFocus(context, { presses: keys });
  return keysResult('type', report, 'typed', typed);
}

/**
 * The reply of keys: at focus, its element and whether the keys reached it; by ref, also a click not pressed, or
 * pressed without putting focus on the field (nothing typed), or the field that had focus (no click).
 */
function keysResult(action: string, report: ActionReport, verb: string, details: string[]): Reply {
  const unfocused = report.focus !== undefined && !report.focus.focused;
  // The button went down on the field (which took focus), then the page put another control under the pointer:
  // only the rest of the click was kept from it, and the keys went to the field. Said, not an error.
  if (report.kept) details = [...details, `After the button went down on the field, ${report.kept.reason}; the rest of the click (${report.kept.types.join(', ')}) was kept from it. The field had focus and got the keys.`];
  const said = report.refused || report.stopped
    ? [`Nothing was ${verb}.`]
    : unfocused
      ? [`The click did not put focus on it (focus is on ${summaryText(report.focus?.focus)}): nothing was ${verb}.`]
      : report.noClick
        ? [...details, `It had focus: ${verb} at its caret, no click.`]
        : details;
  return actionReply({ action, ok: !unfocused, ...(unfocused ? { note: `focus did not reach the field; nothing was ${verb}` } : {}) }, report, said);
}

/**
 * type with paste: the text goes in as one trusted paste (clipboard + ctrl+v), which editors insert as it is.
 * With a ref, the field is clicked first and the paste keys go out only once focus is there.
 */
async function paste(context: TabToolContext, text: string, ref: string | undefined): Promise<Reply> {
  const count = [...text].length;
  const pasted = [`Pasted ${count} character${count === 1 ? '' : 's'} as one paste (${PASTE_CHORD} with the text on the clipboard, emptied again after).`];
  const keys: Keys = { paste: text };
  const run = ref ? await clickThenType(context, ref, keys) : await typeAtFocus(context, keys);
  if ('placed' in run) {
    return {
      structured: { action: 'type', ok: false, note: 'the browser refused the clipboard; nothing was pasted' },
      text: 'type: nothing was pasted (the browser refused to put the text on the clipboard). Type it key by key instead (paste: false).',
    };
  }
  return keysResult('type', run, 'pasted', pasted);
}

const key: ActionHandler = async (context, args) => {
  if (!args.text?.trim()) throw new ToolError('invalid_arguments', 'text: key needs key names or chords, e.g. "Enter" or "ctrl+a".', { field: 'text' });
  const chords = parseKeySequence(args.text);
  const repeat = args.repeat ?? 1;
  const report = await typeAtFocus(context, { chords, repeat });
  return keysResult('key', report, 'pressed', [`Pressed ${chords.map((c) => c.text).join(' ')}${repeat > 1 ? ` x${repeat}` : ''}.`]);
};

export const keyboardHandlers = { type, key } satisfies Record<string, ActionHandler>;
