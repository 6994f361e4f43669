// type and key: keyboard input to whatever holds focus (type with a ref clicks that field first, and types only
// once focus is there).
import { chordActions, keySource, textKeys, typeSources } from '../../browser/input/keyboard.js';
import { parseKeySequence } from '../../browser/input/keys.js';
import { clickActions, mouseSource, type InputSource } from '../../browser/input/pointer.js';
import { PASTE_CHORD, withClipboardText } from '../../browser/clipboard.js';
import { DeltaWatch } from '../../browser/delta.js';
import type { FocusCheck } from '../../browser/page-types.js';
import { ToolError } from '../../errors.js';
import type { ActionHandler } from '../computer.js';
import type { TabToolContext } from '../tool.js';
import { actionResult, summaryText } from './result.js';
import { FRAME_EVENT_WAIT_MS, aim, aimAtFocus, dispatch, newToken } from '../../browser/action-engine.js';

const KEYS = { watch: ['keydown', 'input'], need: ['keydown'] };
/** Key presses per performActions call, so a long text cannot run into the action timeout. */
const CHUNK = 400;

/** The key probe armed where key events will go (the focused element, followed down into frames); `pin`: every key must reach it. */
function aimFocus(context: TabToolContext, token: string, delta: DeltaWatch, pin = false) {
  return aimAtFocus(context, token, delta, KEYS.watch, pin);
}

function keyBatches(keys: string[]): InputSource[][] {
  const batches: InputSource[][] = [];
  for (let i = 0; i < keys.length; i += CHUNK) batches.push(typeSources(keys.slice(i, i + CHUNK)));
  return batches;
}

const type: ActionHandler = async (context, args) => {
  if (args.text === undefined || args.text === '') throw new ToolError('invalid_arguments', 'text: type needs the text to enter.', { field: 'text' });
  if (args.paste) return paste(context, args.text, args.ref);
  const { tab } = context;
  const keys = textKeys(args.text);
  // The field's value line shows what was typed; the count matters only when keys and characters differ.
  const typed = keys.length === [...args.text].length ? [] : [`Typed ${[...args.text].length} characters (${keys.length} key presses).`];
  const token = newToken();
  if (!args.ref) {
    const delta = new DeltaWatch(tab, { keys: true });
    const focused = await aimFocus(context, token, delta, true);
    const dispatched = await dispatch(context, { context: focused.context, inputContext: focused.context, delta }, keyBatches(keys), { token, need: [], focusNeed: KEYS.need });
    const focus = dispatched.conclusion?.focusDelivery;
    return actionResult({
      action: 'type',
      target: focus?.focus,
      preparation: focused.preparation,
      dispatched,
      verdicts: focused.probed ? [{ what: 'the keys', report: focus }] : [],
      details: typed,
    });
  }
  // The click and the keys in one pass, with one check between them: keys go out only once focus is on the field.
  const target = await aim(context, { ref: args.ref }, token, { watch: ['pointerdown', 'pointerup'], need: ['pointerdown'], focusWatch: KEYS.watch, focusPin: true });
  let focus: FocusCheck | undefined;
  const between = async (index: number) => {
    if (index > 1) return true;
    const waitMs = target.context === tab.context ? 0 : FRAME_EVENT_WAIT_MS;
    // Aimed by ref, so the target has its element's ids.
    focus = await tab.callPage('focusCheck', { ref: target.refArgs!, waitMs }, { context: target.context });
    return focus.focused;
  };
  const click = [mouseSource(clickActions(target.framePoint, 0, 1))];
  const dispatched = await dispatch(context, target, [click, ...keyBatches(keys)], { token, need: ['pointerdown'], focusNeed: KEYS.need }, { between });
  tab.movePointer(target.point);
  const refused = focus && !focus.focused;
  return actionResult({
    action: 'type',
    ref: args.ref,
    target: target.preparation.aim?.target,
    point: target.point,
    preparation: target.preparation,
    dispatched,
    verdicts: refused
      ? [{ what: 'the click', report: dispatched.conclusion?.delivery }]
      : [
          { what: 'the click', report: dispatched.conclusion?.delivery },
          { what: 'the keys', report: dispatched.conclusion?.focusDelivery },
        ],
    details: refused ? [`The click did not put focus on it (focus is on ${summaryText(focus?.focus)}): nothing was typed.`] : typed,
    extra: refused ? { ok: false, note: 'focus did not reach the field; nothing was typed' } : undefined,
  });
};

