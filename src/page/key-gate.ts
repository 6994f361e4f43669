// The key gate: trusted key events stopped before any script of the page sees them, while it is closed. Installed
// when the page scripts load; only the preload loads them before the page's own scripts, so only then is its
// window listener the first of all (capture, registration order) and the gate worth anything.
//
// A type into the field that held focus at the end of the last action sends its keys together with the page call
// that checks focus (src/browser/engine/typing.ts), one round trip less. Firefox runs that call in the page before the
// first key arrives; when the check fails (focus moved, the ref is gone or hidden), it closes the gate for exactly
// those keys: keydown is stopped and cancelled (no keypress, no input, no text) and so is keyup.

interface Closed {
  token: string;
  /** Keyups the gated keys bring; the gate opens once it has stopped them all. */
  expected: number;
  ups: number;
  timer: number;
  waiters: Array<() => void>;
}

/** A gate that was never reopened (keys lost to another document) opens on its own after this long, ms. */
const GATE_MAX_MS = 3_000;

const scope = globalThis as unknown as { __firefoxUsePreloaded?: boolean };
/** Whether the gate listens first in this document (see above). */
export const gateFirst = scope.__firefoxUsePreloaded === true;

let closed: Closed | null = null;
/** The last action whose keys the gate was closed for (it stays known once the gate opened again). */
let gatedToken: string | null = null;

/**
 * While text is typed pinned to one field (delivery.ts): judges each trusted key event, and the gate stops those it
 * refuses (the page moved focus elsewhere between the focus check and the keys, or in the middle of the text).
 */
let filter: ((event: Event) => boolean) | null = null;

function stop(event: Event): void {
  if (!event.isTrusted) return;
  if (!closed) {
    if (filter && !filter(event)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
    return;
  }
  event.preventDefault();
  event.stopImmediatePropagation();
  if (event.type === 'keyup' && ++closed.ups >= closed.expected) openGate();
}

// Cancelling keydown cancels the keypress, beforeinput and input it would bring; keyup has to be stopped itself.
// In a document that predates the preload the listener comes after the page's own window listeners, but still
// before every other (the key filter's use there); closeGate works only where it is first.
window.addEventListener('keydown', stop, { capture: true });
window.addEventListener('keyup', stop, { capture: true });

/** Removes the key filter a typing watch left (its read-back never came): the next action's keys are its own. */
export function clearKeyFilter(): void {
  filter = null;
}

/** Sets the key filter; returns a function that removes it if it is still the one set. */
export function filterKeys(judge: (event: Event) => boolean): () => void {
  filter = judge;
  return () => {
    if (filter === judge) filter = null;
  };
}

/** Stops the next `expected` keys' events (counted by their keyups). */
export function closeGate(token: string, expected: number): void {
  openGate();
  if (!gateFirst) return;
  gatedToken = token;
  closed = { token, expected, ups: 0, timer: window.setTimeout(openGate, GATE_MAX_MS), waiters: [] };
}

/** Opens the gate (also a stale one a lost key left closed); whoever waits on it goes on. */
export function openGate(): void {
  const was = closed;
  if (!was) return;
  closed = null;
  window.clearTimeout(was.timer);
  for (const waiter of was.waiters) waiter();
}

/** Whether the keys of action `token` met the closed gate. */
export function gatedFor(token: string): boolean {
  return gatedToken === token;
}

/** Resolves once the gate closed for `token` has stopped its keys (or was opened): the keys are done with. */
export function gateDrained(token: string): Promise<void> {
  if (!closed || closed.token !== token) return Promise.resolve();
  const waiting = closed;
  return new Promise((resolve) => waiting.waiters.push(resolve));
}
