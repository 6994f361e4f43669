// type and key: keyboard input to whatever holds focus (type with a ref clicks that field first, unless it already
// has focus, and types after its text only once focus is there).
import { END_KEY, chordActions, keySource, textKeys, typeSources } from '../../browser/input/keyboard.js';
import { mayScroll, parseKeySequence } from '../../browser/input/keys.js';
import { clickActions, mouseSource, moveTo, type InputSource } from '../../browser/input/pointer.js';
import { PASTE_CHORD, withClipboardText } from '../../browser/clipboard.js';
import { DeltaWatch } from '../../browser/delta.js';
import type { FocusCheck } from '../../contract/index.js';
import { ToolError } from '../../errors.js';
import type { ActionHandler } from '../computer.js';
import type { TabToolContext } from '../tool.js';
import { actionResult, summaryText } from './result.js';
import { FRAME_EVENT_WAIT_MS, aim, aimAtFocus, dispatch, newToken, pointerAt, pressRefused, type Aim, type Dispatched } from '../../browser/action-engine.js';

const KEYS = { watch: ['keydown', 'input'], need: ['keydown'] };
/** Longest wait for the scroll a key like End starts (it lands ~10-60 ms after the key events return), ms. */
const KEY_SCROLL_WAIT_MS = 150;
/** Key presses per performActions call, so a long text cannot run into the action timeout. */
const CHUNK = 400;

/** The key probe armed where key events will go (the focused element, followed down into frames); `pin`: every key must reach it. */
function aimFocus(context: TabToolContext, token: string, delta: DeltaWatch, pin = false) {
  return aimAtFocus(context, token, delta, KEYS.watch, pin);
}

interface ClickFirst {
  batches: InputSource[][];
  between: (index: number) => Promise<boolean>;
  /** Set by the checks: the press held back (what the page changed), or where focus was after the click. */
  refused?: string;
  focus?: FocusCheck;
  /** The field held focus already: no click, the keys went in at its caret. */
  noClick?: true;
}

/**
 * The click that puts focus on a ref's field, then the keys. Like a click by ref, the press goes out only after the
 * page's answer to the pointer's arrival was checked (the move is sent alone first), and the keys only once focus is
 * on the field.
 */
function clickFirst(context: TabToolContext, target: Aim, keysFor: (endFirst: boolean) => InputSource[][]): ClickFirst {
  const { tab } = context;
  // The field has focus already (typed into before, or selected by a triple_click): the keys go in at its caret or
  // over its selection; a click would move the caret to wherever it landed.
  if (target.preparation.typing?.focused) return { batches: keysFor(false), between: async () => true, noClick: true };
  // A field without a selection API (email, number) gets its caret after its text from an End key instead.
  const keys = keysFor(target.preparation.typing?.append === 'endKey');
  const split = !pointerAt(context, target.point) || target.preparation.aim?.throughTooltip === true;
  const press = clickActions(target.framePoint, 0, 1);
  const clicks = split ? [[mouseSource([moveTo(target.framePoint)])], [mouseSource(press.slice(1))]] : [[mouseSource(press)]];
  const run: ClickFirst = {
    batches: [...clicks, ...keys],
    between: async (index) => {
      if (split && index === 1) return !(run.refused = await pressRefused(context, target));
      if (index !== clicks.length) return true;
      const waitMs = target.context === tab.context ? 0 : FRAME_EVENT_WAIT_MS;
      // Aimed by ref, so the target has its element's ids.
      const caretToEnd = target.preparation.typing?.append === 'selection';
      run.focus = await tab.callPage('focusCheck', { ref: target.refArgs!, waitMs, ...(caretToEnd ? { caretToEnd } : {}) }, { context: target.context });
      return run.focus.focused;
    },
  };
  return run;
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
    const dispatched = await dispatch(context, { context: focused.context, inputContext: focused.context, delta }, keyBatches(keys), { token, need: [], focusNeed: KEYS.need }, { readWithKeys: true });
    const focus = dispatched.conclusion?.focusDelivery;
    return actionResult({
      action: 'type',
      target: focus?.focus ?? focused.preparation.focused,
      preparation: focused.preparation,
      dispatched,
      verdicts: focused.probed ? [{ what: 'the keys', report: focus }] : [],
      details: typed,
    });
  }
  // The click and the keys in one pass: the press check before the button goes down, the focus check before the keys.
  const target = await aim(context, { ref: args.ref }, token, { watch: ['pointerdown', 'pointerup'], need: ['pointerdown'], focusWatch: KEYS.watch, focusPin: true });
  const run = clickFirst(context, target, (endFirst) => keyBatches(endFirst ? [END_KEY, ...keys] : keys));
  const dispatched = await dispatch(context, target, run.batches, { token, need: run.noClick ? [] : ['pointerdown'], focusNeed: KEYS.need }, { between: run.between, readWithKeys: true });
  if (!run.noClick) tab.movePointer(target.point);
  return refResult(args.ref, target, dispatched, run, 'the keys', 'typed', typed);
};

