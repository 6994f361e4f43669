// Delivery checks: capture-phase listeners on the window, installed from the sandbox (the page cannot see or
// remove them), record which trusted events reached the target of an action.
import type { DeliveryArgs, DeliveryReport } from '../contract/index.js';
import { describe, summarize } from './describe.js';
import { documentId } from './registry.js';
import { isFrame, targetOf } from './guard.js';
import { focusReaches, hitsTarget } from './hit.js';
import { WatchRegistry, type ArmedWatch } from './watch-registry.js';
import { filterKeys, gatedFor, openGate } from './key-gate.js';
import { pageIdentity } from './info.js';

interface Watch extends ArmedWatch {
  target: Element | null;
  /** Key actions follow focus: the focused element when the events arrive is the target. */
  followFocus: boolean;
  /** Where the first key went (a cell editor that Enter commits is gone by the time the report is read). */
  keyedAt?: Element;
  /**
   * Aimed at a point, not an element: whatever the page has drawn there when the events arrive is the target (an
   * editor that re-renders its line under the pointer between press and release was still clicked).
   */
  atPoint: boolean;
  seen: Set<string>;
  stray: Set<string>;
  /** What each stray type first landed on, described when it landed (the page may remove it next). */
  strayAt: Map<string, string>;
  /** Typing (DeliveryArgs.pin): the element every key must reach, and how the keys went. */
  pin?: KeyPin;
  /** Where the document was scrolled, and its URL's fragment, when the watch was armed. */
  scrollAt: { x: number; y: number; hash: string };
}

interface KeyPin {
  /** The ref's element, or the element focused at the first key (null until then). */
  target: Element | null;
  /** Pinned to a ref's element (not to whatever held focus at the first key). */
  byRef: boolean;
  keys: number;
  /** Keys that went elsewhere; the first of them (1-based) and where it went. */
  away: number;
  firstAway?: { index: number; where: string };
  /** The last key pressed: focus that moves right after a Tab or Enter was moved by the keys themselves. */
  lastKey: string;
  /** Trusted keyups seen anywhere in this document, and who waits for a count of them (see keysUp). */
  ups: number;
  upWaiter?: { count: number; resolve: () => void };
  /** How many keyups the keys sent should have brought (set by keysUp): fewer means some keys went to another document. */
  expectedUps?: number;
  /**
   * The last key event's target (at the window: a shadow host for a field inside it) and whether focus reached the
   * pin then. Focus looked up through the sandbox on every key event took a third of the keys' time on a shadow-DOM
   * field; while the target stays and no focus event came in between, the answer stands. Cleared by focusin/out.
   */
  seenAt?: { target: EventTarget | null; onTarget: boolean };
  /** The key event the key gate's filter judged last, and its verdict (the watch's own listener reuses it). */
  judged?: { event: Event; hit: boolean };
  /** Keydowns the key gate stopped (focus was not on the target), and the keys whose keydown it stopped. */
  stopped: number;
  stoppedKeys: Set<string>;
  /** The page moved focus into this frame while the keys went out; firefox-use took it back (described). */
  frameTaken?: string;
}

const watches = new WatchRegistry<Watch>();

/** Typing: whether this key event reached the pinned element; follows focus the keys moved themselves. */
function keyReached(pin: KeyPin, event: Event): boolean {
  const keydown = event.type === 'keydown';
  const refocus = !pin.target || ((pin.lastKey === 'Tab' || pin.lastKey === 'Enter') && keydown);
  const target = event.target;
  let onTarget: boolean;
  let active: Element | null | undefined;
  if (!refocus && pin.seenAt && pin.seenAt.target === target) onTarget = pin.seenAt.onTarget;
  else {
    active = deepActiveElement();
    if (refocus) pin.target = active;
    onTarget = active !== null && pin.target !== null && focusReaches(active, pin.target);
    pin.seenAt = { target, onTarget };
  }
  if (!keydown) return onTarget;
  pin.keys++;
  pin.lastKey = (event as KeyboardEvent).key;
  if (!onTarget) {
    pin.away++;
    if (!pin.firstAway) {
      active ??= deepActiveElement();
      pin.firstAway = { index: pin.keys, where: active ? describe(active) : 'nothing' };
    }
  }
  return onTarget;
}

