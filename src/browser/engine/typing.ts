// The action engine's keyboard API by intent: a tool says what to type (text, chords, or a paste) and where (at a
// ref's field, clicked first, or wherever focus is); the engine decides the click's press check, the focus check
// before the keys, the End key a field without a selection API needs, and how the keys are batched.
import type { FocusCheck, PressStop } from '../../contract/index.js';
import { PASTE_CHORD, withClipboardText } from './clipboard.js';
import { DeltaWatch } from '../observe/delta.js';
import { END_KEY, chordActions, keySource, typeSources } from './input/keyboard.js';
import { mayScroll, parseKeySequence, type Chord } from './input/keys.js';
import type { InputSource } from './input/pointer.js';
import { aim, aimAlong, aimAtFocus, engineScope, newToken, withRef, type ActionScope, type Aim, type HandleScope } from './aim.js';
import { FRAME_EVENT_WAIT_MS, dispatch, keyUpsOf, readingBack, type Dispatched } from './action-engine.js';
import type { Tab } from '../tab/tab.js';
import { clickThenKeysSteps } from './plan.js';
import { actionReport, type ActionReport } from './report.js';

/** Keys typed as keys: presses (one per grapheme, `textKeys`), or chords pressed `repeat` times. */
export type Typing = { presses: string[] } | { chords: Chord[]; repeat?: number };
/** What to type: keys, or one trusted paste of `paste` (clipboard + the paste chord). */
export type Keys = Typing | { paste: string };

/** The browser refused to put a paste's text on the clipboard: nothing was sent. */
export interface NotPlaced {
  placed: false;
}

/** Keys sent into a ref's field, after the click that gave it focus (unless it had it). */
interface TypedByRef {
  placed?: true;
  target: Aim;
  dispatched: Dispatched;
  /** The click's press held back: what the page changed when the pointer reached the field. Nothing was typed. */
  refused?: string;
  /** The click's press events stopped by the page's press gate (they would have reached another control). Nothing was typed. */
  stopped?: PressStop;
  /** Where focus was after the click; when not on the field, no key went out. */
  focus?: FocusCheck;
  /** The field held focus already: no click, the keys went in at its caret. */
  noClick?: true;
}

const KEYS = { watch: ['keydown', 'input'], need: ['keydown'] };
/** The click a type by ref may start with: watched at the field as any click is. */
const CLICK = { watch: ['pointerdown', 'pointerup'], need: ['pointerdown'], pressGate: true as const };
/** Longest wait for the scroll a key like End starts (it lands ~10-60 ms after the key events return), ms. */
const KEY_SCROLL_WAIT_MS = 150;
/** Key presses per performActions call, so a long text cannot run into the action timeout. */
const CHUNK = 400;

function pressBatches(keys: string[]): InputSource[][] {
  const batches: InputSource[][] = [];
  for (let i = 0; i < keys.length; i += CHUNK) batches.push(typeSources(keys.slice(i, i + CHUNK)));
  return batches;
}

/** The key batches; `endFirst`: the caret goes after the field's text first (an End key). */
function keyBatches(keys: Keys, endFirst: boolean): InputSource[][] {
  if ('presses' in keys) return pressBatches(endFirst ? [END_KEY, ...keys.presses] : keys.presses);
  const actions = 'paste' in keys ? chordActions(parseKeySequence(PASTE_CHORD)[0]!) : repeated(keys.chords, keys.repeat ?? 1);
  return [[keySource(endFirst ? [{ type: 'keyDown', value: END_KEY }, { type: 'keyUp', value: END_KEY }, ...actions] : actions)]];
}

function repeated(chords: Chord[], repeat: number) {
  const actions = [];
  for (let i = 0; i < repeat; i++) for (const chord of chords) actions.push(...chordActions(chord));
  return actions;
}

/** Sends with a paste's text on the clipboard (emptied again after), or at once. */
async function sending<T>(scope: ActionScope, keys: Keys, send: () => Promise<T>): Promise<T | NotPlaced> {
  if (!('paste' in keys)) return send();
  const run = await withClipboardText(scope.tab, keys.paste, send);
  return run.placed ? run.result : { placed: false };
}

/** The keys' verdict is named for the reply: a paste's keys are not the text. */
function keysNamed(keys: Keys): string {
  return 'paste' in keys ? 'the paste keys' : 'the keys';
}