/** The reply of a type by ref: not pressed, pressed without focus (nothing typed), or the click's and the keys' verdicts. */
function refResult(ref: string, target: Aim, dispatched: Dispatched, run: ClickFirst, keys: string, verb: string, details: string[]) {
  const { focus, refused } = run;
  const unfocused = focus && !focus.focused;
  return actionResult({
    action: 'type',
    ref,
    target: target.preparation.aim?.target,
    point: target.point,
    preparation: target.preparation,
    dispatched,
    verdicts: run.noClick
      ? [{ what: keys, report: dispatched.conclusion?.focusDelivery }]
      : unfocused
        ? [{ what: 'the click', report: dispatched.conclusion?.delivery }]
        : [
            { what: 'the click', report: dispatched.conclusion?.delivery },
            { what: keys, report: dispatched.conclusion?.focusDelivery },
          ],
    details: refused
      ? [`Nothing was ${verb}.`]
      : unfocused
        ? [`The click did not put focus on it (focus is on ${summaryText(focus?.focus)}): nothing was ${verb}.`]
        : run.noClick
          ? [...details, `It had focus: ${verb} at its caret, no click.`]
          : details,
    ...(refused ? { refused } : {}),
    extra: unfocused ? { ok: false, note: `focus did not reach the field; nothing was ${verb}` } : undefined,
  });
}

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
      target: focus?.focus ?? focused.preparation.focused,
      preparation: focused.preparation,
      dispatched: run.result,
      verdicts: focused.probed ? [{ what: 'the paste keys', report: focus }] : [],
      details: pasted,
    });
  }
  const target = await aim(context, { ref }, token, { watch: ['pointerdown', 'pointerup'], need: ['pointerdown'], focusWatch: KEYS.watch });
  const run = clickFirst(context, target, (endFirst) => [[keySource(endFirst ? [{ type: 'keyDown', value: END_KEY }, { type: 'keyUp', value: END_KEY }, ...chord] : chord)]]);
  const pasting = await withClipboardText(tab, text, () =>
    dispatch(context, target, run.batches, { token, need: run.noClick ? [] : ['pointerdown'], focusNeed: KEYS.need }, { between: run.between }),
  );
  if (!pasting.placed) return notPlaced();
  if (!run.noClick) tab.movePointer(target.point);
  return refResult(ref, target, pasting.result, run, 'the paste keys', 'pasted', pasted);
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
  const dispatched = await dispatch(context, { context: focused.context, inputContext: focused.context, delta }, [[keySource(actions)]], {
    token,
    need: [],
    focusNeed: KEYS.need,
    ...(mayScroll(chords) ? { scrollWaitMs: KEY_SCROLL_WAIT_MS } : {}),
  });
  const focus = dispatched.conclusion?.focusDelivery;
  return actionResult({
    action: 'key',
    target: focus?.focus ?? focused.preparation.focused,
    preparation: focused.preparation,
    dispatched,
    verdicts: focused.probed ? [{ what: 'the keys', report: focus }] : [],
    details: [`Pressed ${chords.map((c) => c.text).join(' ')}${repeat > 1 ? ` x${repeat}` : ''}.`],
  });
};

export const keyboardHandlers = { type, key } satisfies Record<string, ActionHandler>;