/** The element an event was dispatched at, as deep as the page lets us see (open shadow roots included). */
function originOf(event: Event): Element | null {
  const first = event.composedPath()[0] ?? event.target;
  if (first instanceof Element) return first;
  return first instanceof Node ? first.parentElement : null;
}

function reached(event: Event, target: Element | null, origin: Element | null): boolean {
  if (target === null) return false;
  if (event.composedPath().includes(target)) return true;
  // The same rule as the guard's hit test: its label, its component's own parts, the control drawn for it.
  return origin !== null && hitsTarget(origin, target);
}

/** Starts recording the trusted `types` events that reach the target (an element ref, a point, or the focus). */
export function armDelivery(args: DeliveryArgs): { armed: true; docId: string } {
  const watch: Watch = {
    target: targetOf({ ref: args.ref, point: args.point }),
    followFocus: !args.ref && !args.point,
    atPoint: !args.ref && Boolean(args.point),
    seen: new Set(),
    stray: new Set(),
    strayAt: new Map(),
    remove: () => undefined,
    timer: 0,
    scrollAt: { x: window.scrollX, y: window.scrollY, hash: location.hash },
    ...(args.pin
      ? { pin: { target: args.ref ? targetOf({ ref: args.ref }) : null, byRef: Boolean(args.ref), keys: 0, away: 0, lastKey: '', ups: 0, stopped: 0, stoppedKeys: new Set<string>() } }
      : {}),
  };
  // A pinned watch aims at the ref's element; its events are judged by where focus is (keyReached).
  if (watch.pin) watch.followFocus = true;
  // Runs in every key event of a text typed: where the event went is looked up only when it missed.
  const listener = (event: Event) => {
    if (!event.isTrusted) return;
    let origin: Element | null | undefined;
    const judged = watch.pin?.judged?.event === event ? watch.pin.judged.hit : undefined;
    const hit = watch.pin ? (judged ?? keyReached(watch.pin, event)) : watch.atPoint || reached(event, watch.followFocus ? deepActiveElement() : watch.target, (origin = originOf(event)));
    if (hit) {
      watch.seen.add(event.type);
      if (watch.followFocus && !watch.keyedAt && event.type === 'keydown') watch.keyedAt = deepActiveElement() ?? undefined;
    } else {
      watch.stray.add(event.type);
      origin ??= originOf(event);
      if (origin && !watch.strayAt.has(event.type)) watch.strayAt.set(event.type, describe(origin));
    }
  };
  const pin = watch.pin;
  const countUp = (pin: KeyPin) => {
    pin.ups++;
    if (pin.upWaiter && pin.ups >= pin.upWaiter.count) nextTask(pin.upWaiter.resolve);
  };
  const onKeyUp = (event: Event) => {
    if (!event.isTrusted || !pin || pin.judged?.event === event) return;
    countUp(pin);
  };
  const onFocusMoved = (event: Event) => {
    if (!pin) return;
    pin.seenAt = undefined;
    // Focus moved into a frame: keys would go to its document, where this one cannot stop them. Once the page's
    // handler that moved it has returned, focus is taken back to this document, where the filter stops the keys.
    if (event.type === 'focusout' || event.type === 'blur') queueMicrotask(() => takeBackFromFrame(pin));
  };
  // The key gate's filter, first of the window's key listeners: a key that would not reach the target is stopped.
  const unfilter = pin
    ? filterKeys((event) => {
        if (event.type === 'keyup') {
          countUp(pin);
          const key = (event as KeyboardEvent).code || (event as KeyboardEvent).key;
          const hit = !pin.stoppedKeys.delete(key);
          pin.judged = { event, hit };
          return hit;
        }
        const hit = keyReached(pin, event);
        pin.judged = { event, hit };
        if (!hit) {
          pin.stopped++;
          pin.stoppedKeys.add((event as KeyboardEvent).code || (event as KeyboardEvent).key);
        }
        return hit;
      })
    : undefined;
  for (const type of args.types) window.addEventListener(type, listener, { capture: true });
  if (pin) {
    window.addEventListener('keyup', onKeyUp, { capture: true });
    for (const type of FOCUS_MOVES) window.addEventListener(type, onFocusMoved, { capture: true });
  }
  watch.remove = () => {
    unfilter?.();
    for (const type of args.types) window.removeEventListener(type, listener, { capture: true });
    if (pin) {
      window.removeEventListener('keyup', onKeyUp, { capture: true });
      for (const type of FOCUS_MOVES) window.removeEventListener(type, onFocusMoved, { capture: true });
    }
    pin?.upWaiter?.resolve();
  };
  watches.arm(args.token, watch);
  return { armed: true, docId: documentId };
}

