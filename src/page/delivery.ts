// Delivery checks: capture-phase listeners on the window, installed from the sandbox (the page cannot see or
// remove them), record which trusted events reached the target of an action.
import type { DeliveryArgs, DeliveryReport } from '../browser/page-types.js';
import { summarize } from './describe.js';
import { documentId } from './registry.js';
import { targetOf } from './guard.js';

interface Watch {
  target: Element | null;
  /** Key actions follow focus: the focused element when the events arrive is the target. */
  followFocus: boolean;
  seen: Set<string>;
  stray: Set<string>;
  remove: () => void;
  timer: number;
}

const watches = new Map<string, Watch>();

function reached(event: Event, target: Element): boolean {
  const path = event.composedPath();
  if (path.includes(target)) return true;
  const origin = event.target;
  return origin instanceof Node && target.contains(origin);
}

/** Starts recording the trusted `types` events that reach the target (an element ref, a point, or the focus). */
export function armDelivery(args: DeliveryArgs): { armed: true; docId: string } {
  disarm(args.token);
  const watch: Watch = {
    target: targetOf({ ref: args.ref, point: args.point }),
    followFocus: !args.ref && !args.point,
    seen: new Set(),
    stray: new Set(),
    remove: () => undefined,
    timer: 0,
  };
  const listener = (event: Event) => {
    if (!event.isTrusted) return;
    const target = watch.followFocus ? deepActiveElement() : watch.target;
    if (target && reached(event, target)) watch.seen.add(event.type);
    else watch.stray.add(event.type);
  };
  for (const type of args.types) window.addEventListener(type, listener, { capture: true });
  watch.remove = () => {
    for (const type of args.types) window.removeEventListener(type, listener, { capture: true });
  };
  // A call that never reads its report (the server died, the page navigated) must not leak listeners.
  watch.timer = window.setTimeout(() => disarm(args.token), 60_000);
  watches.set(args.token, watch);
  return { armed: true, docId: documentId };
}

function disarm(token: string): Watch | undefined {
  const watch = watches.get(token);
  if (!watch) return undefined;
  watch.remove();
  window.clearTimeout(watch.timer);
  watches.delete(token);
  return watch;
}

export function deepActiveElement(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/** Whether every one of `need` has reached the target so far (true when the token is unknown: nothing to wait for). */
export function deliveredSoFar(token: string, need: string[]): boolean {
  const watch = watches.get(token);
  return !watch || need.every((type) => watch.seen.has(type));
}

/** What reached the target since `armDelivery`; `found: false` when this document never armed the token. */
export function readDelivery(args: { token: string; need: string[] }): DeliveryReport {
  const watch = disarm(args.token);
  const base = { url: location.href, title: document.title, docId: documentId };
  if (!watch) return { ...base, found: false, delivered: false, seen: [] };
  const seen = [...watch.seen];
  const target = watch.followFocus ? deepActiveElement() : watch.target;
  return {
    ...base,
    found: true,
    delivered: args.need.every((type) => watch.seen.has(type)),
    seen,
    stray: [...watch.stray],
    focus: watch.followFocus && target ? summarize(target) : undefined,
  };
}
