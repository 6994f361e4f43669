// One page call before and one after each input action. Before: aim (guard), arm the probes, start the delta's
// watch. After: finish the drag, read the probes, render the delta. Each round trip saved is ~2-4 ms per action.
import type { ActionConclusion, ActionPreparation, PageDelta, PrepareArgs, ConcludeArgs, TypeAlongArgs, TypeAlongResult } from '../contract/index.js';
import { armDelivery, deepActiveElement, deliveredSoFar, keysUp, readDelivery, scrollLanded } from './delivery.js';
import { waitUntil } from './wait.js';
import { summarize } from './describe.js';
import { deltaFinish, deltaStart, startDelta } from './delta.js';
import { armDragWatch, finishDragWatch } from './drag.js';
import { PageError } from './errors.js';
import { aimAtFocusedField, aimAtPoint, aimAtRef, deepElementFromPoint, gateFrame, isFrame, typingTarget } from './guard.js';
import { documentId, elementFor, localIdOf } from './registry.js';
import { armScrollProbe, readScrollProbe } from './scroll-probe.js';
import { armLeaving, readLeaving } from './leaving.js';
import { clearKeyFilter, closeGate, gateDrained, gateFirst, gatedFor, openGate } from './key-gate.js';
import { armPressGate, disarmPressGate, readPressGate } from './press-gate.js';
import { pageIdentity } from './info.js';

/**
 * Before an action's input: the guard, the probes, the delta's start. With `gateKeys` the keys are on their way
 * already: any refusal, or a field no longer focused, closes the key gate for them.
 */
export function prepareAction(args: PrepareArgs): ActionPreparation {
  // A press gate or key filter some earlier action left must not judge this one's input.
  disarmPressGate();
  clearKeyFilter();
  if (!args.gateKeys) {
    // A gate some lost key left closed must not stop this action's input.
    openGate();
    return prepare(args);
  }
  let preparation: ActionPreparation;
  try {
    preparation = prepare(args);
  } catch (error) {
    keepKeysHere();
    closeGate(args.token, args.gateKeys);
    // The read-back sent with the keys finishes the delta's watch: it must find one (else it waits for a new page).
    if (args.delta) deltaStart(args.delta);
    throw error;
  }
  if (preparation.typing?.focused) return preparation;
  keepKeysHere();
  closeGate(args.token, args.gateKeys);
  return { ...preparation, gated: true };
}

/**
 * A type into the field the last type left focus in, as one page call sent just before its keys: the check runs
 * before the first key arrives (closing the gate when it fails), then the read-back waits for the keys' keyups.
 * One call where a check and a read-back took two: the page's share of a 20-key type was ~1 ms a call.
 */
export async function typeAlong(args: TypeAlongArgs): Promise<TypeAlongResult> {
  let preparation: ActionPreparation;
  try {
    preparation = prepareAction(args.prepare);
  } catch (error) {
    // The gate stops the keys; the failure is said once they are all stopped (nothing of them is left to land).
    await concludeAction(args.conclude).catch(() => undefined);
    throw error;
  }
  return { preparation, conclusion: await concludeAction(args.conclude) };
}

/**
 * Keys go wherever focus is: in a frame, this document's gate would never see them. Focus comes back to this
 * document first (the frame's field blurs, as the click that types next would make it).
 */
function keepKeysHere(): void {
  const active = deepActiveElement();
  if (isFrame(active) || active?.localName === 'object' || active?.localName === 'embed') (active as HTMLElement).blur();
}

function aimedElement(args: PrepareArgs, aim: { point: { x: number; y: number } } | undefined): Element | null {
  if (args.ref) {
    try {
      return elementFor(args.ref.docId, args.ref.localId);
    } catch {
      return null;
    }
  }
  return aim ? deepElementFromPoint(aim.point.x, aim.point.y) : null;
}