/** Focus moving anywhere in the document, shadow trees included (both are composed), or out of it (blur). */
const FOCUS_MOVES = ['focusin', 'focusout', 'blur'];

/** Typing pinned to a field of this document: focus the page moved into a frame comes back here (see onFocusMoved). */
function takeBackFromFrame(pin: KeyPin): void {
  const active = deepActiveElement();
  if (!pin.target || !(isFrame(active) || active?.localName === 'object' || active?.localName === 'embed')) return;
  // Focus a Tab or Enter of the text moved (a form sent into a payment frame), or moved once every key was in, is
  // the page's own to keep.
  if (pin.lastKey === 'Tab' || pin.lastKey === 'Enter' || (pin.expectedUps !== undefined && pin.ups >= pin.expectedUps)) return;
  pin.frameTaken ??= describe(active);
  (active as HTMLElement).blur();
}

export function deepActiveElement(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/**
 * Resolves once the document has scrolled since the watch `token` was armed, or after `ms`. Looked at every 8 ms
 * on a timer: a page already at its end must not cost a busy loop for the whole wait.
 */
export function scrollLanded(token: string, ms: number): Promise<void> {
  const at = watches.get(token)?.scrollAt;
  if (!at) return Promise.resolve();
  const moved = () => Math.abs(window.scrollX - at.x) >= 1 || Math.abs(window.scrollY - at.y) >= 1;
  if (moved()) return Promise.resolve();
  return new Promise((resolve) => {
    const finish = () => {
      window.clearInterval(poll);
      window.clearTimeout(limit);
      resolve();
    };
    const poll = window.setInterval(() => moved() && finish(), 8);
    const limit = window.setTimeout(finish, ms);
  });
}

/** Runs `fn` in a task of its own: after the event being dispatched, its other listeners and their microtasks. */
function nextTask(fn: () => void): void {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    fn();
  };
  channel.port2.postMessage(null);
}

/**
 * Resolves once the typing watch `token` has seen `count` trusted keyups in this document (the read-back of a
 * typing action, sent with its keys rather than after them), or once `releaseKeys` says the keys were all sent
 * (some went to another document). Resolves at once for an unknown token. True when all `count` were seen.
 */
export function keysUp(token: string, count: number): Promise<boolean> {
  const pin = watches.get(token)?.pin;
  if (pin) pin.expectedUps = count;
  if (!pin) return Promise.resolve(false);
  if (pin.ups >= count) return Promise.resolve(true);
  return new Promise((resolve) => {
    const earlier = pin.upWaiter;
    pin.upWaiter = {
      count,
      resolve: () => {
        pin.upWaiter = undefined;
        earlier?.resolve();
        resolve(pin.ups >= count);
      },
    };
  });
}

/** Ends a `keysUp` wait: every key went out, and those this document did not see are not coming. */
export function releaseKeys(args: { token: string }): { released: boolean } {
  // Keys stopped at the gate that never came (they went to another document) do not keep it closed.
  if (gatedFor(args.token.replace(/:focus$/, ''))) openGate();
  const pin = watches.get(args.token)?.pin;
  const waiting = pin?.upWaiter;
  waiting?.resolve();
  return { released: Boolean(waiting) };
}

/** Whether every one of `need` has reached the target so far (true when the token is unknown: nothing to wait for). */
export function deliveredSoFar(token: string, need: string[]): boolean {
  const watch = watches.get(token);
  return !watch || need.every((type) => watch.seen.has(type));
}