/** Types wherever focus is (followed down into frames). Text must reach the focused element key by key (pinned). */
export function typeAtFocus(handle: HandleScope, keys: Typing): Promise<ActionReport>;
export function typeAtFocus(handle: HandleScope, keys: Keys): Promise<ActionReport | NotPlaced>;
export async function typeAtFocus(handle: HandleScope, keys: Keys): Promise<ActionReport | NotPlaced> {
  const scope = engineScope(handle);
  const token = newToken();
  const delta = new DeltaWatch(scope.tab, { keys: true });
  const focused = await aimAtFocus(scope, token, delta, KEYS.watch, 'presses' in keys);
  const scrolls = 'chords' in keys && mayScroll(keys.chords);
  const at = { context: focused.context, inputContext: focused.context, delta };
  const conclude = { token, need: [], focusNeed: KEYS.need, ...(scrolls ? { scrollWaitMs: KEY_SCROLL_WAIT_MS } : {}) };
  // Text's read-back goes out with the keys (one round trip less); chords and a paste are read after.
  const steps = keyBatches(keys, false).map((input) => ({ input }));
  const dispatched = await sending(scope, keys, () => dispatch(scope, at, { steps, conclude, read: { when: 'presses' in keys ? 'withKeys' : 'after' } }));
  if ('placed' in dispatched) return dispatched;
  const focus = dispatched.conclusion?.focusDelivery;
  return actionReport({
    target: { hit: focus?.focus ?? focused.preparation.focused, inFrame: focused.context !== scope.tab.context },
    preparation: focused.preparation,
    dispatched,
    // A focused frame not reached: the keys' delivery is unknown.
    verdicts: focused.probed ? [{ what: keysNamed(keys), report: focus, code: 'focus_moved' }] : [],
  });
}

/**
 * Clicks a ref's field, then types: like a click by ref, the press goes out only after the page's answer to the
 * pointer's arrival was checked, and the keys only once focus is on the field. A field that has focus already
 * (typed into before, or selected by a triple_click) gets the keys at its caret or over its selection, no click.
 */
export function clickThenType(handle: HandleScope, ref: string, keys: Typing): Promise<ActionReport>;
export function clickThenType(handle: HandleScope, ref: string, keys: Keys): Promise<ActionReport | NotPlaced>;
export async function clickThenType(handle: HandleScope, ref: string, keys: Keys): Promise<ActionReport | NotPlaced> {
  const scope = engineScope(handle);
  const { tab } = scope;
  const pin = 'presses' in keys;
  const sped = pin ? await typeAlongWithCheck(scope, ref, keys) : null;
  const typed = sped ?? (await clickThenTypeChecked(scope, ref, keys));
  if (typed.placed === false) {
    tab.swapFocusLeft(null);
    return typed;
  }
  rememberFocus(tab, ref, typed);
  return typedReport(scope, ref, typed, keysNamed(keys));
}

/**
 * The verdicts of a type by ref: the keys' alone when the field had focus; the click's alone when it did not put
 * focus on the field (no key went out); else both. A press the page stopped after the button went down on the
 * field, which took focus and got the keys, is kept, not a refusal.
 */
function typedReport(scope: ActionScope, ref: string, typed: TypedByRef, keysWhat: string): ActionReport {
  const { target, dispatched, focus } = typed;
  const conclusion = dispatched.conclusion;
  const unfocused = focus !== undefined && !focus.focused;
  const typedAnyway = typed.stopped?.afterPress === true && focus?.focused === true;
  const click = { what: 'the click', report: conclusion?.delivery };
  const keysVerdict = { what: keysWhat, report: conclusion?.focusDelivery, code: 'focus_moved' as const };
  return actionReport(
    {
      target: { ref, hit: target.preparation.aim?.target, point: target.point, inFrame: target.context !== scope.tab.context },
      preparation: target.preparation,
      dispatched,
      verdicts: typed.noClick ? [keysVerdict] : unfocused ? [click] : [click, keysVerdict],
    },
    { refused: typed.refused, focus, noClick: typed.noClick, ...(typedAnyway ? { kept: typed.stopped } : { stopped: typed.stopped }) },
  );
}