function prepare(args: PrepareArgs): ActionPreparation {
  // Typing by ref: a field that holds focus gets the keys without a click (the engine's noClick), so it needs no aim.
  const typing = args.ref && args.focusWatch ? typingTarget(args.ref) : undefined;
  const aim = args.ref ? (typing?.focused ? aimAtFocusedField(args.ref) : aimAtRef(args.ref)) : args.point ? aimAtPoint(args.point) : undefined;
  const gate = args.gate ? gateFrame(args.gate) : undefined;
  // Armed last of the checks: a refusal above leaves nothing armed.
  if (args.pressGate) {
    if (gate && args.gate) armPressGate(args.token, elementFor(args.gate.frame.docId, args.gate.frame.localId), true);
    else if (args.ref && aim && !aim.frame && !typing?.focused) armPressGate(args.token, elementFor(args.ref.docId, args.ref.localId));
  }
  // A point over an iframe: the events go to the frame's document, where the server arms the probes instead.
  if (!aim?.frame) {
    if (args.watch) armDelivery({ token: args.token, types: args.watch, ref: args.ref, point: args.ref ? undefined : aim?.point });
    if (args.scrollProbe && aim) armScrollProbe({ token: args.token, ...aim.point });
  }
  let focusFrame: ActionPreparation['focusFrame'];
  let focused: ActionPreparation['focused'];
  let startOnFrame = false;
  if (args.focusWatch) {
    const active = deepActiveElement();
    if (isFrame(active) && !args.ref) focusFrame = { docId: documentId, id: localIdOf(active) };
    else if (!args.ref && active) focused = summarize(active);
    if (!focusFrame) armDelivery({ token: `${args.token}:focus`, types: args.focusWatch, ...(args.focusPin ? { pin: true, ref: args.ref } : {}) });
  }
  if (args.startWatch) {
    const { x, y } = args.startWatch.point;
    const inside = x >= 0 && y >= 0 && x < window.innerWidth && y < window.innerHeight;
    startOnFrame = !inside || isFrame(deepElementFromPoint(x, y));
    if (!startOnFrame) armDelivery({ token: `${args.token}:start`, types: args.startWatch.types, point: args.startWatch.point });
  }
  if (args.dragWatch) armDragWatch({ token: args.token });
  if (args.watch || args.focusWatch) armLeaving(args.token);
  // The delta looks first at what is around the element acted on (a menu beside its toggle).
  const delta = args.delta ? startDelta(args.delta, aimedElement(args, aim) ?? deepActiveElement()) : undefined;
  return {
    aim,
    ...(gate ? { gate } : {}),
    ...pageIdentity(),
    ...(document.hidden ? { hidden: true as const } : {}),
    ...(delta ? { delta } : {}),
    ...(focusFrame ? { focusFrame } : {}),
    ...(focused ? { focused } : {}),
    ...(startOnFrame ? { startOnFrame: true as const } : {}),
    ...(typing ? { typing } : {}),
    ...(gateFirst ? { gateFirst: true as const } : {}),
  };
}

async function finishDelta(args: ConcludeArgs): Promise<PageDelta | null | undefined> {
  if (!args.delta) return undefined;
  try {
    return await deltaFinish(args.delta);
  } catch (error) {
    // Another document than the one watched answers: the action loaded a new one.
    if (error instanceof PageError && error.code === 'delta_lost') return null;
    throw error;
  }
}

/** Widgets that take the scrolling keys for themselves (a field's caret, a listbox's selection, a slider's value). */
const KEY_WIDGETS = 'input, select, textarea, [contenteditable], [role=listbox], [role=menu], [role=menubar], [role=grid], [role=tree], [role=tablist], [role=slider], [role=spinbutton], [role=combobox], [role=radiogroup], [role=textbox]';

function keepsKeys(element: Element | null): boolean {
  return element !== null && element !== document.body && element.closest(KEY_WIDGETS) !== null;
}

export async function concludeAction(args: ConcludeArgs): Promise<ActionConclusion> {
  // Keys that met the closed gate reached nothing: once it has stopped them all, say so.
  const gated = args.afterKeyUps !== undefined && gatedFor(args.token);
  if (gated) await gateDrained(args.token);
  const keysAllUp = args.afterKeyUps && !gated ? await keysUp(`${args.token}:focus`, args.afterKeyUps) : false;
  if (args.waitMs) {
    const { token, need, focusNeed, startNeed } = args;
    await waitUntil(
      () => deliveredSoFar(token, need) && (!focusNeed || deliveredSoFar(`${token}:focus`, focusNeed)) && (!startNeed || deliveredSoFar(`${token}:start`, startNeed)),
      args.waitMs,
    );
  }
  if (args.scrollWaitMs && !keepsKeys(deepActiveElement())) {
    await scrollLanded(args.focusNeed ? `${args.token}:focus` : args.token, args.scrollWaitMs);
  }
  const drag = args.dragEnd ? finishDragWatch({ token: args.token, ...args.dragEnd }) : undefined;
  // The wheel's scroll lands over several frames: the delta is read once it has (a virtual list renders the rows
  // the scroll brought in from its scroll events; read earlier, it showed the first few frames' rows, or none).
  const scroll = args.scrollProbe ? await readScrollProbe({ token: args.token, expected: args.scrollProbe.expected }) : undefined;
  const delta = await finishDelta(args);
  // Read last: an event that landed while the page settled still counts.
  const delivery = readDelivery({ token: args.token, need: args.need });
  const focusDelivery = args.focusNeed ? readDelivery({ token: `${args.token}:focus`, need: args.focusNeed }) : undefined;
  const startDelivery = args.startNeed ? readDelivery({ token: `${args.token}:start`, need: args.startNeed }) : undefined;
  const leaving = readLeaving(args.token);
  const { stop: pressStopped, kept: releaseKept } = readPressGate(args.token);
  return {
    delivery,
    ...(focusDelivery ? { focusDelivery } : {}),
    ...(startDelivery ? { startDelivery } : {}),
    ...(scroll ? { scroll } : {}),
    ...(drag ? { drag } : {}),
    ...(delta !== undefined ? { delta } : {}),
    ...(leaving ? { leaving: true as const } : {}),
    ...(keysAllUp ? { keysAllUp: true as const } : {}),
    ...(gated ? { gated: true as const } : {}),
    ...(pressStopped ? { pressStopped } : {}),
    ...(releaseKept ? { releaseKept } : {}),
  };
}