/** What reached the target since `armDelivery`; `found: false` when this document never armed the token. */
export function readDelivery(args: { token: string; need: string[] }): DeliveryReport {
  const watch = watches.disarm(args.token);
  const base = { ...pageIdentity(), docId: documentId };
  if (!watch) return { ...base, found: false, delivered: false, seen: [] };
  const seen = [...watch.seen];
  const target = watch.pin?.target ?? (watch.followFocus ? (watch.keyedAt ?? deepActiveElement()) : watch.target);
  const missing = args.need.filter((type) => !watch.seen.has(type));
  const report: DeliveryReport = {
    ...base,
    found: true,
    delivered: missing.length === 0,
    seen,
    stray: [...watch.stray],
    // A ref's field is the server's to name (its aim said what it is): described only where focus decided it.
    focus: watch.followFocus && target && !watch.pin?.byRef ? summarize(target) : undefined,
  };
  const scrolled = scrolledSince(watch.scrollAt);
  if (scrolled) report.scrolled = scrolled;
  const pin = watch.pin;
  if (pin?.firstAway) {
    // Some keys did not reach the element typed into: the page moved focus before or in the middle of the text.
    report.delivered = false;
    const { index, where: to } = pin.firstAway;
    const total = Math.max(pin.keys, pin.expectedUps ?? 0);
    const into = pin.frameTaken ? `into ${pin.frameTaken} (firefox-use took focus back from it)` : `to ${to}`;
    const fate =
      pin.stopped === pin.away
        ? `${index === 1 ? 'all' : 'the other'} ${pin.away} were stopped before the page saw them`
        : `${pin.away} went elsewhere (${pin.stopped} of them stopped before the page saw them)`;
    const leaked = pin.expectedUps !== undefined && pin.keys < pin.expectedUps ? `; ${pin.expectedUps - pin.keys} reached another document first` : '';
    report.landed =
      index === 1 ? `focus was not on it when the keys came (it was ${into.replace(/^to /, 'on ')}): ${fate}${leaked}` : `after key ${index - 1} of ${total} the page moved focus ${into}; ${fate}${leaked}`;
  } else if (pin?.expectedUps !== undefined && pin.keys < pin.expectedUps) {
    // Focus moved to another document (a frame) while the keys went out: this one never saw the rest.
    report.delivered = false;
    const active = deepActiveElement();
    const into = isFrame(active) ? `into ${describe(active)}` : 'to another document';
    report.landed = `after key ${pin.keys} of ${pin.expectedUps} the page moved focus ${into}; ${pin.expectedUps - pin.keys} of the keys went there`;
  } else if (missing.length && missing.length < args.need.length && watch.seen.has(args.need[0]!)) {
    // The press reached the target and the page answered it before the rest arrived: it removed the target, drew
    // a menu or popup under the pointer, or captured the pointer. The input was delivered; say where the rest went.
    report.delivered = true;
    const gone = target && !target.isConnected;
    report.after = gone
      ? `the page removed the target after ${args.need[0]}; ${missing.join(', ')} went elsewhere`
      : `${missing.join(', ')} then went to ${where(watch, missing[0]!)}, as the page changed under the pointer after ${args.need[0]}`;
  } else if (missing.length) {
    const at = missing.map((type) => (watch.strayAt.has(type) ? `${type} went to ${where(watch, type)}` : '')).filter(Boolean);
    if (at.length) report.landed = at.join('; ');
  }
  return report;
}

/** How far the document scrolled since `at`, and what the new fragment points at (its section's heading). */
function scrolledSince(at: Watch['scrollAt']): DeliveryReport['scrolled'] {
  const dx = Math.round(window.scrollX - at.x);
  const dy = Math.round(window.scrollY - at.y);
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return undefined;
  if (location.hash === at.hash || !location.hash) return { dx, dy };
  let target: Element | null = null;
  try {
    target = document.querySelector(':target');
  } catch {
    // No :target support: the scroll is reported without it.
  }
  if (!target) return { dx, dy };
  return { dx, dy, to: describe(headingOf(target) ?? target) };
}

const HEADING = 'h1, h2, h3, h4, h5, h6, [role=heading]';

/**
 * The heading that says where a fragment jump went: the target itself, its own heading (an id on a <section>), or
 * for an empty anchor (Sphinx's `<span id>` before a heading) the heading right after it or its section's.
 */
function headingOf(target: Element): Element | null {
  if (target.matches(HEADING)) return target;
  const own = target.querySelector(`:scope > :is(${HEADING})`);
  if (own) return own;
  if ((target.textContent ?? '').trim()) return null;
  const next = target.nextElementSibling;
  if (next?.matches(HEADING)) return next;
  return target.parentElement?.querySelector(`:scope > :is(${HEADING})`) ?? null;
}

function where(watch: Watch, type: string): string {
  return watch.strayAt.get(type) ?? 'another document';
}
