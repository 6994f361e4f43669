// The press gate: the press events of a click by ref are stopped before any script of the page sees them when they
// would reach another control than the one aimed at. The press check (press-check.ts) looks once, after the
// pointer's arrival; a page can still swap what lies under the pointer between that look and the button going
// down (a timer 10 ms after the first pointermove), or in its own pointerdown handler. The gate judges each trusted
// press event as it is dispatched, so there is no window left between a check and the press.
//
// Installed when the page scripts load: in a preloaded document (the preload runs before any script of the page)
// its window capture listener is the first of all, so stopImmediatePropagation keeps every handler of the page
// from running. In a document that predates the preload, the page's own window capture listeners registered
// before it still see the event (its element handlers do not).
//
// The rule, for each trusted pointerdown, mousedown, pointerup, mouseup, click, auxclick, dblclick, contextmenu:
// - it reaches the aimed element (its composed path holds it, or the hit test's rule: a label of it, the control
//   drawn for it, or for a label the control it labels) and the element is still what it was when aimed at
//   (role, and name unless it had none): it goes on;
// - it reaches an element of the same tag, role and name (a framework re-rendered the control as an identical node):
//   it goes on;
// - after the press reached the target, an event at one of the target's ancestors (Firefox sends the events that
//   follow a removed target to its nearest ancestor still there, and the click to the common ancestor of press and
//   release when they differ): it goes on;
// - a release (pointerup, mouseup) after the press reached the target, landing on another control: the page drew
//   something there in its answer to the press (a menu opened under the pointer, an option's list closed over a
//   grid cell, or a swap in its pointerdown handler). The press was the target's; the release alone is stopped,
//   and the reply says so; the click that follows is judged as any;
// - anything else, and every press event after it in this action, is cancelled and stopped, and the read-back
//   says so (the server answers target_occluded).
// In a frame's parent, the gate is armed for the iframe: input aimed into the frame never reaches the parent's
// document, so any press event there (the page put something over the frame) is stopped.
import type { PressStop } from '../contract/index.js';
import { describe, roleName } from './describe.js';
import { composedContains, hitsTarget } from './hit.js';
import { composedParent } from './composed.js';

interface Armed {
  token: string;
  target: Element;
  /** Armed in a frame's parent: `target` is the iframe, and no press event belongs in this document. */
  frameHost: boolean;
  was: { tag: string; role: string; name: string };
  /** The target's composed ancestors when armed (a click sent to the common ancestor of press and release). */
  ancestors: Set<Node>;
  pressed: boolean;
  stop?: PressStop;
  /** Releases stopped after a press that reached the target (they would have gone to what the page drew there). */
  kept?: PressStop;
  timer: number;
}

const PRESS_EVENTS = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'auxclick', 'dblclick', 'contextmenu'];
/** The events of the button going down: once one reached the target, the press is its. */
const PRESSES = new Set(['pointerdown', 'mousedown']);
/** The button coming up: after a press the target got, the page's answer to it may draw anything under the pointer. */
const RELEASES = new Set(['pointerup', 'mouseup']);
/** An armed gate whose action never read it back (a frame's parent, a lost read-back) disarms after this long, ms. */
const ARMED_MAX_MS = 3_000;

let armed: Armed | null = null;
/** The last stop, kept for its read-back after the gate was disarmed by time. */
let lastStop: { token: string; stop?: PressStop; kept?: PressStop } | null = null;

function originOf(event: Event): Element | null {
  const first = event.composedPath()[0] ?? event.target;
  if (first instanceof Element) return first;
  return first instanceof Node ? first.parentElement : null;
}

function reachesTarget(event: Event, origin: Element | null, target: Element): boolean {
  if (event.composedPath().includes(target)) return true;
  if (!origin) return false;
  if (hitsTarget(origin, target)) return true;
  // A label's click is sent on to the control it labels.
  const control = target.localName === 'label' ? (target as HTMLLabelElement).control : null;
  return control !== null && composedContains(control, origin);
}

function changedFrom(gate: Armed): string | null {
  const now = roleName(gate.target);
  // A name that appears only on hover (a tooltip naming an icon button) is not a change of target.
  if (now.role === gate.was.role && (!gate.was.name || now.name === gate.was.name)) return null;
  return `it changed from ${label(gate.was)} to ${label(now)}`;
}