/**
 * type with paste: the text goes in as one trusted paste (clipboard + ctrl+v), which editors insert as it is.
 * With a ref, the field is clicked first and the paste keys go out only once focus is there.
 */
async function paste(context: TabToolContext, text: string, ref: string | undefined): ReturnType<ActionHandler> {
  const { tab } = context;
  const chord = chordActions(parseKeySequence(PASTE_CHORD)[0]!);
  const count = [...text].length;
  const token = newToken();
  const pasted = [`Pasted ${count} character${count === 1 ? '' : 's'} as one paste (${PASTE_CHORD} with the text on the clipboard, emptied again after).`];
  const notPlaced = (): Awaited<ReturnType<ActionHandler>> => ({
    structured: { action: 'type', ok: false, note: 'the browser refused the clipboard; nothing was pasted' },
    text: 'type: nothing was pasted (the browser refused to put the text on the clipboard). Type it key by key instead (paste: false).',
  });
  if (!ref) {
    const delta = new DeltaWatch(tab, { keys: true });
    const focused = await aimFocus(context, token, delta);
    const run = await withClipboardText(tab, text, () =>
      dispatch(context, { context: focused.context, inputContext: focused.context, delta }, [[keySource(chord)]], { token, need: [], focusNeed: KEYS.need }),
    );
    if (!run.placed) return notPlaced();
    const focus = run.result.conclusion?.focusDelivery;
    return actionResult({
      action: 'type',
      target: focus?.focus,
      preparation: focused.preparation,
      dispatched: run.result,
      verdicts: focused.probed ? [{ what: 'the paste keys', report: focus }] : [],
      details: pasted,
    });
  }
  const target = await aim(context, { ref }, token, { watch: ['pointerdown', 'pointerup'], need: ['pointerdown'], focusWatch: KEYS.watch });
  let focus: FocusCheck | undefined;
  const between = async () => {
    const waitMs = target.context === tab.context ? 0 : FRAME_EVENT_WAIT_MS;
    focus = await tab.callPage('focusCheck', { ref: target.refArgs!, waitMs }, { context: target.context });
    return focus.focused;
  };
  const click = [mouseSource(clickActions(target.framePoint, 0, 1))];
  const run = await withClipboardText(tab, text, () =>
    dispatch(context, target, [click, [keySource(chord)]], { token, need: ['pointerdown'], focusNeed: KEYS.need }, { between }),
  );
  if (!run.placed) return notPlaced();
  tab.movePointer(target.point);
  const refused = focus && !focus.focused;
  return actionResult({
    action: 'type',
    ref,
    target: target.preparation.aim?.target,
    point: target.point,
    preparation: target.preparation,
    dispatched: run.result,
    verdicts: refused
      ? [{ what: 'the click', report: run.result.conclusion?.delivery }]
      : [
          { what: 'the click', report: run.result.conclusion?.delivery },
          { what: 'the paste keys', report: run.result.conclusion?.focusDelivery },
        ],
    details: refused ? [`The click did not put focus on it (focus is on ${summaryText(focus?.focus)}): nothing was pasted.`] : pasted,
    extra: refused ? { ok: false, note: 'focus did not reach the field; nothing was pasted' } : undefined,
  });
}

const key: ActionHandler = async (context, args) => {
  if (!args.text?.trim()) throw new ToolError('invalid_arguments', 'text: key needs key names or chords, e.g. "Enter" or "ctrl+a".', { field: 'text' });
  const chords = parseKeySequence(args.text);
  const repeat = args.repeat ?? 1;
  const token = newToken();
  const delta = new DeltaWatch(context.tab, { keys: true });
  const focused = await aimFocus(context, token, delta);
  const actions = [];
  for (let i = 0; i < repeat; i++) for (const chord of chords) actions.push(...chordActions(chord));
  const dispatched = await dispatch(context, { context: focused.context, inputContext: focused.context, delta }, [[keySource(actions)]], { token, need: [], focusNeed: KEYS.need });
  const focus = dispatched.conclusion?.focusDelivery;
  return actionResult({
    action: 'key',
    target: focus?.focus,
    preparation: focused.preparation,
    dispatched,
    verdicts: focused.probed ? [{ what: 'the keys', report: focus }] : [],
    details: [`Pressed ${chords.map((c) => c.text).join(' ')}${repeat > 1 ? ` x${repeat}` : ''}.`],
  });
};

export const keyboardHandlers = { type, key } satisfies Record<string, ActionHandler>;
