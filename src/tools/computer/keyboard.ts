// type and key: keyboard input to whatever holds focus (type with a ref clicks that field first, unless it already
// has focus, and types after its text only once focus is there). The engine (browser/engine/typing.ts) does the sequence.
import { textKeys } from '../../browser/engine/index.js';
import { parseKeySequence } from '../../browser/engine/index.js';
import { PASTE_CHORD } from '../../browser/engine/index.js';
import { clickThenType, typeAtFocus, type Keys, type NotPlaced, type TypedAtFocus, type TypedByRef } from '../../browser/engine/index.js';
import { ToolError } from '../../errors.js';
import type { ActionHandler } from '../computer.js';
import type { TabToolContext } from '../tool.js';
import { actionResult, summaryText } from './result.js';

type Reply = Awaited<ReturnType<ActionHandler>>;

const type: ActionHandler = async (context, args) => {
  if (args.text === undefined || args.text === '') throw new ToolError('invalid_arguments', 'text: type needs the text to enter.', { field: 'text' });
  if (args.paste) return paste(context, args.text, args.ref);
  const keys = textKeys(args.text);
  // The field's value line shows what was typed; the count matters only when keys and characters differ.
  const typed = keys.length === [...args.text].length ? [] : [`Typed ${[...args.text].length} characters (${keys.length} key presses).`];
  if (!args.ref) return atFocusResult('type', await typeAtFocus(context, { presses: keys }), 'the keys', typed, context.tab.context);
  // The click and the keys in one pass: the press check before the button goes down, the focus check before the keys.
  return refResult(args.ref, await clickThenType(context, args.ref, { presses: keys }), 'the keys', 'typed', typed, context.tab.context);
};

/** The reply of keys sent wherever focus was: its element, and whether the keys reached it. */
function atFocusResult(action: string, { focused, dispatched }: TypedAtFocus, keys: string, details: string[], top: string): Reply {
  const focus = dispatched.conclusion?.focusDelivery;
  return actionResult({
    action,
    inFrame: focused.context !== top,
    target: focus?.focus ?? focused.preparation.focused,
    preparation: focused.preparation,
    dispatched,
    verdicts: focused.probed ? [{ what: keys, report: focus, code: 'focus_moved' }] : [],
    details,
  });
}

/** The reply of a type by ref: not pressed, pressed without focus (nothing typed), or the click's and the keys' verdicts. */
function refResult(ref: string, run: TypedByRef, keys: string, verb: string, details: string[], top: string): Reply {
  const { target, dispatched, focus, refused } = run;
  const unfocused = focus && !focus.focused;
  // The button went down on the field (which took focus), then the page put another control under the pointer:
  // only the rest of the click was kept from it, and the keys went to the field. Said, not an error.
  const typedAnyway = run.stopped?.afterPress === true && focus?.focused === true;
  const stopped = typedAnyway ? undefined : run.stopped;
  if (typedAnyway) details = [...details, `After the button went down on the field, ${run.stopped!.reason}; the rest of the click (${run.stopped!.types.join(', ')}) was kept from it. The field had focus and got the keys.`];
  return actionResult({
    action: 'type',
    inFrame: run.target.context !== top,
    ref,
    target: target.preparation.aim?.target,
    point: target.point,
    preparation: target.preparation,
    dispatched,
    verdicts: run.noClick
      ? [{ what: keys, report: dispatched.conclusion?.focusDelivery, code: 'focus_moved' }]
      : unfocused
        ? [{ what: 'the click', report: dispatched.conclusion?.delivery }]
        : [
            { what: 'the click', report: dispatched.conclusion?.delivery },
            { what: keys, report: dispatched.conclusion?.focusDelivery, code: 'focus_moved' },
          ],
    details: refused || stopped
      ? [`Nothing was ${verb}.`]
      : unfocused
        ? [`The click did not put focus on it (focus is on ${summaryText(focus?.focus)}): nothing was ${verb}.`]
        : run.noClick
          ? [...details, `It had focus: ${verb} at its caret, no click.`]
          : details,
    ...(refused ? { refused } : {}),
    ...(stopped ? { stopped } : {}),
    extra: unfocused ? { ok: false, note: `focus did not reach the field; nothing was ${verb}` } : undefined,
  });
}

/**
 * type with paste: the text goes in as one trusted paste (clipboard + ctrl+v), which editors insert as it is.
 * With a ref, the field is clicked first and the paste keys go out only once focus is there.
 */
async function paste(context: TabToolContext, text: string, ref: string | undefined): Promise<Reply> {
  const count = [...text].length;
  const pasted = [`Pasted ${count} character${count === 1 ? '' : 's'} as one paste (${PASTE_CHORD} with the text on the clipboard, emptied again after).`];
  const keys: Keys = { paste: text };
  const run: TypedAtFocus | TypedByRef | NotPlaced = ref ? await clickThenType(context, ref, keys) : await typeAtFocus(context, keys);
  if (run.placed === false) {
    return {
      structured: { action: 'type', ok: false, note: 'the browser refused the clipboard; nothing was pasted' },
      text: 'type: nothing was pasted (the browser refused to put the text on the clipboard). Type it key by key instead (paste: false).',
    };
  }
  return 'focused' in run ? atFocusResult('type', run, 'the paste keys', pasted, context.tab.context) : refResult(ref!, run, 'the paste keys', 'pasted', pasted, context.tab.context);
}

const key: ActionHandler = async (context, args) => {
  if (!args.text?.trim()) throw new ToolError('invalid_arguments', 'text: key needs key names or chords, e.g. "Enter" or "ctrl+a".', { field: 'text' });
  const chords = parseKeySequence(args.text);
  const repeat = args.repeat ?? 1;
  const run = await typeAtFocus(context, { chords, repeat });
  return atFocusResult('key', run, 'the keys', [`Pressed ${chords.map((c) => c.text).join(' ')}${repeat > 1 ? ` x${repeat}` : ''}.`], context.tab.context);
};

export const keyboardHandlers = { type, key } satisfies Record<string, ActionHandler>;