function label(summary: { role: string; name: string }): string {
  return `${summary.role}${summary.name ? ` "${summary.name}"` : ''}`;
}

/** An element at or above `origin` that is the target drawn again: same tag, role and name. */
function sameControl(origin: Element, gate: Armed): boolean {
  if (!gate.was.name) return false;
  for (let node: Node | null = origin; node && !gate.ancestors.has(node); node = composedParent(node)) {
    if (!(node instanceof Element) || node.localName !== gate.was.tag) continue;
    const now = roleName(node);
    if (now.role === gate.was.role && now.name === gate.was.name) return true;
  }
  return false;
}

/** Why this event must not reach the page, or null when it goes to the control aimed at. */
function judge(event: Event, gate: Armed): string | null {
  if (gate.frameHost) return `the page put ${describeOrigin(originOf(event))} over the frame`;
  const origin = originOf(event);
  if (gate.target.isConnected && reachesTarget(event, origin, gate.target)) return changedFrom(gate);
  if (origin && sameControl(origin, gate)) return null;
  // Once the button went down on the target, Firefox sends what follows a removed target to its nearest ancestor
  // still there, and a click whose press and release targets differ to their common ancestor.
  if (gate.pressed && origin && gate.ancestors.has(origin)) return null;
  const where = describeOrigin(origin);
  return gate.target.isConnected ? `the page put ${where} under the pointer` : `the page removed it and put ${where} in its place`;
}

function lastStopOf(gate: Armed): { stop?: PressStop; kept?: PressStop } {
  return { ...(gate.stop ? { stop: gate.stop } : {}), ...(gate.kept ? { kept: gate.kept } : {}) };
}

function describeOrigin(origin: Element | null): string {
  return origin ? describe(origin) : 'nothing';
}

function onPress(event: Event): void {
  const gate = armed;
  if (!gate || !event.isTrusted) return;
  if (!gate.stop) {
    const reason = judge(event, gate);
    if (reason === null) {
      if (PRESSES.has(event.type)) gate.pressed = true;
      return;
    }
    if (gate.pressed && RELEASES.has(event.type)) {
      // The press was the target's and the page answered it (a menu opened under the pointer, a picked option's list
      // closed): the release alone is kept from what is there now; the click that follows is still judged.
      gate.kept ??= { types: [], reason, afterPress: true };
      if (!gate.kept.types.includes(event.type)) gate.kept.types.push(event.type);
      lastStop = { token: gate.token, ...lastStopOf(gate) };
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    gate.stop = { types: [], reason, afterPress: gate.pressed };
    lastStop = { token: gate.token, ...lastStopOf(gate) };
  }
  event.preventDefault();
  event.stopImmediatePropagation();
  if (!gate.stop.types.includes(event.type)) gate.stop.types.push(event.type);
}

for (const type of PRESS_EVENTS) window.addEventListener(type, onPress, { capture: true });

/** Arms the gate for action `token`'s press at `target` (an iframe, in a frame's parent: `frameHost`). */
export function armPressGate(token: string, target: Element, frameHost = false): void {
  disarmPressGate();
  const ancestors = new Set<Node>();
  for (let node = composedParent(target); node; node = composedParent(node)) ancestors.add(node);
  const { role, name } = roleName(target);
  armed = { token, target, frameHost, was: { tag: target.localName, role, name }, ancestors, pressed: false, timer: window.setTimeout(disarmPressGate, ARMED_MAX_MS) };
}

export function disarmPressGate(): void {
  if (!armed) return;
  window.clearTimeout(armed.timer);
  armed = null;
}

/** What the gate stopped of action `token` (`stop`: the press; `kept`: only releases after the target's press); disarms it. */
export function readPressGate(token: string): { stop?: PressStop; kept?: PressStop } {
  if (armed?.token === token) disarmPressGate();
  if (lastStop?.token !== token) return {};
  const { stop, kept } = lastStop;
  lastStop = null;
  return { ...(stop ? { stop } : {}), ...(kept ? { kept } : {}) };
}

/** What the gate stopped of action `token` so far, leaving it armed (typing by ref: no keys after a stopped click). */
export function peekPressGate(token: string): PressStop | undefined {
  return lastStop?.token === token ? lastStop.stop : undefined;
}