/** The click (unless the field has focus), the focus check, then the keys: each step answered before the next. */
async function clickThenTypeChecked(scope: ActionScope, ref: string, keys: Keys): Promise<TypedByRef | NotPlaced> {
  const { tab } = scope;
  const token = newToken();
  const pin = 'presses' in keys;
  const target = await aim(scope, { ref }, token, { ...CLICK, focusWatch: KEYS.watch, ...(pin ? { focusPin: true } : {}) });
  const typing = target.preparation.typing;
  const noClick = typing?.focused === true;
  // A field without a selection API (email, number) gets its caret after its text from an End key instead.
  const keySteps = keyBatches(keys, !noClick && typing?.append === 'endKey');
  const steps = clickThenKeysSteps(target, tab.pointer, keySteps, token, FRAME_EVENT_WAIT_MS, tab.context);
  const conclude = { token, need: noClick ? [] : CLICK.need, focusNeed: KEYS.need };
  const dispatched = await sending(scope, keys, () => dispatch(scope, target, { steps, conclude, read: { when: pin ? 'withKeys' : 'after' } }));
  if ('placed' in dispatched) return dispatched;
  if (!noClick) tab.movePointer(target.point);
  const { refused, focus } = dispatched;
  const stopped = focus?.pressStopped ?? dispatched.conclusion?.pressStopped;
  return { target, dispatched, ...(noClick ? { noClick: true as const } : {}), ...(refused ? { refused } : {}), ...(focus ? { focus } : {}), ...(stopped ? { stopped } : {}) };
}

/**
 * Remembers on the tab where this type left focus: the ref's field held it when the keys were all read back. Only in
 * a top-level document whose key gate listens first (src/page/key-gate.ts); the tab forgets it once anything is done
 * to the page or seen of it (Tab.activity).
 */
function rememberFocus(tab: Tab, ref: string, typed: TypedByRef): void {
  const conclusion = typed.dispatched.conclusion;
  const clean = !typed.refused && !typed.stopped && (typed.focus?.focused ?? true) && conclusion?.keysAllUp && conclusion.focusDelivery?.delivered;
  const field = clean && typed.target.context === tab.context && typed.target.preparation.gateFirst;
  tab.swapFocusLeft(field ? { ref, point: typed.target.point, preparation: typed.target.preparation } : null);
}

/**
 * Typing into the field the last type left focus in: the keys go out right behind one page call that checks focus
 * and then reads the keys back, not after a check's answer (one round trip less). Firefox runs that call in the
 * page before the first key arrives; if the field lost focus meanwhile, or the guard refuses, the page closes its
 * key gate and the keys reach nothing. Null when this does not apply or the gate was closed: then the checked path
 * types (nothing was typed yet).
 */
async function typeAlongWithCheck(scope: ActionScope, ref: string, keys: Typing): Promise<TypedByRef | null> {
  const { tab } = scope;
  const left = tab.swapFocusLeft(null);
  if (left?.ref !== ref || !tab.refs.has(ref, tab.id)) return null;
  const batches = keyBatches(keys, false);
  const keyUps = keyUpsOf(batches);
  // Keys that may take the page away (Enter) are read after them, where the gate's count would not be waited for.
  if (keyUps === 0) return null;
  const token = newToken();
  const aimed = aimAlong(scope, ref, token, KEYS.watch, keyUps);
  if (!aimed) return null;
  const { prepare, delta, aimAt } = aimed;
  const finish = delta.finishArgs(tab.context, { targetRef: ref });
  const conclude = { token, need: [], focusNeed: KEYS.need };
  const readArgs = { ...conclude, afterKeyUps: keyUps, ...(finish ? { delta: finish } : {}) };
  // Sent before the keys, on the same socket: Firefox hands both to the page in that order.
  const along = readingBack(tab, tab.context, tab.callPage('typeAlong', { prepare, conclude: readArgs }, { noInstall: true }));
  along.catch(() => undefined);
  const at = { context: tab.context, inputContext: tab.context, ref, delta };
  let dispatched: Dispatched;
  try {
    dispatched = await dispatch(scope, at, { steps: batches.map((input) => ({ input })), conclude, read: { when: 'along', answer: along.then((answer) => answer?.conclusion ?? null) } });
  } catch (error) {
    throw withRef(error, ref);
  }
  const answer = await along;
  // The keys took the page away before the check's answer came back: the field is the one the last type left.
  if (!answer) return { target: aimAt(left.point, left.preparation), dispatched, noClick: true };
  const { preparation } = answer;
  if (preparation.gated || answer.conclusion.gated || !preparation.aim) return null;
  return { target: aimAt(preparation.aim.point, preparation), dispatched, noClick: true };
}
